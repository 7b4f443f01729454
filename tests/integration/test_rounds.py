"""Rounds: scored by the core from what was entered, corrected, deleted.

Bad input writes nothing.
"""

from __future__ import annotations

import json

import pytest
from sqlalchemy import event, text

from dutch_app.services import rounds
from dutch_app.services.errors import Conflict, EndCrossed, NotFound, ValidationError
from dutch_app.services.games import get_game, start_game
from dutch_app.services.unit_of_work import perform
from dutch_core import (
    PRESETS,
    CardError,
    DeckError,
    EndCondition,
    HandError,
    HouseRules,
    PenaltyError,
    RoundError,
)
from dutch_core.game import GameStatus


@pytest.fixture
def game(session, owner, group, seated):
    """A classic game of Ann, Bo, Cy and Dee, no rounds yet."""
    return perform(session, start_game, owner, group.id, [p.id for p in seated], PRESETS["classic"])


def by_name(seated, **hands):
    """Hands keyed by player id, given by name: by_name(seated, Ann="3", Bo="10")."""
    ids = {player.name: player.id for player in seated}
    return {ids[name]: hand for name, hand in hands.items()}


def enter(session, owner, game, seated, *hands, caller="Ann", call="dutch", penalty=None):
    """Add a round with hands for Ann, Bo, Cy, Dee in seat order (default 3, 9, 9, 9)."""
    hands = hands or ("3", "9", "9", "9")
    keyed = {player.id: hand for player, hand in zip(seated, hands, strict=True)}
    caller_id = next(p.id for p in seated if p.name == caller)
    return perform(session, rounds.add_round, owner, game.id, keyed, caller_id, call, penalty)


WORKED_EXAMPLES = [
    # (hands Ann..Dee, caller, call type, penalty, expected round scores Ann..Dee, outcome)
    (("AH 2C", "10", "7", "25"), "Ann", "dutch", None, [3, 10, 7, 25], "lowest"),
    (("5", "5", "9", "5"), "Ann", "dutch", "4S KD", [9, 5, 9, 5], "tied"),
    (("12", "4", "12", "30"), "Ann", "dutch", "QC 3D KS", [40, 4, 12, 30], "beaten"),
    (("KH KD", "", "6", "2"), "Bo", "auto_dutch", "7H", [0, 7, 6, 2], "tied"),
]


@pytest.mark.parametrize(
    ("hands", "caller", "call", "penalty", "scores", "outcome"), WORKED_EXAMPLES
)
def test_the_worked_examples_are_stored_as_the_core_scores_them(
    session, owner, game, seated, hands, caller, call, penalty, scores, outcome
):
    stored = enter(session, owner, game, seated, *hands, caller=caller, call=call, penalty=penalty)
    assert [hand.round_score for hand in stored.hands] == scores
    assert (stored.number, stored.outcome, stored.caller, stored.version) == (1, outcome, caller, 1)
    view = perform(session, get_game, owner, game.id)
    assert [hand.round_score for hand in view.rounds[0].hands] == scores
    assert list(view.totals.values()) == scores


def test_hands_keep_how_they_were_entered(session, owner, game, seated):
    hands = by_name(seated, Ann="kh 2c", Bo="=10", Cy="7s", Dee="25")
    stored = perform(session, rounds.add_round, owner, game.id, hands, seated[0].id, "dutch")
    assert [(h.cards, h.hand_text) for h in stored.hands] == [
        ("KH 2C", "KH 2C"),
        (None, "10"),
        ("7S", "7S"),
        (None, "25"),
    ]


def test_rounds_are_numbered_and_totals_add_up(session, owner, game, seated):
    for ann in ("1", "2", "3"):
        enter(session, owner, game, seated, ann, "9", "9", "9")
    view = perform(session, get_game, owner, game.id)
    assert [r.number for r in view.rounds] == [1, 2, 3]
    assert view.totals == {"Ann": 6, "Bo": 27, "Cy": 27, "Dee": 27}
    assert view.version == 4


def test_a_correction_rescores_the_round(session, owner, game, seated):
    first = enter(session, owner, game, seated)
    fixed = perform(
        session, rounds.edit_round, owner, first.id, first.version,
        by_name(seated, Ann="12", Bo="4", Cy="12", Dee="30"), seated[0].id, "dutch", "30",
    )  # fmt: skip
    assert [h.round_score for h in fixed.hands] == [42, 4, 12, 30]
    assert (fixed.version, fixed.penalty_text, fixed.penalty_cards_due) == (2, "30", 3)
    assert fixed.edited_at is not None
    assert perform(session, get_game, owner, game.id).totals["Ann"] == 42


def test_a_stale_correction_is_refused_and_overwrites_nothing(session, owner, game, seated):
    first = enter(session, owner, game, seated)
    perform(
        session, rounds.edit_round, owner, first.id, first.version,
        by_name(seated, Ann="2", Bo="9", Cy="9", Dee="9"), seated[0].id, "dutch",
    )  # fmt: skip
    with pytest.raises(Conflict, match="Round 1 was changed by someone else since you loaded it"):
        perform(
            session, rounds.edit_round, owner, first.id, first.version,
            by_name(seated, Ann="1", Bo="9", Cy="9", Dee="9"), seated[0].id, "dutch",
        )  # fmt: skip
    with pytest.raises(Conflict):
        perform(session, rounds.delete_round, owner, first.id, first.version)
    assert perform(session, get_game, owner, game.id).rounds[0].hands[0].hand_total == 2


def test_deleting_a_round_moves_later_rounds_up(session, owner, game, seated):
    made = [enter(session, owner, game, seated, ann, "9", "9", "9") for ann in "1234"]
    perform(session, rounds.delete_round, owner, made[1].id, made[1].version)
    view = perform(session, get_game, owner, game.id)
    assert [(r.number, r.id) for r in view.rounds] == [
        (1, made[0].id),
        (3 - 1, made[2].id),
        (3, made[3].id),
    ]
    assert view.totals["Ann"] == 1 + 3 + 4
    assert enter(session, owner, game, seated).number == 4


BAD_ROUNDS = [
    # (hands Ann..Dee, caller, call type, penalty, error, message)
    (("3", "K", "9", "9"), "Ann", "dutch", None, CardError, "Bo: 'K' needs a colour"),
    (("3", "400", "9", "9"), "Ann", "dutch", None, HandError, "Bo: a hand total of 400"),
    (("A A A", "A A", "9", "9"), "Ann", "dutch", None, DeckError, "Bo"),
    (("5", "5", "9", "9"), "Ann", "dutch", "4S 5S", PenaltyError, "Ann: must draw 1 penalty card"),
    (("5", "9", "9", "9"), "Ann", "shout", None, RoundError, "'shout' is not a call"),
    (("5", "9", "9", "9"), "Ann", None, None, RoundError, "Dutch or Auto Dutch"),
    (("5", "9", "9", "9"), "Ann", "auto_dutch", None, RoundError, "Auto Dutch means no cards"),
    ((5.5, "9", "9", "9"), "Ann", "dutch", None, ValidationError, "Ann: 5.5 is not a hand"),
]


@pytest.mark.parametrize(("hands", "caller", "call", "penalty", "error", "message"), BAD_ROUNDS)
def test_an_impossible_round_is_refused_and_writes_nothing(
    session, owner, game, seated, count_rows, hands, caller, call, penalty, error, message
):
    before = count_rows()
    with pytest.raises(error, match=message):
        enter(session, owner, game, seated, *hands, caller=caller, call=call, penalty=penalty)
    assert count_rows() == before


def test_a_round_without_a_caller_needs_rules_that_allow_it(
    session, owner, group, seated, game, count_rows
):
    hands = {player.id: "9" for player in seated}
    before = count_rows()
    with pytest.raises(RoundError):
        perform(session, rounds.add_round, owner, game.id, hands, None, None)
    with pytest.raises(ValidationError, match="Dee: no hand was entered"):
        perform(
            session, rounds.add_round, owner, game.id, dict(list(hands.items())[:3]), None, None
        )
    assert count_rows() == before
    deck_out = perform(
        session, start_game, owner, group.id, [p.id for p in seated], PRESETS["deck_out"]
    )
    stored = perform(session, rounds.add_round, owner, deck_out.id, hands, None, None)
    assert (stored.caller, stored.outcome, [h.round_score for h in stored.hands]) == (
        None,
        None,
        [9, 9, 9, 9],
    )


@pytest.mark.parametrize(
    ("change", "error", "message"),
    [
        (lambda a: {**a, "game_id": 987_654}, NotFound, "No game with id 987654"),
        (lambda a: {**a, "game_id": "1"}, ValidationError, "game_id must be a whole number"),
        (lambda a: {**a, "hands": [("Ann", "3")]}, ValidationError, "hands must map player ids"),
        (lambda a: {**a, "hands": {**a["hands"], 987_654: "3"}}, ValidationError, "987654 is not"),
        (lambda a: {**a, "hands": {str(k): 3 for k in a["hands"]}}, ValidationError, "whole"),
        (lambda a: {**a, "caller_id": 987_654}, ValidationError, "987654 is not playing"),
        (lambda a: {**a, "caller_id": "Ann"}, ValidationError, "caller_id must be a whole number"),
        (lambda a: {**a, "penalty_text": ["4S"]}, ValidationError, "is not a penalty"),
    ],
)  # fmt: skip
def test_unknown_ids_and_wrong_types_are_refused_and_write_nothing(
    session, owner, game, seated, count_rows, change, error, message
):
    arguments = {
        "game_id": game.id,
        "hands": by_name(seated, Ann="3", Bo="9", Cy="9", Dee="9"),
        "caller_id": seated[0].id,
        "call_type": "dutch",
        "penalty_text": None,
    }
    before = count_rows()
    with pytest.raises(error, match=message):
        perform(session, rounds.add_round, owner, **change(arguments))
    assert count_rows() == before


def test_a_bad_correction_leaves_the_round_as_it_was(session, owner, game, seated, count_rows):
    first = enter(session, owner, game, seated)
    before = count_rows()
    with pytest.raises(DeckError):
        perform(
            session, rounds.edit_round, owner, first.id, first.version,
            by_name(seated, Ann="A A A", Bo="A A", Cy="9", Dee="9"), seated[0].id, "dutch",
        )  # fmt: skip
    with pytest.raises(ValidationError, match="expected_version"):
        perform(
            session, rounds.edit_round, owner, first.id, "1",
            by_name(seated, Ann="1", Bo="9", Cy="9", Dee="9"), seated[0].id, "dutch",
        )  # fmt: skip
    assert count_rows() == before
    unchanged = perform(session, get_game, owner, game.id)
    assert unchanged.rounds[0] == first
    assert unchanged.version == 2


HISTORY_TABLES = ("games", "game_players", "rounds", "round_hands", "players")


def full_scans(connection, statement: str, parameters) -> list[str]:
    """The history tables a statement would read from start to end."""
    if connection.dialect.name == "sqlite":
        plan = connection.exec_driver_sql(f"EXPLAIN QUERY PLAN {statement}", parameters).all()
        return [row[-1] for row in plan if row[-1].startswith("SCAN") and any(
            f" {table}" in row[-1] for table in HISTORY_TABLES
        )]  # fmt: skip
    connection.execute(text("SET enable_seqscan = off"))
    (plan,) = connection.exec_driver_sql(f"EXPLAIN (FORMAT JSON) {statement}", parameters).one()
    found = []

    def walk(node):
        if node["Node Type"] == "Seq Scan" and node["Relation Name"] in HISTORY_TABLES:
            found.append(node["Relation Name"])
        for child in node.get("Plans", ()):
            walk(child)

    walk((plan if isinstance(plan, list) else json.loads(plan))[0]["Plan"])
    connection.execute(text("RESET enable_seqscan"))
    return found


def test_adding_a_round_and_loading_a_game_read_only_that_game(
    session, engine, owner, group, seated, game
):
    for _ in range(3):  # other games: history that must not be read
        other = perform(
            session, start_game, owner, group.id, [p.id for p in seated], PRESETS["classic"]
        )
        enter(session, owner, other, seated)
    statements = []

    def keep(_conn, _cursor, statement, parameters, _context, executemany):
        if statement.lstrip().upper().startswith("SELECT") and not executemany:
            statements.append((statement, parameters))

    event.listen(engine, "before_cursor_execute", keep)
    try:
        enter(session, owner, game, seated)
        perform(session, get_game, owner, game.id)
    finally:
        event.remove(engine, "before_cursor_execute", keep)
    # the query for the latest round (its number and stored totals) was among them
    assert any("ORDER BY rounds.number DESC" in statement for statement, _ in statements)
    with engine.connect() as connection:
        scans = {s: full_scans(connection, s, p) for s, p in statements}
    assert {statement: found for statement, found in scans.items() if found} == {}


@pytest.fixture
def ten_rounds(session, owner, game, seated):
    """Ten rounds of the classic game (to 100): Ann calls with 3, the others hold 9 each;
    Bo stands at 72 after round 8 and at 90 after round 10."""
    return [enter(session, owner, game, seated) for _ in range(10)]


def correct_bo(session, owner, seated, stored, bo, **choice):
    hands = by_name(seated, Ann="3", Bo=bo, Cy="9", Dee="9")
    caller = seated[0].id
    return perform(
        session,
        rounds.edit_round,
        owner,
        stored.id,
        stored.version,
        hands,
        caller,
        "dutch",
        **choice,
    )


def test_a_correction_past_the_limit_mid_game_says_so_and_saves_nothing(
    session, owner, game, seated, ten_rounds
):
    before = perform(session, get_game, owner, game.id)
    with pytest.raises(EndCrossed) as asked:
        correct_bo(session, owner, seated, ten_rounds[7], "42")
    assert (asked.value.ended_after, asked.value.played) == (8, 10)
    message = str(asked.value)
    for said in ("Bo reaches 105 points in round 8", "limit of 100", "rounds 9 to 10"):
        assert said in message
    assert perform(session, get_game, owner, game.id) == before


def test_a_correction_past_the_limit_can_end_the_game_after_that_round(
    session, owner, game, seated, ten_rounds
):
    end_there = rounds.PastTheEnd.END_THERE
    saved = correct_bo(session, owner, seated, ten_rounds[7], "42", past_the_end=end_there)
    assert saved.number == 8
    after = perform(session, get_game, owner, game.id)
    assert after.rounds_played == 8 and after.status is GameStatus.ENDED
    assert after.totals == {"Ann": 24, "Bo": 105, "Cy": 72, "Dee": 72}
    assert after.winners == ("Ann",)


def test_a_correction_past_the_limit_can_keep_the_game_going_as_an_open_game(
    session, owner, game, seated, ten_rounds
):
    play_on = rounds.PastTheEnd.PLAY_ON
    correct_bo(session, owner, seated, ten_rounds[7], "42", past_the_end=play_on)
    after = perform(session, get_game, owner, game.id)
    assert after.rounds_played == 10 and after.status is GameStatus.ACTIVE
    assert after.rules.end == EndCondition.open() and not after.is_over
    assert after.totals["Bo"] == 123
    enter(session, owner, game, seated)  # and the game takes another round
    assert perform(session, get_game, owner, game.id).rounds_played == 11


def test_the_question_says_when_playing_on_drops_the_halving_of_an_exact_limit(
    session, owner, group, seated
):
    halving = HouseRules(end=EndCondition.score_limit(100, exact_limit_halves=True))
    game = perform(session, start_game, owner, group.id, [p.id for p in seated], halving)
    stored = [enter(session, owner, game, seated) for _ in range(10)]
    with pytest.raises(EndCrossed) as asked:
        correct_bo(session, owner, seated, stored[7], "42")
    assert "a total that landed exactly on 100 is no longer halved" in str(asked.value)


def test_the_question_says_nothing_of_halving_under_a_limit_that_does_not_halve(
    session, owner, game, seated, ten_rounds
):
    with pytest.raises(EndCrossed) as asked:
        correct_bo(session, owner, seated, ten_rounds[7], "42")
    assert "halved" not in str(asked.value)


def test_a_correction_that_reaches_the_limit_in_the_last_round_just_ends_the_game(
    session, owner, game, seated, ten_rounds
):
    correct_bo(session, owner, seated, ten_rounds[9], "19")
    after = perform(session, get_game, owner, game.id)
    assert after.rounds_played == 10 and after.status is GameStatus.ENDED
    assert after.totals["Bo"] == 100
