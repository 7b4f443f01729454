"""The pieces of the table view, as HTML with every name escaped (no Streamlit here).

The view is read from across a table, so it uses its own large type; names go
through :func:`html.escape` before they reach the page.
"""

from __future__ import annotations

from html import escape

from dutch_app.i18n import N_, _
from dutch_app.labels import label
from dutch_app.services.views import GameView

OUTCOMES = {
    "lowest": N_("{caller} called {call} and was lowest"),
    "tied": N_("{caller} called {call} and tied"),
    "beaten": N_("{caller} called {call} and was beaten"),
}


def table_css() -> str:
    """The view's large type."""
    return """<style>
.dutch-table-players { font-size: 1.1rem; opacity: 0.75; margin: 0; }
.dutch-table-big { font-size: 2.6rem; font-weight: 700; line-height: 1.15; margin: 0.2rem 0; }
.dutch-table-deal { font-size: 1.8rem; margin: 0 0 0.6rem 0; }
.dutch-table-standings { width: 100%; border-collapse: collapse; font-size: 2rem; }
.dutch-table-standings td { padding: 0.35rem 0.5rem; border-bottom: 1px solid #8884; }
.dutch-table-standings td.total { text-align: right; font-weight: 700; }
.dutch-table-standings td.rank { width: 2.5em; opacity: 0.7; }
.dutch-table-last { font-size: 1.4rem; margin: 0.3rem 0; }
</style>"""


def standings_html(game: GameView) -> str:
    """The standings as a large table: rank, player, game total, lowest total first."""
    rows = "".join(
        f"<tr><td class='rank'>{s.rank}</td><td>{escape(s.player)}</td>"
        f"<td class='total'>{s.game_total}</td></tr>"
        for s in game.standings
    )
    caption = escape(_("Standings"))
    return f"<table class='dutch-table-standings' aria-label='{caption}'>{rows}</table>"


def last_round_lines(game: GameView) -> list[str]:
    """Two lines about the latest round: who called how, and everyone's round score."""
    latest = game.rounds[-1]
    if latest.caller:
        call = "" if latest.call_type is None else label(latest.call_type)
        template = OUTCOMES.get(latest.outcome or "", N_("{caller} called {call}"))
        said = _(template).format(caller=escape(latest.caller), call=call).strip()
    else:
        said = _("Nobody called: the deck ran out")
    scores = " · ".join(f"{escape(hand.player)} {hand.round_score}" for hand in latest.hands)
    return [
        _("Last round ({number}): {said}.").format(number=latest.number, said=said),
        _("Round scores: {scores}").format(scores=scores),
    ]
