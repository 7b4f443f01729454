"""The translation catalogues: every text of the app is translated, with its placeholders intact."""

from __future__ import annotations

import re
import string

import pytest

from dutch_app.catalogues import TRANSLATED, po_path, read_catalogue, untranslated
from dutch_app.i18n import LANGUAGES


@pytest.fixture(scope="module")
def template(messages_template):
    return messages_template


def catalogue(language: str):
    return read_catalogue(po_path(language), language)


def _fields(text: str) -> list[str]:
    """The ``{name!r:spec}`` fields of a template, sorted (doubled braces are text)."""
    return sorted(
        f"{name}!{conversion}:{spec}"
        for _, name, spec, conversion in string.Formatter().parse(text)
        if name is not None
    )


ICON = re.compile(r":material/[a-z_]+:")
LINK = re.compile(r"\]\(([^)]+)\)")


def _keep(text: str) -> list[list[str]]:
    """What a translation must carry over unchanged: fields, icons and link targets."""
    return [_fields(text), sorted(ICON.findall(text)), sorted(LINK.findall(text))]


def test_extraction_finds_the_apps_text(template):
    """The markers are found across the app, the core's error templates included."""
    places = {path.split("/")[0] for message in template for path, _ in message.locations}
    assert {"app.py", "pages", "dutch_app", "dutch_core"} <= places
    assert len(template) > 200


@pytest.mark.parametrize("language", TRANSLATED)
def test_every_text_has_a_translation(template, language):
    """A message the app shows that a catalogue lacks (or leaves empty or fuzzy) fails."""
    missing = [message.id for message in untranslated(template, catalogue(language))]
    assert not missing, (
        f"{len(missing)} messages lack a {LANGUAGES[language]} translation "
        f"(run make translations, then translate them): {missing[:20]}"
    )


@pytest.mark.parametrize("language", TRANSLATED)
def test_catalogue_has_no_stale_entries(template, language):
    """A catalogue keeps only messages the app still uses (make translations drops the rest)."""
    wanted = {(message.id, message.context) for message in template}
    stale = [
        message.id
        for message in catalogue(language)
        if message.id and (message.id, message.context) not in wanted
    ]
    assert not stale, stale[:20]


@pytest.mark.parametrize("language", TRANSLATED)
def test_placeholders_survive_translation(template, language):
    """Every translation has exactly its message's fields, icons and link targets."""
    translated = catalogue(language)
    broken = []
    for message in template:
        found = translated.get(message.id, context=message.context)
        if found is None or not found.string:
            continue
        ids = message.id if isinstance(message.id, tuple) else (message.id,)
        strings = found.string if isinstance(found.string, tuple) else (found.string,)
        wanted = _keep(ids[-1])
        for text in strings:
            if _keep(text) != wanted and _keep(text) != _keep(ids[0]):
                broken.append((message.id, text))
    assert not broken, broken[:10]


@pytest.mark.parametrize("language", TRANSLATED)
def test_translations_format_with_their_parameters(template, language):
    """Filling a translation with its message's parameters never raises."""
    translated = catalogue(language)
    for message in template:
        found = translated.get(message.id, context=message.context)
        ids = message.id if isinstance(message.id, tuple) else (message.id,)
        if found is None or not found.string or "{" not in ids[0]:
            continue
        names = {name.split("!")[0] for name in _fields(ids[-1]) + _fields(ids[0])}
        values = {name.split(".")[0].split("[")[0]: 1 for name in names}
        strings = found.string if isinstance(found.string, tuple) else (found.string,)
        for text in strings:
            text.format(**values)


def test_the_catalogues_compile(tmp_path):
    """The compiled catalogues load and translate."""
    from babel.messages.mofile import write_mo

    from dutch_app import i18n

    for language in TRANSLATED:
        with (tmp_path / f"{language}.mo").open("wb") as file:
            write_mo(file, catalogue(language))
        assert (tmp_path / f"{language}.mo").stat().st_size > 1000
    i18n.use_language("nl")
    try:
        assert i18n._("Sign in") != "Sign in"
    finally:
        i18n.use_language("en")


def _shape(markdown: str) -> dict:
    """What a translated document must keep: its headings' levels, list items, table rows,
    code spans, links and addresses."""
    lines = markdown.splitlines()
    return {
        "headings": [line.split(" ")[0] for line in lines if line.startswith("#")],
        "items": sum(1 for line in lines if line.startswith("- ")),
        "table rows": sum(1 for line in lines if line.startswith("|")),
        "code": sorted(re.findall(r"`[^`]+`", markdown)),
        "links": sorted(re.findall(r"<https?://[^>]+>|[\w.]+@[\w.]+\.\w+", markdown)),
    }


@pytest.mark.parametrize("language", TRANSLATED)
@pytest.mark.parametrize("name", ["rules", "privacy"])
def test_every_document_is_translated_with_its_shape(language, name):
    """The rules and privacy pages exist in every language, with the English document's
    headings, lists, table, card notation and addresses."""
    from dutch_app.i18n import DOCS_DIR, LOCALE_DIR

    english = (DOCS_DIR / f"{name}.md").read_text(encoding="utf-8")
    translated = (LOCALE_DIR / language / f"{name}.md").read_text(encoding="utf-8")
    assert translated != english
    assert _shape(translated) == _shape(english)
