"""Card entry: every notation people type reads as the card they meant."""

import dataclasses

import pytest

from dutch_core import (
    Card,
    CardError,
    Colour,
    HouseRules,
    Rank,
    Suit,
    format_cards,
    parse_cards,
)

SEED = HouseRules()


@pytest.mark.parametrize(
    ("typed", "canonical"),
    [
        ("7", "7"),
        ("7S", "7S"),
        ("7s", "7S"),
        ("7♠", "7S"),
        ("7♠\ufe0f", "7S"),
        ("10", "10"),
        ("T", "10"),
        ("t", "10"),
        ("10H", "10H"),
        ("TH", "10H"),
        ("A", "A"),
        ("ah", "AH"),
        ("1", "A"),
        ("1c", "AC"),
        ("J", "J"),
        ("Q", "Q"),
        ("qd", "QD"),
        ("KH", "KH"),
        ("K♥", "KH"),
        ("k♦", "KD"),
        ("KS", "KS"),
        ("kc", "KC"),
        ("RK", "RK"),
        ("bk", "BK"),
        ("JK", "JK"),
        ("joker", "JK"),
        ("🃏", "JK"),
        ("  9c ", "9C"),
    ],
)
def test_typed_notations_read_as_the_intended_card(typed, canonical):
    assert str(Card.parse(typed)) == canonical


@pytest.mark.parametrize(
    ("token", "points"),
    [
        *[("A", 1), ("2", 2), ("9", 9), ("10", 10), ("J", 11), ("Q", 12)],
        *[("KH", 0), ("KD", 0), ("RK", 0), ("KS", 13), ("KC", 13), ("BK", 13)],
    ],
)
def test_card_values_follow_the_seed_rules(token, points):
    assert Card.parse(token).value(SEED) == points


def test_suit_never_changes_a_value_except_for_kings():
    for rank in ("A", "5", "10", "J", "Q"):
        values = {Card.parse(rank + suit).value(SEED) for suit in "HDSC"}
        assert values == {Card.parse(rank).value(SEED)}


def test_king_and_joker_values_come_from_the_house_rules():
    rules = HouseRules(red_king_value=1, black_king_value=10, jokers=2, joker_value=5)
    assert [card.value(rules) for card in parse_cards("KH BK JK")] == [1, 10, 5]


@pytest.mark.parametrize("typed", ["K", "k", " K ", "king", "KING"])
def test_a_bare_king_is_refused_with_the_colours_to_choose_from(typed):
    with pytest.raises(CardError) as caught:
        Card.parse(typed, player="Ann")
    message = str(caught.value)
    assert message.startswith("Ann: ")
    assert repr(typed.strip()) in message
    assert "KH/KD (red, 0)" in message
    assert "KS/KC (black, 13)" in message


def test_a_bare_king_inside_a_hand_is_refused_too():
    with pytest.raises(CardError, match=r"^Bo: 'K' needs a colour"):
        parse_cards("7 K Q", player="Bo")


@pytest.mark.parametrize("typed", ["", "X", "11", "0", "01", "7X", "HH", "JKH", "10 10", "S", "=7"])
def test_unknown_tokens_are_refused_and_quoted(typed):
    with pytest.raises(CardError) as caught:
        Card.parse(typed, player="Cy")
    assert str(caught.value).startswith("Cy: ")
    assert repr(typed.strip()) in str(caught.value)


@pytest.mark.parametrize("token", [7, None, 7.0, ["7S"], b"7S"])
def test_a_token_that_is_not_text_raises_a_card_error(token):
    with pytest.raises(CardError):
        Card.parse(token)
    with pytest.raises(CardError):
        parse_cards(token)


def test_kings_always_know_their_colour():
    assert Card(Rank.KING, Suit.HEARTS).colour is Colour.RED
    assert Card(Rank.KING, Suit.CLUBS).colour is Colour.BLACK
    assert Card(Rank.KING, colour=Colour.RED) == Card.parse("RK")
    with pytest.raises(CardError, match="needs a colour"):
        Card(Rank.KING)
    with pytest.raises(CardError):
        Card(Rank.KING, Suit.SPADES, Colour.RED)


def test_other_cards_carry_no_colour_and_jokers_no_suit():
    assert Card(Rank.SEVEN, Suit.HEARTS, Colour.RED).colour is None
    with pytest.raises(CardError):
        Card(Rank.JOKER, Suit.HEARTS)
    with pytest.raises(CardError):
        Card("X")


def test_cards_are_immutable_and_repr_rebuilds_them():
    card = Card.parse("10h")
    with pytest.raises(dataclasses.FrozenInstanceError):
        card.rank = Rank.ACE
    assert repr(card) == "Card.parse('10H')"
    assert eval(repr(card)) == card  # noqa: S307 - the repr is meant to be code


def test_parse_cards_splits_on_spaces_and_commas():
    assert format_cards(parse_cards("7,8  9,\t10h,, KD\nQ")) == "7 8 9 10H KD Q"
    assert parse_cards("") == ()
    assert parse_cards(" , ") == ()


@pytest.mark.parametrize(
    ("typed", "canonical"),
    [("red K", "RK"), ("Black King", "BK"), ("7 red k Q", "7 RK Q"), ("black  K, 2", "BK 2")],
)
def test_two_word_king_colours(typed, canonical):
    assert format_cards(parse_cards(typed)) == canonical


@pytest.mark.parametrize("typed", ["red", "7 black", "red Q", "black 7"])
def test_a_colour_word_needs_a_king_after_it(typed):
    with pytest.raises(CardError, match="must be followed by K"):
        parse_cards(typed, player="Ann")


def test_format_cards_refuses_what_is_not_a_card():
    with pytest.raises(CardError):
        format_cards(["7S"])
    with pytest.raises(CardError):
        format_cards("7S")


def test_suit_colour():
    assert [suit.colour for suit in Suit] == [Colour.RED, Colour.RED, Colour.BLACK, Colour.BLACK]
