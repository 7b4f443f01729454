"""Tables of one game for the screen, built from its stored rounds (no Streamlit here).

These read only the game on show, never the group's whole history, so the Play
page stays as quick with years of games stored as with none.
"""

from __future__ import annotations

import pandas as pd

from dutch_app.i18n import _
from dutch_app.labels import label
from dutch_app.services.sharing import SharedGameView
from dutch_app.services.views import GameView


def standings_frame(game: GameView | SharedGameView) -> pd.DataFrame:
    """Rank, player and game total, lowest total first (shared ranks on ties); for a game
    of the group or a shared one alike."""
    return pd.DataFrame(
        {
            _("Rank"): [s.rank for s in game.standings],
            _("Player"): [s.player for s in game.standings],
            _("Total"): [s.game_total for s in game.standings],
        }
    )


def running_totals_frame(game: GameView) -> pd.DataFrame:
    """Long form for the chart: round_number, player, round_score, game_total.

    Round 0 holds everyone at 0, so the lines start together (when the game's first
    round is among those shown).
    """
    rows = []
    if not game.rounds or game.rounds[0].number == 1:
        rows = [
            {"round_number": 0, "player": player.name, "round_score": 0, "game_total": 0}
            for player in game.players
        ]
    for stored in game.rounds:
        rows.extend(
            {
                "round_number": stored.number,
                "player": hand.player,
                "round_score": hand.round_score,
                "game_total": hand.game_total,
            }
            for hand in stored.hands
        )
    return pd.DataFrame(rows, columns=["round_number", "player", "round_score", "game_total"])


def rounds_frame(game: GameView) -> pd.DataFrame:
    """One row per round: its number, each player's round score, and who called how."""
    players = [player.name for player in game.players]
    round_, ended_by = _("Round"), _("Ended by")
    records = []
    for stored in game.rounds:
        scores = {hand.player: hand.round_score for hand in stored.hands}
        call = _("No caller") if stored.call_type is None else label(stored.call_type)
        outcome = f" ({label(stored.outcome)})" if stored.outcome else ""
        records.append(
            {
                round_: stored.number,
                **{name: scores.get(name) for name in players},
                ended_by: f"{stored.caller}: {call}{outcome}" if stored.caller else call,
            }
        )
    return pd.DataFrame(records, columns=[round_, *players, ended_by])
