"""Group-by building blocks on plain numpy arrays.

A statistic codes each row's player once (0, 1, ... in name order: the order in
which a pandas group-by lists string keys), then counts, sums and orders rows
with numpy. A pandas group-by, merge or join costs a fixed fraction of a
millisecond however few the rows; these cost microseconds.
"""

from __future__ import annotations

from typing import Any, cast

import numpy as np
import pandas as pd
from pandas.api.extensions import ExtensionArray


def compact(values: np.ndarray) -> np.ndarray:
    """The same integers in the narrowest integer dtype that holds them.

    numpy sorts 8- and 16-bit integers stably with a radix sort, many times
    faster than wider ones.
    """
    if values.size == 0:
        return values
    low, high = np.min_scalar_type(values.min()), np.min_scalar_type(values.max())
    return values.astype(np.promote_types(low, high), copy=False)


def player_codes(
    players: pd.Series | ExtensionArray | np.ndarray,
) -> tuple[np.ndarray, ExtensionArray]:
    """Each row's player as a code into the distinct names, and those names in sorted order."""
    codes, names = pd.factorize(_array(players))
    names = cast(ExtensionArray, names)
    # Python orders strings by code point, as pandas sorts them; the few names sort quickly.
    order = np.argsort(np.asarray(names, dtype=object), kind="stable")
    rank = np.empty(len(order), dtype="int64")
    rank[order] = np.arange(len(order))
    return compact(rank)[codes], names.take(order)


def codes_in(players: pd.Series | ExtensionArray, names: ExtensionArray) -> np.ndarray:
    """Each row's player as a code into ``names``: sorted distinct names that include every one.

    Raises ``ValueError`` for a player not in ``names`` (e.g. results of another frame).
    """
    codes, found = pd.factorize(_array(players))
    slots = find(np.asarray(found, dtype=object), np.asarray(names, dtype=object))
    if (slots < 0).any():
        raise ValueError("the results name players that the history frame does not")
    return compact(slots[codes])


def _array(values: pd.Series | ExtensionArray | np.ndarray) -> Any:
    return values.array if isinstance(values, pd.Series) else values


def group_codes(values: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Each row's value as a code (0, 1, ... in order of first appearance), and the values.

    A history frame keeps the rows of one game (or round) together; then the
    codes are a count of the changes from row to row, with no hashing.
    """
    new = changes(values)
    distinct = values[new]
    if len(pd.unique(distinct)) < len(distinct):  # some value's rows are apart
        codes, distinct = pd.factorize(values)
        return compact(codes), distinct
    return compact(np.cumsum(new, dtype=np.min_scalar_type(len(values))) - 1), distinct


def codes_of(values: np.ndarray, distinct: np.ndarray) -> np.ndarray:
    """Each value's position in ``distinct`` (distinct values that include every one)."""
    order = np.argsort(distinct)
    return compact(order[np.searchsorted(distinct[order], values)])


def find(values: np.ndarray, sorted_values: np.ndarray) -> np.ndarray:
    """Each value's position in ``sorted_values``, or -1 where it is not there."""
    slot = np.searchsorted(sorted_values, values)
    found = slot < len(sorted_values)
    found[found] = sorted_values[slot[found]] == values[found]
    return np.where(found, slot, -1)


def stable_order(*keys: np.ndarray) -> np.ndarray:
    """The row order sorting by ``keys`` (most significant first); ties keep their row order."""
    order = np.arange(len(keys[0]))
    for key in reversed(keys):
        order = order[np.argsort(compact(key[order]), kind="stable")]
    return order


def sorted_within(codes: np.ndarray, values: np.ndarray, groups: int) -> np.ndarray:
    """Integer ``values`` sorted by group code, then value."""
    if len(values) == 0:
        return values
    low = values.min()
    span = int(values.max()) - int(low) + 1
    if groups * span > 2**16:
        ordered: np.ndarray = values[stable_order(codes, values)]
        return ordered
    # Group and value fit one 16-bit key: a single radix sort.
    key = compact(codes.astype("int64") * span + (values - low))
    ordered = np.sort(key, kind="stable").astype(values.dtype) % span + low
    return ordered


def starts(counts: np.ndarray) -> np.ndarray:
    """Where each group begins among rows sorted by group, from the groups' sizes."""
    first: np.ndarray = np.cumsum(counts) - counts
    return first


def changes(values: np.ndarray) -> np.ndarray:
    """True where a value differs from the one before it (and at the first row)."""
    out = np.ones(len(values), dtype=bool)
    out[1:] = values[1:] != values[:-1]
    return out


def group_max(codes: np.ndarray, values: np.ndarray, groups: int) -> np.ndarray:
    """The largest value of each of ``groups`` groups (0 for a group without rows)."""
    return _reduce(np.maximum, codes, values, groups)


def group_min(codes: np.ndarray, values: np.ndarray, groups: int) -> np.ndarray:
    """The smallest value of each of ``groups`` groups (0 for a group without rows)."""
    return _reduce(np.minimum, codes, values, groups)


def _reduce(ufunc: np.ufunc, codes: np.ndarray, values: np.ndarray, groups: int) -> np.ndarray:
    out = np.zeros(groups, dtype=values.dtype)
    if len(values):
        order = np.argsort(codes, kind="stable")
        counts = np.bincount(codes, minlength=groups)
        present = counts > 0
        out[present] = ufunc.reduceat(values[order], starts(counts)[present])
    return out


def pick(values: np.ndarray, positions: np.ndarray, present: np.ndarray) -> np.ndarray:
    """``values[positions]`` where ``present``, 0 elsewhere (where a position may not exist)."""
    out = np.zeros(len(positions), dtype=values.dtype)
    out[present] = values[positions[present]]
    return out
