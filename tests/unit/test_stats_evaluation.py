"""The statistics' evaluation runs on a small simulation and reports every part."""

from __future__ import annotations

import numpy as np

from benchmarks import stats_evaluation as evaluation
from dutch_core import stats


def test_the_evaluation_of_a_small_simulation_reports_every_predictor_and_the_calls(tmp_path):
    text = evaluation.run(simulation_rows=1200, seed=3)
    for name in evaluation.candidates(stats.empty_history()):
        assert f"| {name} |" in text
    assert "Simulation (8 players of known skill, seed 3)" in text
    assert "Chosen by the simulation's accuracy, for the Stats page: **" in text
    assert "| Fitted chance | Calls | Predicted | Observed |" in text
    assert "Held-out calls at or below a player's advised total" in text
    doc = tmp_path / "statistics.md"
    doc.write_text(f"before\n{evaluation.BEGIN}\nold\n{evaluation.END}\nafter\n")
    evaluation.write_section(text, doc)
    evaluation.write_section(text, doc)  # a rerun replaces, never adds
    written = doc.read_text()
    assert written.count(text) == 1 and "old" not in written
    assert written.startswith("before\n") and written.endswith(f"{evaluation.END}\nafter\n")


def test_a_tie_for_the_win_or_the_prediction_counts_as_a_share():
    players = ("Ann", "Ben", "Cleo")
    shared = evaluation.PlayedGame(1, players, np.array([3.0, 3.0, 9.0]), np.array([1, 1, 0]) > 0)
    alone = evaluation.PlayedGame(2, players, np.array([3.0, 5.0, 9.0]), np.array([1, 0, 0]) > 0)
    assert evaluation.credits(evaluation.chance, [shared, alone]).tolist() == [2 / 3, 1 / 3]
    # Ann has the most wins after the first game, Ben shares it: half right, half wrong.
    assert evaluation.credits(evaluation.most_wins, [shared, alone]).tolist() == [2 / 3, 1 / 2]
