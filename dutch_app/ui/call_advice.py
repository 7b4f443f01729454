"""Call advice in one line: the hand total a player can call Dutch at, for a table size.

The advice is :func:`dutch_core.stats.call_advice`; the Stats page shows it beside the
should-I-call chart, the Play page for the players of the game on show, from the
statistics the Stats page last worked out (never worked out afresh on Play).
"""

from __future__ import annotations

import pandas as pd

from dutch_app.i18n import _, format_number, ngettext
from dutch_app.ui.text import md, percent
from dutch_core import stats


def advice_line(row) -> str:
    """One row of the advice table in words, without the player's name."""
    players = format_number(row.players)
    if row.calls < stats.ADVICE_MIN_CALLS:
        return _("not enough calls yet with {players} players ({calls} of {needed}).").format(
            players=players, calls=format_number(row.calls), needed=stats.ADVICE_MIN_CALLS
        )
    if pd.isna(row.hand_total):
        return _(
            "with {players} players no hand total has been lowest {share} of the time yet "
            "({calls} calls)."
        ).format(players=players, share=percent(stats.ADVICE_RATE), calls=row.calls)
    return ngettext(
        "call at {total} or less: with {players} players, {lowest} of {calls} such call "
        "was lowest.",
        "call at {total} or less: with {players} players, {lowest} of {calls} such calls "
        "were lowest.",
        row.calls_at_or_below,
    ).format(
        total=row.hand_total,
        players=players,
        lowest=format_number(row.lowest_at_or_below),
        calls=format_number(row.calls_at_or_below),
    )


def advice_lines(advice: pd.DataFrame, players: int, names: list[str] | None = None) -> list[str]:
    """One line per player (of ``names``, in that order, when given) for a table size:
    "**Ann**: call at 6 or less: …". Players without a call at that size are left out."""
    rows = advice.loc[advice["players"] == players]
    by_name = {row.player: row for row in rows.itertuples()}
    order = names if names is not None else list(by_name)
    return [f"**{md(name)}**: {advice_line(by_name[name])}" for name in order if name in by_name]
