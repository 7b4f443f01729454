"""The numpy building blocks of the statistics give what pandas and numpy's general tools give."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from dutch_core.stats._groups import codes_in, group_codes, player_codes, sorted_within


@pytest.mark.parametrize("high", [40, 10**6], ids=["one radix sort", "two sorts"])
def test_values_sorted_within_groups_whatever_their_range(high):
    rng = np.random.default_rng(high)
    codes = rng.integers(0, 7, 2000).astype("uint8")
    values = rng.integers(-high, high, 2000)
    expected = values[np.lexsort((values, codes))]
    np.testing.assert_array_equal(sorted_within(codes, values, 7), expected)


@pytest.mark.parametrize("together", [True, False], ids=["rows together", "rows apart"])
def test_group_codes_are_pandas_codes_in_order_of_first_appearance(together):
    values = np.repeat(np.array([7, 3, 9, 1]), [3, 1, 4, 2])
    if not together:
        values = np.random.default_rng(1).permutation(values)
    codes, distinct = group_codes(values)
    expected_codes, expected_distinct = pd.factorize(values)
    np.testing.assert_array_equal(codes, expected_codes)
    np.testing.assert_array_equal(distinct, expected_distinct)


def test_player_codes_sort_names_as_pandas_does():
    names = pd.array(["Émile", "bob", "Zoë", "Bob", "ann", "Émile", "Ann", "Zoe"], dtype="string")
    codes, distinct = player_codes(names)
    expected_codes, expected_distinct = pd.factorize(names, sort=True)
    np.testing.assert_array_equal(codes, expected_codes)
    pd.testing.assert_extension_array_equal(distinct, expected_distinct)


def test_results_of_another_frame_are_refused_rather_than_misread():
    names = pd.array(["Ann", "Cat"], dtype="string")
    assert list(codes_in(pd.array(["Cat", "Ann", "Cat"], dtype="string"), names)) == [1, 0, 1]
    with pytest.raises(ValueError, match="players"):
        codes_in(pd.array(["Bob"], dtype="string"), names)
