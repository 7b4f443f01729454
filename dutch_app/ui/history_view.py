"""What the History page shows, as plain values and tables (no Streamlit here).

The page reads its filters, asks the services for games, and hands the results
to these functions to get tables and labels; user text stays as it was typed and
is rendered by ``st.dataframe`` or escaped by the page.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, date, datetime, timedelta, timezone, tzinfo
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError, available_timezones

import pandas as pd

from dutch_app.i18n import N_, _, format_duration, format_moment, ngettext
from dutch_app.labels import GAME_STATUS_LABELS, label
from dutch_app.round_payload import RoundFields
from dutch_app.services.views import GameSummary, GameView, RoundView
from dutch_core import CallType
from dutch_core.game import GameStatus

STATUS_LABELS: dict[GameStatus | None, str] = dict(
    [(None, N_("All games")), *GAME_STATUS_LABELS.items()]
)
"""The status filter's choices (translate with ``_`` when shown)."""


@dataclass(frozen=True)
class Filters:
    """The History page's filters: start dates (inclusive), one player, a status."""

    date_from: date | None = None
    date_to: date | None = None
    player_id: int | None = None
    status: GameStatus | None = None

    @property
    def player_ids(self) -> tuple[int, ...] | None:
        """The player filter as :func:`dutch_app.ui.cache.history_frame` takes it."""
        return None if self.player_id is None else (self.player_id,)

    @property
    def is_set(self) -> bool:
        """True when any filter narrows the list.

        >>> Filters().is_set, Filters(status=GameStatus.ENDED).is_set
        (False, True)
        """
        return self != Filters()


def date_range(value: object) -> tuple[date | None, date | None]:
    """The ``(from, to)`` of a date-range input, which may hold 0, 1 or 2 dates.

    >>> date_range(()), date_range((date(2025, 5, 1),))
    ((None, None), (datetime.date(2025, 5, 1), None))
    >>> date_range((date(2025, 5, 1), date(2025, 5, 9)))
    (datetime.date(2025, 5, 1), datetime.date(2025, 5, 9))
    """
    if isinstance(value, date):
        return value, value
    dates = list(value) if isinstance(value, (list, tuple)) else []
    first = dates[0] if dates else None
    last = dates[1] if len(dates) > 1 else None
    return first, last


NOT_BROWSER_ZONES = frozenset({"localtime", "posixrules", "Factory"})
"""Names in the time-zone database that are not places: the server's own zone and
placeholders, never a browser's."""


@functools.cache
def _zone_names() -> frozenset[str]:
    return frozenset(available_timezones()) - NOT_BROWSER_ZONES


def zone(name: object, offset: object = None) -> tzinfo:
    """The browser's time zone: by its name when that names a zone (``Europe/Berlin``),
    else by its offset (minutes behind UTC, as browsers give it), else UTC.

    A region alone (``America``), a path or any other odd name never reaches the
    time-zone files.

    >>> zone("Europe/Berlin")
    zoneinfo.ZoneInfo(key='Europe/Berlin')
    >>> zone("America", -120)
    datetime.timezone(datetime.timedelta(seconds=7200))
    >>> zone("Europe")
    datetime.timezone.utc
    """
    if isinstance(name, str) and name in _zone_names():
        try:
            return ZoneInfo(name)
        except (ZoneInfoNotFoundError, ValueError, OSError):
            pass
    if isinstance(offset, int) and not isinstance(offset, bool) and abs(offset) < 24 * 60:
        return timezone(timedelta(minutes=-offset)) if offset else UTC
    return UTC


def when(moment: datetime, tz: tzinfo = UTC) -> str:
    """A start time as people read it, in their locale.

    >>> when(datetime(2025, 5, 10, 18, 30, tzinfo=UTC))
    '10 May 2025, 18:30'
    """
    return format_moment(moment.astimezone(tz))


def game_label(game: GameSummary, tz: tzinfo = UTC) -> str:
    """One line naming a game in a chooser: when, who, how far."""
    status = _("in progress") if game.status is GameStatus.ACTIVE else _("ended")
    rounds = rounds_word(game.rounds_played)
    return f"{when(game.started_at, tz)} · {', '.join(game.players)} · {rounds}, {status}"


def games_frame(summaries: Sequence[GameSummary], tz: tzinfo = UTC) -> pd.DataFrame:
    """The list of games: start, status, players with their totals, rounds, length, leader."""
    rows = [
        (
            when(game.started_at, tz),
            label(game.status),
            " · ".join(
                f"{name} {total}" for name, total in zip(game.players, game.totals, strict=True)
            ),
            game.rounds_played,
            "" if game.length is None else format_duration(game.length),
            ", ".join(game.leaders),
        )
        for game in summaries
    ]
    headings = [_("Started"), _("Status"), _("Totals"), _("Rounds"), _("Length"), _("Lowest")]
    return pd.DataFrame(rows, columns=headings)


def _ended_by(stored: RoundView) -> tuple[str, str, str]:
    if stored.caller is None:
        return _("nobody"), "", ""
    return (
        stored.caller,
        "" if stored.call_type is None else label(stored.call_type),
        "" if stored.outcome is None else label(stored.outcome),
    )


def round_by_round_frame(game: GameView) -> pd.DataFrame:
    """Rounds × players: each round score and the running total, then who called and how it went.

    Running totals are the ones stored with each round, as the core added them up (house
    rules that halve a total included).
    """
    names = [player.name for player in game.players]
    total_of = {name: _("{name} total").format(name=name) for name in names}
    columns = [
        _("Round"),
        *(column for name in names for column in (name, total_of[name])),
        *(_("Called by"), _("Call"), _("Outcome"), _("Penalty cards")),
    ]
    records = []
    for stored, totals in zip(game.rounds, game.running_totals(), strict=True):
        scores = {hand.player: hand.round_score for hand in stored.hands}
        cells: list[object] = [stored.number]
        for name in names:
            cells += [scores[name], totals[name]]
        records.append([*cells, *_ended_by(stored), stored.penalty_cards_due])
    return pd.DataFrame(records, columns=columns)


def stored_fields(stored: RoundView) -> RoundFields:
    """The round form's fields filled in from a stored round, ready to correct."""
    return RoundFields(
        hand_texts={hand.player: hand.hand_text for hand in stored.hands},
        caller=stored.caller,
        call_type=CallType(stored.call_type) if stored.call_type else None,
        penalty_text=stored.penalty_text or "",
    )


def service_input(
    game: GameView, fields: RoundFields
) -> tuple[dict[int, str], int | None, CallType | None, str | None]:
    """The form's fields as ``rounds.add_round`` and ``rounds.edit_round`` take them: hands and
    caller by player id."""
    ids = {player.name: player.id for player in game.players}
    hands = {ids[name]: text for name, text in fields.hand_texts.items()}
    caller_id = ids[fields.caller] if fields.caller is not None else None
    return hands, caller_id, fields.call_type, fields.penalty_text.strip() or None


def games_word(count: int) -> str:
    """``'1 game'`` or ``'3 games'``.

    >>> games_word(1), games_word(2)
    ('1 game', '2 games')
    """
    return ngettext("{count} game", "{count} games", count).format(count=count)


def rounds_word(count: int) -> str:
    """``'1 round'`` or ``'3 rounds'``.

    >>> rounds_word(1), rounds_word(0)
    ('1 round', '0 rounds')
    """
    return ngettext("{count} round", "{count} rounds", count).format(count=count)


def in_progress_label(game: GameSummary) -> str:
    """A game in progress in the Play page's chooser: who plays, and how far they are.

    >>> from datetime import UTC, datetime
    >>> def summary(rounds):
    ...     started = datetime(2025, 5, 10, tzinfo=UTC)
    ...     return GameSummary(1, 1, "active", started, None, "", ("Ann", "Bo"), (0, 0), rounds, 1)
    >>> in_progress_label(summary(0)), in_progress_label(summary(3))
    ('Ann, Bo — not started yet', 'Ann, Bo — 3 rounds played')
    """
    played = game.rounds_played
    if played:
        progress = _("{rounds} played").format(rounds=rounds_word(played))
    else:
        progress = _("not started yet")
    return f"{', '.join(game.players)} — {progress}"
