"""Any sequence of adding, correcting and deleting rounds keeps every game total right."""

import pytest
from hypothesis import settings
from hypothesis import strategies as st
from hypothesis.stateful import (
    RuleBasedStateMachine,
    initialize,
    invariant,
    precondition,
    rule,
)

from dutch_core import EndCondition, Game, GameError, HouseRules, RoundInput

PLAYERS = ("Ann", "Bo", "Cy")


@st.composite
def rounds(draw):
    """(hand totals, caller, penalty total) for a round, with a penalty that fits."""
    totals = {player: draw(st.integers(0, 30)) for player in PLAYERS}
    caller = draw(st.sampled_from(PLAYERS))
    others = [total for player, total in totals.items() if player != caller]
    due = sum(total == totals[caller] for total in others)
    due += 2 * sum(total < totals[caller] for total in others)
    penalty = draw(st.integers(*HouseRules().cards_total_range(due))) if due else None
    return totals, caller, penalty


def as_input(model_round) -> RoundInput:
    totals, caller, penalty = model_round
    hands = {player: str(total) for player, total in totals.items()}
    return RoundInput.build(hands, caller, "dutch", penalty)


def round_scores(model_round) -> dict[str, int]:
    """What the rules say each player scores, worked out by hand."""
    totals, caller, penalty = model_round
    return {player: total + (penalty or 0) * (player == caller) for player, total in totals.items()}


class GameEdits(RuleBasedStateMachine):
    """A game edited at random next to a plain list of its rounds."""

    @initialize(limit=st.integers(30, 120), halves=st.booleans())
    def start(self, limit, halves):
        self.limit, self.halves = limit, halves
        end = EndCondition.score_limit(limit, exact_limit_halves=halves)
        self.game = Game.start(PLAYERS, HouseRules(end=end))
        self.model = []

    def expected_running_totals(self) -> list[dict[str, int]]:
        totals, history = dict.fromkeys(PLAYERS, 0), []
        for model_round in self.model:
            for player, score in round_scores(model_round).items():
                totals[player] += score
                if self.halves and totals[player] == self.limit:
                    totals[player] //= 2
            history.append(dict(totals))
        return history

    def expected_over(self) -> bool:
        return any(max(totals.values()) >= self.limit for totals in self.expected_running_totals())

    @rule(model_round=rounds())
    def add_round(self, model_round):
        if self.expected_over():
            with pytest.raises(GameError):
                self.game.add_round(as_input(model_round))
            return
        self.game = self.game.add_round(as_input(model_round))
        self.model.append(model_round)

    @precondition(lambda self: self.model)
    @rule(data=st.data(), model_round=rounds())
    def replace_round(self, data, model_round):
        number = data.draw(st.integers(1, len(self.model)), label="round number")
        self.game = self.game.replace_round(number, as_input(model_round))
        self.model[number - 1] = model_round

    @precondition(lambda self: self.model)
    @rule(data=st.data())
    def delete_round(self, data):
        number = data.draw(st.integers(1, len(self.model)), label="round number")
        self.game = self.game.delete_round(number)
        del self.model[number - 1]

    @rule(number=st.integers(-3, 0) | st.integers(60, 70))
    def a_missing_round_is_refused(self, number):
        with pytest.raises(GameError):
            self.game.delete_round(number)

    @invariant()
    def totals_equal_a_recomputation_from_scratch(self):
        expected = self.expected_running_totals()
        assert self.game.rounds_played == len(self.model)
        assert self.game.running_totals() == expected
        assert self.game.totals() == (expected[-1] if expected else dict.fromkeys(PLAYERS, 0))
        assert [r.as_dict() for r in self.game.rounds] == [round_scores(r) for r in self.model]

    @invariant()
    def end_standings_and_winners_follow_the_totals(self):
        totals = self.game.totals()
        assert self.game.is_over == self.expected_over()
        standings = self.game.standings()
        assert [s.game_total for s in standings] == sorted(totals.values())
        assert all(s.rank == 1 + sum(t < s.game_total for t in totals.values()) for s in standings)
        best = min(totals.values())
        assert set(self.game.winners()) == {p for p, t in totals.items() if t == best}


GameEdits.TestCase.settings = settings(max_examples=100, stateful_step_count=20, deadline=None)
TestGameEdits = GameEdits.TestCase
