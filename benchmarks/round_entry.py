"""Round entry at the table, measured in Chromium as a phone (390×844, touch).

- **Taps and keystrokes** of a typical round: four players, Ann calls Dutch with 12 and
  is beaten (Ben 4, Cleo 12 tied, Dan 30), so she draws three penalty cards (Q 3 and a
  black King). Entered once on the card pad and once typed, counting every touch and key
  press the page receives. The browser test ``tests/e2e/test_round_entry.py`` asserts the
  same counts, and docs/guide.md states them.
- **Save to the next round's form**: the time from tapping Save until the next round's
  heading is shown with an empty first field (checked in the page on every animation
  frame, so the wait adds no polling interval), median of ``rounds`` rounds, side by side
  (taking turns) with a bare Streamlit page showing a four-field form and the next
  round's heading (``benchmarks/bare_round.py``). Goal ≤ 1.3×. A third page takes its
  turn too: the entry as Streamlit's widgets and nothing else (``benchmarks/bare_entry.py``,
  how the Play page's entry was built before), and a fourth, the same inputs drawn in the
  browser by one components-v2 element that saves through a run of its page
  (``benchmarks/bare_component_entry.py``); the Play page's element saves through the
  app's round route instead. Both are reported beside the goal.

    python -m benchmarks --round-entry only [--entry-rounds 10]
"""

from __future__ import annotations

import functools
import statistics
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

from playwright.sync_api import Browser, Page, expect, sync_playwright

from benchmarks.live import _table
from benchmarks.memory import (
    CHROMIUM,
    CHROMIUM_ARGS,
    app_server,
    member_tokens,
    streamlit_run,
)
from dutch_app.ui.context import SESSION_COOKIE

GOAL = 1.3
HANDS = ("Q", "4", "5 7", "KS 8 9")
PENALTY = "Q 3 KC"
PLAYERS = ("Ann", "Ben", "Cleo", "Dan")
"""The players of the benchmark's pages of the entry's inputs."""
PAD_HANDS = (("Q",), ("4",), ("5", "7"), ("Black K", "8", "9"))
PAD_PENALTY = ("Q", "3", "Black K")
COUNTER = """
window.dutchInput = { taps: 0, keys: 0 };
document.addEventListener("touchstart", () => window.dutchInput.taps++, true);
document.addEventListener("keydown", () => window.dutchInput.keys++, true);
"""
IDLE = (
    "[data-testid='stApp'][data-test-connection-state='CONNECTED']"
    "[data-test-script-state='notRunning']"
)


def _idle(page: Page) -> None:
    page.wait_for_selector(IDLE)


def _key(page: Page, key: str):
    return page.locator(f".st-key-{key}")


def _field(page: Page, key: str):
    """The text field on show in the widget with this key (the previous entry's field can
    stay on the page, hidden, for a while after the next entry's took its place)."""
    return _key(page, key).locator("input:visible")


def _one_field(page: Page, key: str):
    """The text field of the widget with this key, once it alone is on show: on a busy
    machine the stored entry's field can stand beside the new one for a moment after the
    run, and a person types into the one they see."""
    field = _field(page, key)
    expect(field).to_have_count(1)
    return field


def _tap(page: Page, locator) -> None:
    _idle(page)
    locator.tap()


def _counts(page: Page) -> tuple[int, int]:
    found = page.evaluate("window.dutchInput")
    return found["taps"], found["keys"]


def _choose_call(page: Page, form: str = "play_round") -> None:
    _tap(page, _key(page, f"{form}_caller").get_by_role("radio", name="Ann", exact=True))
    _tap(page, _key(page, f"{form}_call_type").get_by_role("radio", name="Dutch", exact=True))


def pad_round(page: Page) -> tuple[int, int]:
    """Enter and save the typical round on the card pad (switched on already): the taps
    and keystrokes it took."""
    before = _counts(page)
    pad = _key(page, "play_round_pad")
    _choose_call(page)
    for hand in PAD_HANDS:
        for card in hand:
            _tap(page, pad.get_by_role("button", name=card, exact=True))
        _tap(page, pad.get_by_role("button", name="Next"))
    for card in PAD_PENALTY:
        _tap(page, pad.get_by_role("button", name=card, exact=True))
    _tap(page, _key(page, "play_round_save").get_by_role("button"))
    return tuple(a - b for a, b in zip(_counts(page), before, strict=True))


def typed_round(page: Page) -> tuple[int, int]:
    """Enter and save the typical round on the phone's keyboard: the taps and keystrokes."""
    before = _counts(page)
    _choose_call(page)
    for seat, hand in enumerate(HANDS):
        _idle(page)
        _tap(page, _one_field(page, f"play_round_hand_{seat}"))
        page.keyboard.type(hand)
    penalty = _one_field(page, "play_round_penalty")
    expect(penalty).to_be_visible()  # once Dan's hand made the three cards due
    _tap(page, penalty)
    page.keyboard.type(PENALTY)
    _tap(page, _key(page, "play_round_save").get_by_role("button"))
    return tuple(a - b for a, b in zip(_counts(page), before, strict=True))


def _phone(browser: Browser, url: str, cookie: str | None = None) -> Page:
    context = browser.new_context(
        viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True
    )
    context.add_init_script(COUNTER)
    if cookie is not None:
        context.add_cookies([{"name": SESSION_COOKIE, "value": cookie, "url": url}])
    page = context.new_page()
    page.set_default_timeout(60_000)
    page.goto(url)
    return page


@contextmanager
def _bare_server(script: str = "benchmarks/bare_round.py") -> Iterator[str]:
    with streamlit_run(script) as (url, _pid):
        yield url


def _hands(number: int) -> tuple[str, ...]:
    """Round ``number``'s hands: Ann lowest, the others different every round."""
    return ("1", str(2 + number % 20), str(3 + number % 17), str(4 + number % 13))


ARM = """() => {
  window.dutchTapped = null;
  document.addEventListener("touchstart", () => { window.dutchTapped = performance.now(); },
                            { capture: true, once: true });
}"""
READY = """([heading, field]) => {
  const shown = [...document.querySelectorAll("h1, h2, h3")]
    .some((element) => element.textContent.trim() === heading);
  const fields = [...document.querySelectorAll(field)].filter((f) => f.offsetParent !== null);
  if (!shown || fields.length !== 1 || fields[0].value !== "") return false;
  return performance.now() - window.dutchTapped;
}"""
"""The next round's form is there: its heading, and its one visible first field empty.
Checked in the page on every animation frame; the answer is the time since the tap."""


STILL = "() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)))"
"""Two animation frames: a page scrolled a moment ago has come to rest."""


def _time_save(page: Page, save, heading: str, field: str) -> tuple[float, float]:
    """Tap ``save``: seconds until the page shows ``heading`` with ``field`` empty, as
    this script sees it and as the page itself timed it from the touch. Save is brought
    into view and the page left to come to rest first, as a thumb finds the button before
    it taps: the clock starts at the tap, on every page alike (a longer page needed a
    scroll the four-field page did not, which this script used to count as the save's)."""
    save.scroll_into_view_if_needed()
    page.evaluate(STILL)
    page.evaluate(ARM)
    began = time.perf_counter()
    save.tap()
    in_page = page.wait_for_function(READY, arg=[heading, field], polling="raf").json_value()
    return time.perf_counter() - began, in_page / 1000


def _time_entry_save(page: Page, number: int, form: str = "play_round") -> tuple[float, float]:
    """Fill round ``number`` (a lowest call) in the entry whose keys start with ``form``
    (the Play page's, or ``widgets`` on the page of the entry's widgets alone), tap
    Save: seconds until round number + 1's heading shows with an empty first field."""
    for seat, hand in enumerate(_hands(number)):
        _idle(page)
        _one_field(page, f"{form}_hand_{seat}").fill(hand)
    _choose_call(page, form)
    _idle(page)
    save = _key(page, f"{form}_save").get_by_role("button")
    return _time_save(page, save, f"Round {number + 1}", f".st-key-{form}_hand_0 input")


def _time_bare_save(page: Page, number: int) -> tuple[float, float]:
    for seat, hand in enumerate(_hands(number)):
        _idle(page)
        page.get_by_label(f"Player {seat + 1}").fill(hand)
    _idle(page)
    save = page.get_by_role("button", name="Save the round")
    return _time_save(page, save, f"Round {number + 1}", "input[aria-label='Player 1']")


def _time_component_save(page: Page, number: int) -> tuple[float, float]:
    """The same on the page whose entry is one components-v2 element."""
    entry = page.locator(".bench-entry")
    for seat, hand in enumerate(_hands(number)):
        _idle(page)
        entry.get_by_label(PLAYERS[seat], exact=True).fill(hand)
    entry.locator("[data-group=caller]").get_by_role("radio", name="Ann", exact=True).tap()
    entry.locator("[data-group=call]").get_by_role("radio", name="Dutch", exact=True).tap()
    _idle(page)
    field = ".bench-entry input[aria-label='Ann']"
    return _time_save(page, entry.locator(".bench-save"), f"Round {number + 1}", field)


ROUND_OFFSET = {"app": 3, "bare": 1, "widgets": 1, "component": 1}
"""The round each page's first timed save saves (the app's first two rounds count taps)."""


def _saves(pages: dict[str, tuple[Page, Callable]], rounds: int) -> dict[str, list]:
    """Save ``rounds`` rounds on each page, taking turns in an order that moves on by one
    every turn (A B C, B C A, …) after a warm-up: each page's saves as (seconds seen by
    this script, seconds timed in the page). ``pages``: name -> (page, timer)."""
    times: dict[str, list] = {name: [] for name in pages}
    names = list(pages)
    for turn in range(rounds + 1):  # the first turn warms every page up
        shift = turn % len(names)
        seen = {}
        for name in names[shift:] + names[:shift]:
            page, timer = pages[name]
            seen[name] = timer(page, ROUND_OFFSET[name] + turn)
        print(
            f"  save {turn}: "
            + ", ".join(f"{name} {s:.3f} s ({p:.3f} in the page)" for name, (s, p) in seen.items()),
            file=sys.stderr,
        )
        if turn:
            for name, timed in seen.items():
                times[name].append(timed)
    return times


def _medians(timed: list) -> tuple[float, float]:
    return (
        statistics.median(seen for seen, _in_page in timed),
        statistics.median(in_page for _seen, in_page in timed),
    )


def _measure(browser: Browser, urls: dict[str, str], token: str, rounds: int) -> dict:
    app = _phone(browser, urls["app"], token)
    app.get_by_role("heading", name="Round 1").wait_for()
    _tap(app, _key(app, "play_round_pad_on").get_by_text("Card pad"))
    _key(app, "play_round_pad").wait_for()
    pad = pad_round(app)
    app.get_by_role("heading", name="Round 2").wait_for()
    # The stored entry's widgets stay until the new entry's replace them: one switch.
    expect(_key(app, "play_round_pad_on")).to_have_count(1)
    _tap(app, _key(app, "play_round_pad_on").get_by_text("Card pad"))
    typed = typed_round(app)
    app.get_by_role("heading", name="Round 3").wait_for()
    bare = _phone(browser, urls["bare"])
    widgets = _phone(browser, urls["widgets"])
    component = _phone(browser, urls["component"])
    for page in (bare, widgets, component):
        page.get_by_role("heading", name="Round 1").wait_for()
    times = _saves(
        {
            "app": (app, _time_entry_save),
            "bare": (bare, _time_bare_save),
            "widgets": (widgets, functools.partial(_time_entry_save, form="widgets")),
            "component": (component, _time_component_save),
        },
        rounds,
    )
    app_median, app_in_page = _medians(times["app"])
    bare_median, bare_in_page = _medians(times["bare"])
    widgets_median, widgets_in_page = _medians(times["widgets"])
    component_median, component_in_page = _medians(times["component"])
    ratio = app_median / bare_median
    return {
        "pad_taps": pad[0],
        "pad_keystrokes": pad[1],
        "typed_taps": typed[0],
        "typed_keystrokes": typed[1],
        "rounds": rounds,
        "save_to_next_form_median_s": round(app_median, 3),
        "bare_page_median_s": round(bare_median, 3),
        "in_page_median_s": round(app_in_page, 3),
        "bare_in_page_median_s": round(bare_in_page, 3),
        "in_page_ratio": round(app_in_page / bare_in_page, 2),
        "widgets_page_median_s": round(widgets_median, 3),
        "widgets_in_page_median_s": round(widgets_in_page, 3),
        "widgets_ratio": round(widgets_median / bare_median, 2),
        "app_to_widgets_ratio": round(app_median / widgets_median, 2),
        "component_page_median_s": round(component_median, 3),
        "component_in_page_median_s": round(component_in_page, 3),
        "component_ratio": round(component_median / bare_median, 2),
        "ratio": round(ratio, 2),
        "goal": GOAL,
        "ok": ratio <= GOAL,
    }


def round_entry(rounds: int = 10) -> dict:
    """Both measurements on a fresh SQLite database and a fresh server of each kind."""
    with tempfile.TemporaryDirectory(prefix="dutch-entry-") as folder:
        database, _game_id, _ids = _table(f"sqlite:///{Path(folder) / 'entry.db'}")
        (token,) = member_tokens(database, 1)
        with (
            app_server(database) as (url, _pid),
            _bare_server() as bare_url,
            _bare_server("benchmarks/bare_entry.py") as widgets_url,
            _bare_server("benchmarks/bare_component_entry.py") as component_url,
            sync_playwright() as playwright,
        ):
            browser = playwright.chromium.launch(
                executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS
            )
            try:
                urls = {
                    "app": url,
                    "bare": bare_url,
                    "widgets": widgets_url,
                    "component": component_url,
                }
                return _measure(browser, urls, token, rounds)
            finally:
                browser.close()


def text_report(result: dict) -> str:
    """The numbers as a few lines for the terminal."""
    mark = "ok" if result["ok"] else "MISS"
    return "\n".join(
        [
            f"Typical round (4 players, beaten call, 3 penalty cards): card pad "
            f"{result['pad_taps']} taps and {result['pad_keystrokes']} keystrokes; typed "
            f"{result['typed_taps']} taps and {result['typed_keystrokes']} keystrokes",
            f"Save to the next round's form, median of {result['rounds']}: "
            f"{result['save_to_next_form_median_s'] * 1000:.0f} ms against "
            f"{result['bare_page_median_s'] * 1000:.0f} ms for a bare four-field form: "
            f"{result['ratio']:.2f}× (goal ≤ {result['goal']}: {mark})",
            f"  timed by the page itself from the touch: "
            f"{result['in_page_median_s'] * 1000:.0f} ms against "
            f"{result['bare_in_page_median_s'] * 1000:.0f} ms: {result['in_page_ratio']:.2f}×",
            f"  the entry's widgets alone (benchmarks/bare_entry.py): "
            f"{result['widgets_page_median_s'] * 1000:.0f} ms, "
            f"{result['widgets_ratio']:.2f}× the four-field form "
            f"({result['widgets_in_page_median_s'] * 1000:.0f} ms in the page); "
            f"the Play page {result['app_to_widgets_ratio']:.2f}× it",
            f"  the same inputs as one components-v2 element "
            f"(benchmarks/bare_component_entry.py): "
            f"{result['component_page_median_s'] * 1000:.0f} ms, "
            f"{result['component_ratio']:.2f}× the four-field form "
            f"({result['component_in_page_median_s'] * 1000:.0f} ms in the page)",
        ]
    )
