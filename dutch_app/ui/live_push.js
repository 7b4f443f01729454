// The live component of an open page (see dutch_app/ui/live.py): waits on the app's
// live route for the version of its game to move on, then reruns the page's live
// fragment. Draws nothing.
//
// data: {url, since}. url is the route with the game (or group) in its query, since the
// version the page was drawn at. Triggers "changed" (the new version) when the version
// moved, or "offline" when the route cannot be reached or refuses, so that the page
// falls back to asking by itself.
const FAILURES_BEFORE_OFFLINE = 3;
const RETRY_MS = 1000;
// A rerun asked for that did not arrive (lost on the way, or folded into another run) is
// asked for again after this: soon enough that the change still shows within the 3 s
// promise. A rerun that did arrive redraws this element at the new version, which ends
// this wait, so the page is not run twice for one change.
const AGAIN_MS = 1200;

function sleep(ms, signal) {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener("abort", () => {
      clearTimeout(timer);
      resolve();
    });
  });
}

function visible() {
  return new Promise((resolve) => {
    if (document.visibilityState !== "hidden") return resolve();
    const shown = () => {
      if (document.visibilityState === "hidden") return;
      document.removeEventListener("visibilitychange", shown);
      resolve();
    };
    document.addEventListener("visibilitychange", shown);
  });
}

async function follow(state) {
  const { signal } = state.controller;
  let failures = 0;
  let asked = 0;
  while (!signal.aborted) {
    await visible(); // a hidden tab holds no request open; it asks again once shown
    if (signal.aborted) return;
    let answer;
    try {
      answer = await fetch(`${state.url}&since=${state.since}`, {
        credentials: "same-origin",
        cache: "no-store",
        signal,
      });
    } catch (error) {
      if (signal.aborted) return;
      answer = null;
    }
    if (answer !== null && answer.ok) {
      failures = 0;
      const { version } = await answer.json();
      if (version === state.since) continue; // waited in vain: ask again
      asked += 1;
      state.trigger("changed", { version, asked });
      await sleep(AGAIN_MS, signal); // the rerun redraws this component with a new since
      continue;
    }
    const status = answer === null ? 0 : answer.status;
    failures += 1;
    // 429: this person or network already holds as many waiting requests as a server
    // allows (more open tabs than a person needs); this tab asks by itself instead.
    // 401 is tried again like a lost request: right after signing in or joining as a
    // guest, the page is drawn a moment before the browser has stored its session cookie.
    if (status === 403 || status === 404 || status === 400 || status === 429) {
      failures = FAILURES_BEFORE_OFFLINE;
    }
    if (failures >= FAILURES_BEFORE_OFFLINE) {
      state.trigger("offline", status);
      return;
    }
    await sleep(RETRY_MS * failures, signal);
  }
}

// Streamlit calls this on every redraw of the element, and the cleanup it returns both when
// the element leaves the page and when a redraw it had begun is overtaken by a newer one
// (the element stays). So one wait lives on the element across redraws with the same data,
// always firing through the latest redraw's hooks, and only leaving the page ends it.
export default function ({ data, parentElement, setTriggerValue }) {
  let state = parentElement.dutchLive;
  const same =
    state &&
    state.url === data.url &&
    state.since === data.since &&
    !state.done &&
    !state.controller.signal.aborted;
  if (same) {
    state.trigger = setTriggerValue;
  } else {
    if (state) state.controller.abort();
    state = {
      url: data.url,
      since: data.since,
      controller: new AbortController(),
      trigger: setTriggerValue,
      done: false,
    };
    parentElement.dutchLive = state;
    const started = state;
    follow(started).finally(() => {
      started.done = true;
    });
  }
  const mine = state;
  return () => {
    // looked at once the browser has finished the change that called this
    setTimeout(() => {
      if (!parentElement.isConnected && parentElement.dutchLive === mine) {
        mine.controller.abort();
      }
    }, 0);
  };
}
