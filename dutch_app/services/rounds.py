"""Rounds: add, edit, correct, delete and undo.

Adding a round reads only what it needs: the game, its players and the game
totals stored with its latest round; the core scores the new round and adds it to
those totals (:func:`dutch_core.totals_after`), so a round costs the same however
long the game is. A correction or a deletion rebuilds the game with the core and
rewrites the stored totals of the rounds after it.

Writers of one game take turns: each locks the game's row first (``SELECT ...
FOR UPDATE`` on PostgreSQL; SQLite's ``BEGIN IMMEDIATE`` admits one writer at a
time), so the next round number (MAX + 1 on the game's index) is never handed
out twice; if it ever is, the unique (game_id, number) key refuses it and the
whole call is retried. Edits and deletions carry the version the user saw and
are refused with :class:`Conflict` when someone changed the round since.

Writes from the Play page say which state of the game they were made against:
a new round names the round number it is for (``for_round``) and is refused
with :class:`StaleRound` once another phone saved that round (or took the one
before it back), or with :class:`GameEnded` once the game ended; an undo names
the round and its version and is refused unless that round is still the latest.
A refused write stores nothing.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from datetime import datetime
from enum import StrEnum

from sqlalchemy import delete, select, update
from sqlalchemy.orm import Session

from dutch_app.i18n import _
from dutch_app.services._access import bump_group, game_for, round_for
from dutch_app.services._input import check_id, moment
from dutch_app.services._present import round_view
from dutch_app.services._requests import requested_input
from dutch_app.services._stored_games import (
    Table,
    core_game,
    hand_rows,
    latest_totals,
    named_totals,
    round_values,
    rounds_of,
    rules_of,
    store_totals,
    stored_input,
    table_of,
)
from dutch_app.services.errors import (
    Conflict,
    EndCrossed,
    GameEnded,
    StaleRound,
    ValidationError,
)
from dutch_app.services.unit_of_work import writes
from dutch_app.services.views import RoundView
from dutch_app.storage.models import Game, Round, RoundHand, User, utcnow
from dutch_core import (
    CallType,
    EndCondition,
    GameError,
    RoundInput,
    end_reached,
    lowest_totals,
    score_round,
    totals_after,
)
from dutch_core import Game as CoreGame
from dutch_core.game import GameStatus


def _finish(session: Session, game: Game, is_over: bool) -> None:
    """Count the change; a game whose end condition is met is marked ended."""
    game.version += 1
    if is_over and game.status == GameStatus.ACTIVE:
        game.status, game.ended_at = GameStatus.ENDED, utcnow()
    session.flush()
    bump_group(session, game.group_id)


def _entered_by(session: Session, game_id: int, number: int) -> str | None:
    """The display name of whoever entered round ``number`` of the game, if known."""
    return session.scalar(
        select(User.display_name)
        .join(Round, Round.entered_by == User.id)
        .where(Round.game_id == game_id, Round.number == number)
    )


def _refuse_ended(totals: dict[str, int], final: bool) -> None:
    """Refuse a round for an ended game, saying who won (by its latest stored totals);
    ``final``: the game reached its end condition, so reopening it adds no round."""
    if not totals:
        raise GameEnded(_("This game has ended; reopen it to add a round."), winners=(), total=None)
    winners = lowest_totals(totals)
    total = totals[winners[0]]
    if final and len(winners) > 1:
        template = _(
            "This game has ended: {names} share the win with {total} points. Nothing was "
            "saved; start a new game to play on."
        )
    elif final:
        template = _(
            "This game has ended: {names} won with {total} points. Nothing was saved; "
            "start a new game to play on."
        )
    elif len(winners) > 1:
        template = _(
            "This game has ended: {names} share the win with {total} points. Nothing was "
            "saved; reopen it to add this round."
        )
    else:
        template = _(
            "This game has ended: {names} won with {total} points. Nothing was saved; "
            "reopen it to add this round."
        )
    raise GameEnded(
        template.format(names=_(" and ").join(winners), total=total),
        winners=winners,
        total=total,
        final=final,
    )


def _same_latest_round(
    session: Session,
    table: Table,
    game_id: int,
    user_id: int,
    for_round: object,
    latest: int,
    round_input: RoundInput,
) -> RoundView | None:
    """The game's latest round when this very entry (same person, same round number, same
    hands and call) stored it already: a second tap on Save that reached the server after
    the first one was stored. Saving it again is answered with the round as stored, not
    refused as coming from another phone, and nothing more is written."""
    if isinstance(for_round, bool) or for_round != latest or latest == 0:
        return None
    ((stored, hands),) = rounds_of(session, game_id, first=latest)
    if stored.entered_by != user_id or stored_input(table, stored, hands) != round_input:
        return None
    return round_view(table, stored, hands)


def _check_round_number(session: Session, game: Game, for_round: object, latest: int) -> int:
    """The next round number (after round ``latest``), refused (StaleRound) unless it is
    ``for_round``."""
    if for_round is None:
        return latest + 1
    wanted = check_id("for_round", for_round)
    if wanted < 1:
        raise ValidationError("for_round", f"for_round must be 1 or more, not {wanted}.")
    if wanted == latest + 1:
        return wanted
    if wanted <= latest:
        by = _entered_by(session, game.id, wanted)
        if by:
            message = _(
                "Round {number} was already saved by {name} on another phone, so nothing "
                "was saved. The next round is round {next}."
            ).format(number=wanted, name=by, next=latest + 1)
        else:
            message = _(
                "Round {number} was already saved on another phone, so nothing was saved. "
                "The next round is round {next}."
            ).format(number=wanted, next=latest + 1)
    else:
        by = _entered_by(session, game.id, latest) if latest else None
        message = _(
            "Round {next} was taken back on another phone, so the next round is "
            "round {next}, not {wanted}; nothing was saved."
        ).format(next=latest + 1, wanted=wanted)
    raise StaleRound(message, next_number=latest + 1, latest=latest, latest_by=by)


@writes
def add_round(
    session: Session,
    user_id: int,
    game_id: int,
    hands: Mapping[int, str],
    caller_id: int | None,
    call_type: CallType | str | None,
    penalty_text: str | None = None,
    *,
    for_round: int | None = None,
    entered_at: datetime | None = None,
    reopen: bool = False,
) -> RoundView:
    """Score and store the next round of an active game.

    ``hands`` maps every player id of the game to the hand as typed (cards such
    as ``"7 KH Q"``, or a total such as ``"23"``); ``penalty_text`` gives the
    caller's penalty cards or their total when some are due. ``for_round`` is
    the round number the entry was made for (the Play page always gives it): a
    game that has moved on since is refused with :class:`StaleRound`, so the
    same round saved twice (two phones, or a double tap) is stored once. An
    ended game refuses every round with :class:`GameEnded`, except the repeat of
    its latest round (that one was stored before the game ended, or it ended the
    game: it is answered with the round as stored), and unless ``reopen`` asks to
    reopen it with this round (in the same transaction: refused, it stays ended).
    """
    game = game_for(session, user_id, game_id, lock=True)
    table = table_of(session, game.id)
    rules = rules_of(game)
    last, stored_totals = latest_totals(session, game.id)
    before = named_totals(table, stored_totals)
    round_input = requested_input(table, hands, caller_id, call_type, penalty_text)
    # The same entry sent again (a retry whose first answer was lost) is answered with the
    # round as stored, even when that round ended the game.
    repeat = _same_latest_round(session, table, game.id, user_id, for_round, last, round_input)
    if repeat is not None:
        return dataclasses.replace(repeat, game_version=game.version)
    ended = game.status != GameStatus.ACTIVE
    if ended and not reopen:
        _refuse_ended(before if last else {}, final=end_reached(rules, last, before))
    number = _check_round_number(session, game, for_round, last)
    if end_reached(rules, last, before):
        raise GameError(_("the game ended after round {last}; start a new game").format(last=last))
    if ended:
        game.status, game.ended_at = GameStatus.ACTIVE, None
    result = score_round(round_input, rules)
    totals = totals_after(rules, before, result.as_dict())
    stored = Round(
        game_id=game.id,
        number=number,
        entered_by=user_id,
        entered_at=moment("entered_at", entered_at) or utcnow(),
        version=1,
        **round_values(table, result),
    )
    session.add(stored)
    session.flush()
    rows = hand_rows(table, result, totals)
    hands_stored = [RoundHand(round_id=stored.id, **row) for row in rows]
    session.add_all(hands_stored)
    _finish(session, game, end_reached(rules, number, totals))
    return dataclasses.replace(round_view(table, stored, hands_stored), game_version=game.version)


def _locked_round(session: Session, user_id: int, round_id: object, expected_version: object):
    """The game (locked) and the round as it is now, if still at ``expected_version``."""
    check_id("expected_version", expected_version)
    game = game_for(session, user_id, round_for(session, user_id, round_id).game_id, lock=True)
    stored = session.get(Round, round_id, populate_existing=True)
    if stored is None:
        raise Conflict(_("Someone else deleted this round in the meantime; reload the game."))
    if stored.version != expected_version:
        raise Conflict(
            _(
                "Round {number} was changed by someone else since you loaded it "
                "(version {version}, you had {expected_version}); nothing was saved. "
                "Reload the game and enter your correction again."
            ).format(
                number=stored.number, version=stored.version, expected_version=expected_version
            )
        )
    return game, stored


class PastTheEnd(StrEnum):
    """What a correction does when the game would have ended before its last round with it."""

    END_THERE = "end_there"
    """End the game after the round in which its end rule now holds; the later rounds are
    deleted (they would not have been played)."""
    PLAY_ON = "play_on"
    """Keep every round and play on as an open game: the game's end rule becomes "ended by
    hand"."""


def _ends_early(before: CoreGame, after: CoreGame) -> int | None:
    """The round after which ``after`` now ends when that is before its last round and the
    correction moved it there (a game already past its end is left as it was)."""
    ended = after.ended_after
    if ended is None or ended >= after.rounds_played or ended == before.ended_after:
        return None
    return ended


def _crossing(after: CoreGame, ended: int) -> EndCrossed:
    """The question asked before a correction that ends the game early is saved."""
    totals = after.running_totals()[ended - 1]
    top = max(totals.values())
    names = _(" and ").join(name for name, total in totals.items() if total == top)
    played = after.rounds_played
    if played == ended + 1:
        later = _("round {first}").format(first=played)
    else:
        later = _("rounds {first} to {last}").format(first=ended + 1, last=played)
    message = _(
        "With this correction {names} reaches {total} points in round {number}, the game's "
        "limit of {limit}: the game would have ended there, but {later} came after it. "
        "Nothing was saved yet. End the game after round {number} (deleting {later}), or "
        "keep playing it as an open game (no limit; every round stays)."
    ).format(names=names, total=top, number=ended, limit=after.rules.end.limit, later=later)
    if after.rules.end.exact_limit_halves:
        message += " " + _(
            "Played on as an open game, a total that landed exactly on {limit} is no longer halved."
        ).format(limit=after.rules.end.limit)
    return EndCrossed(message, ended_after=ended, played=played)


@writes
def edit_round(
    session: Session,
    user_id: int,
    round_id: int,
    expected_version: int,
    hands: Mapping[int, str],
    caller_id: int | None,
    call_type: CallType | str | None,
    penalty_text: str | None = None,
    *,
    past_the_end: PastTheEnd | str | None = None,
) -> RoundView:
    """Correct a round; refused (Conflict) if it changed since ``expected_version``.

    A correction after which the game would have ended before its last round (a player
    now past the score limit in the middle of the game) is refused with
    :class:`EndCrossed`, which says so, unless ``past_the_end`` says what to do then.
    """
    if past_the_end is not None:
        try:
            past_the_end = PastTheEnd(past_the_end)
        except ValueError:
            choices = ", ".join(choice.value for choice in PastTheEnd)
            message = f"past_the_end must be one of {choices}, not {past_the_end!r}."
            raise ValidationError("past_the_end", message) from None
    game, stored = _locked_round(session, user_id, round_id, expected_version)
    table = table_of(session, game.id)
    round_input = requested_input(table, hands, caller_id, call_type, penalty_text)
    stored_rounds = rounds_of(session, game.id)
    before = core_game(game, table, stored_rounds)
    after = before.replace_round(stored.number, round_input)
    first_total = stored.number + 1  # the rounds whose stored totals may change
    ended = _ends_early(before, after)
    if ended is not None and past_the_end is None:
        raise _crossing(after, ended)
    if ended is not None and past_the_end is PastTheEnd.END_THERE:
        session.execute(delete(Round).where(Round.game_id == game.id, Round.number > ended))
        for later, _hands in stored_rounds[ended:]:
            session.expunge(later)
        stored_rounds = stored_rounds[:ended]
        after = dataclasses.replace(after, rounds=after.rounds[:ended])
    elif ended is not None:  # play on as an open game
        rules = dataclasses.replace(rules_of(game), end=EndCondition.open())
        game.rules = rules.to_dict()
        game.status, game.ended_at = GameStatus.ACTIVE, None
        after = dataclasses.replace(after, rules=rules)
        first_total = 1  # a limit that halved a total no longer does
    result = after.rounds[stored.number - 1]
    for key, value in round_values(table, result).items():
        setattr(stored, key, value)
    stored.version += 1
    stored.edited_by, stored.edited_at = user_id, utcnow()
    hands_stored = dict(stored_rounds)[stored]
    totals = after.running_totals()[stored.number - 1]
    by_player = {row["player_id"]: row for row in hand_rows(table, result, totals)}
    for hand in hands_stored:
        for key, value in by_player[hand.player_id].items():
            setattr(hand, key, value)
    store_totals(table, stored_rounds, after, first=first_total)
    _finish(session, game, after.is_over)
    return round_view(table, stored, hands_stored)


@writes
def delete_round(session: Session, user_id: int, round_id: int, expected_version: int) -> None:
    """Delete a round; later rounds move up one number. Refused (Conflict) if it
    changed since ``expected_version``."""
    game, stored = _locked_round(session, user_id, round_id, expected_version)
    number = stored.number
    session.execute(delete(Round).where(Round.id == stored.id))
    session.expunge(stored)
    # Two steps through negative numbers, so no two rounds ever share a number.
    unsynchronised = {"synchronize_session": False}
    moving = update(Round).where(Round.game_id == game.id)
    session.execute(
        moving.where(Round.number > number).values(number=-(Round.number - 1)),
        execution_options=unsynchronised,
    )
    session.execute(
        moving.where(Round.number < 0).values(number=-Round.number),
        execution_options=unsynchronised,
    )
    session.expire_all()
    table = table_of(session, game.id)
    stored_rounds = rounds_of(session, game.id)
    after = core_game(game, table, stored_rounds)
    store_totals(table, stored_rounds, after, first=number)
    _finish(session, game, after.is_over)


@writes
def undo_round(
    session: Session, user_id: int, game_id: int, round_id: int, expected_version: int
) -> int:
    """Take back the game's latest round, the one the person saw; its number.

    Refused (Conflict, nothing deleted) when that round was taken back already,
    changed since ``expected_version``, or is no longer the latest round; older
    rounds are corrected on the History page instead.
    """
    check_id("round_id", round_id)
    check_id("expected_version", expected_version)
    game = game_for(session, user_id, game_id, lock=True)
    stored = session.get(Round, round_id, populate_existing=True)
    if stored is None or stored.game_id != game.id:
        raise Conflict(_("That round was already taken back on another phone; nothing was undone."))
    if stored.version != expected_version:
        raise Conflict(
            _(
                "Round {number} was corrected on another phone since you saw it, so it "
                "was not taken back. Check it in the rounds below and undo again if "
                "need be."
            ).format(number=stored.number)
        )
    latest, _totals = latest_totals(session, game.id)
    if stored.number != latest:
        by = _entered_by(session, game.id, latest)
        if by:
            template = _(
                "Round {number} is no longer the latest round: round {latest} was saved since "
                "by {name}, so nothing was undone. Only the latest round can be taken back "
                "here; correct older rounds on the History page."
            )
        else:
            template = _(
                "Round {number} is no longer the latest round: round {latest} was saved since, "
                "so nothing was undone. Only the latest round can be taken back here; correct "
                "older rounds on the History page."
            )
        raise Conflict(template.format(number=stored.number, latest=latest, name=by))
    number = stored.number
    session.execute(delete(Round).where(Round.id == stored.id))
    session.expunge(stored)
    session.expire_all()
    # The rounds before it keep their stored totals: nothing to replay.
    last, totals = latest_totals(session, game.id)
    _finish(session, game, end_reached(rules_of(game), last, totals))
    return number
