"""House rules: seed defaults, presets, validation, and a lossless plain-dict form."""

import json

import pytest

from dutch_core import (
    PRESET_LABELS,
    PRESETS,
    EndCondition,
    EndKind,
    HouseRules,
    PenaltyMode,
    RulesError,
)


def test_the_defaults_are_the_seed_rules():
    rules = HouseRules()
    assert (rules.red_king_value, rules.black_king_value, rules.jokers) == (0, 13, 0)
    assert rules.penalty_mode is PenaltyMode.CARDS
    assert rules.allow_no_caller is False
    assert rules.end == EndCondition.score_limit(100)
    assert PRESETS["classic"] == rules


def test_presets_have_labels_and_the_promised_settings():
    assert set(PRESETS) == set(PRESET_LABELS)
    assert {"classic", "classic_open", "points", "jokers", "deck_out"} <= set(PRESETS)
    assert PRESETS["classic_open"].end.kind is EndKind.OPEN
    assert PRESETS["points"].penalty_mode is PenaltyMode.POINTS
    assert PRESETS["points"].failed_call_points == 10
    assert (PRESETS["jokers"].jokers, PRESETS["jokers"].joker_value) == (2, 0)
    assert PRESETS["deck_out"].allow_no_caller is True


@pytest.mark.parametrize(
    ("rules", "total"),
    [
        (HouseRules(), 338),
        (HouseRules(red_king_value=1), 340),
        (HouseRules(black_king_value=10), 332),
        (HouseRules(jokers=2, joker_value=5), 348),
        (HouseRules(jokers=1, joker_value=4), 342),
        (HouseRules(jokers=2, joker_value=-5), 338),
    ],
)
def test_deck_max_total_follows_king_values_and_jokers(rules, total):
    assert rules.deck_max_total() == total


def test_max_card_value_counts_jokers_only_when_they_are_in_the_deck():
    assert HouseRules(joker_value=5, black_king_value=0).max_card_value() == 12
    assert HouseRules(jokers=1, joker_value=5, black_king_value=0).max_card_value() == 12


@pytest.mark.parametrize("value", [-5, -1, 0, 5])
def test_jokers_may_count_from_minus_five_to_five(value):
    rules = HouseRules(jokers=2, joker_value=value)
    assert rules.deck_min_total() == min(0, 2 * value)
    assert HouseRules.from_dict(rules.to_dict()) == rules


@pytest.mark.parametrize("value", [-6, 6, 13])
def test_joker_values_beyond_five_are_refused(value):
    with pytest.raises(RulesError, match=r"joker_value must be between -5 and 5"):
        HouseRules(jokers=1, joker_value=value)


@pytest.mark.parametrize("name", sorted(PRESETS))
def test_to_dict_is_json_safe_and_round_trips(name):
    rules = PRESETS[name]
    data = json.loads(json.dumps(rules.to_dict()))
    assert HouseRules.from_dict(data) == rules


def test_round_trip_with_every_end_condition():
    for end in (
        EndCondition.open(),
        EndCondition.after_rounds(7),
        EndCondition.score_limit(150, exact_limit_halves=True),
    ):
        rules = HouseRules(end=end, penalty_mode=PenaltyMode.POINTS, success_bonus=5)
        assert HouseRules.from_dict(rules.to_dict()) == rules


def test_from_dict_fills_missing_settings_with_defaults():
    assert HouseRules.from_dict({}) == HouseRules()
    assert HouseRules.from_dict({"jokers": 1}).jokers == 1


@pytest.mark.parametrize(
    ("data", "field"),
    [
        ({"colour": 1}, "colour"),
        ({"jokers": 3}, "jokers"),
        ({"jokers": "2"}, "jokers"),
        ({"jokers": True}, "jokers"),
        ({"red_king_value": -1}, "red_king_value"),
        ({"black_king_value": 14}, "black_king_value"),
        ({"penalty_mode": "chips"}, "penalty_mode"),
        ({"allow_no_caller": "yes"}, "allow_no_caller"),
        ({"failed_call_points": 10.5}, "failed_call_points"),
        ({"end": "open"}, "EndCondition"),
        ({"end": {"kind": "rounds"}}, "rounds"),
        ({"end": {"kind": "score_limit", "limit": 0}}, "limit"),
        ({"end": {"kind": "sudden_death"}}, "end kind"),
        ({"end": {"kind": "open", "limit": 100}}, "limit"),
        ({"end": {"kind": "rounds", "rounds": 5, "exact_limit_halves": True}}, "exact_limit"),
        ({"end": {"kind": "open", "when": 1}}, "when"),
    ],
)
def test_bad_settings_are_refused_naming_the_setting(data, field):
    with pytest.raises(RulesError, match=field):
        HouseRules.from_dict(data)


def test_from_dict_needs_a_mapping():
    with pytest.raises(RulesError):
        HouseRules.from_dict(["jokers", 2])


def test_end_condition_constructors_validate():
    assert EndCondition.after_rounds(10).rounds == 10
    with pytest.raises(RulesError, match="rounds"):
        EndCondition.after_rounds(0)
    with pytest.raises(RulesError, match="limit"):
        EndCondition.score_limit(10_001)
    with pytest.raises(RulesError, match="end"):
        HouseRules(end="open")


def test_describe_mentions_the_chosen_rules():
    classic = " ".join(HouseRules().describe())
    assert "penalty cards" in classic
    assert "100 points" in classic
    assert "Joker" not in classic
    points = " ".join(
        HouseRules(
            penalty_mode=PenaltyMode.POINTS,
            failed_call_points=15,
            success_bonus=5,
            jokers=2,
            joker_value=3,
            allow_no_caller=True,
            end=EndCondition.score_limit(80, exact_limit_halves=True),
        ).describe()
    )
    for part in ("15", "5 points off", "2 Joker", "worth 3", "deck runs out", "exactly 80"):
        assert part in points
    assert "after 6 rounds" in " ".join(HouseRules(end=EndCondition.after_rounds(6)).describe())
    assert "open-ended" in " ".join(PRESETS["classic_open"].describe())
