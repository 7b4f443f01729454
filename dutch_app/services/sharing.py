"""Showing one game's result outside the group: a read-only link that needs no account.

A member makes a link for a game of their group; it carries a random token of which only the
SHA-256 hash is stored, so reading the database gives nobody a working link. Anyone with the
link sees the game's player names, totals and round scores, who called in each round,
who deals next and how long the game has been played, and nothing else of the group (no
group name, notes, cards, members, who saved a round, or other games). A game has at most
one link: making a new one ends the old, and any member can end it. Removing a member ends
the links they made, so someone the group took out cannot keep reading its games. An
unknown token, a mistyped one and one whose link was ended get the same answer, and every try
is counted per network like wrong invite codes, so tokens cannot be guessed at speed.

Opening a link costs the same for a game of 10 rounds and one of 20,000: the link is looked
up (one row), and the view holds the standings and only the latest :data:`SHARED_ROUNDS`
rounds. Looking up is apart from reading (:func:`open_share_link`, then
:func:`read_shared_game`), so that a page can keep the view per game version and read it
once for any number of visits; visits of working links are counted per network too, with a
larger allowance than failed tries, so a link posted somewhere busy cannot keep a server
reading. A page that shows the link live (a TV at the table) counts one visit when it opens
the link and then follows it with :func:`follow_share_link`, which reads only the game's
version.
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass, field
from datetime import datetime, timedelta

from sqlalchemy import delete, select
from sqlalchemy.orm import Session

from dutch_app import throttle
from dutch_app.i18n import N_, _
from dutch_app.services._access import game_for
from dutch_app.services._present import game_view
from dutch_app.services.errors import LimitReached, ServiceError
from dutch_app.services.unit_of_work import in_steps, read, write, writes
from dutch_app.services.views import GameView
from dutch_app.storage.models import Game, SharedGame, as_utc, token_hash, utcnow
from dutch_app.throttle import Key, Rule
from dutch_core import CallType, EndCondition, GameStatus, Outcome, Standing

QUERY_PARAMETER = "game"
TOKEN_BYTES = 32
LINK_TRIES_FROM = Rule(
    "share_client", 30, timedelta(seconds=1), timedelta(minutes=15), timedelta(days=1)
)
"""Tries of unknown links from one network: 30 free, then waits doubling up to 15 minutes."""
LINK_VISITS_FROM = Rule(
    "share_visit", 300, timedelta(seconds=1), timedelta(minutes=1), timedelta(minutes=10)
)
"""Visits of working links from one network: 300 with no ten quiet minutes between them,
then waits doubling up to a minute (a group chat opening a link is far below that)."""
SHARED_ROUNDS = 10
"""The latest rounds a shared view shows (the standings are the whole game's)."""


LINK_INVALID = N_(
    "This link to a game does not work: it may have been mistyped, or the group ended it. "
    "Ask whoever sent it for a new one."
)


class ShareLinkInvalid(ServiceError, LookupError):
    """The link is unknown, mistyped or ended: one answer for all three."""

    def __init__(self) -> None:
        super().__init__(_(LINK_INVALID))


@dataclass(frozen=True)
class SharedRound:
    """One round as a shared result shows it: each player's round score and game total,
    and who called how (None when nobody called: the deck ran out)."""

    number: int
    scores: tuple[int, ...]
    totals: tuple[int, ...]
    caller: str | None = None
    call_type: CallType | None = None
    outcome: Outcome | None = None


@dataclass(frozen=True)
class SharedGameView:
    """What a shared result shows: names in seat order, the standings and the rounds."""

    players: tuple[str, ...]
    standings: tuple[Standing, ...]
    rounds: tuple[SharedRound, ...]
    finished: bool
    winners: tuple[str, ...]
    ended_at: datetime | None
    rounds_played: int
    """How many rounds the game has; ``rounds`` holds the latest of them."""
    dealer: str = ""
    """Who deals the next round."""
    end: EndCondition = field(default_factory=EndCondition.open)
    """When the game ends (its progress towards that end is shown)."""
    length: timedelta | None = None
    """How long the game has been played, from its start to its latest round."""


@dataclass(frozen=True)
class SharedLink:
    """A working link as looked up: its token's hash, its game and the game's version
    (what a shared view can be kept under until the game changes)."""

    digest: str
    game_id: int
    version: int


@dataclass(frozen=True)
class ShareLinkState:
    """Whether a game has a read-only link, and since when."""

    game_id: int
    made_at: datetime | None

    @property
    def exists(self) -> bool:
        """True while the game has a working link."""
        return self.made_at is not None


def shared_view(game: GameView) -> SharedGameView:
    """The part of a game that a shared result shows (names, totals, round scores) of the
    rounds ``game`` holds (all of them, or a window of the latest)."""
    names = tuple(player.name for player in game.players)
    rounds = []
    for stored in game.rounds:
        by_name = {hand.player: hand for hand in stored.hands}
        rounds.append(
            SharedRound(
                stored.number,
                tuple(by_name[name].round_score for name in names),
                tuple(by_name[name].game_total for name in names),
                stored.caller,
                stored.call_type,
                stored.outcome,
            )
        )
    return SharedGameView(
        players=names,
        standings=game.standings,
        rounds=tuple(rounds),
        finished=game.status is GameStatus.ENDED or game.is_over,
        winners=game.winners,
        ended_at=game.ended_at,
        rounds_played=game.rounds_played,
        dealer=game.dealer,
        end=game.rules.end,
        length=game.length,
    )


def share_link_state(session: Session, user_id: int, game_id: int) -> ShareLinkState:
    """Whether the game (of one of the user's groups) has a read-only link."""
    game = game_for(session, user_id, game_id)
    made = session.scalar(select(SharedGame.created_at).where(SharedGame.game_id == game.id))
    return ShareLinkState(game.id, as_utc(made) if made is not None else None)


@writes
def make_share_link(session: Session, user_id: int, game_id: int) -> str:
    """A new read-only link's token for the game; an earlier link of the game stops working.

    The token is returned this once and never stored.
    """
    game = game_for(session, user_id, game_id, lock=True)
    token = secrets.token_urlsafe(TOKEN_BYTES)
    session.execute(delete(SharedGame).where(SharedGame.game_id == game.id))
    session.add(SharedGame(game_id=game.id, token_hash=token_hash(token), created_by=user_id))
    session.flush()
    return token


@writes
def end_share_link(session: Session, user_id: int, game_id: int) -> None:
    """End the game's read-only link (nothing happens when it has none)."""
    game = game_for(session, user_id, game_id, lock=True)
    session.execute(delete(SharedGame).where(SharedGame.game_id == game.id))


def end_links_made_by(session: Session, group_id: int, user_id: int) -> None:
    """End every link ``user_id`` made for a game of the group (a step of removing them)."""
    session.execute(
        delete(SharedGame).where(
            SharedGame.created_by == user_id,
            SharedGame.game_id.in_(select(Game.id).where(Game.group_id == group_id)),
        )
    )


@in_steps
def open_share_link(session: Session, token: object, *, client: str | None) -> SharedLink:
    """The working link of ``token``: its game and the game's version (no rounds read).

    Every try is counted per ``client`` network before the token is looked up: a failed
    one against :data:`LINK_TRIES_FROM`, a good one against :data:`LINK_VISITS_FROM`. An
    unknown, mistyped or ended token raises the same :class:`ShareLinkInvalid`.
    """
    network = client or "unknown"
    tries, visits = Key(LINK_TRIES_FROM, network), Key(LINK_VISITS_FROM, network)
    write(session, _count_try, [tries, visits])
    digest = token_hash(token) if isinstance(token, str) and 0 < len(token) <= 200 else ""
    link = read(session, _link, digest)
    write(session, throttle.take_back, [tries])
    return link


def read_shared_game(session: Session, link: SharedLink) -> SharedGameView:
    """What the link shows: the standings and the latest :data:`SHARED_ROUNDS` rounds.

    ``link`` comes from :func:`open_share_link`; a link ended since raises
    :class:`ShareLinkInvalid`.
    """
    game = _linked_game(session, link.digest if isinstance(link, SharedLink) else "")
    return shared_view(game_view(session, game, SHARED_ROUNDS))


def follow_share_link(session: Session, link: SharedLink) -> SharedLink:
    """The link as it stands now, with its game's current version (one indexed query,
    nothing counted): for a page that opened ``link`` with :func:`open_share_link` and
    follows the game live. A link ended since raises :class:`ShareLinkInvalid`."""
    return _link(session, link.digest if isinstance(link, SharedLink) else "")


def _count_try(session: Session, keys: list[Key]) -> None:
    refusal = throttle.admit(session, keys, utcnow())
    if refusal is None:
        return
    if refusal.scope == LINK_VISITS_FROM.scope:
        message = _("Too many visits of games from your network. Try again in {wait}.")
    else:
        message = _("Too many tries of links to games from your network. Try again in {wait}.")
    raise LimitReached(message.format(wait=throttle.spell_wait(refusal.seconds)))


def _linked_game(session: Session, digest: str) -> Game:
    game = session.scalars(
        select(Game)
        .join(SharedGame, SharedGame.game_id == Game.id)
        .where(SharedGame.token_hash == digest)
    ).one_or_none()
    if game is None:
        raise ShareLinkInvalid()
    return game


def _link(session: Session, digest: str) -> SharedLink:
    found = session.execute(
        select(Game.id, Game.version)
        .join(SharedGame, SharedGame.game_id == Game.id)
        .where(SharedGame.token_hash == digest)
    ).one_or_none()
    if found is None:
        raise ShareLinkInvalid()
    return SharedLink(digest, found.id, found.version)
