// Runs the live component (dutch_app/ui/live_push.js) the way Streamlit's browser code
// calls it, against a fetch the check answers by hand, and reports what it did.
//
//   node tests/unit/live_push_check.mjs <case>
//
// Prints one JSON object: the requests it made ({since, aborted}) and the triggers it
// fired ({name, value, by}) and what it measured; exits 1 with a message when the component threw.
import { readFile } from "node:fs/promises";

const source = await readFile(new URL("../../dutch_app/ui/live_push.js", import.meta.url), "utf8");
const render = (await import(`data:text/javascript,${encodeURIComponent(source)}`)).default;

const requests = [];
const triggers = [];
const measured = {};

globalThis.document = {
  visibilityState: "visible",
  addEventListener() {},
  removeEventListener() {},
};

// A long poll that waits until the check answers it (or the component gives up on it).
globalThis.fetch = (url, { signal }) =>
  new Promise((resolve, reject) => {
    const since = Number(new URL(url, "http://table.test").searchParams.get("since"));
    const request = { since, aborted: false, answered: false };
    request.answer = (version, status = 200) => {
      request.answered = true;
      resolve({ ok: status === 200, status, json: async () => ({ version }) });
    };
    requests.push(request);
    signal.addEventListener("abort", () => {
      if (request.answered) return;
      request.aborted = true;
      reject(new DOMException("aborted", "AbortError"));
    });
  });

const wait = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const URL_ = "/_dutch/live?game=1&tab=t";

/** One redraw of the element, as Streamlit does it: the render function called with the
 * element's data; ``by`` names the redraw in the triggers it fires. */
function draw(element, since, by) {
  return render({
    data: { url: URL_, since },
    parentElement: element,
    setTriggerValue: (name, value) => triggers.push({ name, value, by }),
  });
}

const cases = {
  // Streamlit began a redraw with the same data, then a newer one overtook it while the
  // element stayed on the page, and called the overtaken redraw's cleanup at once.
  async overtaken_redraw() {
    const element = { isConnected: true };
    draw(element, 5, "first");
    await wait(10);
    const overtaken = draw(element, 5, "overtaken");
    draw(element, 5, "latest");
    overtaken();
    await wait(50);
    requests.at(-1).answer(6);
    await wait(50);
  },
  // The element left the page: its cleanup ends the wait and nothing more is asked.
  async removed() {
    const element = { isConnected: true };
    const cleanup = draw(element, 5, "only");
    await wait(10);
    element.isConnected = false;
    cleanup();
    await wait(1500);
  },
  // The game moved on, the trigger was fired, and the rerun it asks for never came.
  async lost_rerun() {
    const element = { isConnected: true };
    draw(element, 5, "only");
    await wait(10);
    requests.at(-1).answer(6);
    const fired = Date.now();
    while (requests.length < 2 && Date.now() - fired < 5000) await wait(20);
    if (requests.length >= 2) requests.at(-1).answer(6);
    measured.askedAgainMs = requests.length >= 2 ? Date.now() - fired : null;
    await wait(20);
  },
  // The rerun came: the element is drawn at the new version and waits from there.
  async redrawn_at_new_version() {
    const element = { isConnected: true };
    draw(element, 5, "old");
    await wait(10);
    requests.at(-1).answer(6);
    await wait(10);
    draw(element, 6, "new");
    await wait(1500);
  },
  // The route refused (no such game for this person): the page is told once, and stops.
  async refused() {
    const element = { isConnected: true };
    draw(element, 5, "only");
    await wait(10);
    requests.at(-1).answer(null, 404);
    await wait(1500);
  },
  // No session cookie yet (the page drawn just after signing in): asked again, and once
  // the cookie has come the page follows the game.
  async signed_in_late() {
    const element = { isConnected: true };
    draw(element, 5, "only");
    await wait(10);
    requests.at(-1).answer(null, 401);
    await wait(1100);
    requests.at(-1).answer(6);
    await wait(100);
  },
  // Still no session after three tries (a browser that keeps no cookie): told once.
  async never_signed_in() {
    const element = { isConnected: true };
    draw(element, 5, "only");
    for (const pause of [10, 1100, 2100]) {
      await wait(pause);
      requests.at(-1).answer(null, 401);
    }
    await wait(100);
  },
};

const name = process.argv[2];
if (!(name in cases)) {
  console.error(`no such case: ${name}`);
  process.exit(2);
}
try {
  await cases[name]();
} catch (error) {
  console.error(error);
  process.exit(1);
}
const report = {
  requests: requests.map(({ since, aborted }) => ({ since, aborted })),
  triggers,
  measured,
};
console.log(JSON.stringify(report));
process.exit(0);
