"""The translation catalogues: extract the app's text, update the ``.po`` files, compile them.

    python -m dutch_app.catalogues extract   write dutch_app/locale/messages.pot from the code
    python -m dutch_app.catalogues update    extract, then merge the template into each .po
    python -m dutch_app.catalogues compile   compile each .po to the .mo the app reads
    python -m dutch_app.catalogues check     list messages without a translation (exit 1)

Extraction reads every Python file of the app (``app.py``, ``pages/``, ``dutch_app/``,
``dutch_core/``) for calls of the markers below. The scoring core has no gettext: its
error classes take an English template as their first argument, with the parameters as
keywords, so the classes themselves are the core's markers.
"""

from __future__ import annotations

import argparse
import io
import sys
from collections.abc import Iterable, Iterator
from datetime import UTC, datetime
from pathlib import Path

from babel.messages.catalog import Catalog, Message
from babel.messages.extract import extract_from_file
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po, write_po

from dutch_app.i18n import DOMAIN, LANGUAGES, LOCALE_DIR

ROOT = Path(__file__).resolve().parent.parent
SOURCES = ("app.py", "pages", "dutch_app", "dutch_core")
FIXED_DATE = datetime(2026, 1, 1, tzinfo=UTC)
"""The date written in every catalogue header, so that updating changes only messages."""
TRANSLATED = tuple(code for code in LANGUAGES if code != "en")

CORE_ERRORS = (
    "Phrase",
    "DutchError",
    "CardError",
    "HandError",
    "RulesError",
    "RoundError",
    "PenaltyError",
    "DeckError",
    "PenaltyDeckError",
    "GameError",
    "_error",
)
"""The core's error classes (and ``_error``, the class a hand or a penalty raises): their
first argument is a message template."""

KEYWORDS: dict[str, tuple] = {
    "_": (1,),
    "N_": (1,),
    "ngettext": (1, 2),
    "pgettext": ((1, "c"), 2),
    **{name: (1,) for name in CORE_ERRORS},
}
"""Each marker and where its message (and plural, and context) sits among its arguments."""


def source_files() -> Iterator[Path]:
    """The Python files whose text is translated (not tests, migrations or benchmarks)."""
    for name in SOURCES:
        path = ROOT / name
        if path.is_file():
            yield path
            continue
        for file in sorted(path.rglob("*.py")):
            if "migrations" not in file.parts:
                yield file


def extract() -> Catalog:
    """Every marked message of the app, with where it is used."""
    template = _new_catalogue(None)
    for file in source_files():
        relative = file.relative_to(ROOT).as_posix()
        for line, message, comments, context in extract_from_file(
            "python",
            file,
            keywords=KEYWORDS,
            comment_tags=("Translators:",),
            strip_comment_tags=True,
        ):
            if isinstance(message, tuple) and not all(message):
                continue
            if not message:
                continue
            template.add(
                message,
                locations=[(relative, line)],
                auto_comments=comments,
                context=context,
                flags=_flags(message),
            )
    return template


def _new_catalogue(language: str | None) -> Catalog:
    return Catalog(
        locale=language,
        domain=DOMAIN,
        project="Dutch Scorer",
        header_comment="# Dutch Scorer's text"
        + (f" in {LANGUAGES[language]}." if language else "."),
        creation_date=FIXED_DATE,
        revision_date=FIXED_DATE,
        fuzzy=False,
    )


def _flags(message: str | tuple) -> tuple[str, ...]:
    text = message if isinstance(message, str) else message[0]
    return ("python-brace-format",) if "{" in text else ()


def template_path() -> Path:
    return LOCALE_DIR / f"{DOMAIN}.pot"


def po_path(language: str) -> Path:
    return LOCALE_DIR / language / "LC_MESSAGES" / f"{DOMAIN}.po"


def read_catalogue(language: str) -> Catalog:
    with po_path(language).open("rb") as file:
        return read_po(file, locale=language)


def write_catalogue(path: Path, catalogue: Catalog) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    buffer = io.BytesIO()
    write_po(buffer, catalogue, width=100, include_lineno=False)
    path.write_bytes(buffer.getvalue())


def update() -> None:
    """Extract, then merge the new template into each language's catalogue."""
    template = extract()
    write_catalogue(template_path(), template)
    for language in TRANSLATED:
        path = po_path(language)
        if path.exists():
            catalogue = read_catalogue(language)
            catalogue.update(template, no_fuzzy_matching=True, update_creation_date=False)
            catalogue.obsolete.clear()
            catalogue.revision_date = FIXED_DATE
        else:
            catalogue = _new_catalogue(language)
            catalogue.update(template, no_fuzzy_matching=True)
        write_catalogue(path, catalogue)


def compile_all() -> None:
    """Compile each ``.po`` into the ``.mo`` the app loads."""
    for language in TRANSLATED:
        catalogue = read_catalogue(language)
        with po_path(language).with_suffix(".mo").open("wb") as file:
            write_mo(file, catalogue)


def untranslated(template: Catalog, catalogue: Catalog) -> Iterable[Message]:
    """The messages of ``template`` that ``catalogue`` lacks, leaves empty or marks fuzzy."""
    for message in template:
        if not message.id:
            continue
        found = catalogue.get(message.id, context=message.context)
        strings = found.string if found is not None and isinstance(found.string, tuple) else None
        if found is None or found.fuzzy or not (all(strings) if strings else found.string):
            yield message


def check() -> int:
    template = extract()
    missing = 0
    for language in TRANSLATED:
        for message in untranslated(template, read_catalogue(language)):
            missing += 1
            where = ", ".join(f"{path}:{line}" for path, line in message.locations)
            print(f"{language}: {message.id!r} ({where})")
    return 1 if missing else 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("command", choices=("extract", "update", "compile", "check"))
    command = parser.parse_args(argv).command
    if command == "extract":
        write_catalogue(template_path(), extract())
    elif command == "update":
        update()
    elif command == "compile":
        compile_all()
    else:
        return check()
    return 0


if __name__ == "__main__":
    sys.exit(main())
