"""Importing a rounds file into a group: all games in one transaction, none twice.

The file is read, checked and scored by :func:`dutch_app.csv_io.parse_rounds_csv`
before anything is written. Players are matched by name (ignoring case) and
created when new. A game is skipped when the group already holds it: one with
the same import key, or one whose content (start, rules, players, hands and
calls) is the same, such as the game a file was exported from.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import timedelta

from sqlalchemy import insert, select
from sqlalchemy.orm import Session

from dutch_app.csv_io import (
    CsvImportError,
    CsvProblem,
    ImportPlan,
    PlannedGame,
    import_key,
    parse_rounds_csv,
)
from dutch_app.services._access import bump_group, membership
from dutch_app.services._caps import check_room_for_players
from dutch_app.services._input import as_utc, clean_name, name_key
from dutch_app.services._scoring import (
    Table,
    core_game,
    hand_rows,
    round_values,
    rounds_of,
    table_of,
)
from dutch_app.services._transaction import writing
from dutch_app.services.errors import ValidationError
from dutch_app.services.players import PLAYER_NAME_LENGTH
from dutch_app.storage.models import Game, GamePlayer, Player, Round, RoundHand
from dutch_core import RoundInput, score_round


@dataclass(frozen=True)
class ImportReport:
    """What an import did: games and rounds stored, games skipped, players created."""

    games_imported: int
    rounds_imported: int
    games_skipped: int
    players_created: tuple[str, ...]
    game_ids: tuple[int, ...]


def _clean_names(plan: ImportPlan) -> dict[str, str]:
    """The stored form of every name in the file; CsvImportError for names the group refuses."""
    cleaned: dict[str, str] = {}
    problems = []
    for game in plan.games:
        seen: dict[str, str] = {}
        for name in game.players:
            try:
                cleaned[name] = clean_name("player", name, PLAYER_NAME_LENGTH)
            except ValidationError as error:
                problems.append(CsvProblem(game.line, "player", f"{name!r}: {error}"))
                continue
            key = name_key(cleaned[name])
            if key in seen:
                message = f"{name!r} and {seen[key]!r} would be the same player"
                problems.append(CsvProblem(game.line, "player", message))
            seen[key] = name
    if problems:
        raise CsvImportError(problems)
    return cleaned


def _players(session: Session, group_id: int, names: list[str]) -> tuple[dict, list[str]]:
    """The group's player for each name (by name key), creating the missing ones."""
    wanted = {name_key(name): name for name in names}
    found = {
        player.name_key: player
        for player in session.scalars(
            select(Player).where(Player.group_id == group_id, Player.name_key.in_(list(wanted)))
        )
    }
    created = []
    check_room_for_players(session, group_id, len(set(wanted) - set(found)))
    for key, name in wanted.items():
        if key not in found:
            found[key] = Player(group_id=group_id, name=name, name_key=key)
            session.add(found[key])
            created.append(name)
    session.flush()
    return found, created


def _stored_keys(session: Session, group_id: int, plan: ImportPlan) -> set[str]:
    """Keys of the group's games that could match the plan's: by import key, or by
    content for games that started within the same second as one of the plan's."""
    keys = set(
        session.scalars(
            select(Game.import_key).where(
                Game.group_id == group_id,
                Game.import_key.in_([game.import_key for game in plan.games]),
            )
        )
    )
    for game in plan.games:
        second = game.started_at.replace(microsecond=0)
        for stored in session.scalars(
            select(Game).where(
                Game.group_id == group_id,
                Game.started_at >= second,
                Game.started_at < second + timedelta(seconds=1),
            )
        ):
            stored_rounds = rounds_of(session, stored.id)
            core = core_game(stored, table_of(session, stored.id), stored_rounds)
            played = [as_utc(round_.entered_at) for round_, _ in stored_rounds]
            keys.add(
                import_key(
                    as_utc(stored.started_at),
                    core.rules,
                    list(zip(played, core.rounds, strict=True)),
                )
            )
    return keys


def _write_game(
    session: Session, user_id: int, group_id: int, game: PlannedGame, table: Table, names: dict
) -> int:
    """Store one planned game, its seats, rounds and hands (multi-row inserts); its new id."""
    game_id = session.scalars(
        insert(Game).returning(Game.id),
        [
            {
                "group_id": group_id,
                "rules": game.rules.to_dict(),
                "status": game.status,
                "started_at": game.started_at,
                "ended_at": game.rounds[-1].played_at if game.status == "ended" else None,
                "notes": "",
                "created_by": user_id,
                "version": 1,
                "import_key": game.import_key,
            }
        ],
    ).one()
    seats = [
        {"game_id": game_id, "seat": seat, "player_id": p.id}
        for seat, p in enumerate(table.players)
    ]
    session.execute(insert(GamePlayer), seats)
    rounds, hands = [], []
    for planned in game.rounds:
        played = planned.result.input
        # Scored again under the stored names (a file may spell a known player differently).
        round_input = RoundInput(
            tuple((names[player], hand) for player, hand in played.hands),
            played.caller and names[played.caller],
            played.call_type,
            played.penalty,
        )
        result = score_round(round_input, game.rules)
        rounds.append(
            {
                "game_id": game_id,
                "number": planned.number,
                "entered_by": user_id,
                "entered_at": planned.played_at,
                "version": 1,
                **round_values(table, result),
            }
        )
        hands.append(hand_rows(table, result))
    round_ids = session.scalars(
        insert(Round).returning(Round.id, sort_by_parameter_order=True), rounds
    ).all()
    session.execute(
        insert(RoundHand),
        [
            {"round_id": round_id, **row}
            for round_id, rows in zip(round_ids, hands, strict=True)
            for row in rows
        ],
    )
    return game_id


@writing
def import_rounds_csv(session: Session, user_id: int, group_id: int, data: bytes) -> ImportReport:
    """Import a rounds file into the group in one transaction, skipping games it already has.

    Raises CsvImportError (listing every problem with its line) and writes
    nothing when any part of the file is wrong.
    """
    membership(session, user_id, group_id)
    if not isinstance(data, bytes):
        raise ValidationError("data", f"the file must be bytes, not {type(data).__name__}.")
    plan = parse_rounds_csv(data)
    cleaned = _clean_names(plan)
    stored_keys = _stored_keys(session, group_id, plan)
    new_games = [game for game in plan.games if game.import_key not in stored_keys]
    needed = [cleaned[name] for game in new_games for name in game.players]
    players, created = _players(session, group_id, needed)
    game_ids = []
    for game in new_games:
        seated = tuple(players[name_key(cleaned[name])] for name in game.players)
        names = {name: player.name for name, player in zip(game.players, seated, strict=True)}
        game_ids.append(_write_game(session, user_id, group_id, game, Table(seated), names))
    if game_ids or created:
        bump_group(session, group_id)
    return ImportReport(
        games_imported=len(game_ids),
        rounds_imported=sum(len(game.rounds) for game in new_games),
        games_skipped=len(plan.games) - len(new_games) + len(plan.repeated),
        players_created=tuple(created),
        game_ids=tuple(game_ids),
    )
