"""Showing people's own words (names, notes) safely.

Most of Streamlit renders text as Markdown: ``st.markdown`` and ``st.caption``, the
alerts (``st.error``, ``st.warning``, ``st.info``, ``st.success``), ``st.toast``,
headings, and the labels of widgets, buttons and expanders. A name typed as
``**bold**``, ``[a](http://…)``, ``![](http://…)``, ``:red[x]``, ``:smile:``,
``:material/home:`` or ``$x$`` would come out formatted, as a link, or as an image the
browser fetches. :func:`md` turns user text into Markdown that shows exactly that text.

It works in two layers, because Streamlit's Markdown has two:

- the parser (CommonMark, tables, strikethrough, math, ``:name[...]`` directives, raw
  HTML): each character that could start a construct gets a backslash, which
  CommonMark defines as "this character, literally";
- the passes over the parsed text (emoji ``:smile:``, icons ``:material/x:``, the logo
  ``:streamlit:``, bare URLs and e-mail addresses made links, ``->`` made an arrow):
  these run on each text node after escapes are resolved, so the characters such a
  pattern needs are also fenced off into text nodes of their own by an empty
  ``:small[]`` directive, which draws an empty ``<span>`` and nothing else.

Plain sentence punctuation (``. , ' " ? ( ) /`` and a colon before a space) stays as
it is, so messages read the same in the page's source as on the screen.

Every message that embeds user text builds it with :func:`md`, whatever element shows
it. Plain-text elements (``st.text``, ``st.code``, data frame
cells, select-box options, chart tooltips) show text as it is and take it unescaped.
"""

from __future__ import annotations

import re
from collections import Counter

from dutch_app.i18n import format_percent

_ALWAYS = frozenset("\\`*_[]<>~$|&{}#@")
"""Characters escaped and fenced wherever they are."""
_LINE_START = frozenset("+-=")
"""Characters that start a list, a rule or a heading underline at the start of a line."""
_ORDERED_ITEM = re.compile(r"\d+[.)]")
_FENCE = ":small[]"
"""An empty directive: ends the current text node and renders as an empty span."""


def percent(share: float) -> str:
    """A share (0 to 1) as the app writes percentages; "-" when there is none (NaN).

    >>> percent(5 / 6), percent(0.5), percent(float("nan"))
    ('83%', '50%', '-')
    """
    return "-" if share != share else format_percent(share)


def md(text: object) -> str:
    r"""User text as Markdown that Streamlit shows exactly as typed.

    Line breaks stay line breaks; as everywhere in a web page, a run of spaces
    shows as one space and spaces at the ends of a line do not show (names are
    stored with their spaces tidied, so they show exactly).

    >>> md("Ann-Marie O'Brien (J.R.): 12.5")
    "Ann-Marie O'Brien (J.R.): 12.5"
    >>> md("**Ann**")
    ':small[]\\*:small[]:small[]\\*:small[]Ann:small[]\\*:small[]:small[]\\*:small[]'
    """
    lines = str(text).strip().splitlines()  # a break ending the text would show as "\\"
    return "\\\n".join(_escape_line(line) for line in lines)


def _fenced(line: str) -> list[bool]:
    """Which characters of ``line`` get a backslash and a text node of their own."""
    fenced = []
    for at, char in enumerate(line):
        before = line[at - 1] if at else ""
        after = line[at + 1] if at + 1 < len(line) else ""
        fenced.append(
            char in _ALWAYS
            or (char == ":" and (after.isalnum() or after in "_+-/"))  # :x: :x[ ://
            or (char == "." and before in "wW")  # www.
            or (char == "-" and (after in "->" or before == "-"))  # -> --
            or (at == 0 and char in _LINE_START)
        )
    if ordered := _ORDERED_ITEM.match(line):
        fenced[ordered.end() - 1] = True  # "1." or "1)"
    return fenced


def _escape_line(line: str) -> str:
    line = line.strip()
    fenced = _fenced(line)
    out = []
    for at, char in enumerate(line):
        if fenced[at]:
            out.append(f"{_FENCE}\\{char}{_FENCE}")
        elif char == ":" and at + 1 < len(line) and fenced[at + 1]:
            out.append("\\:")  # a directive may follow a colon only when it is escaped
        else:
            out.append(char)
    return "".join(out)


def distinct_labels(labels: dict[int, str]) -> dict[int, str]:
    """Labels for a choice widget, made unique: Streamlit maps a choice back by its label,
    so two groups both called "Friday cards" would be indistinguishable.

    >>> distinct_labels({1: "Friday cards", 2: "Sunday", 3: "Friday cards"})
    {1: 'Friday cards (1)', 2: 'Sunday', 3: 'Friday cards (2)'}
    """
    totals = Counter(labels.values())
    seen: Counter[str] = Counter()
    unique = {}
    for key, label in labels.items():
        if totals[label] > 1:
            seen[label] += 1
            label = f"{label} ({seen[label]})"
        unique[key] = label
    return unique
