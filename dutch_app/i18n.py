"""The app's languages: translated text, and numbers and dates in the person's locale.

Text is translated with gettext catalogues kept in ``dutch_app/locale/<code>/LC_MESSAGES/``
(``messages.po`` in the repository, ``messages.mo`` compiled from it by
Babel's ``pybabel compile``). English is the source language: its
text is the message id itself.

Each script run picks its language once, at its start, with :func:`use_language`:
the person's own choice when they made one, otherwise the browser's language
(``st.context.locale``), otherwise English. Everything shown in that run then goes
through :func:`_` / :func:`ngettext`, and numbers and dates through the ``format_*``
helpers, which use the browser's full locale (``nl-BE``, ``de-AT``) when it speaks
the chosen language.

The scoring core raises its errors in English with their parameters kept apart
(:class:`dutch_core.errors.DutchError`); :func:`error_text` translates them.
CSV files are never translated: their columns and dates stay as documented.

>>> use_language("nl")
'nl'
>>> _("Round")
'Ronde'
>>> format_number(1234.5)
'1.234,5'
>>> use_language("en")
'en'
"""

from __future__ import annotations

import functools
import gettext
import io
import logging
import re
import sys
from contextvars import ContextVar
from dataclasses import dataclass
from datetime import date, datetime, timedelta
from pathlib import Path

from babel import Locale, UnknownLocaleError
from babel import dates as babel_dates
from babel import numbers as babel_numbers

logger = logging.getLogger(__name__)

LANGUAGES: dict[str, str] = {
    "en": "English",
    "nl": "Nederlands",
    "de": "Deutsch",
    "fr": "Français",
}
"""The languages the app speaks, each by its code and its own name."""

DEFAULT_LANGUAGE = "en"
LANGUAGE_LOCALES = {"en": "en_GB"}
"""The locale a language's numbers and dates follow when the browser names no region."""
LOCALE_DIR = Path(__file__).parent / "locale"
DOMAIN = "messages"
SESSION_KEY = "i18n_language"
"""Where a run's language and locale are kept in the session, for what runs without the
page's script: callbacks before it, and a fragment's rerun."""
CHOICE_KEY = "i18n_choice"
"""The language a person picked in this session (until it is stored with their account)."""


@dataclass(frozen=True)
class _Active:
    language: str
    locale: str


_active: ContextVar[_Active | None] = ContextVar("dutch_language", default=None)


def _in_script_run() -> bool:
    """Whether this thread runs a page's script (so has a session and a browser).

    A process that has not loaded Streamlit's script runner runs no page: there (the import
    process, the command line) Streamlit is not loaded just to be asked, which would bring
    NumPy and Arrow with it.
    """
    runner = sys.modules.get("streamlit.runtime.scriptrunner")
    if runner is None:
        return False
    return runner.get_script_run_ctx(suppress_warning=True) is not None


def language_of(tag: str | None) -> str | None:
    """The app's language for a browser language tag, or None when the app does not speak it.

    >>> language_of("nl-BE"), language_of("de_AT"), language_of("FR"), language_of("sv-SE")
    ('nl', 'de', 'fr', None)
    """
    if not tag:
        return None
    code = tag.replace("_", "-").split("-")[0].strip().lower()
    return code if code in LANGUAGES else None


def _formatting_locale(language: str, browser: str | None) -> str:
    """The browser's own locale when it speaks ``language``, else the language's default."""
    if browser and language_of(browser) == language:
        try:
            return str(Locale.parse(browser.replace("-", "_")))
        except (ValueError, UnknownLocaleError):
            pass
    return LANGUAGE_LOCALES.get(language, language)


def browser_locale() -> str | None:
    """The browser's language tag (``navigator.language``), or None outside a page view."""
    if not _in_script_run():
        return None
    import streamlit as st

    return st.context.locale


def chosen_language() -> str | None:
    """The language the person picked in this session, or None to follow the browser."""
    if not _in_script_run():
        return None
    import streamlit as st

    choice = st.session_state.get(CHOICE_KEY)
    return choice if choice in LANGUAGES else None


def use_language(code: str | None = None, *, browser: str | None = None) -> str:
    """Speak ``code`` for the rest of this run; None: the browser's language, else English.
    ``browser`` stands in for the browser's language tag where there is no browser (work
    done for a page in another process).

    Returns the language now in use.
    """
    browser = browser or browser_locale()
    language = code if code in LANGUAGES else (language_of(browser) or DEFAULT_LANGUAGE)
    active = _Active(language, _formatting_locale(language, browser))
    _active.set(active)
    if _in_script_run():
        import streamlit as st

        st.session_state[SESSION_KEY] = active
    return language


def _current() -> _Active:
    active = _active.get()
    if active is not None:
        return active
    # No language picked in this run: a fragment's rerun (the page's script, which picks
    # it, does not run) or a callback before the script. Take the session's last, and keep
    # it for the rest of the run: a page asks for it a hundred times.
    active = _Active(DEFAULT_LANGUAGE, _formatting_locale(DEFAULT_LANGUAGE, None))
    if _in_script_run():
        import streamlit as st

        kept = st.session_state.get(SESSION_KEY)
        if isinstance(kept, _Active) and kept.language in LANGUAGES:
            active = kept
        _active.set(active)
    return active


def active_language() -> str:
    """The code of the language this run speaks."""
    return _current().language


def active_locale() -> str:
    """The locale numbers and dates are written in (``nl_BE``, ``de``, ...)."""
    return _current().locale


def _catalogue_bytes(language: str) -> bytes | None:
    """The compiled catalogue of ``language``; compiled in memory when the ``.mo`` is stale."""
    folder = LOCALE_DIR / language / "LC_MESSAGES"
    po, mo = folder / f"{DOMAIN}.po", folder / f"{DOMAIN}.mo"
    if mo.exists() and (not po.exists() or mo.stat().st_mtime >= po.stat().st_mtime):
        return mo.read_bytes()
    if not po.exists():
        return None
    from babel.messages.mofile import write_mo
    from babel.messages.pofile import read_po

    logger.info("compiling %s in memory (run pybabel compile -d dutch_app/locale)", po)
    with po.open("rb") as file:
        catalogue = read_po(file, locale=language)
    buffer = io.BytesIO()
    write_mo(buffer, catalogue)
    return buffer.getvalue()


@functools.cache
def translations(language: str) -> gettext.NullTranslations:
    """The gettext translations of ``language`` (English: the text as written)."""
    if language == DEFAULT_LANGUAGE:
        return gettext.NullTranslations()
    data = _catalogue_bytes(language)
    if data is None:
        logger.warning("no catalogue for %r: showing English", language)
        return gettext.NullTranslations()
    return gettext.GNUTranslations(io.BytesIO(data))


def _(message: str) -> str:
    """``message`` in this run's language."""
    return translations(active_language()).gettext(message)


def ngettext(singular: str, plural: str, n: int) -> str:
    """The singular or plural form for ``n``, in this run's language (format ``n`` yourself)."""
    return translations(active_language()).ngettext(singular, plural, n)


def N_(message: str) -> str:
    """Mark ``message`` for translation where it is defined; translate it with ``_`` when shown.

    >>> N_("Round")
    'Round'
    """
    return message


def localized(text: object) -> str:
    """A text of the core (an error, a :class:`dutch_core.phrases.Phrase`) in this run's
    language.

    The core keeps each message's English template and its parameters apart; they are
    translated here. Anything else is shown as it is: the shell's own errors were
    written in the run's language when they were raised.
    """
    template = getattr(text, "template", None)
    params = getattr(text, "params", None)
    if isinstance(template, str) and isinstance(params, dict):
        translated = _(template)
        # Parameters that are themselves texts of the core (a noun, a reason) translate too.
        params = {
            name: localized(value) if hasattr(value, "template") else value
            for name, value in params.items()
        }
        try:
            message = translated.format(**params) if params else translated
        except (KeyError, IndexError, ValueError):
            logger.warning("translation of %r does not fit its parameters", template)
            return str(text)
        player = getattr(text, "player", None)
        return f"{player}: {message}" if player else message
    return str(text)


error_text = localized
"""An error's message in this run's language (see :func:`localized`)."""


DOCS_DIR = Path(__file__).parent.parent / "docs"
DOCUMENTS = ("rules", "privacy")
"""The pages written as whole documents: ``docs/<name>.md`` in English, and a translation
of each in ``dutch_app/locale/<code>/<name>.md``."""


def document(name: str) -> str:
    """A page's document (``rules``, ``privacy``) in this run's language; English when the
    language has none."""
    if name not in DOCUMENTS:
        raise ValueError(f"unknown document {name!r}")
    translated = LOCALE_DIR / active_language() / f"{name}.md"
    if active_language() != DEFAULT_LANGUAGE and translated.exists():
        return translated.read_text(encoding="utf-8")
    return (DOCS_DIR / f"{name}.md").read_text(encoding="utf-8")


def format_number(value: float | int, digits: int | None = None, *, signed: bool = False) -> str:
    """A number as the person's locale writes it; ``digits`` fixes the decimals;
    ``signed`` writes a plus before a number above zero (as shown, so "+0,0" never).

    >>> use_language("de")
    'de'
    >>> format_number(12345), format_number(0.5, digits=2)
    ('12.345', '0,50')
    >>> format_number(3.21, digits=1, signed=True), format_number(-0.04, digits=1, signed=True)
    ('+3,2', '0,0')
    >>> use_language("en")
    'en'
    """
    if digits is None:
        return babel_numbers.format_decimal(value, locale=active_locale())
    if round(value, digits) == 0:
        value = 0  # neither "+0.0" nor "-0.0"
    pattern = "#,##0" + ("." + "0" * digits if digits > 0 else "")
    if signed and value > 0:
        pattern = f"+{pattern};-{pattern}"
    return babel_numbers.format_decimal(value, format=pattern, locale=active_locale())


def format_percent(share: float) -> str:
    """A share (0.25) as a whole percentage in the person's locale ("25%", "25 %").

    >>> use_language("fr")
    'fr'
    >>> format_percent(0.25).replace("\\u202f", " ").replace("\\xa0", " ")
    '25 %'
    >>> use_language("en")
    'en'
    """
    return babel_numbers.format_percent(share, locale=active_locale())


def format_duration(value: timedelta) -> str:
    """A length of time in hours and minutes, as the person's locale abbreviates them.

    >>> format_duration(timedelta(hours=1, minutes=25))
    '1h 25 mins'
    >>> use_language("nl")
    'nl'
    >>> format_duration(timedelta(hours=1, minutes=25)), format_duration(timedelta(hours=30))
    ('1 u 25 min', '30 u')
    >>> use_language("en")
    'en'
    """
    minutes = max(round(value.total_seconds() / 60), 0)
    hours, minutes = divmod(minutes, 60)
    locale = active_locale()
    parts = []
    if hours:
        hour = timedelta(hours=hours)
        parts.append(
            babel_dates.format_timedelta(
                hour, granularity="hour", threshold=10**9, format="narrow", locale=locale
            )
        )
    if minutes or not hours:
        minute = timedelta(minutes=minutes)
        parts.append(
            babel_dates.format_timedelta(
                minute, granularity="minute", threshold=10**9, format="short", locale=locale
            )
        )
    return " ".join(parts)


_PATTERN_PARTS = re.compile(r"'[^']*'|d+|[ML]+|y+|[^dMLy']+")
_D3_FIELDS = {"d": "%-d", "dd": "%d", "MMM": "%b", "LLL": "%b", "MMMM": "%B", "LLLL": "%B"}


@functools.cache
def d3_date_format(skeleton: str, language: str) -> str:
    """A Babel date skeleton ("MMMd") as the d3 time format a chart axis takes, in the
    language's own order and punctuation.

    >>> d3_date_format("MMMd", "nl"), d3_date_format("MMMd", "de"), d3_date_format("yMMM", "en")
    ('%-d %b', '%-d. %b', '%b %Y')
    """
    pattern = Locale.parse(LANGUAGE_LOCALES.get(language, language)).datetime_skeletons[skeleton]
    out = []
    for part in _PATTERN_PARTS.findall(str(pattern.pattern)):
        if part.startswith("'"):
            out.append(part.strip("'").replace("%", "%%") or "'")
        elif part[0] == "y":
            out.append("%Y")
        else:
            out.append(_D3_FIELDS.get(part, part.replace("%", "%%")))
    return "".join(out)


@functools.cache
def d3_time_locale(language: str) -> dict[str, object]:
    """The language's month and day names as a d3 time-format locale (Vega's
    ``timeFormatLocale``), for chart axes; one shared dict per language: read it only."""
    locale = Locale.parse(LANGUAGE_LOCALES.get(language, language))
    months, days = locale.months["format"], locale.days["format"]
    sunday_first = [6, 0, 1, 2, 3, 4, 5]  # Babel counts from Monday, d3 from Sunday
    return {
        "dateTime": "%x, %X",
        "date": "%d/%m/%Y",
        "time": "%H:%M:%S",
        "periods": ["AM", "PM"],
        "days": [days["wide"][day] for day in sunday_first],
        "shortDays": [days["abbreviated"][day] for day in sunday_first],
        "months": [months["wide"][month] for month in range(1, 13)],
        "shortMonths": [months["abbreviated"][month] for month in range(1, 13)],
    }


def format_date(value: date | datetime, width: str = "medium") -> str:
    """A date in the person's locale (``width``: short, medium, long or full).

    >>> use_language("nl")
    'nl'
    >>> format_date(date(2025, 5, 10))
    '10 mei 2025'
    >>> use_language("en")
    'en'
    """
    return babel_dates.format_date(value, format=width, locale=active_locale())


_DATE_FIELD_ORDERS = {"dMy": "DD{0}MM{0}YYYY", "Mdy": "MM{0}DD{0}YYYY", "yMd": "YYYY{0}MM{0}DD"}
"""The orders of a date's parts that Streamlit's date field can show, by the order of
the day (d), month (M) and year (y) in a locale's short date."""


def date_field_format() -> str:
    """How a date field (``st.date_input``'s ``format``) writes dates for the person's
    locale: the order of day, month and year and the mark between them of the locale's
    short date, as near as the field allows (it offers those three orders, and ``/``,
    ``-`` or ``.`` between the parts)."""
    return _date_field_format(active_locale())


@functools.lru_cache(maxsize=64)
def _date_field_format(locale_name: str) -> str:
    """:func:`date_field_format` of one locale, worked out once (pages ask on every run).

    >>> [_date_field_format(name) for name in ("de_DE", "nl_NL", "fr_FR", "en_US", "fr_CA")]
    ['DD.MM.YYYY', 'DD-MM-YYYY', 'DD/MM/YYYY', 'MM/DD/YYYY', 'YYYY-MM-DD']
    """
    short = babel_dates.get_date_format("short", locale=locale_name).pattern
    order = "".join(dict.fromkeys(letter for letter in short if letter in "dMy"))
    mark = next((char for char in short if char in "/-."), "/")
    return _DATE_FIELD_ORDERS.get(order, _DATE_FIELD_ORDERS["yMd"]).format(mark)


def format_moment(value: datetime, locale_name: str | None = None) -> str:
    """A date with its time of day to the minute, as the person's locale writes them
    (``locale_name``, such as ``en_US``, instead of the run's own when given).

    >>> use_language("de")
    'de'
    >>> format_moment(datetime(2025, 5, 10, 18, 30))
    '10. Mai 2025, 18:30'
    >>> use_language("en")
    'en'
    >>> format_moment(datetime(2025, 5, 10, 18, 30))
    '10 May 2025, 18:30'
    >>> format_moment(datetime(2025, 5, 10, 18, 30), "en_US")
    'May 10, 2025, 18:30'
    """
    locale = Locale.parse(locale_name or active_locale())
    pattern = str(locale.datetime_formats["medium"]).format(
        locale.datetime_skeletons["Hm"].pattern, locale.datetime_skeletons["yMMMd"].pattern
    )
    return babel_dates.format_datetime(value, format=pattern, locale=locale)
