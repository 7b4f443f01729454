"""The architecture page's example of scoring a round from Python runs and prints what it
says, and every local link of the README and the docs leads to a file that exists."""

import contextlib
import io
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
ARCHITECTURE = ROOT / "docs" / "architecture.md"


def test_the_scoring_example_prints_its_comments():
    text = ARCHITECTURE.read_text(encoding="utf-8")
    section = text.split("`dutch_core` can be used on its own", 1)[1]
    code = re.search(r"```python\n(.*?)```", section, re.DOTALL).group(1)
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(compile(code, "architecture.md", "exec"), {})  # noqa: S102 - our own documentation
    printed = out.getvalue().splitlines()
    assert printed == [
        "3",
        "beaten {'Ann': 40, 'Ben': 4, 'Cleo': 12, 'Dan': 30}",
    ]


def test_the_readme_starts_with_the_two_commands_and_stays_short():
    lines = (ROOT / "README.md").read_text(encoding="utf-8").splitlines()
    code = lines[lines.index("```sh") + 1 : lines.index("```sh") + 3]
    assert [line.split()[:2] for line in code] == [["make", "run"], ["make", "test"]]
    assert len(lines) <= 200


def test_every_local_link_of_the_readme_and_the_docs_exists():
    missing = []
    for page in [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]:
        for target in re.findall(r"\]\(([^)\s]+)\)", page.read_text(encoding="utf-8")):
            if re.match(r"[a-z]+:", target) or target.startswith("#"):
                continue
            if not (page.parent / target.split("#")[0]).exists():
                missing.append(f"{page.relative_to(ROOT)}: {target}")
    assert missing == []
