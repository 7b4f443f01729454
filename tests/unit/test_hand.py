"""Hands and penalties: typed as cards or as a total, valued under the house rules."""

import pytest

from dutch_core import (
    Card,
    CardError,
    Hand,
    HandError,
    HouseRules,
    Penalty,
    PenaltyError,
)

SEED = HouseRules()


def test_cards_are_added_up_with_red_kings_at_zero():
    assert Hand.parse("AH 2C").value(SEED) == 3
    assert Hand.parse("KH KD").value(SEED) == 0
    assert Hand.parse("KS q j 10").value(SEED) == 46


def test_house_rules_change_what_a_hand_is_worth():
    rules = HouseRules(red_king_value=1, jokers=1, joker_value=4)
    assert Hand.parse("KH JK 2").value(rules) == 7


@pytest.mark.parametrize(("typed", "total"), [("23", 23), ("=7", 7), ("= 7", 7), (" 0 ", 0)])
def test_a_lone_number_is_a_total(typed, total):
    hand = Hand.parse(typed)
    assert hand.total == total
    assert hand.cards is None
    assert hand.value(SEED) == total


def test_anything_else_is_cards_and_blank_is_an_empty_hand():
    assert Hand.parse("7 3").cards == (Card.parse("7"), Card.parse("3"))
    assert Hand.parse("7S").cards == (Card.parse("7S"),)
    empty = Hand.parse("  ")
    assert empty.is_empty
    assert empty.value(SEED) == 0
    assert not Hand.of_total(0).is_empty


@pytest.mark.parametrize(
    ("typed", "shown"),
    [("-11", "-11"), ("375", "375"), ("1000", "1000"), ("99999999999", "99999999999")],
)
def test_totals_out_of_range_name_the_player_and_number(typed, shown):
    """Beyond what any allowed deck can make (two Jokers at -5 to 374); the game's own
    deck is held to its own range by the deck check."""
    with pytest.raises(HandError) as caught:
        Hand.parse(typed, player="Ann")
    assert str(caught.value).startswith("Ann: ")
    assert shown in str(caught.value)


def test_a_huge_number_is_refused_without_overflowing():
    with pytest.raises(HandError):
        Hand.parse("9" * 5000, player="Ann")


@pytest.mark.parametrize("typed", ["=", "=x", "= 7 3", "=-"])
def test_an_equals_sign_must_be_followed_by_one_number(typed):
    with pytest.raises(HandError) as caught:
        Hand.parse(typed, player="Bo")
    assert str(caught.value).startswith("Bo: ")


def test_bad_cards_in_a_hand_raise_card_errors_naming_the_player():
    with pytest.raises(CardError, match=r"^Cy: 'Z'"):
        Hand.parse("7 Z", player="Cy")


@pytest.mark.parametrize("value", [None, 7, ["7"]])
def test_text_is_required(value):
    with pytest.raises(HandError):
        Hand.parse(value)
    with pytest.raises(PenaltyError):
        Penalty.parse(value)


@pytest.mark.parametrize(
    "kwargs",
    [
        {},
        {"cards": (), "total": 0},
        {"total": -11},
        {"total": 375},
        {"total": True},
        {"total": "5"},
    ],
)
def test_a_hand_is_exactly_cards_or_a_valid_total(kwargs):
    with pytest.raises(HandError):
        Hand(**kwargs)


def test_a_negative_total_reads_as_a_total():
    assert Hand.parse("-4").total == -4
    assert Hand.parse("= -2").total == -2


def test_constructors_accept_tokens_and_cards():
    assert Hand.of_cards(["7s", Card.parse("KH")]) == Hand.parse("7S KH")
    assert Hand.of_total(12) == Hand.parse("12")
    with pytest.raises(HandError):
        Hand.of_cards("7S KH")
    with pytest.raises(CardError):
        Hand.of_cards([7])


@pytest.mark.parametrize("typed", ["7 KH q", "23", "0", "", "7,", "10", "10S", "BK RK JK"])
def test_text_reads_back_to_the_same_hand(typed):
    hand = Hand.parse(typed)
    assert Hand.parse(hand.text()) == hand
    assert eval(repr(hand)) == hand  # noqa: S307 - the repr is meant to be code


def test_a_single_number_card_keeps_apart_from_a_total():
    one_card = Hand.of_cards(["7"])
    assert one_card.text() == "7,"
    assert Hand.parse("7,") == one_card
    assert Hand.parse("7") == Hand.of_total(7)


def test_penalties_work_like_hands_but_raise_penalty_errors():
    assert Penalty.parse("4S KD").value(SEED) == 4
    assert Penalty.parse("28").total == 28
    assert Penalty.none() == Penalty.parse("")
    assert Penalty.none().is_none
    assert Penalty.of_total(0).is_none
    assert not Penalty.parse("KH").is_none
    assert Penalty.parse("7S") != Hand.parse("7S")
    with pytest.raises(PenaltyError, match=r"^Ann: .*400"):
        Penalty.parse("400", player="Ann")
    with pytest.raises(CardError, match="needs a colour"):
        Penalty.parse("K", player="Ann")
