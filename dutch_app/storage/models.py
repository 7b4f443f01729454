"""The tables, as SQLAlchemy 2 typed ORM models.

Only an email address and a display name are kept about a person; a password
hash exists only for the local account store. An anonymous account (someone playing
without signing up) has no email address and no password: only a random id.

A group owns its players and games. A game keeps a snapshot of its house rules
and its players in seat order; a round keeps the input as entered (hand text or
total, caller, call type, penalty) together with the scores the core computed
from that input, so that reading a game never needs the core to re-score.
"""

from __future__ import annotations

import hashlib
import secrets
from datetime import UTC, date, datetime
from typing import Any, overload

from sqlalchemy import (
    JSON,
    Boolean,
    Date,
    DateTime,
    ForeignKey,
    Identity,
    Index,
    Integer,
    MetaData,
    String,
    Text,
    UniqueConstraint,
    false,
)
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column

# Constraint names are spelled out so that migrations can refer to them on every database.
NAMING_CONVENTION = {
    "ix": "ix_%(column_0_label)s",
    "uq": "uq_%(table_name)s_%(column_0_N_name)s",
    "ck": "ck_%(table_name)s_%(constraint_name)s",
    "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
    "pk": "pk_%(table_name)s",
}

# References to a player are checked at commit: deleting a group removes its players
# and its games in one statement, in an order the database chooses.
CHECKED_AT_COMMIT: dict[str, Any] = {"deferrable": True, "initially": "DEFERRED"}

# Ids are never handed out twice, even after the row with the highest id is deleted:
# SQLite's AUTOINCREMENT and PostgreSQL's identity columns both keep counting. A saved
# session, an open tab or a stale form that names a deleted row can then never reach
# a newer row that happens to get the same number.
NEVER_REUSED: dict[str, Any] = {"sqlite_autoincrement": True}


def surrogate_key() -> Mapped[int]:
    """An integer primary key whose values are never reused (see :data:`NEVER_REUSED`)."""
    return mapped_column(Integer, Identity(), primary_key=True)


def random_token() -> str:
    """32 random bytes as hex: a session secret or a cache key."""
    return secrets.token_hex(32)


def token_hash(token: str) -> str:
    """What the database keeps of a token (a password-reset or shared link's): its SHA-256,
    in hex. Any text hashes, even one with a lone surrogate (a link can bring anything).

    >>> token_hash("a" * 43)[:16]
    '66d34fba71f8f450'
    """
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


def utcnow() -> datetime:
    """The current time, timezone-aware in UTC."""
    return datetime.now(UTC)


@overload
def as_utc(moment: datetime) -> datetime: ...
@overload
def as_utc(moment: None) -> None: ...
@overload
def as_utc(moment: datetime | None) -> datetime | None: ...
def as_utc(moment: datetime | None) -> datetime | None:
    """A stored time as an aware UTC datetime (SQLite hands them back without a zone)."""
    if moment is None:
        return None
    if moment.tzinfo is None:
        return moment.replace(tzinfo=UTC)
    return moment.astimezone(UTC)


class Base(DeclarativeBase):
    """Base of every model; Alembic reads ``Base.metadata``."""

    metadata = MetaData(naming_convention=NAMING_CONVENTION)


class User(Base):
    """A person who can sign in, or an anonymous account (no email, no password) that
    lives in one browser's session cookie until its person adds an email and password."""

    __tablename__ = "users"
    __table_args__ = (UniqueConstraint("auth_provider", "auth_subject"), NEVER_REUSED)

    id: Mapped[int] = surrogate_key()
    auth_provider: Mapped[str] = mapped_column(String(16))
    auth_subject: Mapped[str] = mapped_column(String(128))
    email: Mapped[str | None] = mapped_column(String(320), unique=True)
    display_name: Mapped[str] = mapped_column(String(80))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    session_epoch: Mapped[int] = mapped_column(Integer, default=0)
    # Bound into the signature of every session token; a new one ends every session.
    session_secret: Mapped[str] = mapped_column(String(64), default=random_token)
    # Anonymous accounts unused for a while are deleted (dutch_app.accounts.anonymous);
    # last_seen_at is when the person last opened the app, kept to the day.
    is_anonymous: Mapped[bool] = mapped_column(Boolean, server_default=false())
    last_seen_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))


class LocalCredential(Base):
    """The argon2id password hash of a local account."""

    __tablename__ = "local_credentials"

    user_id: Mapped[int] = mapped_column(
        ForeignKey("users.id", ondelete="CASCADE"), primary_key=True
    )
    password_hash: Mapped[str] = mapped_column(String(256))
    updated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class PasswordReset(Base):
    """A one-time link to choose a new password for a local account.

    Only the SHA-256 hash of the link's random token is kept, so reading the
    database gives nobody a working link. A link ends when it is used, when it
    expires, or when a newer one is made for the same account.
    """

    __tablename__ = "password_resets"
    __table_args__ = (Index("ix_password_resets_user_id", "user_id"), NEVER_REUSED)

    id: Mapped[int] = surrogate_key()
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"))
    token_hash: Mapped[str] = mapped_column(String(64), unique=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    expires_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    used_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))


class ThrottleCounter(Base):
    """How many failures one key (an address, a client, an address from one client, …)
    has had lately, and until when its next try must wait.

    ``scope`` says what the key is (``signin_pair``, ``invite_user``, ``signin_known``, …);
    a row is meaningless once ``expires_at`` has passed and is then deleted. ``email`` is
    set on rows about one address, so that deleting the account forgets them.
    """

    __tablename__ = "throttle_counters"
    __table_args__ = (
        Index("ix_throttle_counters_expires_at", "expires_at"),
        Index("ix_throttle_counters_email", "email"),
    )

    scope: Mapped[str] = mapped_column(String(16), primary_key=True)
    key: Mapped[str] = mapped_column(String(400), primary_key=True)
    email: Mapped[str | None] = mapped_column(String(320))
    failures: Mapped[int] = mapped_column(Integer, default=0)
    blocked_until: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    expires_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class Group(Base):
    """A circle of people who play together and share their players and games."""

    __tablename__ = "groups"
    __table_args__ = NEVER_REUSED

    id: Mapped[int] = surrogate_key()
    name: Mapped[str] = mapped_column(String(80))
    invite_code: Mapped[str] = mapped_column(String(32), unique=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    created_by: Mapped[int | None] = mapped_column(ForeignKey("users.id", ondelete="SET NULL"))
    # Bumped in the same transaction as any change to the group, its players, games or rounds.
    data_version: Mapped[int] = mapped_column(Integer, default=0)
    # Random and never reused: what caches of the group's data are keyed by (with the version).
    cache_key: Mapped[str] = mapped_column(String(64), unique=True, default=random_token)
    # A demo group (made up players and games to look around in): marked as such on every
    # page, and its owner can delete it in one step.
    is_demo: Mapped[bool] = mapped_column(Boolean, server_default=false())
    # How the Stats and History pages cut the games into seasons (a SeasonKind):
    # calendar quarters unless the owner chose months, years or the named seasons below.
    season_kind: Mapped[str] = mapped_column(String(8), server_default="quarter")


class NamedSeason(Base):
    """A season the group's owner started on ``starts_on``; it runs to the next one's start."""

    __tablename__ = "named_seasons"
    __table_args__ = (UniqueConstraint("group_id", "starts_on"), NEVER_REUSED)

    id: Mapped[int] = surrogate_key()
    group_id: Mapped[int] = mapped_column(ForeignKey("groups.id", ondelete="CASCADE"))
    name: Mapped[str] = mapped_column(String(40))
    starts_on: Mapped[date] = mapped_column(Date)


class Membership(Base):
    """A user's place in a group: ``owner`` or ``member``."""

    __tablename__ = "memberships"
    __table_args__ = (Index("ix_memberships_user_id", "user_id"),)

    group_id: Mapped[int] = mapped_column(
        ForeignKey("groups.id", ondelete="CASCADE"), primary_key=True
    )
    user_id: Mapped[int] = mapped_column(
        ForeignKey("users.id", ondelete="CASCADE"), primary_key=True
    )
    role: Mapped[str] = mapped_column(String(8))
    joined_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class Player(Base):
    """Someone who sits at the table; optionally linked to a member's account.

    ``name_key`` is the case-folded name that keeps names unique within a group;
    a player merged into another keeps its row (``merged_into_id``) but frees
    its name (``name_key`` is NULL).
    """

    __tablename__ = "players"
    __table_args__ = (
        UniqueConstraint("group_id", "name_key"),
        UniqueConstraint("group_id", "user_id"),
        NEVER_REUSED,
    )

    id: Mapped[int] = surrogate_key()
    group_id: Mapped[int] = mapped_column(ForeignKey("groups.id", ondelete="CASCADE"))
    name: Mapped[str] = mapped_column(String(60))
    name_key: Mapped[str | None] = mapped_column(String(60))
    user_id: Mapped[int | None] = mapped_column(ForeignKey("users.id", ondelete="SET NULL"))
    merged_into_id: Mapped[int | None] = mapped_column(
        ForeignKey("players.id", ondelete="SET NULL")
    )
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class Game(Base):
    """A series of rounds with the same players under one snapshot of house rules."""

    __tablename__ = "games"
    __table_args__ = (
        Index("ix_games_group_id_started_at", "group_id", "started_at"),
        # The Play page looks up a group's games in progress on every rerun.
        Index("ix_games_group_id_status_started_at", "group_id", "status", "started_at"),
        UniqueConstraint("group_id", "import_key"),
        NEVER_REUSED,
    )

    id: Mapped[int] = surrogate_key()
    group_id: Mapped[int] = mapped_column(ForeignKey("groups.id", ondelete="CASCADE"))
    rules: Mapped[dict[str, Any]] = mapped_column(JSON)
    status: Mapped[str] = mapped_column(String(8), default="active")
    started_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    ended_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    notes: Mapped[str] = mapped_column(Text, default="")
    created_by: Mapped[int | None] = mapped_column(ForeignKey("users.id", ondelete="SET NULL"))
    # Bumped on every change to the game or its rounds; add_round locks the row first.
    version: Mapped[int] = mapped_column(Integer, default=1)
    import_key: Mapped[str | None] = mapped_column(String(64))


class GamePlayer(Base):
    """A player's seat (0-based, in playing order) in a game."""

    __tablename__ = "game_players"
    __table_args__ = (
        UniqueConstraint("game_id", "player_id"),
        Index("ix_game_players_player_id", "player_id"),
    )

    game_id: Mapped[int] = mapped_column(
        ForeignKey("games.id", ondelete="CASCADE"), primary_key=True
    )
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)
    player_id: Mapped[int] = mapped_column(ForeignKey("players.id", **CHECKED_AT_COMMIT))


class Round(Base):
    """One round of a game: who ended it, how, and the penalty the caller drew.

    ``number`` is 1-based and gapless within the game; the unique index on
    (game_id, number) also serves every lookup of a game's rounds.
    """

    __tablename__ = "rounds"
    __table_args__ = (UniqueConstraint("game_id", "number"), NEVER_REUSED)

    id: Mapped[int] = surrogate_key()
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"))
    number: Mapped[int] = mapped_column(Integer)
    caller_player_id: Mapped[int | None] = mapped_column(
        ForeignKey("players.id", **CHECKED_AT_COMMIT)
    )
    call_type: Mapped[str | None] = mapped_column(String(16))
    outcome: Mapped[str | None] = mapped_column(String(8))
    penalty_text: Mapped[str | None] = mapped_column(String(400))
    penalty_cards_due: Mapped[int] = mapped_column(Integer, default=0)
    entered_by: Mapped[int | None] = mapped_column(ForeignKey("users.id", ondelete="SET NULL"))
    entered_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    edited_by: Mapped[int | None] = mapped_column(ForeignKey("users.id", ondelete="SET NULL"))
    edited_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    version: Mapped[int] = mapped_column(Integer, default=1)


class RoundHand(Base):
    """One player's hand in a round, as entered, with the scores the core computed.

    ``cards`` is the canonical card text ("" for an empty hand), or NULL when the
    hand was given as a total only. ``game_total`` is the player's game total after
    this round, as the core's rule adds it up; it is stored when the round is written
    (and rewritten for the rounds after a correction), so that a new round and the
    standings read only the latest round instead of the whole game.
    """

    __tablename__ = "round_hands"
    __table_args__ = (Index("ix_round_hands_player_id", "player_id"),)

    round_id: Mapped[int] = mapped_column(
        ForeignKey("rounds.id", ondelete="CASCADE"), primary_key=True
    )
    player_id: Mapped[int] = mapped_column(
        ForeignKey("players.id", **CHECKED_AT_COMMIT), primary_key=True
    )
    seat: Mapped[int] = mapped_column(Integer)
    cards: Mapped[str | None] = mapped_column(String(400))
    hand_total: Mapped[int] = mapped_column(Integer)
    penalty_points: Mapped[int] = mapped_column(Integer, default=0)
    round_score: Mapped[int] = mapped_column(Integer)
    is_caller: Mapped[bool] = mapped_column(default=False)
    game_total: Mapped[int] = mapped_column(Integer)


class UserPreferences(Base):
    """What a person chose for the app itself, kept across sessions and devices.

    ``language`` is a language code or NULL (follow the browser); ``theme`` is
    ``auto`` (follow the device), ``light`` or ``dark``; ``last_rules`` is the
    house rules (``HouseRules.to_dict()``) of the last game the person started;
    ``last_group_id`` the group they last chose to work in (no foreign key: a group's id
    is never reused, and it counts only while the person is a member); ``season_choice``
    the period they last tapped on Stats or History (``this``, ``last`` or ``all``
    seasons; NULL for all games).
    """

    __tablename__ = "user_preferences"

    user_id: Mapped[int] = mapped_column(
        ForeignKey("users.id", ondelete="CASCADE"), primary_key=True
    )
    language: Mapped[str | None] = mapped_column(String(8))
    theme: Mapped[str] = mapped_column(String(8), default="auto")
    keep_awake: Mapped[bool] = mapped_column(default=True)
    last_rules: Mapped[dict[str, Any] | None] = mapped_column(JSON)
    last_group_id: Mapped[int | None] = mapped_column(Integer)
    season_choice: Mapped[str | None] = mapped_column(String(8))
    updated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class SharedGame(Base):
    """A read-only link to one game that works without an account.

    Only the SHA-256 hash of the link's random token is kept; a game has at most one
    link, and deleting the row (or the game) ends it.
    """

    __tablename__ = "shared_games"

    game_id: Mapped[int] = mapped_column(
        ForeignKey("games.id", ondelete="CASCADE"), primary_key=True
    )
    token_hash: Mapped[str] = mapped_column(String(64), unique=True)
    created_by: Mapped[int | None] = mapped_column(ForeignKey("users.id", ondelete="SET NULL"))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
