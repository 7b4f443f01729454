"""Under load: many people adding rounds at once lose nothing and double nothing.

Twelve people each add twenty-five rounds to a game of their own while five others
add ten rounds each to one game they share, all in the same group, each in a thread and a
session of their own. Afterwards every round sent is stored exactly once, the
round numbers of every game run 1, 2, 3, ... without a gap, every game total
equals the sum the core gives for the rounds sent, and the group's data version
moved on once per round (no change was counted twice or lost).
"""

from __future__ import annotations

import random
import threading
from collections import Counter
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from dutch_app.services.games import get_game, start_game
from dutch_app.services.groups import data_version, join_group
from dutch_app.services.history import load_history
from dutch_app.services.rounds import add_round
from dutch_app.services.unit_of_work import perform
from dutch_app.storage.models import Round
from dutch_core import PRESETS, CallType, RoundInput, score_round

OWN_GAMES = 12
ROUNDS_EACH = 25
SHARING = 5
ROUNDS_EACH_SHARED = 10
RULES = PRESETS["classic_open"]  # never ends by itself, so every round is accepted


def random_round(rng: random.Random, seats: int) -> tuple[list[str], int]:
    """Hand totals in seat order and the seat that calls Dutch with the one lowest hand."""
    totals = rng.sample(range(0, 40), seats)
    return [str(total) for total in totals], totals.index(min(totals))


def core_scores(hands: list[str], caller: int, names: list[str]) -> dict[str, int]:
    """The round scores the core gives for these hands (no penalty: the caller is lowest)."""
    played = RoundInput.build(
        dict(zip(names, hands, strict=True)), caller=names[caller], call_type=CallType.DUTCH
    )
    return score_round(played, RULES).as_dict()


def in_parallel(engine, jobs: list[Callable[[Session], object]]) -> list[object]:
    """Run every job at once, each in a thread and a session of its own; their results."""
    start = threading.Barrier(len(jobs))

    def run(job: Callable[[Session], object]) -> object:
        with Session(engine, expire_on_commit=False) as session:
            start.wait(timeout=60)
            return job(session)

    with ThreadPoolExecutor(max_workers=len(jobs)) as pool:
        return [future.result() for future in [pool.submit(run, job) for job in jobs]]


def test_many_people_adding_rounds_at_once_store_each_round_exactly_once(
    engine, session, make_user, owner, group, seated
):
    members = [make_user(f"Member{number}") for number in range(OWN_GAMES + SHARING)]
    for member in members:
        perform(session, join_group, member, group.invite_code)
    seat_ids = [player.id for player in seated]
    names = [player.name for player in seated]
    own_games = [
        perform(session, start_game, member, group.id, seat_ids, RULES).id
        for member in members[:OWN_GAMES]
    ]
    shared_game = perform(session, start_game, owner, group.id, seat_ids, RULES).id
    version_before = perform(session, data_version, owner, group.id)

    def player(member: int, game_id: int, rounds: int, seed: int):
        def job(own_session: Session) -> list[dict[str, int]]:
            rng = random.Random(seed)
            sent = []
            for _ in range(rounds):
                hands, caller = random_round(rng, len(seat_ids))
                perform(
                    own_session,
                    add_round,
                    member,
                    game_id,
                    dict(zip(seat_ids, hands, strict=True)),
                    seat_ids[caller],
                    "dutch",
                )
                sent.append(core_scores(hands, caller, names))
            return sent

        return job

    jobs = [
        player(member, game_id, ROUNDS_EACH, seed)
        for seed, (member, game_id) in enumerate(zip(members[:OWN_GAMES], own_games, strict=True))
    ]
    jobs += [
        player(member, shared_game, ROUNDS_EACH_SHARED, 1000 + seed)
        for seed, member in enumerate(members[OWN_GAMES:])
    ]
    sent = in_parallel(engine, jobs)

    expected_rounds = {game_id: ROUNDS_EACH for game_id in own_games}
    expected_rounds[shared_game] = SHARING * ROUNDS_EACH_SHARED
    expected_totals: dict[int, Counter] = {game_id: Counter() for game_id in expected_rounds}
    for game_id, scores in zip([*own_games, *[shared_game] * SHARING], sent, strict=True):
        for round_scores in scores:
            expected_totals[game_id].update(round_scores)

    numbers = session.execute(
        select(
            Round.game_id, func.count(), func.min(Round.number), func.max(Round.number)
        ).group_by(Round.game_id)
    ).all()
    assert {game_id: (count, low, high) for game_id, count, low, high in numbers} == {
        game_id: (count, 1, count) for game_id, count in expected_rounds.items()
    }
    for game_id, totals in expected_totals.items():
        game = perform(session, get_game, owner, game_id)
        assert len(game.rounds) == expected_rounds[game_id]
        assert game.totals == dict(totals)
        stored = {hand.player: 0 for hand in game.rounds[0].hands}
        for stored_round in game.rounds:
            for hand in stored_round.hands:
                stored[hand.player] += hand.round_score
        assert stored == dict(totals)

    history = perform(session, load_history, owner, group.id)
    assert len(history) == sum(expected_rounds.values()) * len(seat_ids)
    last_rows = history.groupby(["game_id", "player"])["game_total"].last()
    assert {
        (game_id, name): total
        for game_id, totals in expected_totals.items()
        for name, total in totals.items()
    } == last_rows.to_dict()
    assert perform(session, data_version, owner, group.id) == version_before + sum(
        expected_rounds.values()
    )
