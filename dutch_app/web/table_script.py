"""The app's one script of its own, run in the page: what Streamlit's widgets cannot ask of
the browser at the card table.

- Hand and penalty fields get ``autocapitalize``, ``autocorrect`` and ``spellcheck`` turned
  off (a phone would otherwise turn ``kh`` into ``Kh`` or "oh").
- After a refused save, the field named by the page is scrolled into view, so the problem
  is seen.
- While the Play page shows a game and its switch is on, the screen is kept awake with the
  Screen Wake Lock API; the lock is let go when the switch is turned off or the page left,
  and taken again when the tab comes back into view.

The page states what it wants in ``data-`` attributes of the element just before the
script (see :func:`dutch_app.ui.browser.table_helper`), so the script's text never changes
and the content policy allows it by its hash. What happened is written on the document
element (``data-dutch-wake-lock``: held, released, refused or unsupported;
``data-dutch-scrolled``: the field last brought into view), where the browser tests read it.
"""

TABLE_SCRIPT = """
(() => {
  const here = document.currentScript && document.currentScript.previousElementSibling;
  const table = (window.dutchTable = window.dutchTable || {});
  const root = document.documentElement;
  if (!table.started) {
    table.started = true;
    const quiet = () => {
      const fields = document.querySelectorAll(
        '[class*="_hand_"] input, [class*="_penalty"] input'
      );
      for (const input of fields) {
        if (input.getAttribute("autocapitalize") !== "off") {
          input.setAttribute("autocapitalize", "off");
          input.setAttribute("autocorrect", "off");
          input.setAttribute("spellcheck", "false");
        }
      }
    };
    new MutationObserver(quiet).observe(document.body, { childList: true, subtree: true });
    quiet();
    table.lock = null;
    table.busy = false;
    table.syncWake = async () => {
      if (table.busy) return;
      const marker = table.wakeMarker;
      const want = Boolean(marker && document.contains(marker) && table.wantWake) &&
        document.visibilityState === "visible";
      table.busy = true;
      try {
        if (want && !table.lock) {
          if (!("wakeLock" in navigator)) {
            root.dataset.dutchWakeLock = "unsupported";
            return;
          }
          const lock = await navigator.wakeLock.request("screen");
          table.lock = lock;
          root.dataset.dutchWakeLock = "held";
          lock.addEventListener("release", () => {
            if (table.lock === lock) table.lock = null;
            root.dataset.dutchWakeLock = "released";
          });
        } else if (!want && table.lock) {
          const lock = table.lock;
          table.lock = null;
          await lock.release();
          root.dataset.dutchWakeLock = "released";
        }
      } catch (error) {
        root.dataset.dutchWakeLock = "refused";
      } finally {
        table.busy = false;
      }
    };
    document.addEventListener("visibilitychange", () => table.syncWake());
    setInterval(() => table.syncWake(), 1000);
  }
  if (!here) return;
  const wanted = here.dataset;
  if (wanted.wake) {
    table.wakeMarker = here;
    table.wantWake = wanted.wake === "on";
    table.syncWake();
  }
  if (wanted.scroll) {
    let tries = 0;
    const find = () => {
      const box = document.querySelector(".st-key-" + CSS.escape(wanted.scroll));
      return box && box.isConnected ? box : null;
    };
    const bring = () => {
      const box = find();
      if (!box) {
        if (tries++ < 60) setTimeout(bring, 50);
        return;
      }
      box.scrollIntoView({ block: "center" });
      root.dataset.dutchScrolled = wanted.scroll + " " + wanted.nonce;
    };
    bring();
  }
})();
"""
