"""Throttled sign-in: repeated failures wait, parallel guesses are counted exactly, owners stay in.

Every limit is checked on SQLite and PostgreSQL, most of them with two backends
(two app servers) on one database and with threads that guess at the same moment.
The clock stands still unless a test moves it, so waits are tested without waiting.
"""

from __future__ import annotations

import contextlib
import sqlite3
import threading
from collections.abc import Callable
from datetime import UTC, datetime, timedelta

import pytest
from argon2 import PasswordHasher
from sqlalchemy import func, select

from dutch_app import throttle
from dutch_app.accounts import AuthFailed, HashingBusy, RateLimited, WeakPassword
from dutch_app.accounts.local import LocalBackend
from dutch_app.accounts.passwords import PasswordHashes
from dutch_app.services.games import start_game
from dutch_app.services.groups import create_group
from dutch_app.services.players import add_player, list_players
from dutch_app.services.rounds import add_round
from dutch_app.services.unit_of_work import perform
from dutch_app.storage.models import ThrottleCounter
from dutch_core import PRESETS
from tests.integration.threads import together

KEY = b"a test key that signs session tokens"
PASSWORD = "Correct horse 42"
WRONG = "Wrong horse 42"
HOME, STRANGER = "203.0.113.10", "198.51.100.66"


class StillClock:
    """A clock that stands still until a test moves it on."""

    def __init__(self) -> None:
        self.now = datetime.now(UTC).replace(microsecond=0)

    def __call__(self) -> datetime:
        return self.now

    def advance(self, **duration: float) -> None:
        self.now += timedelta(**duration)


def cheap_hashes(slots: int = 8, wait_seconds: float = 30.0) -> PasswordHashes:
    """Fast argon2id parameters, so that tests can make many attempts."""
    hasher = PasswordHasher(time_cost=1, memory_cost=1024, parallelism=1)
    return PasswordHashes(hasher, slots=slots, wait_seconds=wait_seconds)


@pytest.fixture
def clock() -> StillClock:
    return StillClock()


@pytest.fixture
def servers(sessions, clock) -> tuple[LocalBackend, LocalBackend]:
    """Two app servers (backends with their own hashing slots) on one database."""
    return tuple(
        LocalBackend(sessions, secret_key=KEY, clock=clock, hashes=cheap_hashes()) for _ in range(2)
    )


@pytest.fixture
def backend(servers) -> LocalBackend:
    return servers[0]


def kinds(outcomes: list[object]) -> dict[str, int]:
    counted: dict[str, int] = {}
    for outcome in outcomes:
        name = type(outcome).__name__
        counted[name] = counted.get(name, 0) + 1
    return counted


def fail(backend, email: str, client: str | None, times: int = 1) -> None:
    for _ in range(times):
        with pytest.raises(AuthFailed):
            backend.sign_in(email, WRONG, client=client)


# --- One address from one client -------------------------------------------------------------


def test_after_five_failures_each_further_try_waits_twice_as_long(backend, clock):
    backend.sign_up("ann@example.com", PASSWORD, "Ann")
    fail(backend, "ann@example.com", STRANGER, 5)
    with pytest.raises(RateLimited) as waiting:
        backend.sign_in("ann@example.com", PASSWORD, client=STRANGER)
    assert str(waiting.value) == (
        "Too many failed sign-ins for this address. Try again in 1 second."
    )
    assert waiting.value.field == "email"
    clock.advance(seconds=1)
    fail(backend, "ann@example.com", STRANGER)
    with pytest.raises(RateLimited, match=r"in 2 seconds\.$"):
        backend.sign_in("ann@example.com", PASSWORD, client=STRANGER)
    for expected in (2, 4, 8, 16, 32, 64, 128, 256, 512, 900, 900):
        clock.advance(seconds=expected)
        fail(backend, "ann@example.com", STRANGER)
    with pytest.raises(RateLimited, match=r"in 15 minutes\.$"):
        backend.sign_in("ann@example.com", PASSWORD, client=STRANGER)


def test_a_success_clears_the_count_of_its_client(backend, clock):
    backend.sign_up("ann@example.com", PASSWORD, "Ann")
    fail(backend, "ann@example.com", HOME, 5)
    clock.advance(seconds=1)
    assert backend.sign_in("ann@example.com", PASSWORD, client=HOME).display_name == "Ann"
    fail(backend, "ann@example.com", HOME, 5)  # five free again, no wait in between
    clock.advance(seconds=1)
    assert backend.sign_in("ann@example.com", PASSWORD, client=HOME).display_name == "Ann"


def test_a_quiet_day_forgets_the_failures(backend, clock):
    backend.sign_up("ann@example.com", PASSWORD, "Ann")
    fail(backend, "ann@example.com", STRANGER, 5)
    clock.advance(days=1, seconds=1)
    fail(backend, "ann@example.com", STRANGER, 5)


def test_parallel_guesses_from_one_client_are_counted_exactly(servers):
    """Forty guesses at the same moment, through two servers: exactly five are checked."""
    servers[0].sign_up("ann@example.com", PASSWORD, "Ann")
    jobs = [
        lambda server=servers[i % 2]: server.sign_in("ann@example.com", WRONG, client=STRANGER)
        for i in range(40)
    ]
    assert kinds(together(jobs)) == {"AuthFailed": 5, "RateLimited": 35}


def test_right_and_wrong_passwords_at_the_same_moment_never_deadlock(servers, clock):
    """Settling a right password and counting a wrong one lock rows in the same order."""
    servers[0].sign_up("ann@example.com", PASSWORD, "Ann")
    for _round in range(3):
        jobs = [
            lambda i=i: servers[i % 2].sign_in(
                "ann@example.com", PASSWORD if i % 3 else WRONG, client=HOME
            )
            for i in range(24)
        ]
        outcomes = together(jobs)
        assert set(kinds(outcomes)) <= {"Account", "AuthFailed", "RateLimited"}, outcomes
        # Some tries were checked. Which ones came first is up to the threads: after a
        # wrong one the rest may all have to wait, and that is the rule working.
        assert {"Account", "AuthFailed"} & set(kinds(outcomes)), outcomes
        clock.advance(days=1, minutes=1)  # the counters are forgotten: a fresh round


def test_parallel_guesses_from_many_clients_meet_the_address_ceiling_exactly(servers):
    """Forty clients guessing one address at once: twenty get a password checked."""
    servers[0].sign_up("ann@example.com", PASSWORD, "Ann")
    jobs = [
        lambda i=i: servers[i % 2].sign_in("ann@example.com", WRONG, client=f"192.0.2.{i}")
        for i in range(40)
    ]
    outcomes = together(jobs)
    assert kinds(outcomes) == {"AuthFailed": 20, "RateLimited": 20}
    refused = {str(o) for o in outcomes if isinstance(o, RateLimited)}
    assert refused == {
        "Too many failed sign-ins for this address from new places. Sign in from a network "
        "you signed in from before, or try again in 1 second."
    }


# --- The owner and the stranger --------------------------------------------------------------


def test_a_stranger_hammering_an_address_does_not_lock_the_owner_out(servers, clock):
    owner_server, stranger_server = servers
    owner_server.sign_up("ann@example.com", PASSWORD, "Ann")
    owner_server.sign_in("ann@example.com", PASSWORD, client=HOME)  # Ann's usual network

    # The stranger guesses from 30 addresses (a botnet), 5 guesses each, on another server.
    for bot in range(30):
        for _ in range(5):
            with contextlib.suppress(AuthFailed, RateLimited):
                stranger_server.sign_in("ann@example.com", WRONG, client=f"192.0.2.{bot}")
    with pytest.raises(RateLimited, match="from new places"):
        stranger_server.sign_in("ann@example.com", PASSWORD, client="192.0.2.200")

    # Ann, on her usual network, is not slowed at all, even after two typos of her own.
    fail(owner_server, "ann@example.com", HOME, 2)
    assert owner_server.sign_in("ann@example.com", PASSWORD, client=HOME).display_name == "Ann"


def test_the_owner_signs_in_while_strangers_hammer_the_address_at_the_same_moment(servers):
    """Four threads guess Ann's password from 200 networks through one server while Ann
    signs in again and again from her usual network through the other."""
    owner_server, stranger_server = servers
    owner_server.sign_up("ann@example.com", PASSWORD, "Ann")
    owner_server.sign_in("ann@example.com", PASSWORD, client=HOME)
    done = threading.Event()

    def hammer(thread: int) -> Callable[[], dict[str, int]]:
        def job() -> dict[str, int]:
            answers: list[object] = []
            for attempt in range(50):
                if done.is_set() and attempt > 10:
                    break
                try:
                    client = f"192.0.{thread}.{attempt}"
                    stranger_server.sign_in("ann@example.com", WRONG, client=client)
                except (AuthFailed, RateLimited) as error:
                    answers.append(error)
            return kinds(answers)

        return job

    def owner() -> list[str]:
        try:
            return [
                owner_server.sign_in("ann@example.com", PASSWORD, client=HOME).display_name
                for _ in range(5)
            ]
        finally:
            done.set()

    outcomes = together([*(hammer(t) for t in range(4)), owner])
    assert outcomes[-1] == ["Ann"] * 5
    strangers_checked = sum(o.get("AuthFailed", 0) for o in outcomes[:-1])
    assert strangers_checked == 20  # the address's ceiling for new networks, exactly
    assert sum(o.get("RateLimited", 0) for o in outcomes[:-1]) > 0


def test_a_known_network_is_forgotten_after_thirty_days_without_a_sign_in(backend, clock):
    backend.sign_up("ann@example.com", PASSWORD, "Ann")
    backend.sign_in("ann@example.com", PASSWORD, client=HOME)
    clock.advance(days=31)
    for bot in range(20):
        fail(backend, "ann@example.com", f"192.0.2.{bot}")
    with pytest.raises(RateLimited, match="from new places"):
        backend.sign_in("ann@example.com", PASSWORD, client=HOME)


# --- One client, many addresses --------------------------------------------------------------


def test_one_password_sprayed_over_many_addresses_is_slowed(servers, clock):
    for number in range(3):
        servers[0].sign_up(f"user{number}@example.com", PASSWORD, f"User {number}")
    for number in range(30):
        fail(servers[number % 2], f"user{number}@example.com", STRANGER)
    with pytest.raises(RateLimited) as waiting:
        servers[1].sign_in("user0@example.com", PASSWORD, client=STRANGER)
    assert str(waiting.value) == (
        "Too many failed sign-ins from your network. Try again in 1 second."
    )
    # Another network is not slowed by it.
    assert servers[0].sign_in("user0@example.com", PASSWORD, client=HOME).display_name == "User 0"


def test_everyone_together_meets_the_server_ceiling(backend, clock, monkeypatch):
    monkeypatch.setattr(
        "dutch_app.accounts.ratelimit.EVERYONE",
        throttle.Rule("signin_all", 10, timedelta(seconds=1), timedelta(minutes=1), timedelta(1)),
    )
    for number in range(10):
        fail(backend, f"user{number}@example.com", f"192.0.2.{number}")
    with pytest.raises(RateLimited, match=r"^Too many failed sign-ins right now\."):
        backend.sign_in("other@example.com", PASSWORD, client="192.0.2.99")


# --- No slow work while holding the database ------------------------------------------------


@pytest.mark.parametrize("database", ["sqlite"], indirect=True)  # SQLite's one write lock
def test_no_password_is_checked_while_the_database_is_locked(sessions, clock, database):
    """While a password is being hashed, another writer gets the SQLite write lock at once."""
    probes: list[str] = []
    path = database.removeprefix("sqlite:///")

    class Probing(PasswordHashes):
        def matches(self, stored, password):
            probe = sqlite3.connect(path, timeout=0, isolation_level=None)
            try:
                probe.execute("BEGIN IMMEDIATE")
                probe.execute("ROLLBACK")
                probes.append("free")
            except sqlite3.OperationalError as error:
                probes.append(str(error))
            finally:
                probe.close()
            return super().matches(stored, password)

    hasher = PasswordHasher(time_cost=1, memory_cost=1024, parallelism=1)
    backend = LocalBackend(sessions, secret_key=KEY, clock=clock, hashes=Probing(hasher))
    backend.sign_up("ann@example.com", PASSWORD, "Ann")
    fail(backend, "ann@example.com", STRANGER)
    backend.sign_in("ann@example.com", PASSWORD, client=HOME)
    ann = backend.sign_in("ann@example.com", PASSWORD, client=HOME)
    backend.change_password(ann.user_id, PASSWORD, "Battery staple 77")
    assert probes == ["free"] * 4


@pytest.mark.real_password_cost
def test_a_round_is_saved_while_wrong_sign_ins_flood_the_server(sessions, clock, database):
    """Six threads of wrong sign-ins (real argon2id cost) and a member saving rounds."""
    backend = LocalBackend(sessions, secret_key=KEY, clock=clock)  # default cost and slots
    ann = backend.sign_up("ann@example.com", PASSWORD, "Ann")
    with sessions() as session:
        group = perform(session, create_group, ann.user_id, "Friday club")
        own = perform(
            session, list_players, ann.user_id, group.id
        )  # Ann is the group's first player
        seated = [own[0].id] + [
            perform(session, add_player, ann.user_id, group.id, n).id for n in ("Bo", "Cy")
        ]
        game = perform(session, start_game, ann.user_id, group.id, seated, PRESETS["classic_open"])
    stop = threading.Event()

    def flood(thread: int) -> Callable[[], int]:
        def job() -> int:
            tries = 0
            while not stop.is_set():
                address = f"guess{thread}-{tries}@example.com"
                with contextlib.suppress(AuthFailed, RateLimited, HashingBusy):
                    backend.sign_in(address, WRONG, client=f"10.0.{thread}.{tries % 250}")
                tries += 1
            return tries

        return job

    def save_rounds() -> list[int]:
        try:
            numbers = []
            hands = {seated[0]: "1", seated[1]: "9", seated[2]: "9"}
            for _ in range(5):
                with sessions() as session:
                    made = perform(
                        session, add_round, ann.user_id, game.id, hands, seated[0], "dutch"
                    )
                numbers.append(made.number)
            return numbers
        finally:
            stop.set()

    outcomes = together([*(flood(t) for t in range(6)), save_rounds])
    assert outcomes[-1] == [1, 2, 3, 4, 5]
    assert all(isinstance(tries, int) and tries > 0 for tries in outcomes[:-1]), outcomes


# --- Bounded hashing -------------------------------------------------------------------------


def test_a_sign_in_finding_every_hashing_slot_taken_is_told_to_retry_and_not_counted(
    sessions, clock
):
    hashes = cheap_hashes(slots=1, wait_seconds=0.05)
    backend = LocalBackend(sessions, secret_key=KEY, clock=clock, hashes=hashes)
    backend.sign_up("ann@example.com", PASSWORD, "Ann")
    with hashes.slot():
        for _ in range(10):
            with pytest.raises(HashingBusy, match="busy right now"):
                backend.sign_in("ann@example.com", WRONG, client=STRANGER)
    fail(backend, "ann@example.com", STRANGER, 5)  # the busy answers were not failures
    with pytest.raises(RateLimited):
        backend.sign_in("ann@example.com", PASSWORD, client=STRANGER)


# --- Housekeeping ----------------------------------------------------------------------------


def test_deleting_the_account_forgets_its_counters(backend, sessions):
    ann = backend.sign_up("ann@example.com", PASSWORD, "Ann")
    fail(backend, "ann@example.com", STRANGER, 2)
    backend.sign_in("ann@example.com", PASSWORD, client=HOME)
    backend.delete_account(ann.user_id, PASSWORD)
    with sessions() as session:
        about_someone = select(ThrottleCounter.scope).where(ThrottleCounter.email.is_not(None))
        assert list(session.scalars(about_someone)) == []


def test_counters_whose_time_is_over_are_deleted(backend, sessions, clock):
    fail(backend, "ann@example.com", STRANGER, 3)
    with sessions() as session, session.begin():
        assert throttle.forget_expired(session, clock() + timedelta(hours=2)) == 1  # the server's
    with sessions() as session, session.begin():
        assert throttle.forget_expired(session, clock() + timedelta(days=2)) == 3
    with sessions() as session:
        assert session.scalar(select(func.count()).select_from(ThrottleCounter)) == 0


# --- Sign-up that tells nothing --------------------------------------------------------------


def test_register_answers_alike_whether_or_not_the_address_has_an_account(backend, sessions):
    assert backend.register("ann@example.com", PASSWORD, "Ann", client=HOME) is None
    assert backend.register("ANN@example.com", "Impostor pass 9", "Eve", client=STRANGER) is None
    with pytest.raises(AuthFailed):
        backend.sign_in("ann@example.com", "Impostor pass 9", client=STRANGER)
    assert backend.sign_in("ann@example.com", PASSWORD, client=HOME).display_name == "Ann"


def test_register_does_the_same_slow_work_whether_or_not_the_address_is_taken(sessions, clock):
    """Both answers hash the password once and write nothing else slow, so the time of
    the answer does not tell either (measured by the work done, not by a stopwatch)."""
    hashed: list[str] = []

    class Counting(PasswordHashes):
        def hash(self, password: str) -> str:
            hashed.append(password)
            return super().hash(password)

    hasher = PasswordHasher(time_cost=1, memory_cost=1024, parallelism=1)
    backend = LocalBackend(sessions, secret_key=KEY, clock=clock, hashes=Counting(hasher))
    backend.register("ann@example.com", PASSWORD, "Ann", client=HOME)
    backend.register("ann@example.com", "Impostor pass 9", "Eve", client=STRANGER)
    assert hashed == [PASSWORD, "Impostor pass 9"]


def test_many_sign_ups_from_one_network_are_slowed(backend, clock):
    for _ in range(25):  # refused input makes no account and is not counted
        with pytest.raises(WeakPassword):
            backend.register("ann@example.com", "short", "Ann", client=STRANGER)
    for number in range(20):
        backend.register(f"user{number}@example.com", PASSWORD, "Someone", client=STRANGER)
    with pytest.raises(RateLimited, match=r"^Too many new accounts from your network\. "):
        backend.register("one.more@example.com", PASSWORD, "Someone", client=STRANGER)
    backend.register("one.more@example.com", PASSWORD, "Someone", client=HOME)
    clock.advance(minutes=1)
    backend.register("and.another@example.com", PASSWORD, "Someone", client=STRANGER)


def test_counted_tries_now_and_then_delete_old_counters(backend, sessions, clock, monkeypatch):
    fail(backend, "ann@example.com", STRANGER, 3)
    clock.advance(days=2)
    monkeypatch.setattr(throttle, "CLEAN_UP_CHANCE", 1.0)
    fail(backend, "bob@example.com", HOME)
    with sessions() as session:
        keys = set(session.scalars(select(ThrottleCounter.key)))
    assert keys == {"bob@example.com", "bob@example.com 203.0.113.10", HOME, "*"}
