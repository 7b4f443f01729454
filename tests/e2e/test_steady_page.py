"""The first open, readable and steady: the pages a player opens at the table, checked by
axe-core for what a screen reader, a low-vision reader and a thumb need, and watched for
content that jumps while the page builds.

One server; one browser context per phone or laptop and light or dark device, which opens
sign-in, then (signed in) Play with a game in progress, Stats and History.
"""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta

import pytest
from playwright.sync_api import Page, expect

from dutch_app.services import games, rounds
from dutch_core import EndCondition, HouseRules
from tests.conftest import DESKTOP_VIEWPORT, PHONE_VIEWPORT
from tests.e2e.conftest import new_app_database, serve_app
from tests.e2e.streamlit_ui import expect_title, wait_until_idle
from tests.servers import PROJECT_ROOT

AXE = PROJECT_ROOT / "tests" / "node_modules" / "axe-core" / "axe.min.js"
SEATS = ["Ann", "Ben", "Cleo"]
START = datetime(2025, 3, 3, 19, 0, tzinfo=UTC)

DEVICES = {
    "phone": {
        "viewport": dict(zip(("width", "height"), PHONE_VIEWPORT, strict=True)),
        "is_mobile": True,
        "has_touch": True,
    },
    "laptop": {"viewport": dict(zip(("width", "height"), DESKTOP_VIEWPORT, strict=True))},
}
THEMES = ("light", "dark")
FAILING = ("serious", "critical")
STREAMLIT_FRAME = {"stAppViewContainer", "stMain", "stMainBlockContainer"}

SHIFTS = r"""
window.dutchShifts = [];
new PerformanceObserver((list) => {
  for (const entry of list.getEntries()) {
    if (entry.hadRecentInput) continue;
    const nodes = entry.sources.map((source) => {
      const node = source.node;
      const was = source.previousRect, now = source.currentRect;
      const at = (rect) => `${Math.round(rect.y)}+${Math.round(rect.height)}`;
      const moved = `${at(was)} to ${at(now)}`;
      if (!node || !node.closest) return `${node && node.nodeName} ${moved}`;
      const key = node.closest('[class*="st-key-"]');
      const box = node.closest('[data-testid]');
      const name = box ? box.getAttribute('data-testid') : node.nodeName;
      const keyName = key ? key.className.match(/st-key-\S+/)[0] : '';
      return `${name} ${keyName} ${moved}`;
    });
    window.dutchShifts.push({value: entry.value, at: Math.round(entry.startTime), nodes});
  }
}).observe({type: 'layout-shift', buffered: true});
"""


def streamlit_frame(shift: dict) -> bool:
    """Whether a layout shift is Streamlit's frame coming up: its whole view (reported on
    its container or on its main part) moving aside for the sidebar, or its main block for
    the header, as on any Streamlit page with a sidebar (a bare page of three titles and a
    sidebar measures 0.24 on a laptop, 0 on a phone, whose sidebar starts folded). Nothing
    drawn by the app moves in such a shift."""
    return all(node.split()[0] in STREAMLIT_FRAME for node in shift["nodes"])


# A first visit here is the server's first of these pages too (it has imported nothing of
# them yet, and answers more slowly than on a returning visit): a server of the module's own.
app_database = pytest.fixture(scope="module", name="app_database")(new_app_database)
app_server = pytest.fixture(scope="module", name="app_server")(serve_app)


@pytest.fixture(scope="module")
def table(make_table):
    """Ann's group: three ended games of two rounds, and a game in progress after two."""
    table = make_table("Ann", "ann.steady-page@example.com", "Card night", SEATS)
    seated = [table.player_ids[name] for name in SEATS]
    two_rounds = HouseRules(end=EndCondition.after_rounds(2))
    for number in range(4):
        started = START + timedelta(days=2 * number)
        rules = two_rounds if number < 3 else HouseRules()
        game = table.call(games.start_game, table.group_id, seated, rules, started_at=started)
        for turn in range(2):
            hands = dict(zip(seated, [str(3 + number % 3), "9", str(12 - turn)], strict=True))
            table.call(
                rounds.add_round,
                game.id,
                hands,
                seated[0],
                "dutch",
                None,
                entered_at=started + timedelta(minutes=10 * (turn + 1)),
            )
    return table


def open_settled(page: Page, url: str, name: str) -> None:
    """Open the page at ``url`` and wait until all it draws on opening is there."""
    page.goto(url)
    if name == "Sign in":
        expect_title(page, "Dutch Scorer")
        expect(page.get_by_role("tab", name="Create an account")).to_be_visible()
    else:
        expect_title(page, name)
    if name == "Play":
        expect(page.get_by_role("heading", name="Round 3")).to_be_visible()
    if name in ("Play", "Stats"):
        expect(page.get_by_test_id("stVegaLiteChart").first.locator("canvas, svg")).to_be_visible()
    if name in ("Play", "Stats", "History"):
        expect(page.get_by_test_id("stDataFrame").first).to_be_visible()
    wait_until_idle(page)


def page_urls(app_server) -> dict[str, str]:
    return {
        "Sign in": app_server.url,
        "Play": app_server.url,
        "Stats": f"{app_server.url}/stats",
        "History": f"{app_server.url}/history",
    }


def axe_findings(page: Page) -> list[dict]:
    """axe-core's violations on the page as it stands."""
    page.add_script_tag(path=AXE)
    return page.evaluate(
        """async () => {
          const result = await axe.run(document, {resultTypes: ['violations']});
          return result.violations.map((violation) => ({
            id: violation.id,
            impact: violation.impact,
            help: violation.help,
            nodes: violation.nodes.map((node) => ({
              target: node.target.join(' '), summary: node.failureSummary,
              html: node.html.slice(0, 160)})),
          }));
        }"""
    )


def chosen_in_another_colour(page: Page) -> list[str]:
    """The open tabs and chosen pills whose name is not in the page's text colour (Streamlit
    writes them in the primary colour, 3.8:1 on the dark page; axe-core does not flag it)."""
    return page.evaluate(
        """() => [...document.querySelectorAll(
              '[role="tab"][aria-selected="true"], [role="radio"][aria-checked="true"]')]
            .filter((e) => getComputedStyle(e).color !== getComputedStyle(document.body).color)
            .map((e) => `${e.innerText}: ${getComputedStyle(e).color}`)"""
    )


def readable(findings: dict[str, list[dict]]) -> str:
    lines = []
    for page_name, violations in findings.items():
        for violation in violations:
            kind = f"{violation['id']} ({violation['impact']})"
            lines.append(f"{page_name}: {kind} {violation['help']}")
            for node in violation["nodes"]:
                summary = node["summary"].replace("\n", " ")
                lines.append(f"    {node['target']}  {node['html']}\n      {summary}")
    return "\n".join(lines)


@pytest.mark.parametrize("theme", THEMES)
@pytest.mark.parametrize("device", DEVICES)
def test_no_serious_accessibility_finding_in_the_app(app_server, table, browser, device, theme):
    """axe-core finds nothing serious or critical in the app's own markup on sign-in, Play
    (a game in progress, with its round entry), Stats and History."""
    # axe-core goes in as an inline script, which the page's content policy would refuse
    context = browser.new_context(**DEVICES[device], color_scheme=theme, bypass_csp=True)
    try:
        page = context.new_page()
        findings: dict[str, list[dict]] = {}
        coloured: dict[str, list[str]] = {}
        for name, url in page_urls(app_server).items():
            if name == "Play":
                context.add_cookies([table.session_cookie(app_server.url)])
            open_settled(page, url, name)
            findings[name] = axe_findings(page)
            coloured[name] = chosen_in_another_colour(page)
            if name == "Stats":  # the check has something to look at: the open tab
                expect(page.locator('[role="tab"][aria-selected="true"]').first).to_be_visible()
        print(readable(findings))
        serious = {
            name: [v for v in found if v["impact"] in FAILING] for name, found in findings.items()
        }
        assert not any(serious.values()), "\n" + readable(serious)
        assert not any(coloured.values()), coloured
    finally:
        context.close()


@pytest.mark.deadline  # how far a page moves depends on when its parts arrive: a quiet machine
@pytest.mark.parametrize("device", ["phone"])
def test_the_pages_stand_still_while_they_build(app_server, table, browser, device):
    """The layout shift while sign-in, Play, Stats and History open on a phone (the shifts
    no tap caused, added up until the page has settled) stays within 0.1 on each, and on
    Play, Stats and History opened again in a new tab (a returning visit).

    Not on a laptop: there Streamlit's sidebar arrives beside the page, and what it pushes
    (its navigation, the user's part of it) and when, varies from run to run: the app's
    own figures measured 0.02-0.11 on sign-in (docs/accessibility.md). That is left open
    rather than asserted on noise."""
    shifts: dict[str, float] = {}
    frame: dict[str, float] = {}
    sources: dict[str, list] = {}

    def measure(page: Page, name: str, url: str, title: str) -> None:
        open_settled(page, url, title)
        page.wait_for_timeout(1_000)  # a shift can come after the run: a second to show it
        wait_until_idle(page)
        entries = page.evaluate("window.dutchShifts")
        frame[name] = round(sum(e["value"] for e in entries if streamlit_frame(e)), 3)
        own = [entry for entry in entries if not streamlit_frame(entry)]
        shifts[name] = round(sum(entry["value"] for entry in own), 3)
        sources[name] = own

    urls = page_urls(app_server)
    context = browser.new_context(**DEVICES[device])
    context.add_init_script(SHIFTS)
    try:
        page = context.new_page()
        for name, url in urls.items():
            if name == "Play":
                context.add_cookies([table.session_cookie(app_server.url)])
            measure(page, name, url, name)
    finally:
        context.close()
    # A returning visit: the server has served the page before and answers faster, so its
    # parts can come while the browser has not yet loaded the code that draws the widgets
    # and tables above them (the Stats filters above the tabs, the History games table
    # above the game picker).
    for name in ("Play", "Stats", "History"):
        context = browser.new_context(**DEVICES[device])
        context.add_init_script(SHIFTS)
        context.add_cookies([table.session_cookie(app_server.url)])
        try:
            measure(context.new_page(), f"{name} again", urls[name], name)
        finally:
            context.close()
    print(f"{device}: the app's {json.dumps(shifts)}; Streamlit's frame {json.dumps(frame)}")
    assert all(shift <= 0.1 for shift in shifts.values()), json.dumps(sources, indent=1)
