"""Slow down password guessing without letting a stranger lock the owner out.

Following OWASP's advice on authentication and credential stuffing, failures are
counted on four keys at once, each with its own free allowance after which the
next try waits, the wait doubling from one second with each further failure:

- the address *from one client* (network address): 5 free, waits up to 15 minutes;
  a successful sign-in clears it, so the owner's own typos never pile up;
- the address alone, from every client that has not signed in to it lately:
  20 free, waits up to 15 minutes, a looser ceiling against guessing from many places;
- the client alone, whatever the address: 30 free, waits up to 15 minutes, so one
  password tried over many addresses (spraying) is slowed too;
- the whole server: 1,000 free, waits up to a minute, against a flood from everywhere.

A client that signed in to an address in the last 30 days is *known* to it: its tries
count only against their own pair. So a stranger hammering someone's address from
elsewhere slows the stranger, never the owner on a device they used before. Counters
are forgotten after a day without failure (the server's after an hour), and each try
is counted *before* its password is checked (see `dutch_app.throttle`), so parallel
guesses get no further than guesses one after another.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

from sqlalchemy.orm import Session

from dutch_app import throttle
from dutch_app.accounts.base import RateLimited
from dutch_app.i18n import N_
from dutch_app.throttle import Key, Rule

SECOND, MINUTE, DAY = timedelta(seconds=1), timedelta(minutes=1), timedelta(days=1)

PAIR = Rule("signin_pair", 5, SECOND, 15 * MINUTE, DAY)
ADDRESS = Rule("signin_address", 20, SECOND, 15 * MINUTE, DAY)
CLIENT = Rule("signin_client", 30, SECOND, 15 * MINUTE, DAY)
EVERYONE = Rule("signin_all", 1000, SECOND, MINUTE, timedelta(hours=1))
KNOWN = Rule("signin_known", 0, SECOND, SECOND, DAY)  # a marker: only its expiry matters
KNOWN_FOR = timedelta(days=30)
SIGN_UPS = Rule("signup_client", 20, MINUTE, DAY, DAY)
ANONYMOUS = Rule("anonymous_client", 30, MINUTE, DAY, DAY)

NO_CLIENT = "-"
REASONS = {
    PAIR.scope: N_("Too many failed sign-ins for this address. Try again in {wait}."),
    ADDRESS.scope: N_(
        "Too many failed sign-ins for this address from new places. Sign in from a network "
        "you signed in from before, or try again in {wait}."
    ),
    CLIENT.scope: N_("Too many failed sign-ins from your network. Try again in {wait}."),
    EVERYONE.scope: N_("Too many failed sign-ins right now. Try again in {wait}."),
    SIGN_UPS.scope: N_("Too many new accounts from your network. Try again in {wait}."),
    ANONYMOUS.scope: N_("Too many new accounts from your network. Try again in {wait}."),
}

__all__ = [
    "Ticket",
    "admit_sign_in",
    "admit_sign_up",
    "settle",
]


@dataclass(frozen=True)
class Ticket:
    """A sign-in try that was counted and may now check its password."""

    pair: Key
    others: tuple[Key, ...]
    known: Key


def _refused(refusal: throttle.Refusal) -> RateLimited:
    return RateLimited(REASONS[refusal.scope], refusal.seconds)


def admit_sign_in(session: Session, address: str, client: str | None, now: datetime) -> Ticket:
    """Count a sign-in try for ``address`` from ``client``; `RateLimited` while it must wait.

    ``client`` is the network address the try comes from (None when unknown: then
    only the address and the server are counted). Commit before checking the password.
    """
    source = client or NO_CLIENT
    pair = Key(PAIR, f"{address} {source}", email=address)
    known = Key(KNOWN, f"{address} {source}", email=address)
    others: tuple[Key, ...] = ()
    if client is None or not throttle.is_remembered(session, known, now):
        others = (Key(ADDRESS, address, email=address), Key(EVERYONE, "*"))
        if client is not None:
            others += (Key(CLIENT, client),)
    refusal = throttle.admit(session, (pair, *others), now)
    if refusal is not None:
        raise _refused(refusal)
    return Ticket(pair, others, known)


def settle(session: Session, ticket: Ticket, now: datetime, succeeded: bool | None) -> None:
    """Record how a counted try ended: True (right password), False, or None (never checked).

    A failure stays counted. A success clears its address-and-client counter, takes
    itself back from the others and makes the client known to the address; a try
    that was never checked (the server was busy) is taken back everywhere.
    """
    # Every row this step touches is locked first, in one go and in the order admit_sign_in
    # locks them, so a try being settled and one being counted never wait in a circle.
    if succeeded is None:
        throttle.lock(session, (ticket.pair, *ticket.others), now)
        throttle.take_back(session, (ticket.pair, *ticket.others))
    elif succeeded:
        throttle.lock(session, (ticket.pair, ticket.known, *ticket.others), now)
        throttle.take_back(session, ticket.others)
        if not ticket.pair.value.endswith(f" {NO_CLIENT}"):
            throttle.remember(session, ticket.known, now, KNOWN_FOR)
        throttle.clear(session, ticket.pair)


def admit_sign_up(
    session: Session, client: str | None, now: datetime, rule: Rule = SIGN_UPS
) -> tuple[Key, ...]:
    """Count an account made from ``client`` (20 a day, then slower; anonymous accounts
    under ``rule`` `ANONYMOUS`: 30 a day); `RateLimited` to wait.

    Returns what was counted, for `dutch_app.throttle.take_back` when no account was made after all.
    """
    if client is None:
        return ()
    keys = (Key(rule, client),)
    refusal = throttle.admit(session, keys, now)
    if refusal is not None:
        raise _refused(refusal)
    return keys
