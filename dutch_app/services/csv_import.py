"""Importing a rounds file into a group: all games in one transaction, none twice.

The file is read, checked and scored by :func:`dutch_app.csv_io.parse_rounds_csv`,
and every row to insert built, before the write begins; the games the group already
holds are found in a read of their own. One write transaction then creates the new
players and inserts the new games in bulk (one statement per table) and commits: a
reader sees the whole file or nothing of it, and a process that dies half-way leaves
nothing, as the database rolls its transaction back. Meanwhile another group's round
waits for that transaction on SQLite (one writer at a time) and goes on at once on
PostgreSQL.

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

from sqlalchemy import select
from sqlalchemy.orm import Session

from dutch_app.csv_io import ImportPlan, PlannedGame, import_key, parse_rounds_csv
from dutch_app.services._access import bump_group, membership
from dutch_app.services._bulk import (
    BulkGame,
    PreparedGames,
    insert_games,
    insert_with_ids,
    prepare_games,
)
from dutch_app.services._caps import check_room_for_players
from dutch_app.services._in_lists import in_lists
from dutch_app.services._input import clean_name, name_key
from dutch_app.services._members import PLAYER_NAME_LENGTH
from dutch_app.services._stored_games import Table, core_game
from dutch_app.services.errors import ValidationError
from dutch_app.services.unit_of_work import in_steps, read, write
from dutch_app.storage.models import Game, GamePlayer, Group, Player, Round, RoundHand, as_utc
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


def _players(
    session: Session, group_id: int, names: dict[str, str]
) -> tuple[dict[object, int], list[str]]:
    """The stored player id for each name key of ``names`` (key: the name a new player
    gets): the group's player of that name, or a new one; and the names of the new ones."""
    ids: dict[object, int] = {
        key: player_id
        for keys in in_lists(list(names))
        for key, player_id in session.execute(
            select(Player.name_key, Player.id).where(
                Player.group_id == group_id, Player.name_key.in_(keys)
            )
        )
    }
    rows = [
        {"group_id": group_id, "name": name, "name_key": key}
        for key, name in names.items()
        if key not in ids
    ]
    check_room_for_players(session, group_id, len(rows))
    new_ids = insert_with_ids(session, Player.__table__, rows)
    ids.update(zip((row["name_key"] for row in rows), new_ids, strict=True))
    return ids, [str(row["name"]) for row in rows]


def _without(prepared: PreparedGames, kept: list[int]) -> PreparedGames:
    """The prepared rows of the games at the indexes ``kept``, renumbered from 0."""
    games = {old: new for new, old in enumerate(kept)}
    rounds: list[dict] = []
    round_index: dict[int, int] = {}
    for old, row in enumerate(prepared.rounds):
        if row["game_id"] in games:
            round_index[old] = len(rounds)
            rounds.append({**row, "game_id": games[row["game_id"]]})
    return PreparedGames(
        [prepared.games[old] for old in kept],
        [{**r, "game_id": games[r["game_id"]]} for r in prepared.seats if r["game_id"] in games],
        rounds,
        [
            {**r, "round_id": round_index[r["round_id"]]}
            for r in prepared.hands
            if r["round_id"] in round_index
        ],
    )


class _Stored(NamedTuple):
    """What the write stored: the index in the file's candidates of each game stored, the
    new games' ids (in the same order), and the names of the players created."""

    kept: list[int]
    game_ids: list[int]
    created: list[str]


def _write(
    session: Session,
    user_id: int,
    group_id: int,
    candidates: list[PlannedGame],
    prepared: _Prepared,
) -> _Stored:
    """Store the ``candidates`` (whose rows are ``prepared``) that the group does not hold
    yet, with their new players, in the caller's one write transaction."""
    membership(session, user_id, group_id)
    # Two imports into one group write one after the other (the group's row locked, on
    # PostgreSQL), and the second finds the first one's games by their keys.
    session.execute(select(Group.id).where(Group.id == group_id).with_for_update())
    keys = [game.import_key for game in candidates]
    taken = {
        key
        for chunk in in_lists(keys)
        for key in session.scalars(
            select(Game.import_key).where(Game.group_id == group_id, Game.import_key.in_(chunk))
        )
    }
    kept = [index for index, key in enumerate(keys) if key not in taken]
    if not kept:
        return _Stored([], [], [])
    rows = prepared.rows if len(kept) == len(keys) else _without(prepared.rows, kept)
    names: dict[str, str] = {}  # the first spelling in the file of each player
    for index in kept:
        for name in candidates[index].players:
            names.setdefault(*prepared.names[name])
    player_ids, created = _players(session, group_id, names)
    game_ids = insert_games(session, rows, player_ids)
    bump_group(session, group_id)
    return _Stored(kept, game_ids, created)


@in_steps
def import_rounds_csv(session: Session, user_id: int, group_id: int, data: bytes) -> ImportReport:
    """Import a rounds file into the group in one transaction, skipping games it already has.

    Raises CsvImportError (listing every problem with its line, found in one pass)
    and writes nothing when any part of the file is wrong. The file is read and
    checked, and every row to insert built, before the write transaction begins.
    """
    read(session, membership, user_id, group_id)
    if not isinstance(data, bytes):
        raise ValidationError("data", f"the file must be bytes, not {type(data).__name__}.")
    plan = parse_rounds_csv(data, check_name=_name_problem)
    content_keys = read(session, _content_keys, group_id, plan)
    candidates = [game for game in plan.games if game.import_key not in content_keys]
    prepared = _prepared(user_id, group_id, candidates)
    stored = (
        write(session, _write, user_id, group_id, candidates, prepared)
        if candidates
        else _Stored([], [], [])
    )
    return ImportReport(
        games_imported=len(stored.game_ids),
        rounds_imported=sum(len(candidates[index].rounds) for index in stored.kept),
        games_skipped=len(plan.games) - len(stored.kept) + len(plan.repeated),
        players_created=tuple(stored.created),
        game_ids=tuple(stored.game_ids),
    )
