"""How the Stats page shows its tables: the chosen columns, translated, formatted.

Each table is shown with ``st.dataframe``, so player names stay plain data. Which
columns a table has, under what headings, is declared in :mod:`dutch_app.stats_columns`.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any, cast

import pandas as pd
import streamlit as st
from streamlit.elements.lib.column_types import ColumnConfig

from dutch_app.i18n import N_, _
from dutch_app.labels import OUTCOME_LABELS
from dutch_app.stats_columns import SHARE_FORMAT, Column


def records(table: pd.DataFrame) -> Iterator[Any]:
    """The table's rows as named tuples (pandas types their cells as any scalar at all)."""
    return table.itertuples()


def _is_share(column: Column) -> bool:
    if isinstance(column, str):
        return False
    type_config: Any = column.get("type_config") or {}
    return bool(type_config.get("format") == SHARE_FORMAT)


def shown_frame(table: pd.DataFrame, columns: Mapping[str, Column]) -> pd.DataFrame:
    """Just ``columns`` of ``table``, in that order, with shares in percent points.

    >>> from dutch_app.stats_columns import share
    >>> columns = {"player": "Player", "win_rate": share("Win rate")}
    >>> shown_frame(pd.DataFrame({"player": ["Ann"], "win_rate": [5 / 6]}), columns)
      player  win_rate
    0    Ann  83.333333
    """
    shown = table.loc[:, list(columns)].copy()
    for name, column in columns.items():
        if _is_share(column):
            shown[name] = shown[name] * 100
    return shown


VALUE_LABELS: dict[str, dict[str, str]] = {
    "record": {
        "Longest winning streak": N_("Longest winning streak"),
        "Best game": N_("Best game"),
        "Biggest comeback": N_("Biggest comeback"),
    },
    "outcome": {outcome.value: text for outcome, text in OUTCOME_LABELS.items()},
}
"""Columns whose cells are the core's words or codes, with what a person reads for each."""


def _shown_values(table: pd.DataFrame, columns: Mapping[str, Column]) -> pd.DataFrame:
    """``table`` with the cells of :data:`VALUE_LABELS` columns in this run's language."""
    for name, labels in VALUE_LABELS.items():
        if name in columns and name in table.columns:
            shown = {value: _(label) for value, label in labels.items()}
            table = table.assign(**{name: table[name].map(lambda v, shown=shown: shown.get(v, v))})
    return table


def translated(columns: Mapping[str, Column]) -> dict[str, Column]:
    """``columns`` with their headings and help in this run's language."""
    out: dict[str, Column] = {}
    for name, column in columns.items():
        if isinstance(column, str):
            out[name] = _(column)
            continue
        config: dict[str, Any] = dict(column)
        for part in ("label", "help"):
            if config.get(part):
                config[part] = _(config[part])
        out[name] = cast(ColumnConfig, config)
    return out


def show_table(table: pd.DataFrame, columns: Mapping[str, Column]) -> None:
    """Show ``table`` with just ``columns`` (in that order), labelled and formatted."""
    st.dataframe(
        _shown_values(shown_frame(table, columns), columns),
        column_config=translated(columns),
        column_order=list(columns),
        hide_index=True,
        width="stretch",
    )
