"""Checking a typed round field by field (dutch_core.entry)."""

from dutch_core import PRESETS, CallType
from dutch_core.entry import CALLER, PENALTY, check_entry

PLAYERS = ["Ann", "Ben", "Cleo", "Dan"]
CLASSIC = PRESETS["classic"]


def test_every_bad_hand_gets_its_own_message():
    check = check_entry(
        PLAYERS, {"Ann": "K", "Ben": "7 Z", "Cleo": "3", "Dan": "4"}, "Cleo", CallType.DUTCH, "",
        CLASSIC,
    )  # fmt: skip
    assert not check.ok
    assert set(check.errors) == {"Ann", "Ben"}
    assert "'K'" in check.errors["Ann"]
    assert "'Z'" in check.errors["Ben"] or "'7 Z'" in check.errors["Ben"]


def test_missing_penalty_says_how_many_cards_to_draw():
    hands = {"Ann": "12", "Ben": "4", "Cleo": "12", "Dan": "30"}
    check = check_entry(PLAYERS, hands, "Ann", CallType.DUTCH, "", CLASSIC)
    assert check.penalty_cards_due == 3
    assert "Ann must draw 3 penalty cards" in check.errors[PENALTY]


def test_a_penalty_for_a_good_call_is_refused():
    hands = {"Ann": "1", "Ben": "4", "Cleo": "12", "Dan": "30"}
    check = check_entry(PLAYERS, hands, "Ann", CallType.DUTCH, "5", CLASSIC)
    assert "no penalty cards" in check.errors[PENALTY]


def test_no_caller_needs_house_rules_that_allow_it():
    hands = {"Ann": "1", "Ben": "4", "Cleo": "12", "Dan": "30"}
    refused = check_entry(PLAYERS, hands, None, None, "", CLASSIC)
    assert CALLER in refused.errors
    allowed = check_entry(PLAYERS, hands, None, None, "", PRESETS["deck_out"])
    assert allowed.ok
    assert [s.round_score for s in allowed.result.scores] == [1, 4, 12, 30]


def test_a_deck_error_lands_on_the_player_who_holds_the_impossible_card():
    hands = {"Ann": "7S", "Ben": "7S", "Cleo": "3", "Dan": "4"}
    check = check_entry(PLAYERS, hands, "Cleo", CallType.DUTCH, "", CLASSIC)
    assert not check.ok
    (field,) = check.errors
    assert field in {"Ann", "Ben"}
    assert "7S" in check.errors[field]


def test_a_good_round_is_scored():
    hands = {"Ann": "12", "Ben": "4", "Cleo": "12", "Dan": "30"}
    check = check_entry(PLAYERS, hands, "Ann", CallType.DUTCH, "QC 3D KS", CLASSIC)
    assert check.ok
    assert check.result.as_dict() == {"Ann": 40, "Ben": 4, "Cleo": 12, "Dan": 30}


def test_an_impossible_set_of_hands_is_reported_before_any_penalty_is_asked_for():
    hands = {"Ann": "A A", "Ben": "A A", "Cleo": "A", "Dan": "3"}
    check = check_entry(PLAYERS, hands, "Dan", CallType.DUTCH, "", CLASSIC)
    assert PENALTY not in check.errors
    (field,) = check.errors
    assert field in {"Ann", "Ben", "Cleo"}
    assert "5th" in check.errors[field]
