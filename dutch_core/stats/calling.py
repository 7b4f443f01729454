"""Should I call Dutch at N points? The group's own record, a smooth fit, and a reference line.

Three views of the same question, how likely a call with a given hand total is
to succeed (to be strictly lowest):

- the group's own calls, counted by hand total and number of players;
- a logistic fit to those calls over hand total and player count, so that thin
  data still give a sensible chance (:func:`logistic_fit`);
- a reference line that does not depend on the group: the chance that a
  caller holding four cards worth N points is strictly lowest when the others
  hold random four-card hands from the rest of a 52-card deck
  (:func:`reference_chances`, a seeded simulation).

The expected cost of a call is its hand total plus the expected penalty
points: each penalty card is worth 338/52 = 6.5 points on average (the 52
cards add up to 338 with red Kings at 0 and black Kings at 13).
"""

from __future__ import annotations

import functools
import itertools
from collections.abc import Iterable

import numpy as np
import pandas as pd
from numpy.typing import ArrayLike

from dutch_core.stats._groups import group_codes, player_codes
from dutch_core.stats._util import frame_of, is_value, nullable, rate, take

CARD_POINTS = 338 / 52
"""The average value of a card of the 52-card deck: what a penalty card costs on average."""
DECK_VALUES = np.array([*range(1, 13)] * 4 + [0, 0, 13, 13], dtype="int64")
"""The 52 cards' values: Ace to Queen four times, two red Kings (0), two black Kings (13)."""
MAX_PLAYERS = 12
MAX_HAND = 52
"""Hand totals the reference covers (four cards add up to 2 at least and 50 at most)."""
REFERENCE_SEED = 20240614
REFERENCE_DEALS = 6000
"""Simulated deals per caller's hand total."""
RIDGE = 1.0
"""The L2 penalty of the logistic fit, on standardised hand total and player count."""


def round_sizes(df: pd.DataFrame) -> np.ndarray:
    """For every row, how many players the row's round had."""
    rounds, _ = group_codes(df["round_id"].to_numpy())
    sizes: np.ndarray = np.bincount(rounds)[rounds].astype("int64")
    return sizes


# The reference line


@functools.cache
def _reference_arrays() -> tuple[np.ndarray, np.ndarray]:
    """Success chance and expected penalty cards, indexed [hand total, players]."""
    combos = np.array(list(itertools.combinations(range(52), 4)), dtype="int16")
    totals = DECK_VALUES[combos].sum(axis=1)
    rng = np.random.default_rng(REFERENCE_SEED)
    opponents = MAX_PLAYERS - 1
    chance = np.full((MAX_HAND + 1, MAX_PLAYERS + 1), np.nan)
    cards = np.full((MAX_HAND + 1, MAX_PLAYERS + 1), np.nan)
    for total in np.unique(totals):
        # The caller's hand: uniform among the four-card hands worth ``total``.
        mine = combos[rng.choice(np.flatnonzero(totals == total), REFERENCE_DEALS)]
        keys = rng.random((REFERENCE_DEALS, 52))
        np.put_along_axis(keys, mine.astype("int64"), 2.0, axis=1)  # never dealt again
        dealt = np.argsort(keys, axis=1)[:, : 4 * opponents]
        hands = DECK_VALUES[dealt].reshape(REFERENCE_DEALS, opponents, 4).sum(axis=2)
        lowest = np.minimum.accumulate(hands, axis=1)
        lower = np.cumsum(hands < total, axis=1)
        tied = np.cumsum(hands == total, axis=1)
        chance[total, 2:] = (lowest > total).mean(axis=0)
        cards[total, 2:] = (tied + 2 * lower).mean(axis=0)
    return chance, cards


def reference_chances() -> pd.DataFrame:
    """The reference line: a call's chance to succeed against random hands, by hand and players.

    One row per possible hand total of four cards (2 to 50) and number of
    players (2 to 12): ``hand_total``, ``players``, ``chance`` (the caller is
    strictly lowest), ``penalty_cards`` (expected: one per tied and two per
    lower hand) and ``expected_cost`` (hand total + 6.5 points per expected
    penalty card). Worked out once per process by a seeded simulation of
    :data:`REFERENCE_DEALS` deals per hand total: the caller's four cards are
    drawn among the hands worth that total, the others' from the rest of the deck.
    """
    chance, cards = _reference_arrays()
    hand, players = np.nonzero(~np.isnan(chance))
    return frame_of(
        {
            "hand_total": hand.astype("int64"),
            "players": players.astype("int64"),
            "chance": chance[hand, players],
            "penalty_cards": cards[hand, players],
            "expected_cost": hand + cards[hand, players] * CARD_POINTS,
        }
    )


def reference_chance(hand_total: np.ndarray, players: np.ndarray) -> np.ndarray:
    """The reference chance of success for each (hand total, player count); NaN off the table."""
    chance, _ = _reference_arrays()
    hand_total = np.asarray(hand_total, dtype="int64")
    players = np.asarray(players, dtype="int64")
    inside = (hand_total >= 0) & (hand_total <= MAX_HAND) & (players >= 0)
    inside &= players <= MAX_PLAYERS
    out = np.full(hand_total.shape, np.nan)
    out[inside] = chance[hand_total[inside], players[inside]]
    return out


# The logistic fit


def logistic_fit(
    hand_total: np.ndarray, players: np.ndarray, calls: np.ndarray, successes: np.ndarray
) -> np.ndarray:
    """Coefficients of P(success) = 1 / (1 + exp(-(b0 + b1·z_hand + b2·z_players))).

    A binomial logistic regression on the counts (``successes`` of ``calls``
    per hand total and player count), by Newton's method (iteratively
    reweighted least squares, each step halved until it improves the fit),
    with a small L2 penalty (:data:`RIDGE`) on b1 and b2. Beside the real
    calls it counts :data:`PRIOR_CALLS` pseudo-calls per hand total from 2 to
    40 and player count called with, succeeding as often as the random-hands
    reference says (:func:`reference_chance`): a weak prior, outweighed by a
    few dozen real calls, that keeps thin or one-sided data (every call so far
    succeeded) from reading as certain success at every total. ``z_hand`` and
    ``z_players`` are the hand total and player count standardised over all
    those calls (a variable without spread counts as 0). Returns ``[b0, b1,
    b2, hand mean, hand spread, players mean, players spread]``.
    """
    hand_total, players, calls, successes = _with_prior(hand_total, players, calls, successes)
    scale = [_spread(values.astype("float64"), calls) for values in (hand_total, players)]
    x = _design(hand_total, players, scale)
    penalty = np.diag([0.0, RIDGE, RIDGE])

    def objective(coefficients: np.ndarray) -> float:
        """The penalised log-likelihood, which the fit maximises (it is concave)."""
        eta = x @ coefficients
        fit = successes @ eta - calls @ np.logaddexp(0, eta)
        return float(fit - coefficients @ penalty @ coefficients / 2)

    beta = np.zeros(3)
    best = objective(beta)
    for _ in range(100):
        p = _sigmoid(x @ beta)
        gradient = x.T @ (successes - calls * p) - penalty @ beta
        hessian = (x.T * (calls * p * (1 - p))) @ x + penalty + np.eye(3) * 1e-9
        step = np.linalg.solve(hessian, gradient)
        # A Newton step can overshoot where chances are near 0 or 1: halve it until
        # the objective improves (it does for a short enough step).
        value = objective(beta + step)
        for _ in range(60):
            if value >= best:
                break
            step = step / 2
            value = objective(beta + step)
        beta, best = beta + step, max(value, best)
        if np.abs(step).max() < 1e-9:
            break
    return np.concatenate([beta, *scale])


PRIOR_CALLS = 0.5
"""Pseudo-calls per hand total (2 to 40) and player count that the fit adds from the reference."""


def _with_prior(
    hand_total: ArrayLike, players: ArrayLike, calls: ArrayLike, successes: ArrayLike
) -> tuple[np.ndarray, ...]:
    """The counts with the reference's pseudo-calls added (for each player count called with)."""
    hand_total = np.atleast_1d(np.asarray(hand_total, dtype="int64"))
    players = np.atleast_1d(np.asarray(players, dtype="int64"))
    calls = np.atleast_1d(np.asarray(calls, dtype="float64"))
    successes = np.atleast_1d(np.asarray(successes, dtype="float64"))
    counts = np.unique(np.clip(players[calls > 0], 2, MAX_PLAYERS))
    hands = np.arange(2, 41)
    prior_hand = np.tile(hands, len(counts))
    prior_players = np.repeat(counts, len(hands))
    chance = reference_chance(prior_hand, prior_players)
    return (
        np.concatenate([hand_total, prior_hand]),
        np.concatenate([players, prior_players]),
        np.concatenate([calls, np.full(len(prior_hand), PRIOR_CALLS)]),
        np.concatenate([successes, PRIOR_CALLS * chance]),
    )


def fitted_chance(
    coefficients: np.ndarray, hand_total: ArrayLike, players: ArrayLike
) -> np.ndarray:
    """The fitted chance of success at each (hand total, player count)."""
    scale = [coefficients[3:5], coefficients[5:7]]
    return _sigmoid(_design(hand_total, players, scale) @ coefficients[:3])


def _spread(values: np.ndarray, weights: np.ndarray) -> np.ndarray:
    total = weights.sum()
    if total <= 0:
        return np.array([0.0, 0.0])
    mean = (values * weights).sum() / total
    spread = np.sqrt((weights * (values - mean) ** 2).sum() / total)
    return np.array([mean, spread])


def _design(hand_total: ArrayLike, players: ArrayLike, scale: list[np.ndarray]) -> np.ndarray:
    columns = [np.ones(len(np.atleast_1d(hand_total)))]
    for values, (mean, spread) in zip((hand_total, players), scale, strict=True):
        values = np.atleast_1d(np.asarray(values, dtype="float64"))
        columns.append((values - mean) / spread if spread > 0 else np.zeros(len(values)))
    return np.column_stack(columns)


def _sigmoid(z: np.ndarray) -> np.ndarray:
    return 0.5 * (1 + np.tanh(z / 2))  # 1 / (1 + exp(-z)) without overflow


# The group's calls


def _calls(df: pd.DataFrame, callers: Iterable[str] | None = None) -> dict[str, np.ndarray]:
    """The callers' rows (of ``callers`` only, when given): their positions, hand totals,
    player counts, success and penalty. Player counts are whole rounds' either way."""
    calling = df["is_caller"].to_numpy(dtype=bool)
    if callers is not None:
        calling = calling & np.asarray(df["player"].array.isin(list(callers)), dtype=bool)
    calls = np.flatnonzero(calling)
    return {
        "rows": calls,
        "player": take(df["player"], calls),
        "hand_total": df["hand_total"].to_numpy()[calls].astype("int64"),
        "players": round_sizes(df)[calls],
        "lowest": is_value(take(df["outcome"], calls), "lowest"),
        "penalty_cards": df["penalty_cards_due"].to_numpy()[calls].astype("int64"),
    }


def call_chances(df: pd.DataFrame) -> pd.DataFrame:
    """The group's calls by hand total and number of players, with the fit and the reference.

    One row per (``hand_total``, ``players``) that some call had, in that
    order: ``calls``, ``lowest`` (successful calls) and ``lowest_rate``;
    ``fitted`` (the logistic fit's chance, see :func:`logistic_fit`, over all
    the frame's calls); ``reference`` (:func:`reference_chance`);
    ``expected_penalty_cards`` = (1 - fitted) × the group's average penalty
    cards per failed call with that many players (the reference's own figure
    where the group has no failed call with that many); ``expected_cost`` =
    hand total + 6.5 × expected penalty cards.
    """
    return _call_chances(_calls(df))[0]


def _call_chances(calls: dict[str, np.ndarray]) -> tuple[pd.DataFrame, np.ndarray]:
    """The table of :func:`call_chances`, and the coefficients of its fit."""
    size = MAX_PLAYERS + 1
    keys, distinct = pd.factorize(calls["hand_total"] * 1000 + calls["players"], sort=True)
    hand, players = distinct // 1000, distinct % 1000
    count = np.bincount(keys, minlength=len(distinct))
    lowest = np.bincount(keys[calls["lowest"]], minlength=len(distinct))
    coefficients = logistic_fit(hand, players, count, lowest)
    fitted = fitted_chance(coefficients, hand, players) if len(distinct) else np.zeros(0)
    failed = ~calls["lowest"]
    fail_players = np.minimum(calls["players"][failed], size - 1)
    cards_per_fail = rate(
        np.bincount(fail_players, weights=calls["penalty_cards"][failed], minlength=size),
        np.bincount(fail_players, minlength=size),
    )
    reference = reference_chance(hand, players)
    _, reference_cards = _reference_arrays()
    known = np.clip(hand, 0, MAX_HAND), np.clip(players, 0, MAX_PLAYERS)
    fallback = rate(reference_cards[known], 1 - reference_chance(*known))
    per_fail = cards_per_fail[np.minimum(players, size - 1)]
    per_fail = np.where(np.isnan(per_fail), fallback, per_fail)
    per_fail = np.nan_to_num(per_fail, nan=1.0)
    expected_cards = (1 - fitted) * per_fail
    table = frame_of(
        {
            "hand_total": hand.astype("int64"),
            "players": players.astype("int64"),
            "calls": count,
            "lowest": lowest,
            "lowest_rate": rate(lowest, count),
            "fitted": fitted,
            "reference": reference,
            "expected_penalty_cards": expected_cards,
            "expected_cost": hand + expected_cards * CARD_POINTS,
        }
    )
    return table, coefficients


def call_curves(df: pd.DataFrame, chances: pd.DataFrame | None = None) -> pd.DataFrame:
    """The fitted and reference chance at every hand total 0–40 for each player count called with.

    Columns: ``players``, ``hand_total``, ``fitted``, ``reference``; for drawing
    the smooth lines beside the counted rates. ``chances``, when given, must
    be ``call_chances(df)``.
    """
    chances = call_chances(df) if chances is None else chances
    coefficients = logistic_fit(
        chances["hand_total"].to_numpy(),
        chances["players"].to_numpy(),
        chances["calls"].to_numpy(),
        chances["lowest"].to_numpy(),
    )
    return _curves(chances, coefficients)


def _curves(chances: pd.DataFrame, coefficients: np.ndarray) -> pd.DataFrame:
    counts = np.unique(chances["players"].to_numpy())
    hands = np.arange(0, 41)
    players = np.repeat(counts, len(hands)).astype("int64")
    hand = np.tile(hands, len(counts)).astype("int64")
    return frame_of(
        {
            "players": players,
            "hand_total": hand,
            "fitted": fitted_chance(coefficients, hand, players) if len(hand) else np.zeros(0),
            "reference": reference_chance(hand, players),
        }
    )


def caller_profiles(df: pd.DataFrame, chances: pd.DataFrame | None = None) -> pd.DataFrame:
    """Each caller's calls beside the group's record and the reference line.

    One row per player who called at least once: ``player``, ``calls``,
    ``avg_hand_total`` (of their calls), ``typical_total`` (that, rounded),
    ``lowest_rate`` (their own success rate), ``group_calls_at_typical`` and
    ``group_rate_at_typical`` (all the group's calls with the typical total,
    any number of players), ``reference_rate`` (the mean reference chance of
    their calls, each with its own hand total and player count: how often
    they would have succeeded against random hands). ``chances`` as in
    :func:`call_curves`.
    """
    del chances  # accepted for symmetry with call_curves; the profile needs only the calls
    return _caller_profiles(_calls(df))


def _caller_profiles(calls: dict[str, np.ndarray]) -> pd.DataFrame:
    codes, names = player_codes(calls["player"])
    size = len(names)
    count = np.bincount(codes, minlength=size)
    avg = rate(np.bincount(codes, weights=calls["hand_total"], minlength=size), count)
    typical = np.floor(avg + 0.5).astype("int64")
    lowest = np.bincount(codes[calls["lowest"]], minlength=size)
    reference = reference_chance(calls["hand_total"], calls["players"])
    known = ~np.isnan(reference)
    expected = rate(
        np.bincount(codes[known], weights=reference[known], minlength=size),
        np.bincount(codes[known], minlength=size),
    )
    span = max(int(calls["hand_total"].max()) + 1, 1) if len(codes) else 1
    group_calls = np.bincount(calls["hand_total"], minlength=span)
    group_lowest = np.bincount(calls["hand_total"][calls["lowest"]], minlength=span)
    at = np.clip(typical, 0, span - 1)
    return frame_of(
        {
            "player": names,
            "calls": count,
            "avg_hand_total": avg,
            "typical_total": typical,
            "lowest_rate": rate(lowest, count),
            "group_calls_at_typical": group_calls[at],
            "group_rate_at_typical": rate(group_lowest[at], group_calls[at]),
            "reference_rate": expected,
        }
    )


def calls_by_player(df: pd.DataFrame) -> pd.DataFrame:
    """Each player's calls by hand total beside the reference line.

    One row per ``player`` and ``hand_total`` they called with: ``calls``,
    ``lowest``, ``lowest_rate`` and ``reference`` (the mean reference chance
    of those calls, each with its own number of players; NaN off the
    reference's table).
    """
    return _calls_by_player(_calls(df))


def _calls_by_player(calls: dict[str, np.ndarray]) -> pd.DataFrame:
    codes, names = player_codes(calls["player"])
    span = int(calls["hand_total"].max()) + 1 if len(codes) else 1
    keys, distinct = pd.factorize(codes.astype("int64") * span + calls["hand_total"], sort=True)
    count = np.bincount(keys, minlength=len(distinct))
    lowest = np.bincount(keys[calls["lowest"]], minlength=len(distinct))
    reference = reference_chance(calls["hand_total"], calls["players"])
    known = ~np.isnan(reference)
    return frame_of(
        {
            "player": names.take(distinct // span),
            "hand_total": (distinct % span).astype("int64"),
            "calls": count,
            "lowest": lowest,
            "lowest_rate": rate(lowest, count),
            "reference": rate(
                np.bincount(keys[known], weights=reference[known], minlength=len(distinct)),
                np.bincount(keys[known], minlength=len(distinct)),
            ),
        }
    )


ADVICE_RATE = 0.75
"""The share of calls that must have been lowest for a hand total to be advised."""
ADVICE_MIN_CALLS = 10
"""The fewest calls a player must have made at a table size before their advice is given."""


def call_advice(df: pd.DataFrame) -> pd.DataFrame:
    """Each player's call advice per table size: call at this total or less.

    One row per ``player`` and ``players`` (the whole round's number of players)
    they called with: ``calls`` (their calls at that table size) and, once
    ``calls`` reaches :data:`ADVICE_MIN_CALLS`, ``hand_total``: the highest hand
    total they called with such that at least :data:`ADVICE_RATE` of their calls
    with that total or a lower one were lowest, with ``calls_at_or_below`` and
    ``lowest_at_or_below``, the counts it rests on. ``hand_total`` is missing
    (and the counts 0) with fewer calls, or where no total reaches the rate.
    """
    return _call_advice(_calls(df))


def _call_advice(calls: dict[str, np.ndarray]) -> pd.DataFrame:
    codes, names = player_codes(calls["player"])
    hand, players = calls["hand_total"], calls["players"]
    order = np.lexsort((hand, players, codes))
    codes, hand, players = codes[order], hand[order], players[order]
    lowest = calls["lowest"][order]
    groups, keys = pd.factorize(codes.astype("int64") * 1000 + players, sort=True)
    size = len(keys)
    count = np.bincount(groups, minlength=size)
    starts = np.cumsum(count) - count
    # Calls so far within the group, at the last call of each hand total (ties count together).
    running_calls = np.arange(len(groups)) - starts[groups] + 1
    running_lowest = np.cumsum(lowest) - (np.cumsum(lowest) - lowest)[starts][groups]
    last_of_total = np.ones(len(groups), dtype=bool)
    last_of_total[:-1] = (groups[1:] != groups[:-1]) | (hand[1:] != hand[:-1])
    good = last_of_total & (running_lowest >= ADVICE_RATE * running_calls)
    good &= count[groups] >= ADVICE_MIN_CALLS
    best = np.full(size, -1, dtype="int64")
    np.maximum.at(best, groups[good], np.flatnonzero(good))
    found = best >= 0
    at = np.maximum(best, 0)
    return frame_of(
        {
            "player": names.take(keys // 1000),
            "players": (keys % 1000).astype("int64"),
            "calls": count,
            "hand_total": nullable(hand[at], found),
            "calls_at_or_below": np.where(found, running_calls[at], 0),
            "lowest_at_or_below": np.where(found, running_lowest[at], 0),
        }
    )


def call_analysis(
    df: pd.DataFrame, callers: Iterable[str] | None = None
) -> dict[str, pd.DataFrame]:
    """The whole should-I-call analysis of a frame, its calls picked out once.

    Keys: ``chances`` (:func:`call_chances`), ``curves`` (:func:`call_curves`),
    ``profiles`` (:func:`caller_profiles`), ``by_player`` (:func:`calls_by_player`)
    and ``advice`` (:func:`call_advice`).
    With ``callers``, only their calls count (each still with its whole round's
    number of players), as when the page is narrowed to some players.
    """
    calls = _calls(df, callers)
    chances, coefficients = _call_chances(calls)
    return {
        "chances": chances,
        "curves": _curves(chances, coefficients),
        "profiles": _caller_profiles(calls),
        "by_player": _calls_by_player(calls),
        "advice": _call_advice(calls),
    }
