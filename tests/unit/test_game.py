"""Games: totals, standings, the end of a game, and corrections that every total follows."""

import dataclasses
import itertools

import pytest

from dutch_core import (
    PRESETS,
    EndCondition,
    Game,
    GameError,
    HouseRules,
    RoundError,
    RoundInput,
    RulesError,
    Standing,
    dealer_seat,
    replay_totals,
)

PLAYERS = ("Ann", "Bo", "Cy")
OPEN = PRESETS["classic_open"]


def lowest_call(ann, bo, cy, caller="Ann"):
    """A round in which ``caller`` calls Dutch and is strictly lowest (no penalty)."""
    return RoundInput.build({"Ann": str(ann), "Bo": str(bo), "Cy": str(cy)}, caller, "dutch")


def game_of(*rounds, rules=OPEN):
    game = Game.start(PLAYERS, rules)
    for round_input in rounds:
        game = game.add_round(round_input)
    return game


def test_a_new_game_has_no_rounds_and_everyone_at_zero():
    game = Game.start(["Ann", "Bo"])
    assert game.players == ("Ann", "Bo")
    assert game.rules == PRESETS["classic"]
    assert (game.rounds_played, game.totals(), game.running_totals()) == (
        0,
        {"Ann": 0, "Bo": 0},
        [],
    )
    assert game.winners() == ("Ann", "Bo")
    assert not game.is_over


@pytest.mark.parametrize(
    ("players", "message"),
    [
        (["Ann"], "2 to 12"),
        ([f"P{n}" for n in range(13)], "2 to 12"),
        (["Ann", "ANN"], "same name"),
        (["Ann", " "], "needs a name"),
        (["Ann", 7], "needs a name"),
        ("Ann,Bo", "list of names"),
    ],
)
def test_start_refuses_bad_player_lists(players, message):
    with pytest.raises(GameError, match=message):
        Game.start(players, OPEN)


def test_start_refuses_what_are_not_house_rules():
    with pytest.raises(RulesError):
        Game.start(PLAYERS, {"jokers": 0})


def test_game_totals_are_the_sums_of_round_scores():
    game = game_of(lowest_call(1, 10, 7), lowest_call(2, 5, 6), lowest_call(9, 4, 6, caller="Bo"))
    assert game.running_totals() == [
        {"Ann": 1, "Bo": 10, "Cy": 7},
        {"Ann": 3, "Bo": 15, "Cy": 13},
        {"Ann": 12, "Bo": 19, "Cy": 19},
    ]
    assert game.totals() == {"Ann": 12, "Bo": 19, "Cy": 19}
    assert game.rounds_played == 3


def test_standings_share_ranks_on_equal_totals_and_keep_seat_order():
    game = game_of(lowest_call(1, 5, 5), lowest_call(8, 2, 3, caller="Bo"))
    assert game.standings() == [
        Standing("Bo", 7, 1, 1),
        Standing("Cy", 8, 2, 2),
        Standing("Ann", 9, 3, 0),
    ]
    tied = game_of(lowest_call(1, 5, 5))
    assert [(s.player, s.rank) for s in tied.standings()] == [("Ann", 1), ("Bo", 2), ("Cy", 2)]
    level = game_of(lowest_call(1, 3, 3), lowest_call(3, 1, 4, caller="Bo"))
    assert level.totals() == {"Ann": 4, "Bo": 4, "Cy": 7}
    assert [(s.player, s.rank) for s in level.standings()] == [("Ann", 1), ("Bo", 1), ("Cy", 3)]


def test_winners_are_the_lowest_totals_and_share_on_a_tie():
    assert game_of(lowest_call(1, 5, 5)).winners() == ("Ann",)
    game = game_of(lowest_call(1, 5, 5), lowest_call(5, 1, 5, caller="Bo"))
    assert game.totals() == {"Ann": 6, "Bo": 6, "Cy": 10}
    assert game.winners() == ("Ann", "Bo")


def test_a_fixed_number_of_rounds_ends_the_game():
    rules = HouseRules(end=EndCondition.after_rounds(2))
    game = game_of(lowest_call(1, 2, 3), rules=rules)
    assert not game.is_over
    game = game.add_round(lowest_call(1, 2, 3))
    assert game.is_over
    assert game.ended_after == 2
    with pytest.raises(GameError, match="ended after round 2"):
        game.add_round(lowest_call(1, 2, 3))


def test_a_score_limit_ends_the_game_after_the_round_that_reaches_it():
    rules = HouseRules(end=EndCondition.score_limit(50))
    game = game_of(lowest_call(1, 30, 20), rules=rules)
    game = game.add_round(lowest_call(1, 19, 20))
    assert game.totals()["Bo"] == 49
    assert not game.is_over
    game = game.add_round(lowest_call(1, 2, 30))
    assert game.totals() == {"Ann": 3, "Bo": 51, "Cy": 70}
    assert (game.is_over, game.ended_after, game.winners()) == (True, 3, ("Ann",))


def test_reaching_the_limit_exactly_counts_as_reaching_it_without_halving():
    rules = HouseRules(end=EndCondition.score_limit(20))
    game = game_of(lowest_call(1, 20, 5), rules=rules)
    assert game.totals()["Bo"] == 20
    assert game.is_over


def test_hitting_the_limit_exactly_halves_the_total_when_the_rule_is_on():
    rules = HouseRules(end=EndCondition.score_limit(20, exact_limit_halves=True))
    game = game_of(lowest_call(1, 12, 5), rules=rules)
    game = game.add_round(lowest_call(1, 8, 5))
    assert game.totals() == {"Ann": 2, "Bo": 10, "Cy": 10}
    assert not game.is_over
    game = game.add_round(lowest_call(1, 10, 11))
    # Bo lands on 20 again and is halved; Cy passes the limit and ends the game.
    assert game.running_totals()[-1] == {"Ann": 3, "Bo": 10, "Cy": 21}
    assert game.is_over


def test_replaying_stored_scores_by_any_key_gives_the_games_own_totals():
    """What the shell replays (scores keyed by player id) is what the game adds up."""
    rules = HouseRules(end=EndCondition.score_limit(20, exact_limit_halves=True))
    game = game_of(lowest_call(1, 12, 5), lowest_call(1, 8, 5), lowest_call(1, 10, 11), rules=rules)
    ids = {"Ann": 7, "Bo": 3, "Cy": 9}
    by_id = [{ids[p]: r.score_of(p) for p in reversed(PLAYERS)} for r in game.rounds]
    replayed = list(replay_totals(rules, [7, 3, 9], by_id))
    assert replayed == [{ids[p]: t for p, t in totals.items()} for totals in game.running_totals()]
    assert [list(totals) for totals in replayed] == [[7, 3, 9]] * 3


def test_halving_rounds_down_an_odd_limit():
    rules = HouseRules(end=EndCondition.score_limit(21, exact_limit_halves=True))
    assert game_of(lowest_call(1, 21, 5), rules=rules).totals()["Bo"] == 10


def test_an_open_game_never_ends_by_itself():
    game = game_of(*(lowest_call(1, 150, 100) for _ in range(3)), rules=OPEN)
    assert game.totals()["Bo"] == 450
    assert not game.is_over
    assert game.ended_after is None


def test_replacing_a_round_recomputes_every_later_total():
    game = game_of(lowest_call(1, 10, 7), lowest_call(2, 5, 6), lowest_call(3, 4, 9))
    fixed = game.replace_round(1, lowest_call(1, 20, 7))
    assert fixed.running_totals()[0]["Bo"] == 20
    assert fixed.totals() == {"Ann": 6, "Bo": 29, "Cy": 22}
    assert game.totals() == {"Ann": 6, "Bo": 19, "Cy": 22}, "the original game is untouched"


def test_deleting_a_round_moves_later_rounds_up():
    game = game_of(lowest_call(1, 10, 7), lowest_call(2, 5, 6), lowest_call(3, 4, 9))
    shorter = game.delete_round(2)
    assert shorter.rounds_played == 2
    assert shorter.rounds[1] == game.rounds[2]
    assert shorter.totals() == {"Ann": 4, "Bo": 14, "Cy": 16}
    assert shorter.delete_round(1).delete_round(1).totals() == {"Ann": 0, "Bo": 0, "Cy": 0}


def test_a_correction_can_move_the_end_of_a_game_earlier():
    rules = HouseRules(end=EndCondition.score_limit(50))
    game = game_of(lowest_call(1, 10, 7), lowest_call(2, 5, 6), rules=rules)
    corrected = game.replace_round(1, lowest_call(1, 60, 7))
    assert (corrected.is_over, corrected.ended_after, corrected.rounds_played) == (True, 1, 2)
    rebuilt = Game.from_inputs(PLAYERS, rules, [r.input for r in corrected.rounds])
    assert rebuilt == corrected
    with pytest.raises(GameError, match="ended after round 1"):
        rebuilt.add_round(lowest_call(1, 2, 3))


def test_a_correction_can_reopen_a_finished_game():
    rules = HouseRules(end=EndCondition.score_limit(50))
    game = game_of(lowest_call(1, 60, 7), rules=rules)
    assert game.is_over
    assert not game.replace_round(1, lowest_call(1, 10, 7)).is_over


@pytest.mark.parametrize("number", [0, 4, -1, "1", 1.0, True, None])
def test_unknown_round_numbers_are_refused(number):
    game = game_of(lowest_call(1, 2, 3), lowest_call(1, 2, 3), lowest_call(1, 2, 3))
    with pytest.raises(GameError, match=repr(number).replace("(", r"\(")):
        game.replace_round(number, lowest_call(1, 2, 3))
    with pytest.raises(GameError):
        game.delete_round(number)


def test_rounds_must_have_the_games_players():
    game = Game.start(PLAYERS, OPEN)
    other = RoundInput.build({"Ann": "1", "Bo": "2"}, "Ann", "dutch")
    with pytest.raises(GameError, match="players are Ann, Bo, Cy"):
        game.add_round(other)
    with pytest.raises(GameError, match="round input expected"):
        game.add_round({"Ann": "1", "Bo": "2", "Cy": "3"})
    reseated = RoundInput.build({"Cy": "3", "Ann": "1", "Bo": "2"}, "Ann", "dutch")
    assert game.add_round(reseated).totals() == {"Ann": 1, "Bo": 2, "Cy": 3}


def test_rounds_are_scored_with_the_games_house_rules():
    tied = RoundInput.build({"Ann": "5", "Bo": "5", "Cy": "9"}, "Ann", "dutch")
    points = Game.start(PLAYERS, PRESETS["points"]).add_round(tied)
    assert points.totals() == {"Ann": 15, "Bo": 5, "Cy": 9}
    with pytest.raises(RoundError, match="must draw 1 penalty card"):
        Game.start(PLAYERS, OPEN).add_round(tied)


def test_games_are_immutable():
    game = Game.start(PLAYERS, OPEN)
    with pytest.raises(dataclasses.FrozenInstanceError):
        game.rounds = ()
    game.add_round(lowest_call(1, 2, 3))
    assert game.rounds_played == 0


@pytest.mark.parametrize("players", [2, 3, 5, 12])
def test_the_deal_moves_one_seat_on_each_round_and_comes_round_again(players):
    seats = [dealer_seat(number, players) for number in range(1, 2 * players + 2)]
    assert seats[0] == 0
    assert all((b - a) % players == 1 for a, b in itertools.pairwise(seats))
    assert seats[players] == 0


@pytest.mark.parametrize(("number", "players"), [(0, 3), (-1, 3), (1, 0), (True, 3), (1.0, 3)])
def test_a_dealer_needs_a_round_number_and_players(number, players):
    with pytest.raises(GameError, match="whole number"):
        dealer_seat(number, players)


def test_the_game_names_who_deals_the_next_round():
    game = Game.start(PLAYERS, OPEN)
    assert game.dealer == "Ann"
    game = game.add_round(lowest_call(1, 2, 3))
    assert game.dealer == "Bo"
    game = game.add_round(lowest_call(1, 2, 3)).add_round(lowest_call(1, 2, 3))
    assert game.dealer == "Ann"
    assert game.delete_round(1).dealer == "Cy"
