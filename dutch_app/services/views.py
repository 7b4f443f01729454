"""What services return: small frozen snapshots, safe to keep after the session is gone.

Times are timezone-aware UTC datetimes on every database.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date, datetime, timedelta
from enum import StrEnum
from typing import TYPE_CHECKING, NamedTuple

from dutch_core.game import GameStatus, dealer_seat, game_length
from dutch_core.round_input import CallType
from dutch_core.scoring import Outcome
from dutch_core.seasons import NamedSeason, SeasonKind

if TYPE_CHECKING:
    from dutch_core import HouseRules, Standing


class Role(StrEnum):
    """What a member may do in a group (stored as its value)."""

    OWNER = "owner"
    """Sees the invite code, removes members, deletes any game."""
    MEMBER = "member"
    """Plays: scores rounds, corrects them, reads the history and statistics."""


def stamp(cache_key: str, data_version: int) -> str:
    """A group's cache key and data version in one string (see `GroupView.cache_stamp`).

    >>> stamp("ab12", 7)
    'ab12.7'
    """
    return f"{cache_key}.{data_version}"


class MemberView(NamedTuple):
    """A member of a group: ``(user_id, display_name, role)``."""

    user_id: int
    display_name: str
    role: Role


@dataclass(frozen=True)
class GroupView:
    """A group as one of its members sees it.

    ``invite_code`` is shown to the owner only (None for other members);
    ``data_version`` changes whenever anything in the group changes; ``cache_key``
    is random and never belongs to another group, even one that had the same id.
    """

    id: int
    name: str
    role: Role
    invite_code: str | None
    members: tuple[MemberView, ...]
    data_version: int
    cache_key: str = field(repr=False)
    is_demo: bool = False

    @property
    def cache_stamp(self) -> str:
        """What caches of the group's data are keyed by: its cache key and data version.

        Never an id: a new group may get a deleted group's id and reach the same
        version, but never its cache key.
        """
        return stamp(self.cache_key, self.data_version)


@dataclass(frozen=True)
class PlayerView:
    """A player of a group, optionally linked to a member's account."""

    id: int
    name: str
    user_id: int | None


@dataclass(frozen=True)
class PlayerOffer:
    """What the Group page offers a member who has no player in the group yet.

    ``match`` is an unlinked player with the member's display name (ignoring case),
    who may be them: they are asked, never linked without asking. ``new_name`` is the
    name a new player of theirs would get.
    """

    match: PlayerView | None
    new_name: str


@dataclass(frozen=True)
class PlayerRename:
    """One of a person's players, renamed after their display name (or left as it was).

    ``renamed`` is False when the group has another player of the new name already.
    """

    group_name: str
    old_name: str
    new_name: str
    renamed: bool


@dataclass(frozen=True)
class GameDefaults:
    """What a new game's set-up starts from: the last game's players (in seat order) and
    house rules, or, before the group's first game, its members' players."""

    player_ids: tuple[int, ...]
    rules: HouseRules | None


@dataclass(frozen=True)
class HandView:
    """One player's line in a round: the hand as entered and the scores the core computed.

    ``cards`` is the canonical card text ("" for an empty hand), or None when the
    hand was entered as a total.
    """

    player_id: int
    player: str
    seat: int
    cards: str | None
    hand_total: int
    penalty_points: int
    round_score: int
    is_caller: bool
    game_total: int

    @property
    def hand_text(self) -> str:
        """The hand as it can be entered again: the cards, or the total."""
        return self.cards if self.cards is not None else str(self.hand_total)


@dataclass(frozen=True)
class RoundView:
    """A stored round; pass ``version`` back when editing or deleting it."""

    id: int
    game_id: int
    number: int
    caller_id: int | None
    caller: str | None
    call_type: CallType | None
    outcome: Outcome | None
    penalty_text: str | None
    penalty_cards_due: int
    entered_by: int | None
    entered_at: datetime
    edited_at: datetime | None
    version: int
    hands: tuple[HandView, ...]
    game_version: int | None = field(default=None, compare=False)
    """The game's version once this round was stored, where the call that stored it says
    (:func:`dutch_app.services.rounds.add_round`): what a page that saved it draws next.
    Not part of the round itself, so not compared."""


@dataclass(frozen=True)
class Seating:
    """A game's players in seat order and its house rules: what checking a round needs."""

    game_id: int
    players: tuple[PlayerView, ...]
    rules: HouseRules


@dataclass(frozen=True)
class GameView:
    """A game with its rounds as stored, each hand with its player's game total after it.

    ``rounds`` may hold only the latest of the ``rounds_played`` rounds (the Play page
    asks for a window of them). ``totals`` are the game totals after the last round (by
    name, in seat order); ``standings`` and ``winners`` rank them with the core's rules
    (lowest total first). Nothing is scored again to show a game: the totals were
    stored with each round.
    """

    id: int
    group_id: int
    players: tuple[PlayerView, ...]
    rules: HouseRules
    status: GameStatus
    started_at: datetime
    ended_at: datetime | None
    notes: str
    version: int
    rounds: tuple[RoundView, ...]
    rounds_played: int
    totals: dict[str, int]
    standings: tuple[Standing, ...]
    is_over: bool
    winners: tuple[str, ...]

    def running_totals(self) -> list[dict[str, int]]:
        """The game totals after each round of ``rounds`` by name, in seat order, as stored."""
        return [{hand.player: hand.game_total for hand in stored.hands} for stored in self.rounds]

    @property
    def dealer(self) -> str:
        """The player who deals the next round (the deal moves one seat on each round)."""
        return self.players[dealer_seat(self.rounds_played + 1, len(self.players))].name

    @property
    def length(self) -> timedelta | None:
        """How long the game has been played (see :func:`dutch_core.game.game_length`);
        ``rounds`` always holds the latest round, whatever its window."""
        return game_length(self.started_at, self.rounds[-1].entered_at if self.rounds else None)


@dataclass(frozen=True)
class GameSummary:
    """A line in the list of games: players in seat order with their game totals."""

    id: int
    group_id: int
    status: GameStatus
    started_at: datetime
    ended_at: datetime | None
    notes: str
    players: tuple[str, ...]
    totals: tuple[int, ...]
    rounds_played: int
    version: int
    last_round_at: datetime | None = None
    """When the last round was entered (None before the first round)."""

    @property
    def length(self) -> timedelta | None:
        """How long the game has been played (see :func:`dutch_core.game.game_length`)."""
        return game_length(self.started_at, self.last_round_at)

    @property
    def leaders(self) -> tuple[str, ...]:
        """The players with the lowest total (the winners once the game has ended)."""
        if not self.rounds_played:
            return ()
        low = min(self.totals)
        return tuple(
            name for name, total in zip(self.players, self.totals, strict=True) if total == low
        )


@dataclass(frozen=True)
class NamedSeasonView:
    """A season a group's owner named: from ``starts_on`` to the next one's start."""

    id: int
    name: str
    starts_on: date


@dataclass(frozen=True)
class SeasonsView:
    """How a group cuts its games into seasons: the kind, and its named seasons by start."""

    kind: SeasonKind = SeasonKind.QUARTER
    named: tuple[NamedSeasonView, ...] = ()

    def core_seasons(self) -> tuple[NamedSeason, ...]:
        """The named seasons as the statistics take them."""
        return tuple(NamedSeason(season.name, season.starts_on) for season in self.named)
