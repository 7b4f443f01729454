"""The game in large type, as HTML with every name escaped (no Streamlit here).

Read from across a table, by the table view of a signed-in phone and by a game's live
link on a TV or tablet; both draw a :class:`~dutch_app.services.sharing.SharedGameView`,
so they show the same and nothing a link may not. Names go through :func:`html.escape`
before they reach the page.
"""

from __future__ import annotations

from html import escape

from dutch_app.i18n import N_, _, format_duration
from dutch_app.labels import label
from dutch_app.services.sharing import SharedGameView
from dutch_core import EndKind

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
.dutch-table-winner { background: #e8b92a33; border-radius: 0.5rem; padding: 0.4rem 0.8rem; }
p.dutch-table-progress { font-size: 1.2rem; margin: 0.8rem 0 0.2rem 0; opacity: 0.8; }
progress.dutch-table-progress { width: 100%; height: 0.8rem; accent-color: #2e7d5b; }
</style>"""


def headline_html(view: SharedGameView) -> str:
    """The players, then the next round and its dealer, or the winner once the game is over."""
    players = " · ".join(escape(name) for name in view.players)
    head = f"<p class='dutch-table-players'>{players}</p>"
    if view.finished and view.winners:
        names = _(" and ").join(escape(name) for name in view.winners)
        if len(view.winners) > 1:
            result = _("{names} share the win with {total} points")
        else:
            result = _("{names} wins with {total} points")
        result = result.format(names=names, total=view.standings[0].game_total)
        return head + f"<p class='dutch-table-big dutch-table-winner'>🏆 {result}</p>"
    number = _("Round {number}").format(number=view.rounds_played + 1)
    deals = _("{dealer} deals").format(dealer=escape(view.dealer))
    return (
        head
        + f"<p class='dutch-table-big'>{number}</p>"
        + f"<p class='dutch-table-deal'>🃏 {deals}</p>"
    )


def standings_html(view: SharedGameView) -> str:
    """The standings as a large table: rank, player, game total, lowest total first."""
    rows = "".join(
        f"<tr><td class='rank'>{s.rank}</td><td>{escape(s.player)}</td>"
        f"<td class='total'>{s.game_total}</td></tr>"
        for s in view.standings
    )
    caption = escape(_("Standings"))
    return f"<table class='dutch-table-standings' aria-label='{caption}'>{rows}</table>"


def last_round_html(view: SharedGameView) -> str:
    """Two lines about the latest round ("" before the first): who called how, and
    everyone's round score."""
    if not view.rounds:
        return ""
    latest = view.rounds[-1]
    if latest.caller:
        call = "" if latest.call_type is None else label(latest.call_type)
        template = OUTCOMES.get(latest.outcome or "", N_("{caller} called {call}"))
        said = _(template).format(caller=escape(latest.caller), call=call).strip()
    else:
        said = _("Nobody called: the deck ran out")
    scores = " · ".join(
        f"{escape(name)} {score}" for name, score in zip(view.players, latest.scores, strict=True)
    )
    lines = [
        _("Last round ({number}): {said}.").format(number=latest.number, said=said),
        _("Round scores: {scores}").format(scores=scores),
    ]
    return "".join(f"<p class='dutch-table-last'>{line}</p>" for line in lines)


def length_html(view: SharedGameView) -> str:
    """How long the game has been played ("" before its first round)."""
    if view.length is None:
        return ""
    text = _("Played for {length}").format(length=format_duration(view.length))
    return f"<p class='dutch-table-progress'>⏱ {escape(text)}</p>"


def progress_html(view: SharedGameView) -> str:
    """How far the game is on its way to its end, as a bar with a line of text ("" for a
    game the players end by hand, and once it is over)."""
    end = view.end
    if view.finished or end.kind is EndKind.OPEN:
        return ""
    if end.kind is EndKind.ROUNDS and end.rounds is not None:
        done, whole = view.rounds_played, end.rounds
        text = _("{played} of {rounds} rounds played").format(played=done, rounds=whole)
    elif end.limit is not None:
        done = max((s.game_total for s in view.standings), default=0)
        whole = end.limit
        text = _("Highest total {highest}: the game ends at {limit} points").format(
            highest=done, limit=whole
        )
    else:  # pragma: no cover - an end condition always has its number
        return ""
    value = min(max(done, 0), whole)
    return (
        f"<p class='dutch-table-progress'>{escape(text)}</p>"
        f"<progress class='dutch-table-progress' value='{value}' max='{whole}'>{value}</progress>"
    )


def big_view_html(view: SharedGameView) -> str:
    """The whole view: the headline, the standings, the latest round, how long the game has
    been played and the progress."""
    return (
        headline_html(view)
        + standings_html(view)
        + last_round_html(view)
        + length_html(view)
        + progress_html(view)
    )
