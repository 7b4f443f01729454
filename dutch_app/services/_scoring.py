"""Between stored rows and the scoring core: rebuild a game, turn a request into a round.

Scores are never taken from a request: the core scores the round input, and the
rows store that input together with the core's result.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from sqlalchemy import select
from sqlalchemy.orm import Session

from dutch_app.i18n import _
from dutch_app.services._input import check_id
from dutch_app.services.errors import ValidationError
from dutch_app.storage.models import Game, GamePlayer, Player, Round, RoundHand
from dutch_core import Game as CoreGame
from dutch_core import (
    Hand,
    HouseRules,
    Penalty,
    RoundInput,
    RoundResult,
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
        for player in self.players:
            if player.id == player_id:
                return player.name
        return None

    def seat_of(self, player_id: int) -> int:
        return next(seat for seat, player in enumerate(self.players) if player.id == player_id)


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
    pairs = tuple(
        (
            table.name_of(hand.player_id),
            Hand.of_total(hand.hand_total)
            if hand.cards is None
            else Hand.of_cards(parse_cards(hand.cards)),
        )
        for hand in hands
    )
    penalty = None if stored.penalty_text is None else Penalty.parse(stored.penalty_text)
    return RoundInput(pairs, table.name_of(stored.caller_player_id), stored.call_type, penalty)


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


def check_hand_ids(table: Table, hands: object) -> None:
    """Refuse ``hands`` unless it maps ids of players of the game to hands."""
    if not isinstance(hands, Mapping):
        raise ValidationError("hands", f"hands must map player ids to hands, not {hands!r}.")
    seated = {player.id for player in table.players}
    for player_id in hands:
        if check_id("hands", player_id) not in seated:
            raise ValidationError(
                "hands", _("Player id {ident!r} is not playing this game.").format(ident=player_id)
            )


def caller_name(table: Table, caller_id: object) -> str | None:
    """The name of the player who called (None for no caller); refused if not playing."""
    if caller_id is None:
        return None
    caller = table.name_of(check_id("caller_id", caller_id))
    if caller is None:
        raise ValidationError(
            "caller_id", _("Player id {ident!r} is not playing this game.").format(ident=caller_id)
        )
    return caller


def requested_input(
    table: Table,
    hands: object,
    caller_id: object,
    call_type: object,
    penalty_text: object,
) -> RoundInput:
    """A round input from a request keyed by player id; the core checks the rest."""
    check_hand_ids(table, hands)
    typed = {}
    for player in table.players:
        if player.id not in hands:
            raise ValidationError(
                "hands", _("{name}: no hand was entered.").format(name=player.name)
            )
        text = hands[player.id]
        if isinstance(text, bool) or not isinstance(text, (str, int, Hand)):
            raise ValidationError(
                "hands", _("{name}: {text!r} is not a hand.").format(name=player.name, text=text)
            )
        typed[player.name] = text
    caller = caller_name(table, caller_id)
    if penalty_text is not None and (
        isinstance(penalty_text, bool) or not isinstance(penalty_text, (str, int))
    ):
        raise ValidationError(
            "penalty_text", _("{text!r} is not a penalty.").format(text=penalty_text)
        )
    if isinstance(penalty_text, str) and not penalty_text.strip():
        penalty_text = None
    return RoundInput.build(typed, caller=caller, call_type=call_type, penalty=penalty_text)


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
