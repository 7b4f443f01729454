"""Download everything the app keeps about a person, as one ZIP file.

The ZIP holds ``profile.json`` (email, display name, how they sign in),
``preferences.json`` (language, theme, keep-awake choice, last used house rules and
last chosen group), ``groups.json`` (each of their groups with its members' display
names) and one CSV per table of what those groups hold: players, games, seats, rounds and hands.
No password, hash, session token or invite code is ever written. Text cells of the
CSV files are neutralised against spreadsheet formulas as the history's CSV files are.
"""

from __future__ import annotations

import csv
import io
import json
import zipfile
from collections.abc import Callable, Iterable, Sequence
from datetime import datetime
from typing import Any

from sqlalchemy import Row, select
from sqlalchemy.orm import Session

from dutch_app.csv_io.format import hand_text, neutralise_text
from dutch_app.storage.models import (
    Game,
    GamePlayer,
    Group,
    Membership,
    Player,
    Round,
    RoundHand,
    User,
    UserPreferences,
    as_utc,
)

README = """\
Your data from Dutch Scorer
===========================
profile.json       your email address, display name and how you sign in
preferences.json   your language, theme, keep-awake choice, last used house rules and
                   last chosen group
groups.json        your groups, your role in each and the members' display names
players.csv        the players of your groups (linked_to_you marks your own)
games.csv          the games of your groups, with the house rules they used
game_players.csv   who sat where in each game
rounds.csv         every round: who called, how it ended, the penalty cards
round_hands.csv    every hand: the cards as entered (or the total, when only that was
                   written down), the total and the score

In the CSV files, a text that starts with = + - @ (or their full-width or small forms,
a minus sign, a tab, or a quote) has one extra single quote in front, so that a
spreadsheet shows it instead of running it.
"""


def _text(value: Any) -> Any:
    """A value as a CSV cell: times in ISO 8601, JSON for structures, text made formula-safe."""
    if isinstance(value, datetime):
        return as_utc(value).isoformat()
    if isinstance(value, dict | list):
        value = json.dumps(value, sort_keys=True)
    if isinstance(value, str):
        return neutralise_text(value)
    return value


def _csv(header: Sequence[str], rows: Iterable[Sequence[Any]]) -> str:
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(header)
    writer.writerows([_text(value) for value in row] for row in rows)
    return buffer.getvalue()


def _table(
    session: Session,
    columns: Sequence[Any],
    *where: Any,
    order: Sequence[Any],
    cells: Callable[[Row[Any]], Sequence[Any]] = tuple,
) -> str:
    """The rows of ``columns`` as a CSV file headed by their names, ``cells`` making each
    row's cells."""
    rows = session.execute(select(*columns).where(*where).order_by(*order))
    return _csv([column.key for column in columns], map(cells, rows))


def _profile(user: User) -> dict[str, Any]:
    return {
        "email": user.email,
        "display_name": user.display_name,
        "signs_in_with": user.auth_provider,
        "account_created_at": _text(user.created_at),
    }


def _preferences(session: Session, user_id: int) -> dict[str, Any]:
    row = session.get(UserPreferences, user_id)
    if row is None:
        return {"saved": False}
    return {
        "saved": True,
        "language": row.language,
        "theme": row.theme,
        "keep_screen_awake": row.keep_awake,
        "last_used_house_rules": row.last_rules,
        "last_chosen_group_id": row.last_group_id,
        "updated_at": _text(row.updated_at),
    }


def _groups(session: Session, group_ids: list[int], user_id: int) -> list[dict[str, Any]]:
    groups = []
    for group in session.scalars(select(Group).where(Group.id.in_(group_ids)).order_by(Group.id)):
        members = session.execute(
            select(User.id, User.display_name, Membership.role, Membership.joined_at)
            .join(Membership, Membership.user_id == User.id)
            .where(Membership.group_id == group.id)
            .order_by(Membership.joined_at, User.id)
        ).all()
        groups.append(
            {
                "group_id": group.id,
                "name": group.name,
                "created_at": _text(group.created_at),
                "your_role": next(role for uid, _, role, _ in members if uid == user_id),
                "members": [
                    {"display_name": name, "role": role, "joined_at": _text(joined)}
                    for _, name, role, joined in members
                ],
            }
        )
    return groups


def export_user_data(session: Session, user_id: int) -> bytes:
    """The ZIP (as bytes) of everything about ``user_id`` and the groups they belong to."""
    user = session.get(User, user_id)
    if user is None:
        raise LookupError(f"No user with id {user_id!r}.")
    group_ids = list(
        session.scalars(select(Membership.group_id).where(Membership.user_id == user_id))
    )
    games = select(Game.id).where(Game.group_id.in_(group_ids))
    rounds = select(Round.id).where(Round.game_id.in_(games))
    files = {
        "README.txt": README,
        "profile.json": json.dumps(_profile(user), indent=2, ensure_ascii=False),
        "preferences.json": json.dumps(_preferences(session, user_id), indent=2),
        "groups.json": json.dumps(_groups(session, group_ids, user_id), indent=2),
        "players.csv": _table(
            session,
            [
                Player.group_id,
                Player.id.label("player_id"),
                Player.name,
                Player.merged_into_id,
                Player.user_id.label("linked_to_you"),
            ],
            Player.group_id.in_(group_ids),
            order=[Player.group_id, Player.id],
            cells=lambda row: (*row[:4], row.linked_to_you == user_id),
        ),
        "games.csv": _table(
            session,
            [
                Game.group_id,
                Game.id.label("game_id"),
                Game.status,
                Game.started_at,
                Game.ended_at,
                Game.notes,
                Game.rules,
            ],
            Game.group_id.in_(group_ids),
            order=[Game.group_id, Game.started_at, Game.id],
        ),
        "game_players.csv": _table(
            session,
            [GamePlayer.game_id, GamePlayer.seat, GamePlayer.player_id],
            GamePlayer.game_id.in_(games),
            order=[GamePlayer.game_id, GamePlayer.seat],
        ),
        "rounds.csv": _table(
            session,
            [
                Round.game_id,
                Round.id.label("round_id"),
                Round.number,
                Round.caller_player_id,
                Round.call_type,
                Round.outcome,
                Round.penalty_text,
                Round.penalty_cards_due,
                Round.entered_at,
            ],
            Round.game_id.in_(games),
            order=[Round.game_id, Round.number],
        ),
        "round_hands.csv": _table(
            session,
            [
                RoundHand.round_id,
                RoundHand.seat,
                RoundHand.player_id,
                RoundHand.cards,
                RoundHand.hand_total,
                RoundHand.penalty_points,
                RoundHand.round_score,
                RoundHand.is_caller,
            ],
            RoundHand.round_id.in_(rounds),
            order=[RoundHand.round_id, RoundHand.seat],
            # The cards as the History page's rounds file writes them (the total for a
            # hand entered as its total).
            cells=lambda row: (*row[:3], hand_text(row.cards, row.hand_total), *row[4:]),
        ),
    }
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", compression=zipfile.ZIP_DEFLATED) as archive:
        for name, text in files.items():
            archive.writestr(f"dutch-scorer-data/{name}", text)
    return buffer.getvalue()


def export_file_name(today: datetime) -> str:
    """The name to offer for the download, e.g. ``dutch-scorer-data-2025-05-10.zip``."""
    return f"dutch-scorer-data-{today:%Y-%m-%d}.zip"
