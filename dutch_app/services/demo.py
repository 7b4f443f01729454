"""Demo data: a group with a realistic history of games played from a shuffled deck.

Sized in player-round rows (a few games up to a million rows) and reproducible
from a seed. Rows are written with bulk inserts in batches; every score comes
from the core. From the command line::

    python -m dutch_app.services.demo --rows 10000 --seed 1 [--database-url URL]
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta

from sqlalchemy import delete, select, text
from sqlalchemy.orm import Session

from dutch_app.i18n import _
from dutch_app.services._access import acting_user, bump_group, owner_membership
from dutch_app.services._bulk import BulkGame, write_games
from dutch_app.services._caps import check_room_for_a_group, count_demo_group
from dutch_app.services._input import new_invite_code
from dutch_app.services._members import new_group
from dutch_app.services._present import group_view
from dutch_app.services._simulation import full_deck, play_round
from dutch_app.services.errors import Conflict, NotFound, ValidationError
from dutch_app.services.unit_of_work import writes
from dutch_app.services.views import GroupView
from dutch_app.storage.db import WRITE
from dutch_app.storage.models import (
    Game,
    GamePlayer,
    Group,
    Player,
    Round,
    RoundHand,
    as_utc,
    utcnow,
)
from dutch_core import (
    PRESETS,
    EndCondition,
    EndKind,
    Hand,
    HouseRules,
    Penalty,
    RoundInput,
    score_round,
)
from dutch_core import Game as CoreGame
from dutch_core.game import GameStatus

NAMES = ("Anna", "Bram", "Chloé", "Daan", "Eva", "Finn", "Greet", "Hugo")
MAX_ROWS = 1_000_000
BATCH_ROWS = 20_000
DEMO_GROUP_ROWS = 300
DEMO_GROUP_SEED = 2025
DAY = timedelta(days=1)
TOTAL_ONLY_CHANCE = 0.15  # a hand written down as its total only
RULE_CHOICES = (
    (PRESETS["classic"], 60),
    (HouseRules(end=EndCondition.score_limit(100, exact_limit_halves=True)), 10),
    (HouseRules(end=EndCondition.after_rounds(8)), 10),
    (PRESETS["points"], 8),
    (PRESETS["deck_out"], 7),
    (PRESETS["jokers"], 5),
)


@dataclass(frozen=True)
class DemoSummary:
    """What was generated."""

    group_id: int
    games: int
    rounds: int
    rows: int


def _roster(session: Session, group_id: int) -> list[Player]:
    """The group's players, topped up with demo names to eight."""
    players = list(
        session.scalars(
            select(Player)
            .where(Player.group_id == group_id, Player.merged_into_id.is_(None))
            .order_by(Player.id)
        )
    )
    taken = {player.name_key for player in players}
    for name in NAMES:
        if len(players) >= len(NAMES):
            break
        if name.casefold() not in taken:
            player = Player(group_id=group_id, name=name, name_key=name.casefold())
            session.add(player)
            players.append(player)
    session.flush()
    return players


def _as_entered(rng: random.Random, round_input: RoundInput, rules: HouseRules) -> RoundInput:
    """Now and then a hand or a penalty is written down as its total only."""
    hands = tuple(
        (name, Hand.of_total(hand.value(rules)) if rng.random() < TOTAL_ONLY_CHANCE else hand)
        for name, hand in round_input.hands
    )
    penalty = round_input.penalty
    if penalty is not None and rng.random() < TOTAL_ONLY_CHANCE:
        penalty = Penalty.of_total(penalty.value(rules))
    return RoundInput(hands, round_input.caller, round_input.call_type, penalty)


def _play_game(
    rng: random.Random,
    rules: HouseRules,
    names: Sequence[str],
    forgetting: Mapping[str, float] | None = None,
) -> list:
    """The scored rounds of one game, played until its end (open games: a few rounds)."""
    results = []
    stop_after = rng.randint(4, 12)
    dealer = rng.randrange(len(names))
    deck = full_deck(rules)
    while True:
        played = play_round(rng, list(names), rules, dealer, deck, forgetting)
        round_input = _as_entered(rng, played, rules)
        results.append(score_round(round_input, rules))
        dealer = (dealer + 1) % len(names)
        if CoreGame(tuple(names), rules, tuple(results)).is_over or len(results) >= 60:
            return results
        if rules.end.kind is EndKind.OPEN and len(results) >= stop_after:
            return results


def _generate(
    session: Session,
    group_id: int,
    rows: int,
    seed: int,
    end: datetime,
    after_batch: Callable[[], None],
    forgetting: Mapping[str, float] | None = None,
) -> DemoSummary:
    rng = random.Random(seed)  # noqa: S311 - demo data must be reproducible, not secret
    roster = _roster(session, group_id)
    rules_pool, weights = zip(*RULE_CHOICES, strict=True)
    started = end - min(timedelta(days=3 * 365), max(timedelta(days=14), (rows // 36) * 2 * DAY))
    games = rounds_made = rows_made = 0
    batch: list[BulkGame] = []
    while rows_made < rows:
        seated = rng.sample(roster, rng.choice((3, 4, 4, 4, 5, 5, 6)))
        rules = rng.choices(rules_pool, weights)[0]
        results = _play_game(rng, rules, [player.name for player in seated], forgetting)
        ended_at: datetime | None = started + timedelta(minutes=4 * len(results) + 2)
        status = GameStatus.ENDED
        if rows_made + len(results) * len(seated) >= rows:
            # The newest game is still going on: it stops as soon as the size is reached.
            needed = -(-(rows - rows_made) // len(seated))
            partial = results[:needed]
            names = tuple(player.name for player in seated)
            if needed < len(results) and not CoreGame(names, rules, tuple(partial)).is_over:
                results, status, ended_at = partial, GameStatus.ACTIVE, None
        game = {
            "group_id": group_id,
            "rules": rules.to_dict(),
            "status": status,
            "started_at": started,
            "ended_at": ended_at,
            "notes": "",
            "version": 1,
        }
        batch.append(BulkGame(game, seated, results))
        games += 1
        rounds_made += len(results)
        rows_made += len(results) * len(seated)
        games_left = max(1.0, (rows - rows_made) / (rows_made / games))
        started += (end - started) / (games_left + 1) * rng.uniform(0.8, 1.2)
        if sum(game.rows for game in batch) >= BATCH_ROWS or rows_made >= rows:
            write_games(session, batch)
            batch = []
            after_batch()
    bump_group(session, group_id)
    return DemoSummary(group_id, games, rounds_made, rows_made)


def _check_rows(rows: object) -> int:
    if isinstance(rows, bool) or not isinstance(rows, int) or not 1 <= rows <= MAX_ROWS:
        raise ValidationError("rows", f"rows must be a number from 1 to {MAX_ROWS}, not {rows!r}.")
    return rows


_WRITTEN = (Game, GamePlayer, Player, Round, RoundHand)
"""The tables :func:`generate_history` writes."""


def generate_history(
    session: Session,
    group_id: int,
    rows: int,
    seed: int,
    end: datetime | None = None,
    forgetting: Mapping[str, float] | None = None,
) -> DemoSummary:
    """Fill a group with about ``rows`` player-round rows of games ending before ``end``
    (default now). Commits after every batch; meant for the command line and tests.
    ``forgetting`` gives named players a skill (see :mod:`dutch_app.services._simulation`).

    On PostgreSQL the written tables are analysed afterwards, as its manual asks after a
    bulk load: until autovacuum gets to them (up to a minute or more), the planner takes
    tables that just grew from nearly empty for small, and a listing of a group's games
    then ran for minutes (a nested loop over the rounds table, seen in the test suite).
    """
    rows = _check_rows(rows)
    if session.in_transaction():
        session.commit()

    def next_batch() -> None:
        session.commit()
        session.connection(execution_options={WRITE: True})

    session.connection(execution_options={WRITE: True})
    try:
        if session.get(Group, group_id) is None:
            raise NotFound("group", group_id)
        summary = _generate(
            session, group_id, rows, seed, as_utc(end) or utcnow(), next_batch, forgetting
        )
        session.commit()
        if session.get_bind().dialect.name == "postgresql":
            tables = ", ".join(model.__tablename__ for model in _WRITTEN)
            session.execute(text(f"ANALYZE {tables}"))
            session.commit()
    except BaseException:
        session.rollback()
        raise
    return summary


@writes
def load_demo_group(session: Session, user_id: int) -> GroupView:
    """Create a demo group owned by the user, with a few hundred rows of history.

    Refused beyond the day's allowance of demo groups and the cap on groups per person.
    """
    acting_user(session, user_id)
    count_demo_group(session, user_id)
    check_room_for_a_group(session, user_id)
    # Named in the language of the person who loads it.
    group, mine = new_group(session, user_id, _("Demo group"), is_demo=True)
    _generate(session, group.id, DEMO_GROUP_ROWS, DEMO_GROUP_SEED, utcnow(), lambda: None)
    session.refresh(group)
    return group_view(session, group, mine)


@writes
def remove_demo_group(session: Session, user_id: int, group_id: int) -> str:
    """Delete a demo group with its made-up players and games (its owner only); its name.

    Only groups made as demo groups can go this way; a real group is left by leaving it.
    """
    mine = owner_membership(session, user_id, group_id)
    group = session.get_one(Group, mine.group_id)
    if not group.is_demo:
        raise Conflict(_("{name!r} is not a demo group; leave it instead.").format(name=group.name))
    name = group.name
    # Games first: their hands and seats point at players, which go with the group.
    session.execute(delete(Game).where(Game.group_id == group.id))
    session.execute(delete(Group).where(Group.id == group.id))
    return name


def main(argv: Sequence[str] | None = None) -> int:
    """The command line: make a new demo group and print how to join it."""
    parser = argparse.ArgumentParser(prog="python -m dutch_app.services.demo", description=__doc__)
    parser.add_argument("--rows", type=int, default=10_000, help="player-round rows to make")
    parser.add_argument("--seed", type=int, default=1, help="seed of the random numbers")
    parser.add_argument("--database-url", help="default: the app's configured database")
    arguments = parser.parse_args(argv)
    from dutch_app.storage.db import get_engine

    engine = get_engine(arguments.database_url)
    began = time.perf_counter()
    with Session(engine, expire_on_commit=False) as session:
        group = Group(name=f"Demo ({arguments.rows} rows, seed {arguments.seed})")
        group.invite_code = new_invite_code()
        session.add(group)
        session.commit()
        summary = generate_history(session, group.id, arguments.rows, arguments.seed)
    seconds = time.perf_counter() - began
    print(
        f"Group {summary.group_id}: {summary.games} games, {summary.rounds} rounds, "
        f"{summary.rows} player-round rows in {seconds:.1f} s. "
        f"Join it in the app with the invite code {group.invite_code}."
    )
    engine.dispose()
    return 0


if __name__ == "__main__":
    sys.exit(main())
