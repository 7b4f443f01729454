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
