"""Deck sanity: a round that one deck cannot produce is refused, naming player and card."""

import pytest

from dutch_core import (
    PRESETS,
    DeckError,
    HandError,
    HouseRules,
    PenaltyError,
    RoundInput,
    check_deck,
    score_round,
)

SEED = HouseRules()
RANKS = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]
FULL_DECK = " ".join(rank + suit for rank in RANKS for suit in "HDSC")


def refused(hands, caller="C", penalty=None, rules=SEED):
    round_input = RoundInput.build(hands, caller, "dutch", penalty)
    with pytest.raises(DeckError) as caught:
        score_round(round_input, rules)
    return caught.value


def test_a_fifth_ace_names_the_player_who_would_hold_it():
    error = refused({"A": "A AS", "B": "A 1 AH", "C": "2"})
    assert str(error) == (
        "B: card 'AH' would be a 5th 'A'; a deck has only 4 (held already: A 2, B 2)"
    )
    assert error.player == "B"


def test_a_third_red_king_is_refused_but_two_of_each_colour_are_fine():
    error = refused({"A": "KH RK", "B": "KS BK red K", "C": "2"})
    assert str(error).startswith("B: card 'RK' would be a 3rd red King")
    round_input = RoundInput.build({"A": "KH RK", "B": "KS BK", "C": "KD"}, "C", "dutch")
    with pytest.raises(DeckError, match="C: card 'KD' would be a 3rd red King"):
        check_deck(round_input, SEED)
    two_of_each = RoundInput.build({"A": "KH KD", "B": "KS KC", "C": "2"}, "B", "dutch", "A 2 3 4")
    assert score_round(two_of_each, SEED).score_of("B") == 36


def test_a_suited_card_cannot_be_entered_twice():
    error = refused({"A": "7S 2", "B": "7s", "C": "3"})
    assert str(error) == "B: card '7S' is already A's"
    assert str(refused({"A": "7♠ 7S", "B": "3", "C": "1"})) == "A: card '7S' was entered twice"
    # Without suits, four sevens are possible in any spread.
    four_sevens = RoundInput.build({"A": "7 7S", "B": "7H 7", "C": "1"}, "C", "dutch")
    assert score_round(four_sevens, SEED).as_dict() == {"A": 14, "B": 14, "C": 1}


def test_more_cards_than_a_deck_holds():
    error = refused({"A": FULL_DECK + " JK JK", "B": "JK", "C": "3"}, rules=PRESETS["jokers"])
    assert str(error) == "B: card 'JK' is card 55 of this round; a deck has 54"
    error = refused({"A": FULL_DECK, "B": "7 8", "C": "1"})
    assert str(error) == "B: card '7' is card 53 of this round; a deck has 52"


def test_jokers_need_a_deck_with_jokers_and_no_more_than_it_has():
    error = refused({"A": "JK", "B": "2", "C": "1"})
    assert str(error) == "A: card 'JK' is a Joker, but these house rules play without Jokers"
    error = refused({"A": "JK", "B": "JK JK", "C": "1"}, rules=PRESETS["jokers"])
    assert str(error) == "B: card 'JK' is one Joker too many; the deck has 2"


def test_a_penalty_card_already_in_a_hand_is_both_a_deck_and_a_penalty_error():
    hands = {"A": "5", "B": "5", "C": "5S"}
    round_input = RoundInput.build(hands, "C", "dutch", "5s 9")
    with pytest.raises(PenaltyError) as caught:
        score_round(round_input, SEED)
    assert isinstance(caught.value, DeckError)
    assert str(caught.value) == "C: penalty card '5S' was entered twice"
    with pytest.raises(PenaltyError, match=r"^C: penalty card 'AS' is already A's"):
        score_round(RoundInput.build({"A": "AS", "B": "2", "C": "1"}, "C", "dutch", "AS 2S"), SEED)


def test_a_single_total_above_the_deck_is_refused():
    error = refused({"Ann": "339", "Bo": "1", "C": "0"})
    assert str(error) == "Ann: a total of 339 is outside what this deck can make (0 to 338)"
    with pytest.raises(HandError, match=r"^Ann: a hand total of 375 is more than"):
        RoundInput.build({"Ann": "375", "Bo": "1"}, "Bo", "dutch")
    # Cheaper Kings make the deck worth less (312), and the deck check knows it.
    cheap_kings = HouseRules(black_king_value=0)
    error = refused({"A": "320", "B": "1", "C": "0"}, rules=cheap_kings)
    assert str(error) == "A: a total of 320 is outside what this deck can make (0 to 312)"


def test_a_negative_total_needs_negative_jokers_in_the_deck():
    error = refused({"A": "-1", "B": "1", "C": "0"})
    assert str(error) == "A: a total of -1 is outside what this deck can make (0 to 338)"
    minus_two = HouseRules(jokers=2, joker_value=-2)
    round_input = RoundInput.build({"A": "3", "B": "JK JK", "C": "5"}, "B", "dutch")
    assert score_round(round_input, minus_two).as_dict() == {"A": 3, "B": -4, "C": 5}
    typed_total = RoundInput.build({"A": "-2", "B": "0", "C": "5"}, "A", "dutch")
    assert score_round(typed_total, minus_two).as_dict() == {"A": -2, "B": 0, "C": 5}
    error = refused({"A": "-3", "B": "-2", "C": "0"}, rules=minus_two)
    assert str(error) == (
        "B: -2 brings this round's totals below zero to -5, "
        "less than all the deck's negative cards together (-4)"
    )
    error = refused({"A": "-5", "B": "1", "C": "0"}, rules=minus_two)
    assert str(error) == "A: a total of -5 is outside what this deck can make (-4 to 338)"


def test_all_totals_of_a_round_together_cannot_exceed_the_deck():
    error = refused({"A": "200", "B": "138", "C": "1"})
    assert str(error) == (
        "C: 1 brings this round's totals to 339, more than the whole deck is worth (338)"
    )
    whole_deck = RoundInput.build({"A": "200", "B": "138", "C": "0"}, "C", "dutch")
    assert sum(score_round(whole_deck, SEED).as_dict().values()) == 338


def test_entered_cards_count_toward_the_round_total():
    error = refused({"A": FULL_DECK, "B": "1", "C": "0"})
    assert error.player == "B"
    assert "339" in str(error)


def test_the_penalty_counts_toward_the_round_total():
    hands = {"A": "300", "B": "30", "C": "8"}
    round_input = RoundInput.build(hands, "A", "dutch", "14")
    with pytest.raises(PenaltyError, match=r"^A: penalty 14 brings this round's totals to 352"):
        score_round(round_input, SEED)


def test_more_valuable_jokers_raise_the_deck_limit():
    rules = HouseRules(jokers=2, joker_value=5)
    round_input = RoundInput.build({"A": "200", "B": "148", "C": "0"}, "C", "dutch")
    assert score_round(round_input, rules).as_dict() == {"A": 200, "B": 148, "C": 0}
    with pytest.raises(DeckError, match=r"totals to 348, .*\(343\)"):
        score_round(round_input, HouseRules(jokers=1, joker_value=5))
    # Negative Jokers lower no limit above zero: the best hands leave them out.
    assert HouseRules(jokers=2, joker_value=-2).deck_max_total() == 338


def test_a_red_king_typed_twice_names_both_players_holding_it():
    """Olivia's KH next to Sam's KD KH: the message names the two hands holding KH,
    not only the later one as if its owner had made a 3rd red King."""
    error = refused({"Olivia": "KH 5", "Sam": "KD KH", "C": "2"})
    assert str(error) == "Sam: card 'KH' is already Olivia's"
    error = refused({"Sam": "KD KH", "Olivia": "KH 5", "C": "2"})
    assert str(error) == "Olivia: card 'KH' is already Sam's"


def test_a_count_that_breaks_the_deck_names_who_holds_the_others():
    error = refused({"Olivia": "KH", "Sam": "KD", "C": "red K"})
    assert str(error) == (
        "C: card 'RK' would be a 3rd red King; a deck has only 2 (held already: Olivia 1, Sam 1)"
    )
