"""Importing a rounds file into a group: all games or none, none twice.

The file is read, checked and scored by :func:`dutch_app.csv_io.parse_rounds_csv`
before any write begins, and the games the group already holds are found in a
read of their own. The new players and games are then written in short
transactions, hidden from every reader until the last one shows them all at once
(:mod:`dutch_app.services._import_writes`), so other groups' rounds wait a few
milliseconds at most (SQLite has one writer at a time).

Players are matched by name (ignoring case) and created when new. A game is
skipped when the group already holds it: one with the same import key, or one
whose content (start, rules, players, hands and calls) is the same, such as the
game a file was exported from.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from datetime import timedelta
from typing import NamedTuple, cast

from sqlalchemy import delete, select
from sqlalchemy.orm import Session

from dutch_app.csv_io import ImportPlan, PlannedGame, import_key, parse_rounds_csv
from dutch_app.services._access import membership
from dutch_app.services._bulk import BulkGame, PreparedGames, prepare_games
from dutch_app.services._import_writes import discard_abandoned, store
from dutch_app.services._in_lists import in_lists
from dutch_app.services._input import as_utc, clean_name, name_key
from dutch_app.services._stored_games import Table, core_game
from dutch_app.services.errors import ValidationError
from dutch_app.services.players import PLAYER_NAME_LENGTH
from dutch_app.services.unit_of_work import in_steps, read, write
from dutch_app.storage.models import (
    Game,
    GamePlayer,
    Group,
    Membership,
    Player,
    Round,
    RoundHand,
    StoppedImport,
    game_is_shown,
)
from dutch_core.game import GameStatus


@dataclass(frozen=True)
class ImportReport:
    """What an import did: games and rounds stored, games skipped, players created."""

    games_imported: int
    rounds_imported: int
    games_skipped: int
    players_created: tuple[str, ...]
    game_ids: tuple[int, ...]


def _name_problem(name: str) -> str | None:
    """What the group would refuse in a player's name, or None."""
    try:
        clean_name("player", name, PLAYER_NAME_LENGTH)
    except ValidationError as error:
        return f"{name!r}: {error}"
    return None


def _check_member(session: Session, user_id: int, group_id: int) -> None:
    membership(session, user_id, group_id)


def _content_keys(session: Session, group_id: int, plan: ImportPlan) -> set[str]:
    """Content keys of the group's games that started within the same second as one of
    the plan's (such as the games a file was exported from), read in a few queries."""
    seconds = {game.started_at.replace(microsecond=0) for game in plan.games}
    if not seconds:
        return set()
    candidates = [
        game
        for game in session.scalars(
            select(Game).where(
                Game.group_id == group_id,
                game_is_shown(),
                Game.started_at >= min(seconds),
                Game.started_at < max(seconds) + timedelta(seconds=1),
            )
        )
        if as_utc(game.started_at).replace(microsecond=0) in seconds
    ]
    keys = set()
    for chunk in in_lists(candidates):
        ids = [game.id for game in chunk]
        seated: dict[int, list[Player]] = defaultdict(list)
        for game_id, player in session.execute(
            select(GamePlayer.game_id, Player)
            .join(Player, Player.id == GamePlayer.player_id)
            .where(GamePlayer.game_id.in_(ids))
            .order_by(GamePlayer.game_id, GamePlayer.seat)
        ):
            seated[game_id].append(player)
        rounds: dict[int, list[tuple[Round, list[RoundHand]]]] = defaultdict(list)
        by_round: dict[int, list[RoundHand]] = {}
        for stored in session.scalars(
            select(Round).where(Round.game_id.in_(ids)).order_by(Round.game_id, Round.number)
        ):
            by_round[stored.id] = []
            rounds[stored.game_id].append((stored, by_round[stored.id]))
        for hand in session.scalars(
            select(RoundHand)
            .join(Round, Round.id == RoundHand.round_id)
            .where(Round.game_id.in_(ids))
            .order_by(RoundHand.round_id, RoundHand.seat)
        ):
            by_round[hand.round_id].append(hand)
        for game in chunk:
            table = Table(tuple(seated[game.id]))
            stored_rounds = rounds[game.id]
            core = core_game(game, table, stored_rounds)
            played = [as_utc(stored.entered_at) for stored, _ in stored_rounds]
            keys.add(
                import_key(
                    as_utc(game.started_at), core.rules, list(zip(played, core.rounds, strict=True))
                )
            )
    return keys


@dataclass(frozen=True)
class _Seat:
    """A player of the file under the name the file gives them; ``id`` is the name key
    that finds the stored player once the players are created."""

    id: str
    name: str


class _Prepared(NamedTuple):
    """The rows of the file's games, and each name of the file with its key and stored form."""

    rows: PreparedGames
    names: dict[str, tuple[str, str]]


def _prepared(user_id: int, group_id: int, games: list[PlannedGame]) -> _Prepared:
    """Every row of the file's games, built before the write transaction begins."""
    batch = []
    names = {}
    for game in games:
        for name in game.players:
            if name not in names:
                cleaned = clean_name("player", name, PLAYER_NAME_LENGTH)
                names[name] = (name_key(cleaned), cleaned)
        seated = [_Seat(names[name][0], name) for name in game.players]
        values = {
            "group_id": group_id,
            "rules": game.rules.to_dict(),
            "status": game.status,
            "started_at": game.started_at,
            "ended_at": game.rounds[-1].played_at if game.status == GameStatus.ENDED else None,
            "notes": "",
            "created_by": user_id,
            "version": 1,
            "import_key": game.import_key,
        }
        results = [planned.result for planned in game.rounds]
        entered = [planned.played_at for planned in game.rounds]
        # A file's players stand in for stored ones: the batch reads only id and name.
        stand_ins = cast("list[Player]", seated)
        batch.append(BulkGame(values, stand_ins, results, entered, user_id))
    return _Prepared(prepare_games(batch), names)


@in_steps
def import_rounds_csv(session: Session, user_id: int, group_id: int, data: bytes) -> ImportReport:
    """Import a rounds file into the group, all or nothing, skipping games it already has.

    Raises CsvImportError (listing every problem with its line, found in one pass)
    and writes nothing when any part of the file is wrong. The file is read and
    checked, and every row to insert built, before the first write begins; the
    import's short transactions are its own and leave ``session``'s alone.
    """
    read(session, _check_member, user_id, group_id)
    if not isinstance(data, bytes):
        raise ValidationError("data", f"the file must be bytes, not {type(data).__name__}.")
    plan = parse_rounds_csv(data, check_name=_name_problem)
    content_keys = read(session, _content_keys, group_id, plan)
    candidates = [game for game in plan.games if game.import_key not in content_keys]
    prepared = _prepared(user_id, group_id, candidates)
    if candidates:
        names: dict[str, str] = {}  # the first spelling in the file of each player
        for game in candidates:
            for name in game.players:
                names.setdefault(*prepared.names[name])
        written = store(session, user_id, group_id, prepared.rows, names)
        stored = [candidates[index] for index in written.kept]
        game_ids, created = written.game_ids, written.created
    else:
        stored, game_ids, created = [], [], []
    return ImportReport(
        games_imported=len(game_ids),
        rounds_imported=sum(len(game.rounds) for game in stored),
        games_skipped=len(plan.games) - len(stored) + len(plan.repeated),
        players_created=tuple(created),
        game_ids=tuple(game_ids),
    )


@in_steps
def discard_abandoned_imports(session: Session) -> int:
    """Undo the imports that a dead process left half-way (hidden, and no process holds
    their group's import lock); how many there were. Run when the app starts, and by every
    import."""
    return discard_abandoned(session.get_bind().engine)


@in_steps
def stopped_imports(session: Session, user_id: int) -> list[str]:
    """The names of the groups (the person's still) into which an import of theirs stopped
    before it ended with nobody left to say so; each is told once, then forgotten.

    Read on every page run: one indexed query when there is nothing to tell.
    """
    rows = read(session, _stopped, user_id)
    if rows:
        write(session, _forget_stopped, [row_id for row_id, _name in rows])
    return list(dict.fromkeys(name for _row_id, name in rows if name is not None))


def _stopped(session: Session, user_id: int) -> list[tuple[int, str | None]]:
    return [
        (row_id, name)
        for row_id, name in session.execute(
            select(StoppedImport.id, Group.name)
            .outerjoin(
                Membership,
                (Membership.group_id == StoppedImport.group_id)
                & (Membership.user_id == StoppedImport.user_id),
            )
            .outerjoin(Group, (Group.id == Membership.group_id))
            .where(StoppedImport.user_id == user_id)
            .order_by(StoppedImport.id)
        )
    ]


def _forget_stopped(session: Session, ids: list[int]) -> None:
    session.execute(delete(StoppedImport).where(StoppedImport.id.in_(ids)))
