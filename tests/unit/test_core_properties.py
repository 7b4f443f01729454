"""Properties of card entry and round scoring that must hold for every input."""

import contextlib

from hypothesis import given, settings
from hypothesis import strategies as st

from dutch_core import (
    CallType,
    Card,
    Colour,
    DutchError,
    Hand,
    HouseRules,
    Outcome,
    Penalty,
    PenaltyMode,
    Rank,
    RoundInput,
    RulesError,
    Suit,
    format_cards,
    parse_cards,
    penalty_cards_due,
    score_round,
)

FAST = settings(max_examples=150, deadline=None)
PLAIN_RANKS = [rank for rank in Rank if rank not in (Rank.KING, Rank.JOKER)]
SYMBOLS = {Suit.HEARTS: "♥", Suit.DIAMONDS: "♦", Suit.SPADES: "♠", Suit.CLUBS: "♣"}

suits = st.sampled_from(list(Suit))
kings = st.one_of(
    st.builds(Card, st.just(Rank.KING), suits),
    st.builds(Card, st.just(Rank.KING), colour=st.sampled_from(list(Colour))),
)
plain_cards = st.builds(Card, st.sampled_from(PLAIN_RANKS), st.none() | suits)
cards = st.one_of(plain_cards, kings, st.just(Card(Rank.JOKER)))
separators = st.sampled_from([" ", ",", ", ", " ,  ", "\t", "\n", ",,"])


def typed_variant(card: Card, draw) -> str:
    """One of the ways a person may type ``card``."""
    if card.rank is Rank.JOKER:
        return draw(st.sampled_from(["JK", "jk", "Joker", "JOKER", "🃏"]))
    if card.rank is Rank.KING and card.suit is None:
        word = "red" if card.colour is Colour.RED else "black"
        return draw(st.sampled_from([f"{word[0]}K", f"{word} K", f"{word.upper()} king"]))
    rank = card.rank.value
    rank = draw(st.sampled_from({"10": ["10", "T", "t"], "A": ["A", "a", "1"]}.get(rank, [rank])))
    suit = ""
    if card.suit is not None:
        suit = draw(st.sampled_from([card.suit.value, card.suit.value.lower(), SYMBOLS[card.suit]]))
    return rank.lower() + suit if draw(st.booleans()) else rank + suit


@st.composite
def typed_cards(draw):
    chosen = draw(st.lists(cards, max_size=10))
    tokens = [typed_variant(card, draw) for card in chosen]
    text = ""
    for token in tokens:
        text += token + draw(separators)
    return chosen, draw(separators | st.just("")) + text


@FAST
@given(cards)
def test_a_card_reads_back_from_its_text(card):
    assert Card.parse(str(card)) == card
    assert eval(repr(card)) == card  # noqa: S307 - the repr is meant to be code


@FAST
@given(typed_cards())
def test_every_way_of_typing_cards_reads_as_those_cards(chosen_and_text):
    chosen, text = chosen_and_text
    assert parse_cards(text) == tuple(chosen)
    assert parse_cards(format_cards(chosen)) == tuple(chosen)


@FAST
@given(
    st.one_of(
        st.lists(cards, max_size=8).map(Hand.of_cards), st.integers(0, 338).map(Hand.of_total)
    )
)
def test_a_hand_reads_back_from_its_text(hand):
    assert Hand.parse(hand.text()) == hand
    penalty = Penalty(cards=hand.cards, total=hand.total)
    assert Penalty.parse(penalty.text()) == penalty


CARD_ALPHABET = st.sampled_from(
    list("AKQJT0123456789HDSCakqjt hdsc♥♦♠♣♡,=+-🃏\ufe0f\t\nREDBLACKINGO")
)
any_text = st.one_of(st.text(), st.text(alphabet=CARD_ALPHABET, max_size=30))
not_text = st.one_of(st.none(), st.integers(), st.floats(), st.binary(), st.lists(st.text()))


@FAST
@given(any_text | not_text)
def test_typed_text_either_reads_or_raises_a_core_error(text):
    for read in (Card.parse, parse_cards, Hand.parse, Penalty.parse):
        with contextlib.suppress(DutchError):
            read(text, "Ann")


@FAST
@given(
    st.dictionaries(st.text(max_size=4), any_text, max_size=4),
    st.none() | st.text(max_size=4),
    st.none() | st.sampled_from(["dutch", "auto_dutch", "shout"]),
    st.none() | any_text,
)
def test_any_typed_round_scores_or_raises_a_core_error(hands, caller, call_type, penalty):
    with contextlib.suppress(DutchError):
        score_round(RoundInput.build(hands, caller, call_type, penalty), HouseRules())


@FAST
@given(
    st.dictionaries(
        st.sampled_from(["jokers", "end", "penalty_mode", "allow_no_caller", "other"]),
        st.one_of(st.integers(-5, 5), st.text(max_size=5), st.booleans(), st.none()),
    )
)
def test_any_settings_dict_gives_rules_or_a_rules_error(data):
    with contextlib.suppress(RulesError):
        HouseRules.from_dict(data)


house_rules = st.builds(
    HouseRules,
    red_king_value=st.integers(0, 13),
    black_king_value=st.integers(0, 13),
    jokers=st.integers(0, 2),
    joker_value=st.integers(-5, 5),
    penalty_mode=st.sampled_from(list(PenaltyMode)),
    success_bonus=st.integers(0, 10),
    allow_no_caller=st.booleans(),
)


def without_suit(card: Card) -> Card:
    return card if card.rank is Rank.JOKER else Card(card.rank, colour=card.colour)


@st.composite
def valid_rounds(draw):
    """A round one deck could produce, with the right penalty drawn from what is left."""
    rules = draw(house_rules)
    deck = [Card(rank, suit) for rank in [*PLAIN_RANKS, Rank.KING] for suit in Suit]
    deck += [Card(Rank.JOKER)] * rules.jokers
    order = draw(st.permutations(deck))
    players = [f"P{seat}" for seat in range(draw(st.integers(2, 12)))]
    spare = 2 * (len(players) - 1)  # enough left for the largest possible penalty
    used, hands = 0, {}
    for player in players:
        size = draw(st.integers(0, min(5, len(deck) - spare - used)))
        held = order[used : used + size]
        used += size
        if draw(st.booleans()):
            held = [without_suit(card) for card in held]
        hand = Hand.of_cards(held)
        hands[player] = Hand.of_total(hand.value(rules)) if draw(st.booleans()) else hand
    caller = draw(st.sampled_from(players + [None] * rules.allow_no_caller))
    call_type = None
    if caller is not None:
        empty = hands[caller].value(rules) == 0 and hands[caller].cards in ((), None)
        call_type = draw(st.sampled_from(list(CallType))) if empty else CallType.DUTCH
    due = penalty_cards_due(hands, caller, rules)
    penalty = None
    if due:
        drawn = Penalty.of_cards(order[used : used + due])
        penalty = Penalty.of_total(drawn.value(rules)) if draw(st.booleans()) else drawn
    return RoundInput(tuple(hands.items()), caller, call_type, penalty), rules


@FAST
@given(valid_rounds())
def test_scoring_invariants_for_any_valid_round(round_and_rules):
    round_input, rules = round_and_rules
    result = score_round(round_input, rules)
    totals = {player: hand.value(rules) for player, hand in round_input.hands}
    for line in result.scores:
        assert line.hand_total == totals[line.player]
        if not line.is_caller:
            assert line.round_score == line.hand_total
            assert line.penalty_points == 0
    if result.caller is None:
        assert result.as_dict() == totals
        return
    mine = totals[result.caller]
    others = [total for player, total in totals.items() if player != result.caller]
    lower = sum(total < mine for total in others)
    tied = sum(total == mine for total in others)
    assert (result.lower, result.tied) == (lower, tied)
    expected_outcome = Outcome.BEATEN if lower else Outcome.TIED if tied else Outcome.LOWEST
    assert result.outcome is expected_outcome
    assert result.succeeded == (lower == tied == 0)
    caller_score = result.score_of(result.caller)
    if rules.penalty_mode is PenaltyMode.CARDS:
        assert result.penalty_cards_due == tied + 2 * lower
        assert caller_score == mine + (
            round_input.penalty.value(rules) if result.penalty_cards_due else 0
        )
        # Drawing penalty cards never helps, unless the house rules value some card below
        # zero (a joker or a king): then a drawn penalty can lower the caller's score.
        if min(rules.joker_value, rules.red_king_value, rules.black_king_value) >= 0:
            assert caller_score >= mine
    else:
        assert result.penalty_cards_due == 0
        extra = -rules.success_bonus if result.succeeded else rules.failed_call_points
        assert caller_score == mine + extra
