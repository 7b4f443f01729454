"""The page scripts hold no bare string statement but their docstring.

Streamlit's "magic" writes any bare expression of a script onto the page, so a string
meant as an attribute's docstring in ``app.py`` or a page would show up as text.
"""

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SCRIPTS = [ROOT / "app.py", *sorted((ROOT / "pages").glob("*.py"))]


@pytest.mark.parametrize("script", SCRIPTS, ids=lambda path: path.name)
def test_a_page_script_shows_no_stray_string(script):
    body = ast.parse(script.read_text(encoding="utf-8")).body
    stray = [
        statement.lineno
        for statement in body[1:]
        if isinstance(statement, ast.Expr)
        and isinstance(statement.value, ast.Constant)
        and isinstance(statement.value.value, str)
    ]
    assert stray == [], f"{script.name}: bare strings at lines {stray} would show on the page"
