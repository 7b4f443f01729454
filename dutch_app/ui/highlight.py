"""Which player the Stats page's crowded line charts highlight, and the picker that chooses.

With more than four players a line chart is a tangle (:func:`dutch_app.charts.highlightable`):
one player's line is drawn in colour and the others thin and grey. The picker appears above
the first such chart of the open tab, and the tab's other charts follow it. The choice is
kept for the rest of the session, also while a tab without a picker is open.
"""

from __future__ import annotations

from collections.abc import Sequence

import pandas as pd
import streamlit as st

from dutch_app.charts import ChartSpec, highlightable
from dutch_app.i18n import _
from dutch_app.services.views import GroupView
from dutch_app.ui.cache import my_player

PICKER_KEY = "stats_highlight"
KEPT_KEY = "stats_highlight_kept"  # outlives the picker while the open tab has none


def leader(summary: pd.DataFrame) -> str | None:
    """The player who leads a view: the most wins, then the best win rate, then the lowest
    average round score (None for an empty summary).

    >>> leader(pd.DataFrame({"player": ["Ann", "Ben", "Cleo"], "wins": [2, 3, 3],
    ...     "win_rate": [0.5, 0.6, 0.6], "avg_round_score": [5.0, 7.5, 6.0]}))
    'Cleo'
    """
    if summary.empty:
        return None
    order = summary.sort_values(
        ["wins", "win_rate", "avg_round_score", "player"],
        ascending=[False, False, True, True],
        na_position="last",
    )
    return str(order["player"].iloc[0])


def first_choice(group: GroupView, players: Sequence[str], summary: pd.DataFrame) -> str | None:
    """Who is highlighted until someone picks: the signed-in person when they play in the
    view, else the view's :func:`leader`."""
    mine = my_player(group)
    return mine if mine in players else leader(summary)


def _keep() -> None:
    st.session_state[KEPT_KEY] = st.session_state[PICKER_KEY]


class Highlight:
    """One run's highlighted player. Offer the view's players (:meth:`offer`), then ask for
    each chart's highlight (:meth:`of`): the picker is drawn at the first chart that needs
    it, once a run (a run draws one tab)."""

    def __init__(self) -> None:
        self.players: list[str] = []
        self.first: str | None = None
        self.chosen: str | None = None
        self.drawn = False

    def offer(self, players: Sequence[str], first: str | None) -> None:
        """The players to choose from, and who is highlighted until someone picks."""
        self.players, self.first = list(players), first

    def of(self, spec: ChartSpec) -> str | None:
        """The player ``spec`` highlights (None for a chart that needs none), drawing the
        picker above it when it is the run's first chart that needs one."""
        if not highlightable(spec) or not self.players:
            return None
        if not self.drawn:
            self.drawn = True
            self.chosen = self._picker()
        return self.chosen

    def _picker(self) -> str | None:
        kept = st.session_state.get(KEPT_KEY)
        start = kept if kept in self.players else self.first
        return st.selectbox(
            _("Highlighted player"),
            self.players,
            index=self.players.index(start) if start in self.players else 0,
            key=PICKER_KEY,
            on_change=_keep,
            help=_(
                "With more than four players, the charts draw this player's line in colour "
                "and the others thin and grey."
            ),
        )
