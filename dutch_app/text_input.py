"""The one check of typed text that services and accounts share: names, notes,
group names and display names.

Databases refuse some text that Python happily holds: PostgreSQL stores no NUL
character, and a lone surrogate (half of an emoji, left by a broken copy or a
hand-made request) cannot be written as UTF-8 at all. Such text is refused here,
with a message saying which field and what is wrong, before anything is written.
"""

from __future__ import annotations

import unicodedata

from dutch_app.i18n import _

LINE_BREAKS = frozenset("\n")
"""The one control character that multi-line text (notes) may hold."""
JOINERS = frozenset("\u200c\u200d")
"""Invisible characters that belong in text: the zero-width (non-)joiner of emoji
sequences such as a family, and of Persian and Indic writing."""
BLACK_FLAG = "\U0001f3f4"
TAGS = range(0xE0020, 0xE007F)
CANCEL_TAG = "\U000e007f"
"""A black flag, tag letters and a cancel tag spell a region's flag (Scotland's is
U+1F3F4 followed by the tags of "gbsct" and U+E007F): the only place tags belong."""


def _flag_tags(text: str) -> set[int]:
    """The positions (from 0) of the tag characters that spell a region's flag."""
    found: set[int] = set()
    start = text.find(BLACK_FLAG)
    while start != -1:
        end = start + 1
        while end < len(text) and ord(text[end]) in TAGS:
            end += 1
        if end > start + 1 and end < len(text) and text[end] == CANCEL_TAG:
            found.update(range(start + 1, end + 1))
        start = text.find(BLACK_FLAG, end)
    return found


def text_problem(text: str, longest: int, *, lines: bool = False) -> str | None:
    """What is wrong with ``text`` (as the end of a sentence), or None when it is fine.

    Refused: more than ``longest`` characters, a lone surrogate, and control or
    format characters (NUL, tabs, zero-width spaces, direction overrides), except
    the joiners of emoji and scripts, the tags of a region's flag (🏴󠁧󠁢󠁳󠁣󠁴󠁿), and line
    breaks when ``lines`` is set.

    >>> text_problem("Ann", 80) is None
    True
    >>> text_problem("A\\x00nn", 80)
    'contains a control character (U+0000) at position 2'
    >>> text_problem("\\ud83d", 80)
    'contains half of a character (U+D83D at position 1), which cannot be stored'
    >>> text_problem("Ann" * 30, 80)
    'is longer than 80 characters (this one has 90)'
    """
    if len(text) > longest:
        return _("is longer than {most} characters (this one has {length})").format(
            most=longest, length=len(text)
        )
    flag_tags = _flag_tags(text) if BLACK_FLAG in text else set()
    for position, char in enumerate(text, start=1):
        if position - 1 in flag_tags:
            continue
        kind = unicodedata.category(char)
        if kind == "Cs":
            return _(
                "contains half of a character ({code} at position {position}), "
                "which cannot be stored"
            ).format(code=f"U+{ord(char):04X}", position=position)
        if kind in ("Cc", "Cf") and char not in JOINERS and not (lines and char in LINE_BREAKS):
            return _("contains a control character ({code}) at position {position}").format(
                code=f"U+{ord(char):04X}", position=position
            )
    return None
