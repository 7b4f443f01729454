"""What Streamlit shows for a piece of Markdown, without a browser.

A real CommonMark parser (markdown-it) with the extensions Streamlit's Markdown adds:
tables, strikethrough, math, ``:name[...]`` directives, and Streamlit's
passes over each parsed text (emoji, icons, the logo, arrows, bare URLs and e-mail
addresses), their patterns copied from Streamlit's front end. The browser test
``tests/e2e/test_user_text.py`` checks the real thing.
"""

from __future__ import annotations

import re

from markdown_it import MarkdownIt
from markdown_it.rules_inline import StateInline
from mdit_py_plugins.dollarmath import dollarmath_plugin

# Streamlit's passes over each text node, after the Markdown is parsed.
TEXT_PASSES = {
    "emoji": re.compile(r":\+1:|:-1:|:[\w-]+:"),
    "icon": re.compile(r":material_(\w+):"),
    "logo": re.compile(r":streamlit:"),
    "arrow or dash": re.compile(r"(^|\s)(<->|->|<-|--|>=|<=|~=)(\s|$)"),
    "bare link": re.compile(r"(https?://|www(?=\.))([-.\w]+)([^ \t\r\n]*)", re.IGNORECASE),
    "e-mail link": re.compile(r"([-.\w+]+)@([-\w]+(?:\.[-\w]+)+)"),
}
_DIRECTIVE = re.compile(r":([A-Za-z][\w-]*)(?![\w:-])(?:\[([^\]]*)\])?")


def _directive(state: StateInline, silent: bool) -> bool:
    """``:name[label]`` as Streamlit's directive extension reads it."""
    if state.src[state.pos] != ":":
        return False
    before = state.src[: state.pos]
    if before.endswith(":") and not before.endswith("\\:"):
        return False  # a directive may follow a colon only when that colon is escaped
    found = _DIRECTIVE.match(state.src, state.pos)
    if not found:
        return False
    if not silent:
        token = state.push("directive", "span", 0)
        token.meta = {"name": found[1], "label": found[2]}
    state.pos = found.end()
    return True


def _parser() -> MarkdownIt:
    # Bare links are found as GitHub's Markdown finds them, by TEXT_PASSES on each text
    # (markdown-it's own linkify would also take "example.com" for a link).
    parser = MarkdownIt("commonmark", {"html": True})
    parser.enable(["table", "strikethrough"]).use(dollarmath_plugin)
    parser.inline.ruler.before("text", "directive", _directive)
    return parser


PARSER = _parser()
PLAIN = {"paragraph_open", "paragraph_close", "inline", "text", "softbreak", "hardbreak"}


def render(markdown: str) -> tuple[str, list[str]]:
    """What Streamlit would show for ``markdown``: the visible text, and every piece of
    formatting (an element other than plain text) it would make."""
    source = markdown.replace(":material/", ":material_")  # as Streamlit does first
    shown: list[str] = []
    formatting: list[str] = []
    for block in PARSER.parse(source):
        if block.type not in PLAIN:
            formatting.append(block.type)
        for token in block.children or []:
            if token.type == "text":
                passes = TEXT_PASSES.items()
                formatting += [name for name, found in passes if found.search(token.content)]
                shown.append(token.content)
            elif token.type == "softbreak":
                shown.append(" ")
            elif token.type == "hardbreak":
                shown.append("\n")
            elif token.type == "directive" and token.meta == {"name": "small", "label": ""}:
                pass  # an empty span: the fence md() puts around punctuation
            elif token.type == "directive" and token.meta["label"] is None:
                shown.append(f":{token.meta['name']}")  # an unknown name stays text
            else:
                formatting.append(token.type)
        if block.type == "paragraph_close" and shown:
            shown.append("\n\n")
    return "".join(shown).strip("\n"), formatting


def as_shown(text: str) -> str:
    """``text`` as a web page shows it: runs of spaces as one, none at the ends of a line,
    no empty lines at either end."""
    return "\n".join(re.sub(r"[ \t]+", " ", line.strip()) for line in text.strip().splitlines())
