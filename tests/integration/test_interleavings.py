"""Two to four phones at one game, their taps interleaved at random.

Each phone is a member of the group with its own view of the game: the game as it
last read it (a live update reads it too), the round number its form is for, an
entry typed into it, the save it made last and the refusal it was shown. The
phones save, save again (a second tap, or a retry whose first answer was lost),
save a refused entry as the next round, take the latest round back, correct or
delete a round they see, end and reopen the game, each call in a session of its
own as the app makes one.

A plain list of the rounds and the game's status and version predicts the answer of
every call; after every step the stored game must equal it: rounds numbered 1..n,
each saved round still there with its hands unless someone took it back or
corrected it, no round stored twice, game totals equal to the core's sum of the
stored rounds, and a refused call changing nothing.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

import pytest
from hypothesis import event, settings
from hypothesis import strategies as st
from hypothesis.stateful import (
    RuleBasedStateMachine,
    initialize,
    invariant,
    precondition,
    rule,
    run_state_machine_as_test,
)
from sqlalchemy import Engine
from sqlalchemy.orm import Session, sessionmaker

from dutch_app.services.errors import Conflict, GameEnded, NotFound, ServiceError, StaleRound
from dutch_app.services.games import end_game, game_version, get_game, reopen_game, start_game
from dutch_app.services.groups import create_group, join_group
from dutch_app.services.players import list_players
from dutch_app.services.rounds import add_round, delete_round, edit_round, undo_round
from dutch_app.services.unit_of_work import perform
from dutch_app.services.views import GameView, RoundView
from dutch_app.storage.db import make_session_factory
from dutch_app.storage.models import User
from dutch_core import PRESETS, DutchError, EndCondition, GameError, HouseRules, RoundInput
from dutch_core import Game as CoreGame
from dutch_core.game import GameStatus, end_reached
from tests.integration.conftest import empty_database

NAMES = ("Olga", "Ben", "Cleo", "Dirk")
RULES = [PRESETS["classic_open"]] * 4 + [
    PRESETS["classic"],  # to 100 points
    HouseRules(end=EndCondition.after_rounds(3)),
]
"""Mostly open-ended, so that rounds pile up; now and then a game that ends by itself."""

PHONE = st.integers(0, 3)
"""A phone (or a round) by position, taken modulo how many there are."""
ENTRY = st.tuples(st.lists(st.integers(0, 40), min_size=4, max_size=4), PHONE, st.integers(0, 99))
"""A round as typed, before it is fitted to the table: hand totals by seat, the caller's seat
and where in the possible range the caller's penalty total falls."""

REFUSALS = (ServiceError, DutchError)
"""What a service may answer instead of a result; anything else is a bug."""


@dataclass(frozen=True)
class Entry:
    """A round as a phone typed it: hand totals in seat order, the caller's seat, the total
    of the caller's penalty cards (None when none are due)."""

    totals: tuple[int, ...]
    caller: int
    penalty: int | None

    @classmethod
    def of(cls, view: RoundView) -> Entry:
        """The entry a stored round was made from."""
        seats = [hand.player_id for hand in view.hands]
        penalty = None if view.penalty_text is None else int(view.penalty_text)
        totals = tuple(hand.hand_total for hand in view.hands)
        return cls(totals, seats.index(view.caller_id), penalty)


@dataclass(frozen=True)
class Saved:
    """A round in the model: what the stored round must be."""

    id: int
    version: int
    entry: Entry
    entered_by: int


@dataclass(frozen=True)
class Typed:
    """An entry on a phone's form, for round ``for_round``."""

    for_round: int
    entry: Entry


@dataclass(frozen=True)
class Refused:
    """A save a phone was refused: the game had moved on (``next_number``) or had ended."""

    entry: Entry
    next_number: int | None


@dataclass
class Phone:
    """What one phone shows: the game as it last read it, the round its form is for, the
    entry on the form, its last save and the refusal it was shown."""

    user_id: int
    shown: GameView
    next_round: int
    entry: Typed | None = None
    last_save: Typed | None = None
    refused: Refused | None = None

    @property
    def sees_rounds(self) -> bool:
        return bool(self.shown.rounds)

    @property
    def told_moved_on(self) -> bool:
        return self.refused is not None and self.refused.next_number is not None

    @property
    def told_ended(self) -> bool:
        return self.refused is not None and self.refused.next_number is None


@dataclass(frozen=True)
class Group:
    """A group of four members, each with their player: every example starts a game in it."""

    id: int
    members: tuple[int, ...]
    players: tuple[int, ...]


def a_phone(showing: str):
    """Run the rule only when some phone's ``showing`` holds."""
    return precondition(lambda self: any(getattr(phone, showing) for phone in self.phones))


class PhonesAtOneGame(RuleBasedStateMachine):
    """One game, a few phones, and the model of what the stored game must be."""

    def __init__(self, sessions: sessionmaker[Session], group: Group) -> None:
        super().__init__()
        self.sessions, self.group = sessions, group

    def call(self, service, user_id: int, *args, **kwargs):
        """``service`` run for ``user_id`` the way the app runs it: a session of its own."""
        with self.sessions() as session:
            return perform(session, service, user_id, *args, **kwargs)

    def attempt(self, service, user_id: int, *args, **kwargs):
        """A write: ``(answer, None)``, or ``(None, refusal)`` when the service refused it.

        Anything but a refusal escapes and fails the test. The checks of the answer are
        made outside the ``except``, so one wrong answer is one failure wherever it shows.
        """
        self.written = True
        try:
            return self.call(service, user_id, *args, **kwargs), None
        except REFUSALS as error:
            return None, error

    # --- set-up ---------------------------------------------------------------------------

    @initialize(phones=st.integers(2, 4), players=st.integers(2, 4), rules=st.sampled_from(RULES))
    def start(self, phones: int, players: int, rules: HouseRules) -> None:
        """A new game of the group: its first ``players`` at the table, its first ``phones``
        members keeping score."""
        owner = self.group.members[0]
        game = self.call(start_game, owner, self.group.id, self.group.players[:players], rules)
        self.game_id, self.rules = game.id, rules
        self.seats = [player.id for player in game.players]
        self.names = [player.name for player in game.players]
        self.rounds: list[Saved] = []
        self.status, self.version = GameStatus.ACTIVE, game.version
        self.phones = [Phone(user, game, next_round=1) for user in self.group.members[:phones]]
        self.written = True

    # --- the model --------------------------------------------------------------------------

    def fit(self, raw) -> Entry:
        """A drawn entry made right for this table: a penalty total when cards are due."""
        hands, caller_seat, where = raw
        totals = tuple(hands[: len(self.seats)])
        caller = caller_seat % len(totals)
        others = [total for seat, total in enumerate(totals) if seat != caller]
        due = sum(total == totals[caller] for total in others)
        due += 2 * sum(total < totals[caller] for total in others)
        if not due:
            return Entry(totals, caller, None)
        low, high = self.rules.cards_total_range(due)
        return Entry(totals, caller, low + where % (high - low + 1))

    def request(self, entry: Entry) -> tuple:
        """The arguments a page gives add_round or edit_round for ``entry``."""
        hands = {player: str(total) for player, total in zip(self.seats, entry.totals, strict=True)}
        penalty = None if entry.penalty is None else str(entry.penalty)
        return hands, self.seats[entry.caller], "dutch", penalty

    def core_game(self) -> CoreGame:
        """The game as the core scores the model's rounds."""
        inputs = [
            RoundInput.build(
                dict(zip(self.names, map(str, saved.entry.totals), strict=True)),
                caller=self.names[saved.entry.caller],
                call_type="dutch",
                penalty=saved.entry.penalty,
            )
            for saved in self.rounds
        ]
        return CoreGame.from_inputs(self.names, self.rules, inputs)

    def changed(self, is_over: bool) -> None:
        """One more change to the game; an active game whose end is reached ends."""
        self.version += 1
        if is_over and self.status is GameStatus.ACTIVE:
            self.status = GameStatus.ENDED

    def find(self, round_id: int) -> int | None:
        """The model's index of the round with this id, if it is still stored."""
        return next((i for i, saved in enumerate(self.rounds) if saved.id == round_id), None)

    def one_of(self, index: int, showing: str = "") -> Phone:
        """The ``index``-th phone (modulo) of those whose ``showing`` holds (or of all)."""
        phones = [phone for phone in self.phones if not showing or getattr(phone, showing)]
        return phones[index % len(phones)]

    def refused(self, error: Exception, expected: type[Exception] | tuple) -> None:
        """A refusal: the one the model expects, and nothing written."""
        assert isinstance(error, expected), f"{error!r}, expected {expected}"
        assert self.call(game_version, self.phones[0].user_id, self.game_id) == self.version

    def check(self, view: GameView) -> None:
        """The game as read equals the model, and its totals are the sum of its rounds."""
        assert [stored.number for stored in view.rounds] == list(range(1, len(view.rounds) + 1))
        stored = [Saved(r.id, r.version, Entry.of(r), r.entered_by) for r in view.rounds]
        assert stored == self.rounds
        assert (view.status, view.version) == (self.status, self.version)
        core = self.core_game()
        assert view.running_totals() == core.running_totals()
        assert view.totals == core.totals()
        for stored_round, scored in zip(view.rounds, core.rounds, strict=True):
            scores = {hand.player: hand.round_score for hand in stored_round.hands}
            assert scores == scored.as_dict()
        # None of RULES halves a total, so a game total is the plain sum of its round scores.
        assert view.totals == {
            name: sum(h.round_score for r in view.rounds for h in r.hands if h.player_id == player)
            for name, player in zip(self.names, self.seats, strict=True)
        }
        self.written = False

    # --- saving a round -----------------------------------------------------------------------

    def expected_save(self, user_id: int, entry: Entry, for_round: int):
        """What saving ``entry`` for round ``for_round`` must answer: "again" (the latest
        round is this very save, stored already), "new", or the class of the refusal."""
        latest = len(self.rounds)
        last = self.rounds[-1] if self.rounds else None
        if last and for_round == latest and (last.entered_by, last.entry) == (user_id, entry):
            return "again"
        if self.status is GameStatus.ENDED:
            return GameEnded
        if for_round != latest + 1:
            return StaleRound
        if end_reached(self.rules, latest, self.core_game().totals()):
            return GameError  # reopened after its end: a new game is needed
        return "new"

    def save(self, phone: Phone, entry: Entry, for_round: int) -> RoundView | Exception:
        """``add_round`` from ``phone``, its answer checked against the model."""
        expected = self.expected_save(phone.user_id, entry, for_round)
        event("save", getattr(expected, "__name__", expected))
        answer, error = self.attempt(
            add_round, phone.user_id, self.game_id, *self.request(entry), for_round=for_round
        )
        if error is not None:
            self.refused(error, expected if isinstance(expected, type) else ())
            if isinstance(error, StaleRound):
                assert (error.next_number, error.latest) == (len(self.rounds) + 1, len(self.rounds))
            return error
        assert expected in ("again", "new"), f"saved as round {answer.number}, not {expected}"
        assert Entry.of(answer) == entry
        if expected == "again":
            last = self.rounds[-1]
            assert (answer.id, answer.number, answer.version) == (last.id, for_round, last.version)
            return answer
        assert (answer.number, answer.version) == (len(self.rounds) + 1, 1)
        self.rounds.append(Saved(answer.id, answer.version, entry, phone.user_id))
        self.changed(end_reached(self.rules, len(self.rounds), self.core_game().totals()))
        assert answer.game_version == self.version
        return answer

    def save_from_form(self, phone: Phone, entry: Entry, for_round: int) -> None:
        """Save as the Play page does, then show what it shows: the next round's empty
        form, or the refusal with the entry kept."""
        answer = self.save(phone, entry, for_round)
        if isinstance(answer, RoundView):
            phone.entry, phone.refused = None, None
            phone.last_save = Typed(answer.number, entry)
            phone.next_round = answer.number + 1
        elif isinstance(answer, StaleRound):
            phone.refused = Refused(entry, answer.next_number)
        elif isinstance(answer, GameEnded):
            phone.refused = Refused(entry, None)

    @rule(phone=PHONE)
    def look(self, phone: int) -> None:
        """The phone reads the game (a live update, or the page drawn again)."""
        looking = self.one_of(phone)
        looking.shown = self.call(get_game, looking.user_id, self.game_id)
        self.check(looking.shown)
        if looking.entry is None and looking.refused is None:
            looking.next_round = looking.shown.rounds_played + 1

    @rule(phone=PHONE, raw=ENTRY)
    def type_entry(self, phone: int, raw) -> None:
        typing = self.one_of(phone)
        typing.entry, typing.refused = Typed(typing.next_round, self.fit(raw)), None

    @rule(phone=PHONE, raw=ENTRY)
    def type_and_save(self, phone: int, raw) -> None:
        """The usual turn: type the round and tap Save at once."""
        saving = self.one_of(phone)
        self.save_from_form(saving, self.fit(raw), saving.next_round)

    @a_phone("entry")
    @rule(phone=PHONE)
    def save_entry(self, phone: int) -> None:
        saving = self.one_of(phone, "entry")
        self.save_from_form(saving, saving.entry.entry, saving.entry.for_round)

    @a_phone("last_save")
    @rule(phone=PHONE)
    def save_again(self, phone: int) -> None:
        """The phone's last save reaches the server again (a second tap, or a retry after a
        lost answer): answered with the round as stored, never stored a second time."""
        again = self.one_of(phone, "last_save")
        played = len(self.rounds)
        answer = self.save(again, again.last_save.entry, again.last_save.for_round)
        if isinstance(answer, RoundView) and len(self.rounds) > played:
            # Stored anew only when the round it stored before was taken back since.
            assert again.last_save.for_round == played + 1

    @a_phone("told_moved_on")
    @rule(phone=PHONE)
    def save_refused_entry_as_next(self, phone: int) -> None:
        """After a StaleRound refusal: save the kept entry as round ``next_number``."""
        saving = self.one_of(phone, "told_moved_on")
        self.save_from_form(saving, saving.refused.entry, saving.refused.next_number)

    @a_phone("told_ended")
    @rule(phone=PHONE)
    def reopen_and_save(self, phone: int) -> None:
        """After a GameEnded refusal: reopen the game and save the kept entry."""
        saving = self.one_of(phone, "told_ended")
        saving.shown = self.call(get_game, saving.user_id, self.game_id)
        self.check(saving.shown)
        self.set_status(saving, reopen_game, GameStatus.ACTIVE)
        self.save_from_form(saving, saving.refused.entry, saving.shown.rounds_played + 1)

    @a_phone("entry")
    @rule(phone=PHONE)
    def keep_entry_for_next(self, phone: int) -> None:
        """The game moved on: keep the entry for the round the phone shows now."""
        keeping = self.one_of(phone, "entry")
        keeping.next_round = keeping.shown.rounds_played + 1
        keeping.entry = replace(keeping.entry, for_round=keeping.next_round)
        keeping.refused = None

    @rule(phone=PHONE)
    def discard(self, phone: int) -> None:
        discarding = self.one_of(phone)
        discarding.entry, discarding.refused = None, None
        discarding.next_round = discarding.shown.rounds_played + 1

    # --- changing stored rounds ---------------------------------------------------------------

    @a_phone("sees_rounds")
    @rule(phone=PHONE)
    def undo(self, phone: int) -> None:
        """Undo the latest round the phone shows, with the version it shows."""
        undoing = self.one_of(phone, "sees_rounds")
        latest = undoing.shown.rounds[-1]
        index = self.find(latest.id)
        allowed = index == len(self.rounds) - 1 and self.rounds[-1].version == latest.version
        number, error = self.attempt(
            undo_round, undoing.user_id, self.game_id, latest.id, latest.version
        )
        if error is not None:
            self.refused(error, () if allowed else Conflict)
            event("undo", "refused")
            return
        event("undo", "done")
        # Its number now: a deletion on the History page may have moved it up since it was shown.
        assert allowed and number == len(self.rounds)
        self.rounds.pop()
        played = len(self.rounds)
        self.changed(played > 0 and end_reached(self.rules, played, self.core_game().totals()))
        if undoing.next_round == number + 1:  # the form was for the round after it
            undoing.next_round = number
            if undoing.entry and undoing.entry.for_round == number + 1:
                undoing.entry = replace(undoing.entry, for_round=number)

    def seen_round(self, phone: int, which: int) -> tuple[Phone, RoundView, int | None]:
        """A phone, a round it shows, and the round's index in the model if it is still
        stored as shown."""
        acting = self.one_of(phone, "sees_rounds")
        seen = acting.shown.rounds[which % len(acting.shown.rounds)]
        index = self.find(seen.id)
        if index is not None and self.rounds[index].version != seen.version:
            index = None
        return acting, seen, index

    @a_phone("sees_rounds")
    @rule(phone=PHONE, which=st.integers(0, 99), raw=ENTRY)
    def correct(self, phone: int, which: int, raw) -> None:
        """Correct a round the phone shows (the History page), with the version it shows."""
        acting, seen, index = self.seen_round(phone, which)
        entry = self.fit(raw)
        answer, error = self.attempt(
            edit_round, acting.user_id, seen.id, seen.version, *self.request(entry)
        )
        if error is not None:
            self.refused(error, () if index is not None else (Conflict, NotFound))
            return
        assert index is not None
        event("correct", "done")
        assert (answer.id, answer.number, answer.version) == (seen.id, index + 1, seen.version + 1)
        assert Entry.of(answer) == entry
        self.rounds[index] = replace(self.rounds[index], version=answer.version, entry=entry)
        self.changed(self.core_game().is_over)

    @a_phone("sees_rounds")
    @rule(phone=PHONE, which=st.integers(0, 99))
    def delete(self, phone: int, which: int) -> None:
        """Delete a round the phone shows (the History page); later rounds move up."""
        acting, seen, index = self.seen_round(phone, which)
        _nothing, error = self.attempt(delete_round, acting.user_id, seen.id, seen.version)
        if error is not None:
            self.refused(error, () if index is not None else (Conflict, NotFound))
            return
        assert index is not None
        event("delete", "done")
        del self.rounds[index]
        self.changed(self.core_game().is_over)

    # --- ending and reopening -------------------------------------------------------------------

    def set_status(self, acting: Phone, service, status: GameStatus) -> None:
        """End or reopen the game; a game already so is left as it is."""
        view, error = self.attempt(service, acting.user_id, self.game_id)
        if error is not None:
            self.refused(error, ())
            return
        if self.status is not status:
            self.status = status
            self.version += 1
        assert (view.status, view.version) == (self.status, self.version)

    @rule(phone=PHONE, sure=st.integers(0, 3))
    def end(self, phone: int, sure: int) -> None:
        """End the game (one draw in four: games are played more than they are ended)."""
        if sure == 0:
            self.set_status(self.one_of(phone), end_game, GameStatus.ENDED)

    @precondition(lambda self: self.status is GameStatus.ENDED)
    @rule(phone=PHONE)
    def reopen(self, phone: int) -> None:
        self.set_status(self.one_of(phone), reopen_game, GameStatus.ACTIVE)

    # --- what must always hold ------------------------------------------------------------------

    @invariant()
    def the_stored_game_is_the_model(self) -> None:
        """Read after every step that wrote (or tried to): one that did not cannot change
        the stored game, and a look checks what it read anyway."""
        if self.written:
            view = self.call(get_game, self.phones[-1].user_id, self.game_id)
            event("rounds stored", min(len(view.rounds) // 5 * 5, 10))
            self.check(view)


INTERLEAVINGS = settings(max_examples=100, stateful_step_count=25, deadline=None)


def four_friends(sessions: sessionmaker[Session]) -> Group:
    """The group: Olga (its owner), Ben, Cleo and Dirk, each a member and a player."""
    members = []
    with sessions() as session:
        for name in NAMES:
            address = f"{name.lower()}@example.org"
            user = User(
                auth_provider="local", auth_subject=address, email=address, display_name=name
            )
            session.add(user)
            session.commit()
            members.append(user.id)
        group = perform(session, create_group, members[0], "Friday club")
        for member in members[1:]:
            perform(session, join_group, member, group.invite_code)
        by_user = {p.user_id: p.id for p in perform(session, list_players, members[0], group.id)}
    return Group(group.id, tuple(members), tuple(by_user[member] for member in members))


@pytest.mark.timeout(600)  # passing takes under a minute; shrinking a failure, minutes
def test_phones_interleaved_at_one_game_never_lose_double_or_misnumber_a_round(engine: Engine):
    empty_database(engine)
    sessions = make_session_factory(engine)
    group = four_friends(sessions)
    run_state_machine_as_test(lambda: PhonesAtOneGame(sessions, group), settings=INTERLEAVINGS)
