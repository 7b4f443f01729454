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
const AGAIN_MS = 4000; // a rerun that did not arrive is asked for again after this

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

async function follow(state, setTriggerValue) {
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
      setTriggerValue("changed", { version, asked });
      await sleep(AGAIN_MS, signal); // the rerun redraws this component with a new since
      continue;
    }
    const status = answer === null ? 0 : answer.status;
    failures += 1;
    if (status === 401 || status === 403 || status === 404 || status === 400) {
      failures = FAILURES_BEFORE_OFFLINE;
    }
    if (failures >= FAILURES_BEFORE_OFFLINE) {
      setTriggerValue("offline", status);
      return;
    }
    await sleep(RETRY_MS * failures, signal);
  }
}

export default function ({ data, parentElement, setTriggerValue }) {
  const previous = parentElement.dutchLive;
  if (previous && previous.url === data.url && previous.since === data.since && !previous.done) {
    return () => previous.controller.abort();
  }
  if (previous) previous.controller.abort();
  const state = {
    url: data.url,
    since: data.since,
    controller: new AbortController(),
    done: false,
  };
  parentElement.dutchLive = state;
  follow(state, setTriggerValue).finally(() => {
    state.done = true;
  });
  return () => state.controller.abort();
}
