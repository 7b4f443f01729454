"""Round scoring: the worked examples of the rules, every outcome, and every refusal."""

import pytest

from dutch_core import (
    PRESETS,
    CallType,
    DutchError,
    Hand,
    HouseRules,
    Outcome,
    Penalty,
    PenaltyError,
    PenaltyMode,
    RoundError,
    RoundInput,
    RulesError,
    caller_outcome,
    penalty_cards_due,
    score_round,
)

SEED = HouseRules()
POINTS = HouseRules(penalty_mode=PenaltyMode.POINTS, failed_call_points=10, success_bonus=5)


def play(hands, caller="A", call_type="dutch", penalty=None, rules=SEED):
    return score_round(RoundInput.build(hands, caller, call_type, penalty), rules)


WORKED_EXAMPLES = [
    pytest.param(
        {"A": "AH 2C", "B": "10", "C": "7", "D": "25"},
        "A",
        "dutch",
        None,
        (Outcome.LOWEST, 0),
        {"A": 3, "B": 10, "C": 7, "D": 25},
        id="1-lowest",
    ),
    pytest.param(
        {"A": "5", "B": "5", "C": "9", "D": "5"},
        "A",
        "dutch",
        "4S KD",
        (Outcome.TIED, 2),
        {"A": 9, "B": 5, "C": 9, "D": 5},
        id="2-tied-with-two",
    ),
    pytest.param(
        {"A": "12", "B": "4", "C": "12", "D": "30"},
        "A",
        "dutch",
        "QC 3D KS",
        (Outcome.BEATEN, 3),
        {"A": 40, "B": 4, "C": 12, "D": 30},
        id="3-one-lower-one-tied",
    ),
    pytest.param(
        {"A": "KH KD", "B": "", "C": "6", "D": "2"},
        "B",
        "auto_dutch",
        "7H",
        (Outcome.TIED, 1),
        {"A": 0, "B": 7, "C": 6, "D": 2},
        id="4-auto-dutch-tied",
    ),
    pytest.param(
        {"A": "20", "B": "3", "C": "1", "D": "2"},
        "A",
        "dutch",
        "KH 5C 9D QS AS 2H",
        (Outcome.BEATEN, 6),
        {"A": 20 + 0 + 5 + 9 + 12 + 1 + 2, "B": 3, "C": 1, "D": 2},
        id="5-three-lower",
    ),
]


@pytest.mark.parametrize(
    ("hands", "caller", "call_type", "penalty", "outcome_due", "scores"), WORKED_EXAMPLES
)
def test_worked_examples_of_the_rules(hands, caller, call_type, penalty, outcome_due, scores):
    result = play(hands, caller, call_type, penalty)
    assert (result.outcome, result.penalty_cards_due) == outcome_due
    assert result.as_dict() == scores
    caller_line = next(score for score in result.scores if score.is_caller)
    assert caller_line.player == caller
    assert caller_line.penalty_points == scores[caller] - caller_line.hand_total


@pytest.mark.parametrize(
    ("hands", "caller", "call_type", "penalty", "outcome_due", "scores"), WORKED_EXAMPLES
)
def test_the_ui_helper_announces_the_same_count_before_the_draw(
    hands, caller, call_type, penalty, outcome_due, scores
):
    assert penalty_cards_due(hands, caller, SEED) == outcome_due[1]
    without_penalty = RoundInput.build(hands, caller, call_type)
    assert penalty_cards_due(without_penalty, None, SEED) == outcome_due[1]


def test_example_5_gives_the_caller_the_drawn_cards_as_a_total_too():
    assert play({"A": "20", "B": "3", "C": "1", "D": "2"}, penalty="29").score_of("A") == 49


def test_only_the_caller_succeeds_when_strictly_lowest():
    assert play({"A": "2", "B": "3"}).succeeded
    assert not play({"A": "3", "B": "3"}, penalty="1").succeeded
    assert not play({"A": "4", "B": "3"}, penalty="1 1").succeeded


@pytest.mark.parametrize(
    ("totals", "expected"),
    [
        ({"A": 1, "B": 2, "C": 3}, (Outcome.LOWEST, 0, 0)),
        ({"A": 2, "B": 2, "C": 3}, (Outcome.TIED, 0, 1)),
        ({"A": 3, "B": 3, "C": 3}, (Outcome.TIED, 0, 2)),
        ({"A": 3, "B": 2, "C": 9}, (Outcome.BEATEN, 1, 0)),
        ({"A": 3, "B": 2, "C": 3, "D": 1}, (Outcome.BEATEN, 2, 1)),
        ({"A": 0, "B": 0}, (Outcome.TIED, 0, 1)),
    ],
)
def test_caller_outcome_counts_lower_and_tied_hands(totals, expected):
    assert caller_outcome(totals, "A") == expected


def test_beaten_and_tied_together_draw_both_penalties():
    result = play({"A": "10", "B": "3", "C": "10", "D": "10", "E": "20"}, penalty="A 2 3 4")
    assert (result.lower, result.tied, result.penalty_cards_due) == (1, 2, 4)
    assert result.score_of("A") == 20


def test_red_kings_drawn_as_penalty_cards_add_nothing():
    result = play({"A": "9", "B": "4"}, penalty="KH KD")
    assert result.score_of("A") == 9
    assert result.scores[0].penalty_points == 0
    assert play({"A": "9", "B": "4"}, penalty="KS RK").score_of("A") == 22


def test_auto_dutch_is_an_empty_hand_and_can_still_be_beaten_only_by_a_tie():
    result = play({"A": "", "B": "1", "C": "KD 2"}, call_type=CallType.AUTO_DUTCH)
    assert result.outcome is Outcome.LOWEST
    assert result.as_dict() == {"A": 0, "B": 1, "C": 2}
    tied = play({"A": "", "B": "KH"}, call_type="auto_dutch", penalty="9")
    assert tied.as_dict() == {"A": 9, "B": 0}
    assert play({"A": "0", "B": "3"}, call_type="auto_dutch").score_of("A") == 0


@pytest.mark.parametrize("caller_hand", ["7", "KH", "AS 2S"])
def test_auto_dutch_with_cards_left_is_refused(caller_hand):
    with pytest.raises(RoundError, match=rf"^A: Auto Dutch .*{caller_hand!r}"):
        play({"A": caller_hand, "B": "9"}, call_type="auto_dutch")


def test_jokers_count_their_house_value_and_need_a_deck_with_jokers():
    rules = HouseRules(jokers=2, joker_value=3)
    result = play({"A": "JK", "B": "JK 5", "C": "2"}, penalty="2C 3C", rules=rules)
    assert result.as_dict() == {"A": 8, "B": 8, "C": 2}
    assert play({"A": "JK JK", "B": "2"}, rules=PRESETS["jokers"]).succeeded


@pytest.mark.parametrize(
    ("penalty", "count", "entered"),
    [
        ("4S", "2 penalty cards", "1 was entered"),
        ("4S 5S 6S", "2 penalty cards", "3 were entered"),
        ("", "2 penalty cards", "0 were entered"),
    ],
)
def test_a_wrong_number_of_penalty_cards_is_refused(penalty, count, entered):
    hands = {"A": "5", "B": "5", "C": "9", "D": "5"}
    with pytest.raises(PenaltyError) as caught:
        play(hands, penalty=penalty)
    assert str(caught.value) == f"A: must draw {count}, {entered}"
    assert caught.value.player == "A"


def test_a_missing_penalty_says_how_many_to_draw():
    with pytest.raises(PenaltyError, match=r"^B: must draw 1 penalty card; enter"):
        play({"A": "3", "B": "3"}, caller="B")


def test_penalty_totals_must_fit_the_number_of_cards():
    assert play({"A": "3", "B": "3"}, penalty="13").score_of("A") == 16
    with pytest.raises(PenaltyError, match=r"14 is not what 1 penalty card can be worth \(0 to 13"):
        play({"A": "3", "B": "3"}, penalty="14")
    with pytest.raises(PenaltyError, match=r"-1 is outside what this deck can make \(0 to 338\)"):
        play({"A": "3", "B": "3"}, penalty="-1")


def test_a_penalty_of_negative_jokers_lowers_the_callers_score():
    rules = HouseRules(jokers=2, joker_value=-2)
    hands = {"A": "5", "B": "5", "C": "9", "D": "5"}
    tied = RoundInput.build(hands, "A", "dutch", penalty="JK JK")
    assert score_round(tied, rules).as_dict() == {"A": 1, "B": 5, "C": 9, "D": 5}
    assert score_round(RoundInput.build(hands, "A", "dutch", "-4"), rules).score_of("A") == 1
    with pytest.raises(PenaltyError, match=r"27 is not what 2 penalty cards can be worth"):
        score_round(RoundInput.build(hands, "A", "dutch", "27"), rules)
    with pytest.raises(PenaltyError, match=r"-5 is outside what this deck can make \(-4 to 338\)"):
        score_round(RoundInput.build(hands, "A", "dutch", "-5"), rules)


def test_no_penalty_may_be_entered_when_none_is_due():
    with pytest.raises(PenaltyError, match="'7S' was entered"):
        play({"A": "2", "B": "3"}, penalty="7S")
    assert play({"A": "2", "B": "3"}, penalty=Penalty.none()).score_of("A") == 2
    assert play({"A": "2", "B": "3"}, penalty="0").score_of("A") == 2


def test_points_mode_adds_fixed_points_for_a_failed_call_and_a_bonus_for_success():
    assert play({"A": "5", "B": "5"}, rules=POINTS).as_dict() == {"A": 15, "B": 5}
    assert play({"A": "8", "B": "2", "C": "1"}, rules=POINTS).as_dict() == {"A": 18, "B": 2, "C": 1}
    success = play({"A": "3", "B": "4"}, rules=POINTS)
    assert success.as_dict() == {"A": -2, "B": 4}
    assert success.scores[0].penalty_points == -5
    assert success.penalty_cards_due == 0
    assert penalty_cards_due({"A": "8", "B": "2"}, "A", POINTS) == 0


def test_points_mode_refuses_penalty_cards():
    with pytest.raises(PenaltyError, match=r"^A: .*10 points"):
        play({"A": "5", "B": "5"}, penalty="3", rules=POINTS)


def test_a_round_without_a_caller_needs_the_house_rule():
    with pytest.raises(RoundError, match="no one ended this round"):
        play({"A": "5", "B": "3"}, caller=None, call_type=None)
    result = play({"A": "5", "B": "3"}, caller=None, call_type=None, rules=PRESETS["deck_out"])
    assert result.as_dict() == {"A": 5, "B": 3}
    assert (result.caller, result.outcome, result.penalty_cards_due) == (None, None, 0)
    assert not result.succeeded
    assert penalty_cards_due({"A": "5", "B": "3"}, None, SEED) == 0


@pytest.mark.parametrize(
    ("hands", "caller", "call_type", "penalty", "message"),
    [
        ({"A": "1"}, "A", "dutch", None, "2 to 12 players, got 1"),
        ({f"P{n}": "1" for n in range(13)}, "P0", "dutch", None, "got 13"),
        ({"Ann": "1", "ann ": "2"}, "Ann", "dutch", None, "same name"),
        ({"A": "1", "": "2"}, "A", "dutch", None, "needs a name"),
        ({"A": "1", "B": "2"}, "C", "dutch", None, "'C' is not playing"),
        ({"A": "1", "B": "2"}, "A", None, None, "^A: say whether"),
        ({"A": "1", "B": "2"}, None, "dutch", None, "'dutch' needs the player"),
        ({"A": "1", "B": "2"}, "A", "shout", None, "^A: 'shout' is not a call"),
        ({"A": "1", "B": "2"}, None, None, "7", "no one called"),
    ],
)
def test_impossible_rounds_are_refused(hands, caller, call_type, penalty, message):
    with pytest.raises(RoundError, match=message):
        play(hands, caller, call_type, penalty, rules=PRESETS["deck_out"])


@pytest.mark.parametrize(
    "call",
    [
        lambda: score_round("A 3, B 4", SEED),
        lambda: score_round(RoundInput.build({"A": "1", "B": "2"}, "A", "dutch"), {"jokers": 0}),
        lambda: RoundInput(hands=(("A", "3"), ("B", "4")), caller="A", call_type="dutch"),
        lambda: RoundInput(hands=5, caller=None),
        lambda: RoundInput(hands=(("A", Hand.of_total(3)),) * 2, caller=None),
        lambda: RoundInput.build([("A", "3")], "A"),
        lambda: RoundInput.build({"A": "3", "B": None}, "A", "dutch"),
        lambda: RoundInput.build({"A": "3", "B": "4"}, "A", "dutch", penalty=[1]),
        lambda: RoundInput(
            hands=(("A", Hand.of_total(3)), ("B", Hand.of_total(4))),
            caller="A",
            call_type="dutch",
            penalty="4S",
        ),
        lambda: penalty_cards_due(["A"], "A", SEED),
        lambda: penalty_cards_due({"A": "3"}, "A", "seed"),
        lambda: caller_outcome({"A": 3}, "B"),
    ],
)
def test_wrong_types_raise_only_the_cores_errors(call):
    with pytest.raises(DutchError):
        call()


def test_wrong_rules_type_is_a_rules_error():
    with pytest.raises(RulesError):
        score_round(RoundInput.build({"A": "1", "B": "2"}, "A", "dutch"), None)


def test_result_lookups():
    result = play({"A": "AH 2C", "B": "10"})
    assert {score.player: score.hand_total for score in result.scores} == {"A": 3, "B": 10}
    assert result.input.players == ("A", "B")
    assert result.call_type is CallType.DUTCH
    with pytest.raises(RoundError, match="'Z'"):
        result.score_of("Z")


def test_the_builder_takes_a_mapping_and_the_constructor_exactly_its_pairs():
    """Loose input (a mapping, lists, a call's name) goes through RoundInput.build only."""
    hands = {"A": Hand.of_total(1), "B": Hand.of_total(2)}
    built = RoundInput.build(hands, "A", "dutch")
    assert built == RoundInput((("A", hands["A"]), ("B", hands["B"])), "A", CallType.DUTCH)
    assert built.hands == (("A", hands["A"]), ("B", hands["B"]))
    for loose in (hands, [["A", hands["A"]], ["B", hands["B"]]]):
        with pytest.raises(RoundError, match="pairs"):
            RoundInput(loose, "A", CallType.DUTCH)
    with pytest.raises(RoundError, match="A: 'dutch' is not a call"):
        RoundInput(built.hands, "A", "dutch")


def test_players_keep_their_seat_order():
    result = play({"Cy": "4", "A": "1", "Bo": "7"})
    assert [score.player for score in result.scores] == ["Cy", "A", "Bo"]
