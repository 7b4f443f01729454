"""Showing people's own words (names, notes) safely.

Streamlit never renders raw HTML from ``st.markdown`` unless told to, but
Markdown itself would still turn ``*``, ``_``, ``[link](...)`` or ``<img ...>``
written in a player's name into formatting. :func:`md` escapes every Markdown
character so user text always appears literally.
"""

from __future__ import annotations

import re

_MARKDOWN_SPECIALS = re.compile(r"([\\`*_{}\[\]()#+\-.!|<>~$:])")


def md(text: object) -> str:
    r"""Escape user text for use inside Markdown.

    >>> md("<img src=x onerror=alert(1)>")
    '\\<img src=x onerror=alert\\(1\\)\\>'
    >>> md("**Ann**")
    '\\*\\*Ann\\*\\*'
    """
    return _MARKDOWN_SPECIALS.sub(r"\\\1", str(text))


def distinct_labels(labels: dict[int, str]) -> dict[int, str]:
    """Labels for a choice widget, made unique: Streamlit maps a choice back by its label,
    so two groups both called "Friday cards" would be indistinguishable.

    >>> distinct_labels({1: "Friday cards", 2: "Sunday", 3: "Friday cards"})
    {1: 'Friday cards (1)', 2: 'Sunday', 3: 'Friday cards (2)'}
    """
    totals: dict[str, int] = {}
    for label in labels.values():
        totals[label] = totals.get(label, 0) + 1
    seen: dict[str, int] = {}
    unique = {}
    for key, label in labels.items():
        if totals[label] > 1:
            seen[label] = seen.get(label, 0) + 1
            label = f"{label} ({seen[label]})"
        unique[key] = label
    return unique
