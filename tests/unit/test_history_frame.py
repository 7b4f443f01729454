"""The history frame's text columns with few values, numbered batch by batch.

Each batch's text is looked up among the values the column has met so far; a batch with
new values adds them first. Whatever order the values come in, across however many
batches, the finished column is the categorical pandas makes of the same text.
"""

import numpy as np
import pandas as pd
import pyarrow as pa
import pytest

from dutch_app.services._history_frame import _Coded


def coded(pieces: list[list[str | None]]) -> pd.Categorical:
    column = _Coded(sum(len(piece) for piece in pieces))
    start = 0
    for piece in pieces:
        column.add(slice(start, start + len(piece)), pa.array(piece, pa.string()))
        start += len(piece)
    return column.categorical()


def expected(pieces: list[list[str | None]]) -> pd.Categorical:
    values = [value for piece in pieces for value in piece]
    return pd.Series(values, dtype="str").astype("category").array


@pytest.mark.parametrize(
    "pieces",
    [
        [["Ben", "Ann", None], ["Ann", "Cleo"], [None, None]],
        [[None, None], ["Zoë", "Émile", "anna", "Åsa", "Bo", "ßen", "李"]],
        [["one"]],
        [["x"] * 5, ["x", "y"], ["x"] * 3],
    ],
    ids=["new value in a later batch", "any script, sorted by code point", "one", "repeated"],
)
def test_the_column_is_the_categorical_pandas_makes(pieces):
    made = coded(pieces)
    pd.testing.assert_extension_array_equal(made, expected(pieces))
    assert list(made.categories) == sorted({v for piece in pieces for v in piece if v})


def test_more_values_than_a_byte_numbers_widen_the_codes_on_the_way():
    """300 names, most first met in the third batch: the codes grow from one byte to two
    between batches, and the rows written before keep their values."""
    names = [f"player {number:03}" for number in range(300)]
    pieces = [[*names[:2], None], names[5:100], list(reversed(names)), names[:1]]
    made = coded(pieces)
    pd.testing.assert_extension_array_equal(made, expected(pieces))
    assert made.codes.dtype == np.int16
