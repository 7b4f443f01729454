"""The README's example of scoring a round from Python runs and prints what it says."""

import contextlib
import io
import re
from pathlib import Path

README = Path(__file__).resolve().parents[2] / "README.md"


def test_the_readme_scoring_example_prints_its_comments():
    text = README.read_text(encoding="utf-8")
    section = text.split("## Scoring a round from Python", 1)[1]
    code = re.search(r"```python\n(.*?)```", section, re.DOTALL).group(1)
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(compile(code, "README.md", "exec"), {})  # noqa: S102 - our own documentation
    printed = out.getvalue().splitlines()
    assert printed == [
        "3",
        "beaten {'Ann': 40, 'Ben': 4, 'Cleo': 12, 'Dan': 30}",
    ]
