"""A round as a request names it (players by id, hands as typed), checked and turned into
the core's round input; the core checks the rest."""

from __future__ import annotations

from collections.abc import Mapping
from typing import cast

from dutch_app.i18n import _
from dutch_app.services._input import check_id
from dutch_app.services._stored_games import Table
from dutch_app.services.errors import ValidationError
from dutch_core import CallType, Hand, RoundInput


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
    hands = cast(Mapping[int, object], hands)
    typed: dict[str, Hand | str | int] = {}
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
    call = cast("CallType | str | None", call_type)  # the core refuses anything else
    return RoundInput.build(typed, caller=caller, call_type=call, penalty=penalty_text)
