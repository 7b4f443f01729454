"""Reading and driving the dashboard in Chromium the way a person at the table would.

Streamlit renders over a websocket and reruns the script after each action, so every helper
here waits for what the person would wait for (a heading, a message, a table's new cells)
rather than for a fixed time. Widgets are found by their key: Streamlit puts
``st-key-<key>`` on each widget's container. The Play page's round entry is one element
drawn in the page (``dutch_app/ui/play_entry.js``) that puts the same class on each of its
parts (``st-key-play_round_hand_0``, ``…_caller``, ``…_save``), so the helpers below find
those as they find widgets.
"""

from __future__ import annotations

import io
import re
import time
from collections.abc import Sequence
from pathlib import Path

from PIL import Image
from playwright.sync_api import Locator, Page, WebSocketRoute, expect
from playwright.sync_api import TimeoutError as PlaywrightTimeout

SESSION_COOKIE = "dutch_session"
PASSWORD = "correct horse 42"  # of everyone the tests sign up
XSS_NAME = "<img src=x onerror=alert(1)>"
UNEXPECTED_ERROR = "Something went wrong on our side"


def widget(page: Page, key: str) -> Locator:
    """The container of the widget with this key."""
    return page.locator(f".st-key-{key}")


def field(page: Page, key: str) -> Locator:
    """The text field on show in the widget with this key. A correction form's field of
    the previous entry can stay on the page for a while, hidden, after the next entry's
    field took its place (each entry has widget keys of its own); the Play entry's penalty
    field is on the page all along, and on show only while penalty cards are due."""
    return widget(page, key).locator("input:visible")


def wait_until_idle(page: Page) -> None:
    """Wait until the app is connected and no script run is going on."""
    page.wait_for_selector(
        "[data-testid='stApp'][data-test-connection-state='CONNECTED']"
        "[data-test-script-state='notRunning']"
    )


def fill(page: Page, key: str, text: str) -> None:
    """Type ``text`` into the text input with this key, once the app is idle.

    Typing while a rerun is still drawing the page can lose the text to the redraw, and
    on a busy machine the previous entry's field can still stand beside the new one for a
    moment after the run: the text goes in once one field is on show, as a person sees it.
    """
    wait_until_idle(page)
    expect(field(page, key)).to_have_count(1)
    field(page, key).fill(text)


def press(button: Locator) -> None:
    """Click a button once the app is idle, so the click acts on the page as it is shown.

    A tap that asks for a run leaves the page reading as idle until the server starts
    that run: before the next tap, wait for something that run draws (or takes away).
    """
    wait_until_idle(button.page)
    button.click()


def download(page: Page, key: str, path: Path) -> Path:
    """Press the download button with this key and save what the browser gets at ``path``."""
    with page.expect_download() as started:
        press(widget(page, key).get_by_role("button"))
    started.value.save_as(path)
    return path


def expect_clean_page(page: Page) -> None:
    """The page finished its run without a traceback or an unexpected-error message."""
    wait_until_idle(page)
    expect(page.get_by_test_id("stException")).to_have_count(0)
    expect(page.get_by_text(UNEXPECTED_ERROR)).to_have_count(0)


def expect_title(page: Page, title: str) -> None:
    """The page with this title is on show, fully run and without errors."""
    expect(page.get_by_role("heading", name=title, level=1)).to_be_visible()
    expect_clean_page(page)


def open_page(page: Page, link: str, title: str | None = None) -> None:
    """Go to a page through its link in the sidebar; its title is the link's unless given."""
    page.get_by_test_id("stSidebarNav").get_by_role("link", name=link, exact=True).click()
    expect_title(page, title or link)


def open_tab(page: Page, name: str) -> None:
    """Open the tab ``name`` of tabs that draw only the open one (``on_change="rerun"``),
    and wait until the run it asks for has drawn it and ended.

    The browser shows the tab chosen at once, but the page reads as idle until the server
    starts that run, so a tap made in between can land on the page the run is about to
    redraw. The open tab's panel stays empty until the run draws into it: an element in it
    is the sign that the run is under way.
    """
    tab = page.get_by_role("tab", name=name, exact=True)
    press(tab)
    expect(tab).to_have_attribute("aria-selected", "true")
    panel = page.get_by_role("tabpanel").filter(visible=True)
    expect(panel.get_by_test_id("stElementContainer").first).to_be_visible()
    wait_until_idle(page)


def choose(page: Page, key: str, option: str) -> None:
    """Pick ``option`` in the select box with this key.

    The list of options closes when the page scrolls: when a click scrolls the option into
    view, and when the browser keeps the view in place as something above the box grows
    (a chart drawn a moment after the run). So the box is brought to the middle of the view
    before it is opened from the keyboard (its list then opens in view), and the list is
    opened again when it closed before the click: as a person would, a few times before
    giving up. A key press that lands while the page is still redrawing the box is lost
    in the same way.
    """
    wait_until_idle(page)
    box = widget(page, key).locator("input")
    choice = page.get_by_role("option", name=option, exact=True)
    for attempt in range(4):
        box.evaluate("box => box.scrollIntoView({block: 'center'})")
        box.focus()
        box.press("ArrowDown")
        try:
            expect(box).to_have_attribute("aria-expanded", "true", timeout=3_000)
            choice.click(timeout=5_000)
            break
        except (AssertionError, PlaywrightTimeout):
            if attempt == 3:
                raise
            box.press("Escape")
            wait_until_idle(page)
    expect(box).to_have_value(option)


def choice_button(page: Page, key: str, option: str) -> Locator:
    """The button of ``option`` in the pills or segmented control with this key."""
    return widget(page, key).get_by_role("radio", name=option, exact=True)


def is_chosen(choice: Locator) -> bool:
    """Whether a pills or segmented-control button is the chosen one."""
    return choice.get_attribute("aria-checked") == "true"


def tap_choice(page: Page, key: str, option: str) -> None:
    """Choose ``option`` of the pills or segmented control with this key, with one tap
    unless it is chosen already (a second tap would unchoose it)."""
    wait_until_idle(page)
    choice = choice_button(page, key, option)
    if not is_chosen(choice):
        choice.click()
        expect(choice).to_have_attribute("aria-checked", "true")


def fill_round(
    page: Page,
    form: str,
    hands: Sequence[str],
    caller: str,
    how: str = "Dutch",
    penalty: str = "",
) -> None:
    """Enter a round into the round entry with key prefix ``form`` (without saving it): the
    hands, the caller and the kind of call, then the penalty once its field has appeared."""
    for seat, hand in enumerate(hands):
        fill(page, f"{form}_hand_{seat}", hand)
    tap_choice(page, f"{form}_caller", caller)
    tap_choice(page, f"{form}_call_type", how)
    if penalty:
        expect(field(page, f"{form}_penalty")).to_be_visible()
        fill(page, f"{form}_penalty", penalty)


def entry_summary(page: Page) -> Locator:
    """The list of problems the Play page's round entry shows above Save after it refused
    a save."""
    return page.locator(".dutch-entry-summary")


def entry_error(page: Page, key: str) -> Locator:
    """The problem the Play page's round entry shows under its part with this key (a hand
    field, the penalty field)."""
    return widget(page, key).locator(".dutch-entry-error")


def save_button(page: Page, form: str = "play_round") -> Locator:
    """The Save button of the round entry with key prefix ``form``."""
    return widget(page, f"{form}_save").get_by_role("button")


def data_frame(page: Page, *columns: str) -> Locator:
    """The ``st.dataframe`` whose header row is exactly ``columns``."""
    frames = page.get_by_test_id("stDataFrame")
    for column in columns:
        pattern = re.compile(f"^{re.escape(column)}$")
        frames = frames.filter(has=page.locator("th", has_text=pattern))
    return frames.filter(has=page.locator(f"th[aria-colindex='{len(columns)}']")).filter(
        has_not=page.locator(f"th[aria-colindex='{len(columns) + 1}']")
    )


def expect_rows(frame: Locator, rows: Sequence[Sequence[object]]) -> None:
    """The data frame shows exactly these rows (cells compared as text, in order)."""
    cells = [str(cell) for row in rows for cell in row]
    expect(frame.locator("td[role='gridcell']")).to_have_text(cells)


def expect_standings(page: Page, rows: Sequence[tuple[int, str, int]]) -> None:
    """The standings table lists (rank, player, game total) rows in this order."""
    expect_rows(data_frame(page, "Rank", "Player", "Total"), rows)


def expect_literal_name(page: Page, name: str = XSS_NAME) -> None:
    """A name made of HTML shows as the text typed, and no element was built from it.

    Only text outside tables counts as shown: a data frame paints its cells on a canvas.
    """
    expect(page.get_by_text(name).filter(visible=True).first).to_be_visible()
    expect(page.locator("img[src='x']")).to_have_count(0)


def expect_name_in_table(page: Page, name: str = XSS_NAME) -> None:
    """A data frame has a cell holding exactly ``name``, and no element was built from it."""
    cell = page.get_by_test_id("stDataFrame").locator("td[role='gridcell']")
    expect(cell.filter(has_text=re.compile(f"^{re.escape(name)}$")).first).to_be_attached()
    expect(page.locator("img[src='x']")).to_have_count(0)


def session_cookie_record(page: Page) -> dict | None:
    """The session cookie the browser holds for the app, with its flags, if any."""
    records = [c for c in page.context.cookies() if c["name"] == SESSION_COOKIE and c["value"]]
    return records[0] if records else None


def session_cookie(page: Page) -> str | None:
    """The value of the session cookie the browser holds for the app, if any."""
    record = session_cookie_record(page)
    return record["value"] if record else None


def wait_for_session_cookie(page: Page, present: bool, timeout: float = 20) -> None:
    """Wait until the server has set (or removed) the session cookie in the browser.

    The page's scripts cannot see the cookie (it is HttpOnly), so the browser's own cookie
    store is asked, every tenth of a second.
    """
    deadline = time.monotonic() + timeout
    while (session_cookie(page) is not None) != present:
        if time.monotonic() > deadline:
            state = "set" if present else "removed"
            raise AssertionError(f"the session cookie was not {state} within {timeout} s")
        page.wait_for_timeout(100)


def watch_content_policy(page: Page) -> list[str]:
    """Start noting every breach of the content policy that the browser reports for the
    page (in its console, across reloads); returns the list it fills."""
    breaches: list[str] = []

    def note(message) -> None:
        if "Content Security Policy" in message.text:
            breaches.append(message.text)

    page.on("console", note)
    return breaches


def take_picture(
    page: Page, screenshot, name: str, top: Locator | None = None, hide_toasts: bool = False
) -> None:
    """Save a picture of the viewport, once the charts in it are drawn.

    The page is scrolled to its top, or so that ``top`` is at the top of the view.
    ``screenshot`` is the suite's screenshot fixture.
    """
    if top is None:
        page.get_by_role("heading", level=1).first.evaluate(
            """title => {
                for (let box = title.parentElement; box; box = box.parentElement) box.scrollTop = 0;
            }"""
        )
    else:
        top.evaluate("element => element.scrollIntoView({block: 'start'})")
    wait_until_idle(page)
    height = page.viewport_size["height"]
    for chart in page.get_by_test_id("stVegaLiteChart").all():
        box = chart.bounding_box()
        if box is not None and 0 <= box["y"] < height:
            expect(chart.locator("canvas, svg").first).to_be_visible()
    if hide_toasts:
        page.add_style_tag(content="[data-testid='stToast'] { visibility: hidden; }")
    screenshot(page, name, full_page=False)


def chart_colours(chart: Locator, colours: Sequence[str], timeout: float = 15) -> dict[str, int]:
    """How many pixels of the drawn chart have each of ``colours`` ("#RRGGBB"), once any does.

    Charts are drawn on a canvas, so their marks are not in the page's text; a
    mark's colour on the picture is the proof that the chart's data arrived.
    """
    wanted = {colour: tuple(int(colour[i : i + 2], 16) for i in (1, 3, 5)) for colour in colours}
    deadline = time.monotonic() + timeout
    while True:
        expect(chart.locator("canvas, svg").first).to_be_visible()
        picture = Image.open(io.BytesIO(chart.screenshot())).convert("RGB")
        counts = {colour: 0 for colour in colours}
        by_rgb = {rgb: colour for colour, rgb in wanted.items()}
        for count, rgb in picture.getcolors(maxcolors=1 << 20) or []:
            if rgb in by_rgb:
                counts[by_rgb[rgb]] += count
        if any(counts.values()) or time.monotonic() > deadline:
            return counts
        time.sleep(0.25)


class StreamTap:
    """Sits in a page's websocket to the server (Streamlit's stream). Each message the page
    sends goes through :meth:`page_sent`, each the server sends through :meth:`server_sent`;
    one for which the hook returns False is kept back. Subclasses override the hooks."""

    def __init__(self, page: Page) -> None:
        self.socket: WebSocketRoute | None = None
        page.route_web_socket(re.compile(r".*/_stcore/stream$"), self._route)

    def _route(self, socket: WebSocketRoute) -> None:
        server = socket.connect_to_server()
        self.socket = socket

        def outgoing(message: str | bytes) -> None:
            if self.page_sent(message):
                server.send(message)

        def incoming(message: str | bytes) -> None:
            if self.server_sent(message):
                socket.send(message)

        socket.on_message(outgoing)
        server.on_message(incoming)

    def page_sent(self, message: str | bytes) -> bool:
        return True

    def server_sent(self, message: str | bytes) -> bool:
        return True
