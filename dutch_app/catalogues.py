"""What Babel's commands do not check in the translation catalogues: a message of the app
that a language lacks, leaves empty or marks fuzzy.

``make translations`` extracts the app's text and merges it into each ``.po`` file with
Babel's ``pybabel extract`` and ``update``, then lists what is left to translate with
``python -m dutch_app.catalogues`` (reading the template the extraction wrote,
``dutch_app/locale/messages.pot``), which exits with 1 while anything is. The test suite
checks the same, and that translations keep their placeholders, icons and links.
"""

from __future__ import annotations

import sys
from collections.abc import Iterable
from pathlib import Path

from babel.messages.catalog import Catalog, Message
from babel.messages.pofile import read_po

from dutch_app.i18n import DOMAIN, LANGUAGES, LOCALE_DIR

TRANSLATED = tuple(code for code in LANGUAGES if code != "en")


def read_catalogue(path: Path, language: str | None = None) -> Catalog:
    """The catalogue (or template) in ``path``."""
    with path.open("rb") as file:
        return read_po(file, locale=language)


def po_path(language: str) -> Path:
    return LOCALE_DIR / language / "LC_MESSAGES" / f"{DOMAIN}.po"


def untranslated(template: Catalog, catalogue: Catalog) -> Iterable[Message]:
    """The messages of ``template`` that ``catalogue`` lacks, leaves empty or marks fuzzy."""
    for message in template:
        if not message.id:
            continue
        found = catalogue.get(message.id, context=message.context)
        strings = found.string if found is not None and isinstance(found.string, tuple) else None
        if found is None or found.fuzzy or not (all(strings) if strings else found.string):
            yield message


def main() -> int:
    template = read_catalogue(LOCALE_DIR / f"{DOMAIN}.pot")
    missing = 0
    for language in TRANSLATED:
        for message in untranslated(template, read_catalogue(po_path(language), language)):
            missing += 1
            where = ", ".join(path for path, _ in message.locations)
            print(f"{language}: {message.id!r} ({where})")
    return 1 if missing else 0


if __name__ == "__main__":
    sys.exit(main())
