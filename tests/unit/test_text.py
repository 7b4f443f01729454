"""User text shown through Markdown stays exactly the text typed (rendered by
``tests.rendering``, a CommonMark parser with Streamlit's extensions)."""

from __future__ import annotations

import re
import string

import pytest
from hypothesis import example, given
from hypothesis import strategies as st

from dutch_app.ui.text import md
from tests.rendering import as_shown, render

# Every construct of CommonMark, GitHub's tables and strikethrough, and Streamlit's own.
CONSTRUCTS = [
    "**bold**",
    "__bold__",
    "*italic*",
    "_italic_",
    "~~struck~~",
    "`code`",
    "``co`de``",
    "[a link](http://tracker.example/a)",
    "[ref][1]\n\n[1]: http://tracker.example/r",
    "![](http://tracker.example/pixel.png)",
    "<http://tracker.example/auto>",
    "<ann@example.com>",
    "http://tracker.example/bare",
    "www.tracker.example",
    "ann@example.com",
    "<img src=x onerror=alert(1)>",
    "<b>bold</b>",
    "<!-- comment -->",
    "&amp; &lt; &#65; &copy;",
    "# heading",
    "Heading\n===",
    "- item",
    "+ item",
    "1. item",
    "3) item",
    "> quote",
    "    indented code",
    "```\nfenced\n```",
    "---",
    "***",
    "| a | b |\n|---|---|\n| c | d |",
    "line\\\nbreak",
    "trailing  \nspaces",
    "back\\slash \\*",
    ":red[red]",
    ":red-background[x]",
    ":blue-badge[badge]",
    ":rainbow[x]",
    ":small[small]",
    ":help[x]",
    ":color[x]{foreground=red}",
    ":smile: :+1: :-1:",
    ":material/home:",
    ":material_home:",
    ":streamlit:",
    "$x^2$",
    "$$x^2$$",
    "a -> b <- c <-> d -- e >= f <= g ~= h",
    "10:30 a:b",
    "=1+1",
    "Zoë & Björn 🎉",
]


@pytest.mark.parametrize("text", CONSTRUCTS)
def test_every_markdown_construct_shows_literally(text):
    shown, formatting = render(md(text))
    assert formatting == []
    assert as_shown(shown) == as_shown(text)


def test_the_renderer_does_see_formatting_when_text_is_not_escaped():
    for text in ["**bold**", "[a](http://x.example)", ":red[x]", ":smile:", "$x$", "a -> b"]:
        assert render(text)[1], text
    # Backslashes alone (as the app first escaped) are not enough: Streamlit's passes
    # run on the text after the escapes are resolved.
    for text in [":material/home:", "http://x.example", "ann@example.com", "a -> b", "&amp;"]:
        escaped = re.sub(r"([\\`*_{}\[\]()#+\-.!|<>~$:])", r"\\\1", text)
        assert render(escaped) != (text, []), text


printable = st.characters(blacklist_categories=["Cc", "Cs"]) | st.sampled_from(
    [*string.punctuation, " ", "\n"]
)


@given(st.text(printable))
@example("**Ann** [x](http://y.example) ![](http://z.example/p.png)")
@example(":red[Ann] :material/home: :smile: $1$ and $2$ www.x.example a@b.example")
def test_any_text_renders_as_itself(text):
    shown, formatting = render(md(text))
    assert formatting == []
    assert as_shown(shown) == as_shown(text)


FRAGMENTS = [
    *"ab1 .,:;'\"()/!?-+=@#*_[]<>~$|&{}\\`\n",
    "www.",
    "WWW.",
    "http://",
    "https://",
    "x.example",
    "a@b.example",
    "::",
    ":red[",
    ":material/",
    ":streamlit:",
    ":smile:",
    ":+1:",
    "->",
    "<-",
    "<->",
    "--",
    ">=",
    "<=",
    "~=",
    "1.",
    "2)",
    "---",
    "===",
    "```",
    "$$",
    "&amp;",
    "\\:",
]


@given(st.lists(st.sampled_from(FRAGMENTS), max_size=12).map("".join))
def test_text_made_of_markdown_fragments_renders_as_itself(text):
    shown, formatting = render(md(text))
    assert formatting == []
    assert as_shown(shown) == as_shown(text)


def test_plain_sentences_keep_their_punctuation_unescaped():
    for text in ["Ann-Marie O'Brien (J.R.)", "Ann: 'K' needs a colour: KH/KD (red, 0).", "50/50?"]:
        assert md(text) == text
