"""Games: start, load with standings, list with filters, end, reopen, delete."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import date, datetime

from sqlalchemy import delete, func, select
from sqlalchemy.orm import Session

from dutch_app.i18n import _
from dutch_app.services._access import bump_group, game_for, member_of, membership, player_for
from dutch_app.services._filters import filter_values, kept_games
from dutch_app.services._input import check_id, clean_text, moment
from dutch_app.services._present import game_view, player_view
from dutch_app.services._stored_games import rules_of, table_of
from dutch_app.services.errors import Conflict, Forbidden, NotFound, ValidationError
from dutch_app.services.preferences import remember_rules
from dutch_app.services.unit_of_work import writes
from dutch_app.services.views import GameSummary, GameView, Role, Seating
from dutch_app.storage.models import (
    Game,
    GamePlayer,
    Player,
    Round,
    RoundHand,
    as_utc,
    utcnow,
)
from dutch_core import Game as CoreGame
from dutch_core import HouseRules
from dutch_core.game import GameStatus

NOTES_LENGTH = 2000


def _seated_players(session: Session, group_id: int, player_ids: object) -> list[Player]:
    if isinstance(player_ids, (str, bytes)) or not isinstance(player_ids, Sequence):
        raise ValidationError(
            "player_ids", f"player_ids must be a list of player ids, not {player_ids!r}."
        )
    ids = [check_id("player_ids", player_id) for player_id in player_ids]
    found = {
        player.id: player
        for player in session.scalars(
            select(Player).where(
                Player.id.in_(ids), Player.group_id == group_id, Player.merged_into_id.is_(None)
            )
        )
    }
    seated: list[Player] = []
    for player_id in ids:
        if player_id not in found:
            raise NotFound("player", player_id)
        if found[player_id] in seated:
            raise ValidationError(
                "player_ids", _("{name} is seated twice.").format(name=found[player_id].name)
            )
        seated.append(found[player_id])
    return seated


@writes
def start_game(
    session: Session,
    user_id: int,
    group_id: int,
    player_ids: Sequence[int],
    rules: HouseRules,
    notes: str = "",
    *,
    started_at: datetime | None = None,
    import_key: str | None = None,
) -> GameView:
    """Start a game with the players in seat order under a snapshot of ``rules``.

    ``started_at`` and ``import_key`` (unique in the group) serve imports of past games.
    """
    membership(session, user_id, group_id)
    if not isinstance(rules, HouseRules):
        raise ValidationError("rules", f"rules must be house rules, not {rules!r}.")
    notes = clean_text("notes", notes, NOTES_LENGTH, lines=True)
    seated = _seated_players(session, group_id, player_ids)
    CoreGame.start([player.name for player in seated], rules)
    if import_key is not None:
        taken = session.scalar(
            select(Game.id).where(Game.group_id == group_id, Game.import_key == import_key)
        )
        if taken is not None:
            raise Conflict(f"A game with import key {import_key!r} is already stored.")
    game = Game(
        group_id=group_id,
        rules=rules.to_dict(),
        status=GameStatus.ACTIVE,
        started_at=as_utc(moment("started_at", started_at)) or utcnow(),
        notes=notes,
        created_by=user_id,
        version=1,
        import_key=import_key,
    )
    session.add(game)
    session.flush()
    session.add_all(
        GamePlayer(game_id=game.id, seat=seat, player_id=player.id)
        for seat, player in enumerate(seated)
    )
    session.flush()
    if import_key is None:  # a game started at the table, not one read from a file
        remember_rules(session, user_id, rules)
    bump_group(session, group_id)
    return game_view(session, game)


def game_version(session: Session, user_id: int, game_id: int) -> int:
    """The game's version, which every change to the game or its rounds bumps.

    What an open Play page asks every couple of seconds to notice a change made
    on another phone: one query on the game's primary key and the membership's,
    nothing else read and nothing written.
    """
    check_id("user_id", user_id)
    query = select(Game.version).where(
        Game.id == check_id("game_id", game_id), member_of(user_id, Game.group_id).exists()
    )
    version = session.scalar(query)
    if version is None:
        raise NotFound("game", game_id)
    return version


PLAY_ROUNDS = 100
"""The latest rounds the Play page shows of a game."""
HISTORY_ROUNDS = 100
"""The rounds the History page shows of a game at a time (older ones a page further)."""


def get_game(
    session: Session,
    user_id: int,
    game_id: int,
    last_rounds: int | None = None,
    through: int | None = None,
) -> GameView:
    """A game with its players, rounds, standings and winners; with ``last_rounds``, only
    that many of its latest rounds (the totals and standings are the whole game's), so
    that reading a game in progress costs the same in round 10 and round 20,000. With
    ``through`` as well, the window ends at that round instead of the game's last."""
    if last_rounds is not None:
        last_rounds = check_id("last_rounds", last_rounds)
    if through is not None:
        if last_rounds is None:
            raise ValidationError("through", "through needs last_rounds.")
        through = check_id("through", through)
    return game_view(session, game_for(session, user_id, game_id), last_rounds, through)


def get_seating(session: Session, user_id: int, game_id: int) -> Seating:
    """A game's players in seat order and its house rules (two queries): what a round
    entry is checked against before it is stored, without the rounds and standings."""
    game = game_for(session, user_id, game_id)
    players = table_of(session, game.id).players
    return Seating(game.id, tuple(player_view(player) for player in players), rules_of(game))


def _set_status(session: Session, user_id: int, game_id: int, status: GameStatus) -> GameView:
    game = game_for(session, user_id, game_id, lock=True)
    if game.status != status:
        game.status = status
        game.ended_at = utcnow() if status is GameStatus.ENDED else None
        game.version += 1
        session.flush()
        bump_group(session, game.group_id)
    return game_view(session, game)


@writes
def end_game(session: Session, user_id: int, game_id: int) -> GameView:
    """Mark the game as ended (whatever its end condition says)."""
    return _set_status(session, user_id, game_id, GameStatus.ENDED)


@writes
def reopen_game(session: Session, user_id: int, game_id: int) -> GameView:
    """Mark an ended game as active again."""
    return _set_status(session, user_id, game_id, GameStatus.ACTIVE)


@writes
def delete_game(session: Session, user_id: int, game_id: int) -> None:
    """Delete a game and its rounds (the group's owner or whoever started it)."""
    game = game_for(session, user_id, game_id, lock=True)
    mine = membership(session, user_id, game.group_id)
    if mine.role != Role.OWNER and game.created_by != user_id:
        raise Forbidden(_("Only the group's owner or whoever started the game can delete it."))
    group_id = game.group_id
    session.execute(delete(Game).where(Game.id == game.id))
    session.expunge(game)
    bump_group(session, group_id)


def list_games(
    session: Session,
    user_id: int,
    group_id: int,
    date_from: date | datetime | None = None,
    date_to: date | datetime | None = None,
    player_id: int | None = None,
    status: GameStatus | str | None = None,
) -> list[GameSummary]:
    """The group's games, newest first; ``date_from``/``date_to`` bound the start
    (a date includes that whole day), ``player_id`` keeps games that player sat in."""
    membership(session, user_id, group_id)
    kept = filter_values(date_from, date_to, status)
    query = kept_games(select(Game).where(Game.group_id == group_id), kept)
    if player_id is not None:
        player = player_for(session, user_id, check_id("player_id", player_id))
        if player.group_id != group_id:
            raise NotFound("player", player_id)
        seated = select(GamePlayer.game_id).where(GamePlayer.player_id == player.id)
        query = query.where(Game.id.in_(seated))
    games = list(session.scalars(query.order_by(Game.started_at.desc(), Game.id.desc())))
    return _summaries(session, games, query.with_only_columns(Game.id))


def _summaries(session: Session, games: list[Game], game_ids) -> list[GameSummary]:
    seats: dict[int, list[tuple[int, str]]] = {game.id: [] for game in games}
    for game_id, player_id, name in session.execute(
        select(GamePlayer.game_id, GamePlayer.player_id, Player.name)
        .join(Player, Player.id == GamePlayer.player_id)
        .where(GamePlayer.game_id.in_(game_ids))
        .order_by(GamePlayer.game_id, GamePlayer.seat)
    ):
        seats[game_id].append((player_id, name))
    # The totals stored with each game's last round; its number is the rounds played.
    last = (
        select(Round.game_id, func.max(Round.number).label("number"))
        .where(Round.game_id.in_(game_ids))
        .group_by(Round.game_id)
        .subquery()
    )
    sums: dict[tuple[int, int], int] = {}
    played: dict[int, int] = {}
    last_at: dict[int, datetime] = {}
    for game_id, player_id, total, number, entered_at in session.execute(
        select(
            Round.game_id,
            RoundHand.player_id,
            RoundHand.game_total,
            last.c.number,
            Round.entered_at,
        )
        .join(last, (last.c.game_id == Round.game_id) & (last.c.number == Round.number))
        .join(RoundHand, RoundHand.round_id == Round.id)
    ):
        sums[(game_id, player_id)] = total
        played[game_id] = number
        last_at[game_id] = entered_at
    summaries = []
    for game in games:
        players = seats[game.id]
        totals = tuple(sums.get((game.id, player_id), 0) for player_id, _ in players)
        summaries.append(
            GameSummary(
                id=game.id,
                group_id=game.group_id,
                status=GameStatus(game.status),
                started_at=as_utc(game.started_at),
                ended_at=as_utc(game.ended_at),
                notes=game.notes,
                players=tuple(name for _, name in players),
                totals=totals,
                rounds_played=played.get(game.id, 0),
                version=game.version,
                last_round_at=as_utc(last_at.get(game.id)),
            )
        )
    return summaries
