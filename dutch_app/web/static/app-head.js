// Dutch Scorer's additions to the page head, and the theme the person chose.
// Loaded from the app's own origin (the content policy allows no other script).
(function () {
  "use strict";
  var me = document.currentScript;
  if (!me) return;
  var base = me.getAttribute("data-base") || "";

  function ensure(tag, id, attributes) {
    var element = document.getElementById(id);
    if (!element) {
      element = document.createElement(tag);
      element.id = id;
      document.head.appendChild(element);
    }
    Object.keys(attributes).forEach(function (name) {
      element.setAttribute(name, attributes[name]);
    });
  }

  ensure("link", "dutch-manifest", { rel: "manifest", href: base + "/_dutch/manifest.webmanifest" });
  ensure("link", "dutch-touch-icon", { rel: "apple-touch-icon", href: base + "/_dutch/icon-192.png" });
  ensure("meta", "dutch-app-title", { name: "apple-mobile-web-app-title", content: "Dutch Scorer" });
  ensure("meta", "dutch-app-name", { name: "application-name", content: "Dutch Scorer" });
  ensure("meta", "dutch-web-app", { name: "mobile-web-app-capable", content: "yes" });

  // The colour of the browser's bar in each theme: the device's light or dark setting picks
  // one, unless the person chose a theme with their account.
  var wanted = me.getAttribute("data-theme");
  var light = me.getAttribute("data-light-colour");
  var dark = me.getAttribute("data-dark-colour");
  if (wanted === "Light") dark = light;
  if (wanted === "Dark") light = dark;
  if (light && dark) {
    ensure("meta", "dutch-bar-light", { name: "theme-color", media: "(prefers-color-scheme: light)", content: light });
    ensure("meta", "dutch-bar-dark", { name: "theme-color", media: "(prefers-color-scheme: dark)", content: dark });
  }

  // Streamlit keeps the theme picked in its menu under a key named after the address the
  // page was loaded from; the choice saved with the account is written there, and the page
  // reloads once to show it.
  if (!wanted) return;
  try {
    var value = JSON.stringify(wanted);
    var loaded = performance.getEntriesByType("navigation")[0];
    var paths = [window.location.pathname];
    if (loaded && loaded.name) paths.push(new URL(loaded.name).pathname);
    var loadKey = "stActiveTheme-" + paths[paths.length - 1] + "-v2";
    var shown = window.localStorage.getItem(loadKey) || JSON.stringify("System");
    paths.forEach(function (path) {
      window.localStorage.setItem("stActiveTheme-" + path + "-v2", value);
    });
    if (shown === value) return;
    // At most one reload for each choice and address in a row, so a page that cannot show
    // the choice never reloads in a loop.
    var attempt = value + " " + loadKey;
    if (window.sessionStorage.getItem("dutch-theme-reload") === attempt) return;
    window.sessionStorage.setItem("dutch-theme-reload", attempt);
    window.location.reload();
  } catch (error) {
    // Storage switched off: the page keeps following the device.
  }
})();
