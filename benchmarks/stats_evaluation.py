"""How good are the Stats page's numbers? The rating and the call advice, tested on past games.

``python -m benchmarks.stats_evaluation`` (run by ``make bench``) takes two histories:
the demo group's (what "Load a demo group" makes) and a seeded simulation of Dutch
with players of known skill (:func:`simulated_history`). On each it

- predicts the winner of every ended game from the games before it only, by each
  rating model and by the baselines (chance, "most wins so far", "lowest average
  game total so far"), and scores the top-1 accuracy with a bootstrap 95% interval
  (a tie for the prediction or for the win counts as the share of the predicted
  players who won, so chance scores exactly ``1/N`` on average);
- checks the calibration of the call advice: the fitted chance that a call is lowest,
  fitted without the held-out games' calls, against how often those calls were lowest.

The rating model with the best accuracy on the simulation is the one the Stats page
should use; the report says which. It prints the tables and writes them into
``docs/statistics.md`` between the markers of the section "How good are these numbers".
"""

from __future__ import annotations

import argparse
import itertools
import math
import re
import sys
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pandas as pd
from openskill.models import (
    BradleyTerryFull,
    BradleyTerryPart,
    PlackettLuce,
    ThurstoneMostellerFull,
    ThurstoneMostellerPart,
)
from sqlalchemy import select
from sqlalchemy.orm import Session

from benchmarks.databases import HISTORY_ENDS, _owner_and_group
from dutch_app.services import demo
from dutch_app.services.history import load_history
from dutch_app.storage.db import get_engine
from dutch_app.storage.models import Player
from dutch_core import stats
from dutch_core.stats import calling

DOC = Path(__file__).resolve().parents[1] / "docs" / "statistics.md"
BEGIN = "<!-- stats-evaluation:begin -->"
END = "<!-- stats-evaluation:end -->"
SIMULATION_ROWS = 12_000
"""Player-round rows of the simulated group: about 370 games."""
SIMULATION_SEED = 7
FORGETTING = (0.0, 0.04, 0.08, 0.12, 0.16, 0.2, 0.24, 0.28)
"""The simulated players' skill, best first: the chance per turn of losing track of a card."""
BOOTSTRAP = 2000
FOLDS = 5
CHANCE_BINS = (0.0, 0.2, 0.4, 0.6, 0.8, 0.9, 1.0)


# The histories


def _history(rows: int, seed: int, forgetting: Sequence[float] | None) -> pd.DataFrame:
    """A fresh in-memory database, one group filled by the demo generator, read back."""
    engine = get_engine("sqlite://")
    try:
        with Session(engine, expire_on_commit=False) as session:
            owner_id, group_id = _owner_and_group(session)
            skills = None
            if forgetting is not None:
                # The group's own players first, then the demo names the generator adds.
                names = list(
                    session.scalars(select(Player.name).where(Player.group_id == group_id))
                )
                names += [name for name in demo.NAMES if name not in names]
                skills = dict(zip(names, forgetting, strict=False))
            demo.generate_history(
                session, group_id, rows, seed, end=HISTORY_ENDS, forgetting=skills
            )
            return load_history(session, owner_id, group_id)
    finally:
        engine.dispose()


def demo_history() -> pd.DataFrame:
    """The demo group's history: the rows and seed the Group page's demo uses."""
    return _history(demo.DEMO_GROUP_ROWS, demo.DEMO_GROUP_SEED, None)


def simulated_history(rows: int = SIMULATION_ROWS, seed: int = SIMULATION_SEED) -> pd.DataFrame:
    """A simulated group of eight whose skill is known (:data:`FORGETTING`), 3–6 a game."""
    return _history(rows, seed, FORGETTING)


# The games to predict


@dataclass(frozen=True)
class PlayedGame:
    """One ended game of two or more players: who sat, their final totals, who won."""

    game_id: int
    players: tuple[str, ...]
    totals: np.ndarray
    won: np.ndarray


def ended_games(df: pd.DataFrame) -> list[PlayedGame]:
    """The ended games of two or more players, in the order they started."""
    results = stats.game_results(df)
    results = results.loc[results["game_status"].astype(str) == "ended"]
    games = []
    for game_id, game in results.groupby("game_id", sort=False):
        if len(game) >= 2:
            games.append(
                PlayedGame(
                    int(game_id),
                    tuple(game["player"].astype(str)),
                    game["game_total"].to_numpy(dtype="float64"),
                    game["won"].to_numpy(dtype=bool),
                )
            )
    return games


# Predictors: each yields, for every game in turn, a score per player (higher: more
# likely to win) from the games before it only, then learns the game.

Predictor = Callable[[list[PlayedGame]], Iterator[np.ndarray]]


def chance(games: list[PlayedGame]) -> Iterator[np.ndarray]:
    """Nothing known: every player alike."""
    for game in games:
        yield np.zeros(len(game.players))


def most_wins(games: list[PlayedGame]) -> Iterator[np.ndarray]:
    """The player with the most wins so far."""
    wins: dict[str, float] = {}
    for game in games:
        yield np.array([wins.get(player, 0.0) for player in game.players])
        for player, won in zip(game.players, game.won, strict=True):
            wins[player] = wins.get(player, 0.0) + won


def lowest_average(games: list[PlayedGame]) -> Iterator[np.ndarray]:
    """The player with the lowest average game total so far (a newcomer is not picked)."""
    sums: dict[str, float] = {}
    counts: dict[str, int] = {}
    for game in games:
        yield np.array(
            [
                -sums[player] / counts[player] if player in counts else -math.inf
                for player in game.players
            ]
        )
        for player, total in zip(game.players, game.totals, strict=True):
            sums[player] = sums.get(player, 0.0) + total
            counts[player] = counts.get(player, 0) + 1


def openskill_model(model, *, shown: bool = False) -> Predictor:
    """A Weng–Lin model of the ``openskill`` package, ranked by game total, ties kept: its
    predicted win chances, or (``shown``) the conservative rating ``mu - 3·sigma``."""

    def predict(games: list[PlayedGame]) -> Iterator[np.ndarray]:
        ratings: dict[str, object] = {}
        for game in games:
            teams = [[ratings.get(player) or model.rating()] for player in game.players]
            if shown:
                yield np.array([team[0].mu - 3 * team[0].sigma for team in teams])
            else:
                yield np.array(model.predict_win(teams))
            ranks = pd.Series(game.totals).rank(method="min").astype(int).tolist()
            for player, (after,) in zip(game.players, model.rate(teams, ranks=ranks), strict=True):
                ratings[player] = after

    return predict


def totals_model(df: pd.DataFrame, prior_games: float) -> Predictor:
    """The Stats page's rating (a ridge model of the game totals, ``dutch_core``), with a
    given prior: each player's skill after their previous game, a newcomer's 0."""
    history = stats.rating_history(df, prior_games=prior_games)
    before = history.groupby("player", observed=True)["mu"].shift(fill_value=0.0)
    by_game = {
        game_id: rows.to_numpy()
        for game_id, rows in before.groupby(history["game_id"].to_numpy(), sort=False)
    }

    def predict(games: list[PlayedGame]) -> Iterator[np.ndarray]:
        for game in games:
            yield by_game[game.game_id]

    return predict


def candidates(df: pd.DataFrame) -> dict[str, Predictor]:
    """The baselines, then the rating models tried, by the name the report gives them."""
    return {
        "Chance (1/N)": chance,
        "Most wins so far": most_wins,
        "Lowest average total so far": lowest_average,
        "openskill Bradley–Terry full (the former rating)": openskill_model(BradleyTerryFull()),
        "  the same, ranked by mu - 3 sigma": openskill_model(BradleyTerryFull(), shown=True),
        "openskill Bradley–Terry part": openskill_model(BradleyTerryPart()),
        "openskill Plackett–Luce": openskill_model(PlackettLuce()),
        "openskill Thurstone–Mosteller full": openskill_model(ThurstoneMostellerFull()),
        "openskill Thurstone–Mosteller part": openskill_model(ThurstoneMostellerPart()),
        **{
            f"Game totals, ridge {prior:g} game{'s' if prior != 1 else ''}": totals_model(df, prior)
            for prior in PRIORS
        },
    }


BASELINES = 3
PRIORS = (1.0, 3.0, 10.0)


# Scoring


def credits(predictor: Predictor, games: list[PlayedGame]) -> np.ndarray:
    """Per game: the share of the predicted winners (the players with the top score) who won."""
    out = np.empty(len(games))
    for index, (game, score) in enumerate(zip(games, predictor(games), strict=True)):
        top = score >= score.max() - 1e-12
        out[index] = (top & game.won).sum() / top.sum()
    return out


def bootstrap(values: np.ndarray, seed: int = 1) -> tuple[float, float]:
    """The 95% percentile bootstrap interval of the mean, resampling games."""
    if len(values) == 0:
        return math.nan, math.nan
    rng = np.random.default_rng(seed)
    means = values[rng.integers(0, len(values), (BOOTSTRAP, len(values)))].mean(axis=1)
    low, high = np.quantile(means, [0.025, 0.975])
    return float(low), float(high)


@dataclass(frozen=True)
class Accuracy:
    """One predictor's top-1 accuracy on one history, with its bootstrap 95% interval."""

    name: str
    games: int
    accuracy: float
    low: float
    high: float


def accuracies(df: pd.DataFrame) -> list[Accuracy]:
    """Every candidate's top-1 accuracy at predicting the winners of ``df``'s ended games."""
    games = ended_games(df)
    out = []
    for name, predictor in candidates(df).items():
        scored = credits(predictor, games)
        mean = float(scored.mean()) if len(scored) else math.nan
        out.append(Accuracy(name, len(games), mean, *bootstrap(scored)))
    return out


def best_rating(results: list[Accuracy]) -> str:
    """The rating model (not a baseline) with the highest accuracy."""
    return max(results[BASELINES:], key=lambda result: result.accuracy).name


# The call advice's calibration


def _calls(df: pd.DataFrame) -> pd.DataFrame:
    """One row per call: the caller, hand total, players at the table, lowest or not."""
    calling_rows = df["is_caller"].to_numpy(dtype=bool)
    return pd.DataFrame(
        {
            "game_id": df["game_id"].to_numpy()[calling_rows],
            "player": df["player"].astype(str).to_numpy()[calling_rows],
            "hand_total": df["hand_total"].to_numpy()[calling_rows].astype("int64"),
            "players": calling.round_sizes(df)[calling_rows],
            "lowest": df["outcome"].astype(str).to_numpy()[calling_rows] == "lowest",
        }
    )


def calibration(df: pd.DataFrame) -> tuple[pd.DataFrame, pd.DataFrame]:
    """The fit's predicted chance against the observed rate on held-out games' calls, in
    bins; and the advice lines' held-out record beside the 75% they promise.

    The games are split into :data:`FOLDS` parts by id; each part's calls are predicted
    by the fit (and the advice) worked out from the other parts' games only.
    """
    held_out = []
    advised = []
    games = df["game_id"].to_numpy()
    calls = _calls(df)
    for fold in range(FOLDS):
        training = df.loc[games % FOLDS != fold].reset_index(drop=True)
        tested = calls.loc[calls["game_id"].to_numpy() % FOLDS == fold]
        chances = stats.call_chances(training)
        coefficients = calling.logistic_fit(
            chances["hand_total"].to_numpy(),
            chances["players"].to_numpy(),
            chances["calls"].to_numpy(),
            chances["lowest"].to_numpy(),
        )
        predicted = calling.fitted_chance(
            coefficients, tested["hand_total"].to_numpy(), tested["players"].to_numpy()
        )
        held_out.append(tested.assign(predicted=predicted))
        advice = stats.call_advice(training).dropna(subset=["hand_total"])
        advice = advice.assign(player=advice["player"].astype(str))
        within = tested.merge(advice[["player", "players", "hand_total"]], on=["player", "players"])
        advised.append(within.loc[within["hand_total_x"] <= within["hand_total_y"]])
    scored = pd.concat(held_out, ignore_index=True)
    labels = [f"{low:.0%}–{high:.0%}" for low, high in itertools.pairwise(CHANCE_BINS)]
    bins = pd.cut(scored["predicted"], CHANCE_BINS, labels=labels, include_lowest=True)
    table = scored.groupby(bins, observed=True).agg(
        calls=("lowest", "size"), predicted=("predicted", "mean"), observed=("lowest", "mean")
    )
    followed = pd.concat(advised, ignore_index=True)
    advice_table = pd.DataFrame(
        {
            "calls": [len(followed)],
            "promised": [stats.ADVICE_RATE],
            "observed": [followed["lowest"].mean() if len(followed) else math.nan],
        }
    )
    return table, advice_table


# The report


@dataclass(frozen=True)
class Evaluation:
    """Everything one history gave: its name, accuracies and the calls' calibration."""

    name: str
    games: int
    accuracies: list[Accuracy]
    calibration: pd.DataFrame
    advice: pd.DataFrame


def evaluate(name: str, df: pd.DataFrame) -> Evaluation:
    """The evaluation of one history."""
    results = accuracies(df)
    table, advice = calibration(df)
    return Evaluation(name, results[0].games, results, table, advice)


def _percent(value: float) -> str:
    return "–" if value != value else f"{value:.1%}"


def report(evaluations: list[Evaluation], chosen: str, seconds: float) -> str:
    """The section's Markdown: the accuracies, the choice, the calibration."""
    lines = [
        "Made by `python -m benchmarks.stats_evaluation` (part of `make bench`; "
        f"{seconds:.0f} s). Each game's winner is predicted from the games before it only; "
        "a tie counts as the share of the predicted players who won; the interval is a "
        f"bootstrap 95% interval over games ({BOOTSTRAP} resamples).",
        "",
    ]
    for evaluation in evaluations:
        lines += [
            f"**{evaluation.name}**: {evaluation.games} ended games predicted.",
            "",
            "| Predictor | Top-1 accuracy | 95% interval |",
            "|---|---:|---|",
        ]
        lines += [
            f"| {result.name} | {_percent(result.accuracy)} | "
            f"{_percent(result.low)} – {_percent(result.high)} |"
            for result in evaluation.accuracies
        ]
        lines.append("")
    lines += [
        f"Chosen by the simulation's accuracy, for the Stats page: **{chosen}**.",
        "",
    ]
    for evaluation in evaluations:
        lines += [
            f"*Call chances, {evaluation.name}* (fit on four fifths of the games, tested on "
            "the calls of the other fifth, five times):",
            "",
            "| Fitted chance | Calls | Predicted | Observed |",
            "|---|---:|---:|---:|",
        ]
        lines += [
            f"| {label} | {int(row.calls)} | {_percent(row.predicted)} | {_percent(row.observed)} |"
            for label, row in evaluation.calibration.iterrows()
        ]
        advice = evaluation.advice.iloc[0]
        lines += [
            "",
            f"Held-out calls at or below a player's advised total: {int(advice['calls'])}, "
            f"lowest {_percent(advice['observed'])} (the advice promises at least "
            f"{_percent(advice['promised'])}).",
            "",
        ]
    return "\n".join(lines).rstrip() + "\n"


def write_section(text: str, doc: Path = DOC) -> None:
    """Put ``text`` between the section's markers in ``doc`` (replacing what was there)."""
    current = doc.read_text(encoding="utf-8")
    pattern = re.compile(re.escape(BEGIN) + ".*?" + re.escape(END), re.DOTALL)
    doc.write_text(pattern.sub(lambda _: f"{BEGIN}\n{text}{END}", current), encoding="utf-8")


def run(simulation_rows: int = SIMULATION_ROWS, seed: int = SIMULATION_SEED) -> str:
    """Evaluate both histories; the report's Markdown."""
    began = time.perf_counter()
    evaluations = [
        evaluate("Demo group", demo_history()),
        evaluate(
            f"Simulation (8 players of known skill, seed {seed})",
            simulated_history(simulation_rows, seed),
        ),
    ]
    chosen = best_rating(evaluations[-1].accuracies)
    return report(evaluations, chosen, time.perf_counter() - began)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.stats_evaluation")
    parser.add_argument("--rows", type=int, default=SIMULATION_ROWS, help="simulated rows")
    parser.add_argument("--seed", type=int, default=SIMULATION_SEED)
    parser.add_argument("--no-write", action="store_true", help="print only")
    arguments = parser.parse_args(argv)
    text = run(arguments.rows, arguments.seed)
    print(text)
    if not arguments.no_write:
        write_section(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
