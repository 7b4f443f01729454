"""Values split into IN lists of a size every database takes."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TypeVar

T = TypeVar("T")

IN_LIST = 500
"""Values per IN list: well under every database's limit on parameters (SQLite's is
32,766; an IN list of row values takes one parameter per part)."""


def in_lists(items: Sequence[T]) -> list[Sequence[T]]:
    """``items`` in runs of at most :data:`IN_LIST`.

    >>> in_lists(list(range(1_001)))[2]
    [1000]
    """
    return [items[start : start + IN_LIST] for start in range(0, len(items), IN_LIST)]
