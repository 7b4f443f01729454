"""A game's stored rows and the core's view of them: the players at the table, the rounds
with their hands, the stored game totals, and the row values of a scored round.

Scores are never taken from a request: the core scores the round input, and the
rows store that input together with the core's result.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from sqlalchemy import select
from sqlalchemy.orm import Session

from dutch_app.storage.models import Game, GamePlayer, Player, Round, RoundHand
from dutch_core import Game as CoreGame
from dutch_core import (
    Hand,
    HouseRules,
    Penalty,
    RoundInput,
    RoundResult,
    call_type_of,
    format_cards,
    parse_cards,
)


@dataclass(frozen=True)
class Table:
    """A game's players in seat order, with their current names."""

    players: tuple[Player, ...]

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(player.name for player in self.players)

    def name_of(self, player_id: int | None) -> str | None:
        return next((player.name for player in self.players if player.id == player_id), None)


def table_of(session: Session, game_id: int) -> Table:
    """The players of a game in seat order."""
    players = session.scalars(
        select(Player)
        .join(GamePlayer, GamePlayer.player_id == Player.id)
        .where(GamePlayer.game_id == game_id)
        .order_by(GamePlayer.seat)
    )
    return Table(tuple(players))


def rounds_of(
    session: Session, game_id: int, first: int = 1
) -> list[tuple[Round, list[RoundHand]]]:
    """A game's rounds in order from round ``first`` on, each with its hands in seat order
    (two queries)."""
    rounds = list(
        session.scalars(
            select(Round)
            .where(Round.game_id == game_id, Round.number >= first)
            .order_by(Round.number)
        )
    )
    hands: dict[int, list[RoundHand]] = {stored.id: [] for stored in rounds}
    query = select(RoundHand).order_by(RoundHand.round_id, RoundHand.seat)
    if first > 1:  # a window of the latest rounds: their hands by key
        query = query.where(RoundHand.round_id.in_(list(hands)))
    else:
        query = query.join(Round, Round.id == RoundHand.round_id).where(Round.game_id == game_id)
    if rounds:
        for hand in session.scalars(query):
            hands[hand.round_id].append(hand)
    return [(stored, hands[stored.id]) for stored in rounds]


def stored_input(table: Table, stored: Round, hands: list[RoundHand]) -> RoundInput:
    """The round input as it was entered, with the players' current names."""
    names = {player.id: player.name for player in table.players}
    pairs = tuple(
        (
            names[hand.player_id],
            Hand.of_total(hand.hand_total)
            if hand.cards is None
            else Hand.of_cards(parse_cards(hand.cards)),
        )
        for hand in hands
    )
    penalty = None if stored.penalty_text is None else Penalty.parse(stored.penalty_text)
    caller = table.name_of(stored.caller_player_id)
    return RoundInput(pairs, caller, call_type_of(stored.call_type), penalty)


def rules_of(game: Game) -> HouseRules:
    """The snapshot of house rules the game was started with."""
    return HouseRules.from_dict(game.rules)


def latest_totals(session: Session, game_id: int) -> tuple[int, dict[int, int]]:
    """The number of the game's last round and each player's game total after it, by
    player id in seat order; ``(0, {})`` before the first round. Reads one round's rows,
    each found by its key whatever the planner knows of the table."""
    last = (
        select(Round.id)
        .where(Round.game_id == game_id)
        .order_by(Round.number.desc())
        .limit(1)
        .scalar_subquery()
    )
    rows = session.execute(
        select(Round.number, RoundHand.player_id, RoundHand.game_total)
        .join(RoundHand, RoundHand.round_id == Round.id)
        .where(Round.id == last, RoundHand.round_id == last)
        .order_by(RoundHand.seat)
    ).all()
    if not rows:
        return 0, {}
    return rows[0].number, {row.player_id: row.game_total for row in rows}


def named_totals(table: Table, by_id: Mapping[int, int]) -> dict[str, int]:
    """Game totals by name in seat order (0 for a player with no round yet)."""
    return {player.name: by_id.get(player.id, 0) for player in table.players}


def store_totals(table: Table, stored_rounds, game: CoreGame, first: int = 1) -> None:
    """Set each stored hand's game total, from round ``first`` on, to the core's."""
    ids = {player.name: player.id for player in table.players}
    running = game.running_totals()
    for (_number, hands), totals in zip(
        stored_rounds[first - 1 :], running[first - 1 :], strict=True
    ):
        by_id = {ids[name]: total for name, total in totals.items()}
        for hand in hands:
            if hand.game_total != by_id[hand.player_id]:
                hand.game_total = by_id[hand.player_id]


def core_game(game: Game, table: Table, stored_rounds) -> CoreGame:
    """The core's view of a stored game, every round scored afresh."""
    inputs = [stored_input(table, stored, hands) for stored, hands in stored_rounds]
    return CoreGame.from_inputs(table.names, rules_of(game), inputs)


def hand_rows(table: Table, result: RoundResult, totals: Mapping[str, int]) -> list[dict]:
    """The round_hands values of a scored round (without round_id), in seat order;
    ``totals`` are the game totals after it by name."""
    hands = dict(result.input.hands)
    scores = {score.player: score for score in result.scores}
    rows = []
    for seat, player in enumerate(table.players):
        hand, score = hands[player.name], scores[player.name]
        rows.append(
            {
                "player_id": player.id,
                "seat": seat,
                "cards": None if hand.cards is None else format_cards(hand.cards),
                "hand_total": score.hand_total,
                "penalty_points": score.penalty_points,
                "round_score": score.round_score,
                "is_caller": score.is_caller,
                "game_total": totals[player.name],
            }
        )
    return rows


def round_values(table: Table, result: RoundResult) -> dict:
    """The rounds row values that come from a scored round."""
    caller_id = None
    if result.caller is not None:
        caller_id = next(p.id for p in table.players if p.name == result.caller)
    penalty = result.input.penalty
    return {
        "caller_player_id": caller_id,
        "call_type": None if result.call_type is None else result.call_type.value,
        "outcome": None if result.outcome is None else result.outcome.value,
        "penalty_text": None if penalty is None else penalty.text(),
        "penalty_cards_due": result.penalty_cards_due,
    }
