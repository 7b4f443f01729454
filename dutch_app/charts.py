"""Altair charts of the statistics tables, in one colour-blind-safe theme.

Each chart of the app is a :class:`ChartKind`: how one table from
:mod:`dutch_core.stats` (the same table the page shows beside or under the
chart) is reshaped to the chart's data, and how that data is encoded. Kinds
accept empty tables and then draw a chart without data. Long trends are thinned
to at most ``MAX_POINTS`` points so the page stays light; the table keeps every row.

``kind.chart(table)`` gives the Altair chart. ``kind.spec(table)`` gives what
Streamlit sends to the browser for that chart: the Vega-Lite spec with the data
as Arrow bytes. The spec without data is the same for every table, so it is
worked out (and checked against the Vega-Lite schema) once per process; a spec
then costs only its data. Specs are plain values: cache them with the tables
they show, and draw them with :func:`dutch_app.ui.chart_view.show_chart`.
"""

from __future__ import annotations

import functools
import hashlib
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import altair as alt
import numpy as np
import pandas as pd
import pyarrow as pa

from dutch_app.i18n import N_, _, active_language, d3_date_format, d3_time_locale
from dutch_core import stats

OKABE_ITO = [
    "#E69F00",  # orange
    "#56B4E9",  # sky blue
    "#009E73",  # bluish green
    "#0072B2",  # blue
    "#D55E00",  # vermillion
    "#CC79A7",  # reddish purple
    "#F0E442",  # yellow
    "#000000",  # black
]
"""The Okabe–Ito palette, readable with every common colour-vision deficiency."""
MORE_PLAYERS = [
    "#CC6677",  # rose
    "#44AA99",  # teal
    "#999933",  # olive
    "#AA4499",  # purple
]
"""Four more colours (from Paul Tol's muted scheme) for the ninth to twelfth player: a table
seats up to twelve. Next to the first eight, some of them are alike to some eyes."""
PLAYER_PALETTE = [*OKABE_ITO, *MORE_PLAYERS]

OUTCOME_COLOURS = {"lowest": "#0072B2", "tied": "#E69F00", "beaten": "#D55E00"}
OUTCOME_LABELS = {"lowest": N_("Lowest (success)"), "tied": N_("Tied"), "beaten": N_("Beaten")}
"""The outcomes as a legend names them (translate with ``_`` when drawn)."""
MAX_POINTS = 4000
"""The most points a trend chart draws (about; each player's latest is always kept)."""
MARKED_POINTS = 200
"""Line charts mark each point with a dot up to this many points."""
PERCENT_FORMAT = ".0%"
"""A share as the app writes it, a whole percent ("83%"), in the d3 format of the axes and
tooltips (the pages write it with :func:`dutch_app.ui.text.percent`)."""

ChartSpec = dict[str, Any]
"""A chart as Vega-Lite, its data as Arrow bytes under ``datasets``: ready to draw."""


@alt.theme.register("dutch", enable=True)
def dutch_theme() -> alt.theme.ThemeConfig:
    """The app's chart theme: Okabe–Ito colours, quiet axes, legend at the bottom."""
    return {
        "config": {
            "range": {"category": OKABE_ITO},
            "font": "'Source Sans Pro', 'Segoe UI', sans-serif",
            # Long player names are cut with an ellipsis (the tooltip has them whole).
            "axis": {
                "labelFontSize": 12,
                "titleFontSize": 13,
                "gridOpacity": 0.4,
                "labelLimit": 110,
            },
            # Legend entries wrap into columns, so a phone-wide chart keeps them all in view.
            "legend": {
                "orient": "bottom",
                "direction": "horizontal",
                "columns": 3,
                "labelLimit": 90,
                "labelFontSize": 12,
                "titleFontSize": 13,
            },
            "title": {"fontSize": 15, "anchor": "start"},
            "view": {"stroke": None},
            "line": {"strokeWidth": 2},
            "point": {"filled": True, "size": 40},
        },
        "width": "container",
    }


OTHERS_GREY = "#B8B8B8"
"""The thin lines of the players a chart does not highlight (:func:`highlighted`)."""
DARK_SWAPS = {"#000000": "#EDEDED", OTHERS_GREY: "#5F6670"}
"""Colours that vanish on a dark background (or, for the grey, stand out too much), and
what the dark theme draws instead."""

DARK_TEXT, DARK_MUTED, DARK_GRID = "#E6E9EC", "#B9BFC6", "#3A4049"
DARK_CONFIG: dict[str, Any] = {
    "background": "transparent",
    "axis": {
        "labelColor": DARK_MUTED,
        "titleColor": DARK_TEXT,
        "gridColor": DARK_GRID,
        "domainColor": DARK_MUTED,
        "tickColor": DARK_MUTED,
    },
    "legend": {"labelColor": DARK_MUTED, "titleColor": DARK_TEXT},
    "title": {"color": DARK_TEXT, "subtitleColor": DARK_MUTED},
    "text": {"color": DARK_TEXT},
}
"""What the dark theme changes in a chart's config: light text and quiet grid lines."""


def for_theme(spec: ChartSpec, dark: bool) -> ChartSpec:
    """``spec`` as drawn in the light or the dark theme.

    In the dark theme, text and grid lines turn light and any palette colour that would
    vanish on a dark background (:data:`DARK_SWAPS`) is replaced; the light theme draws
    the spec as it is. Returns a new dict; ``spec`` is not changed.

    >>> black = {"encoding": {"color": {"scale": {"range": ["#000000"]}}}}
    >>> dark = for_theme(black, True)
    >>> dark["encoding"]["color"]["scale"]["range"], dark["config"]["axis"]["labelColor"]
    (['#EDEDED'], '#B9BFC6')
    """
    if not dark:
        return spec
    out = _swap_colours(spec)
    config = dict(spec.get("config", {}))
    for key, value in DARK_CONFIG.items():
        config[key] = {**config.get(key, {}), **value} if isinstance(value, dict) else value
    out["config"] = config
    return out


def _swap_colours(node: Any) -> Any:
    if isinstance(node, dict):
        return {
            key: value if key == "datasets" else _swap_colours(value) for key, value in node.items()
        }
    if isinstance(node, list):
        return [_swap_colours(item) for item in node]
    if isinstance(node, str):
        return DARK_SWAPS.get(node, node)
    return node


def _player_colour() -> alt.Color:
    return alt.Color("player:N", title=_("Player"), scale=alt.Scale(range=OKABE_ITO))


def _outcome_names() -> list[str]:
    return [_(OUTCOME_LABELS[outcome]) for outcome in OUTCOME_COLOURS]


def _outcome_colour() -> alt.Color:
    names = _outcome_names()
    scale = alt.Scale(domain=names, range=list(OUTCOME_COLOURS.values()))
    return alt.Color("outcome_label:N", title=_("Outcome"), scale=scale, sort=names)


def _stacked(table: pd.DataFrame, keys: list[str], columns: list[str], names: str) -> dict:
    """``table.melt(keys, columns, var_name=names)`` as columns, without melt's fixed cost.

    One row per column and row of ``table`` (column by column): the ``keys`` of
    the row, the column's name under ``names`` and its position under
    ``position``, and the cell under ``value``.
    """
    rows = len(table)
    repeated = np.tile(np.arange(rows), len(columns))
    out: dict = {key: table[key].array.take(repeated) for key in keys}
    out[names] = pd.array(np.repeat(columns, rows), dtype="str")
    out["position"] = np.repeat(np.arange(len(columns), dtype="int64"), rows)
    out["value"] = np.concatenate([table[column].to_numpy() for column in columns])
    return out


def _outcomes_long(table: pd.DataFrame, keys: list[str]) -> pd.DataFrame:
    """One row per key and outcome, with its ``count``, ``share`` and a readable label."""
    long = _stacked(table, [*keys, "calls"], list(OUTCOME_COLOURS), "outcome")
    count = long.pop("value").astype("int64")
    calls = long["calls"].to_numpy(dtype="float64")
    with np.errstate(divide="ignore", invalid="ignore"):
        share = np.where(calls > 0, count / calls, np.nan)
    labels = _outcome_names()
    return pd.DataFrame(
        {
            **{key: long[key] for key in [*keys, "calls", "outcome"]},
            "count": count,
            "share": share,
            "outcome_label": pd.array(np.take(labels, long["position"]), dtype="str"),
            "outcome_order": long["position"],
        }
    )


@dataclass(frozen=True)
class ChartKind:
    """One chart of the app: how its table becomes chart data, and how that data is drawn.

    ``encode(data, marked)`` builds the Altair chart of ``data`` (a DataFrame, or
    a named placeholder for the spec template); ``marked`` says whether line
    charts should mark their points (few enough of them).
    """

    shape: Callable[[pd.DataFrame], pd.DataFrame]
    encode: Callable[..., alt.Chart | alt.LayerChart]
    variant: Callable[[pd.DataFrame], Any] | None = None
    """When given: what the encoding depends on in the data (e.g. the time axis's span),
    passed to ``encode`` as a third argument; one template is kept per variant."""

    def _variant(self, data: pd.DataFrame) -> tuple:
        return () if self.variant is None else (self.variant(data),)

    def data(self, table: pd.DataFrame) -> pd.DataFrame:
        """The rows and columns of ``table`` the chart draws (lengths of time never are:
        Vega-Lite has no type for them)."""
        return self.shape(table).select_dtypes(exclude="timedelta")

    def chart(self, table: pd.DataFrame) -> alt.Chart | alt.LayerChart:
        """The Altair chart of ``table``."""
        data = self.data(table)
        return self.encode(data, len(data) <= MARKED_POINTS, *self._variant(data))

    def prepare(self) -> None:
        """Build this kind's templates (with and without point marks) in the language the
        caller speaks now, before its first chart needs them; only for kinds whose
        encoding has no variant."""
        if self.variant is not None:
            raise ValueError("a kind with variants has its templates built as it meets them")
        for marked in (True, False):
            _template(self, marked, (), active_language())

    def spec(self, table: pd.DataFrame) -> ChartSpec:
        """The chart of ``table`` as Streamlit draws it: Vega-Lite with Arrow data.

        Shared templates stay untouched: the result is a new dict at the top
        level (``data`` and ``datasets`` are its own); treat the rest as read-only.
        """
        data = self.data(table)
        payload = _arrow_bytes(data)
        name = "data-" + hashlib.blake2b(payload, digest_size=16).hexdigest()
        template = _template(
            self, len(data) <= MARKED_POINTS, self._variant(data), active_language()
        )
        spec = {**template, "data": {"name": name}, "datasets": {name: payload}}
        # Drawn as SVG: axis labels and marks are then text and elements that screen
        # readers (and tests) can read, each mark labelled with its tooltip fields.
        # Month and day names in the run's language, for the time axes.
        locale = d3_time_locale(active_language())
        spec["usermeta"] = {"embedOptions": {"renderer": "svg", "timeFormatLocale": locale}}
        if "player" in data.columns:
            players = sorted(set(data["player"].dropna().tolist()), key=_name_order)
            spec["usermeta"]["players"] = players
        return spec


def _arrow_bytes(data: pd.DataFrame) -> bytes:
    """``data`` as an Arrow IPC stream, the form ``st.vega_lite_chart`` sends a dataset in
    (bytes given to it are sent as they are)."""
    # One thread: pyarrow would start a pool for these small tables, which costs more.
    table = pa.Table.from_pandas(data, nthreads=1)
    sink = pa.BufferOutputStream()
    with pa.ipc.new_stream(sink, table.schema) as writer:
        writer.write_table(table)
    return sink.getvalue().to_pybytes()


@functools.cache
def _template(kind: ChartKind, marked: bool, variant: tuple = (), language: str = "") -> ChartSpec:
    """The kind's Vega-Lite spec with a placeholder for its data, in the app's theme; one per
    ``language`` (its titles are in the run's language, which must be ``language``)."""
    del language  # part of the cache key only
    return kind.encode(alt.NamedData(name="data"), marked, *variant).to_dict(validate=True)


def _name_order(name: str) -> tuple[str, str]:
    return (str(name).casefold(), str(name))


# Player colours


def player_colours(players: Iterable[tuple[int, str]]) -> dict[str, str]:
    """Each player's colour, by name: the group's players in the order they were added (by id)
    take the palette's colours in turn, so a player keeps their colour in every chart and on
    every page, whatever else a chart shows. A name shared by two players takes the first's.

    >>> player_colours([(7, "Ben"), (3, "Ann")])
    {'Ann': '#E69F00', 'Ben': '#56B4E9'}
    """
    colours: dict[str, str] = {}
    for _id, name in sorted(players):
        colours.setdefault(name, PLAYER_PALETTE[len(colours) % len(PLAYER_PALETTE)])
    return colours


def distinct_colours(players: Sequence[str], colours: Mapping[str, str]) -> list[str]:
    """The colours of ``players`` in one chart, no two alike while the palette lasts.

    Each player keeps their own colour (:func:`player_colours`) unless an earlier player of
    the chart already has it (a group of more than twelve players, or colours kept from
    players no longer in it): the later one then takes the first palette colour nobody in
    the chart has.

    >>> kept = {"Ann": "#E69F00", "Ben": "#56B4E9", "Mo": "#E69F00"}
    >>> distinct_colours(["Ann", "Ben", "Mo"], kept)
    ['#E69F00', '#56B4E9', '#009E73']
    """
    light = {dark: colour for colour, dark in DARK_SWAPS.items()}  # as the palette has it
    own = [colours.get(name) or fallback_colour(name) for name in players]
    own = [light.get(colour, colour) for colour in own]
    free = [colour for colour in PLAYER_PALETTE if colour not in own]
    shown: list[str] = []
    for colour in own:
        if colour in shown and free:
            colour = free.pop(0)
        shown.append(colour)
    return shown


def fallback_colour(name: str) -> str:
    """A colour for a name missing from the group's list: derived from the name alone."""
    digest = hashlib.blake2b(str(name).encode(), digest_size=2).digest()
    return PLAYER_PALETTE[int.from_bytes(digest, "big") % len(PLAYER_PALETTE)]


def coloured(spec: ChartSpec, colours: Mapping[str, str] | None) -> ChartSpec:
    """``spec`` with its players drawn in ``colours`` (see :func:`player_colours`).

    The colour scale's domain is the players the chart shows (so the legend
    lists just them) and its range their colours, no two alike
    (:func:`distinct_colours`). Returns a new top-level
    dict; only the parts on the way to a colour encoding are copied.
    """
    players = spec.get("usermeta", {}).get("players")
    if not colours or not players:
        return spec
    scale = {"domain": players, "range": distinct_colours(players, colours)}
    return _recolour(spec, scale)


def _recolour(node: dict, scale: dict) -> dict:
    out = dict(node)
    encoding = node.get("encoding")
    if isinstance(encoding, dict) and encoding.get("color", {}).get("field") == "player":
        out["encoding"] = {**encoding, "color": {**encoding["color"], "scale": scale}}
    for key in ("layer", "hconcat", "vconcat", "concat"):
        if isinstance(node.get(key), list):
            out[key] = [_recolour(part, scale) for part in node[key]]
    return out


HIGHLIGHT_ABOVE = 4
"""A line chart of more players than this highlights one of them (:func:`highlighted`)."""


def highlightable(spec: ChartSpec) -> bool:
    """Whether ``spec`` is a line per player of more than :data:`HIGHLIGHT_ABOVE` players:
    a tangle of lines, read more easily with one of them highlighted."""
    mark = spec.get("mark")
    kind = mark.get("type") if isinstance(mark, dict) else mark
    colour = spec.get("encoding", {}).get("color", {})
    players = spec.get("usermeta", {}).get("players", [])
    return kind == "line" and colour.get("field") == "player" and len(players) > HIGHLIGHT_ABOVE


def highlighted(spec: ChartSpec, player: str | None) -> ChartSpec:
    """``spec`` with ``player``'s line drawn in colour and on top, and every other player's
    thin and grey: for a :func:`highlightable` chart that shows ``player``. Any other spec
    (or ``player`` None) is returned as it is. The tooltips still name every line, and the
    legend names the highlighted player alone. Returns a new top-level dict; the data and
    the shared template's parts are not copied.
    """
    if player is None or not highlightable(spec) or player not in spec["usermeta"]["players"]:
        return spec
    mark, encoding = spec["mark"], spec["encoding"]
    is_player = {"field": "player", "equal": player}
    others = {
        **encoding,
        "color": {"value": OTHERS_GREY},
        "detail": {"field": "player", "type": "nominal"},
    }
    colour = {**encoding["color"], "legend": {"values": [player]}}
    layers = [
        {
            "transform": [{"filter": {"not": is_player}}],
            "mark": {"type": "line", "strokeWidth": 1.25},
            "encoding": others,
        },
        {
            "transform": [{"filter": is_player}],
            "mark": {**mark, "strokeWidth": 3},
            "encoding": {**encoding, "color": colour},
        },
    ]
    out = {key: value for key, value in spec.items() if key not in ("mark", "encoding")}
    out["layer"] = layers
    return out


def _as_is(table: pd.DataFrame) -> pd.DataFrame:
    return table


def _win_rate(data: Any, marked: bool) -> alt.Chart:
    return (
        alt.Chart(data, title=_("Win rate (ended games)"))
        .mark_bar()
        .encode(
            x=alt.X("win_rate:Q", title=_("Win rate"), axis=alt.Axis(format=PERCENT_FORMAT)),
            y=alt.Y("player:N", title=None, sort="-x"),
            color=_player_colour(),
            tooltip=[
                alt.Tooltip("player:N", title=_("Player")),
                alt.Tooltip("wins:Q", title=_("Wins")),
                alt.Tooltip("games_ended:Q", title=_("Ended games")),
                alt.Tooltip("win_rate:Q", title=_("Win rate"), format=PERCENT_FORMAT),
            ],
        )
    )


WIN_RATE = ChartKind(_as_is, _win_rate)
"""Bars of each player's win rate (from ``player_summary``)."""


_MEASURES = {"avg_round_score": N_("Average"), "median_round_score": N_("Median")}


def _round_scores_long(summary: pd.DataFrame) -> pd.DataFrame:
    long = _stacked(summary, ["player", "rounds"], list(_MEASURES), "measure")
    labels = [_(label) for label in _MEASURES.values()]
    return pd.DataFrame(
        {
            "player": long["player"],
            "rounds": long["rounds"],
            "measure": pd.array(np.take(labels, long["position"]), dtype="str"),
            "score": long["value"],
        }
    )


def _round_scores(data: Any, marked: bool) -> alt.Chart:
    return (
        alt.Chart(data, title=_("Round score (lower is better)"))
        .mark_bar()
        .encode(
            x=alt.X("player:N", title=None),
            xOffset=alt.XOffset("measure:N"),
            y=alt.Y("score:Q", title=_("Points per round")),
            color=alt.Color("measure:N", title="", scale=alt.Scale(range=OKABE_ITO[2:4])),
            tooltip=[
                alt.Tooltip("player:N", title=_("Player")),
                alt.Tooltip("measure:N", title=_("Measure")),
                alt.Tooltip("score:Q", title=_("Points"), format=".1f"),
                alt.Tooltip("rounds:Q", title=_("Rounds")),
            ],
        )
    )


ROUND_SCORES = ChartKind(_round_scores_long, _round_scores)
"""Average and median round score per player, side by side (from ``player_summary``)."""


def _call_outcomes(data: Any, marked: bool) -> alt.Chart:
    return (
        alt.Chart(data, title=_("How Dutch calls turned out"))
        .mark_bar()
        .encode(
            x=alt.X(
                "count:Q",
                stack="normalize",
                title=_("Share of calls"),
                axis=alt.Axis(format=PERCENT_FORMAT),
            ),
            y=alt.Y("player:N", title=None),
            color=_outcome_colour(),
            order=alt.Order("outcome_order:Q"),
            tooltip=[
                alt.Tooltip("player:N", title=_("Player")),
                alt.Tooltip("outcome_label:N", title=_("Outcome")),
                alt.Tooltip("count:Q", title=_("Calls")),
                alt.Tooltip("share:Q", title=_("Share"), format=PERCENT_FORMAT),
            ],
        )
    )


CALL_OUTCOMES = ChartKind(lambda calls: _outcomes_long(calls, ["player"]), _call_outcomes)
"""Each player's Dutch calls split by outcome, as shares (from ``dutch_calls``)."""


def _by_hand_total(data: Any, marked: bool) -> alt.Chart:
    return (
        alt.Chart(data, title=_("Call outcome by the caller's hand total"))
        .mark_bar()
        .encode(
            x=alt.X("hand_total:O", title=_("Caller's hand total")),
            y=alt.Y(
                "count:Q",
                stack="normalize",
                title=_("Share of calls"),
                axis=alt.Axis(format=PERCENT_FORMAT),
            ),
            color=_outcome_colour(),
            order=alt.Order("outcome_order:Q"),
            tooltip=[
                alt.Tooltip("hand_total:O", title=_("Hand total")),
                alt.Tooltip("outcome_label:N", title=_("Outcome")),
                alt.Tooltip("count:Q", title=_("Calls")),
                alt.Tooltip("share:Q", title=_("Share"), format=PERCENT_FORMAT),
                alt.Tooltip(
                    "lowest_rate_at_or_below:Q",
                    title=_("Success at or below"),
                    format=PERCENT_FORMAT,
                ),
            ],
        )
    )


CALL_SUCCESS_BY_HAND_TOTAL = ChartKind(
    lambda table: _outcomes_long(table, ["hand_total", "lowest_rate_at_or_below"]),
    _by_hand_total,
)
"""Call outcomes by the caller's hand total (from ``call_success_by_hand_total``)."""


def _head_to_head(data: Any, marked: bool) -> alt.LayerChart:
    base = alt.Chart(data).encode(
        x=alt.X("opponent:N", title=_("Opponent")),
        y=alt.Y("player:N", title=_("Player")),
        tooltip=[
            alt.Tooltip("player:N", title=_("Player")),
            alt.Tooltip("opponent:N", title=_("Opponent")),
            alt.Tooltip("games:Q", title=_("Games together")),
            alt.Tooltip("lower:Q", title=_("Finished lower")),
            alt.Tooltip("equal:Q", title=_("Level")),
            alt.Tooltip("higher:Q", title=_("Finished higher")),
            alt.Tooltip("lower_rate:Q", title=_("Lower rate"), format=PERCENT_FORMAT),
        ],
    )
    cells = base.mark_rect().encode(
        color=alt.Color(
            "lower_rate:Q",
            title=_("Finished lower"),
            scale=alt.Scale(scheme="cividis", domain=[0, 1]),
            legend=alt.Legend(format=PERCENT_FORMAT),
        )
    )
    # The share in each cell, light on the dark half of the scale and dark on the light half.
    numbers = base.mark_text(baseline="middle", fontSize=12).encode(
        text=alt.Text("lower_rate:Q", format=PERCENT_FORMAT),
        color=alt.condition(alt.datum.lower_rate < 0.5, alt.value("white"), alt.value("black")),
    )
    title = _("Head to head: share of shared games finished lower")
    return alt.LayerChart(layer=[cells, numbers], title=title)


HEAD_TO_HEAD = ChartKind(_as_is, _head_to_head)
"""A grid of how often the row's player finished below the column's (from ``head_to_head``)."""


DAY_MS = 86_400_000


def time_axis(times: pd.Series, games: pd.Series | None = None) -> str:
    """How a trend's horizontal axis should read for these instants.

    ``"events"`` when the events all belong to one game (then the axis counts
    rounds, games or calls: dates would be fractions of one evening);
    ``"time"`` for a range within one day (hours and minutes), ``"days"``
    within about a year (day and month), ``"months"`` beyond.
    """
    if len(times) == 0:
        return "days"
    if games is not None and games.nunique() == 1:
        return "events"
    span = times.max() - times.min()
    if span <= pd.Timedelta(days=1):
        return "time"
    return "days" if span <= pd.Timedelta(days=400) else "months"


def _time_format(axis: str) -> str:
    """The axis's d3 time format in the run's language ("5 Mar", "5 mrt", "5. März")."""
    if axis == "time":
        return "%H:%M"
    return d3_date_format("MMMd" if axis == "days" else "yMMM", active_language())


def _time_x(time: str, counter: str, counter_title: str, axis: str) -> alt.X:
    if axis == "events":
        return alt.X(f"{counter}:Q", title=counter_title, axis=alt.Axis(tickMinStep=1, format="d"))
    return alt.X(
        f"{time}:T",
        title=None,
        scale=alt.Scale(type="utc"),
        axis=alt.Axis(
            format=_time_format(axis),
            labelOverlap=True,
            # Never two ticks within a day, so no two labels read the same date.
            tickMinStep=DAY_MS if axis != "time" else 60_000,
        ),
    )


def _trend(
    counter: str,
    time: str,
    value: str,
    title: str,
    axis_title: str,
    counter_title: str,
    value_format: str | None = None,
) -> ChartKind:
    """Lines of ``value`` over ``time`` per player, thinned by the player's ``counter``.

    The axis shows dates, or times within one day, or ``counter`` (titled
    ``counter_title``) when every point belongs to one game; see :func:`time_axis`.
    """
    percent = value.endswith("rate")
    axis_format = value_format or (PERCENT_FORMAT if percent else "d")
    tip_format = PERCENT_FORMAT if percent else ".1f"

    def shape(trend: pd.DataFrame) -> pd.DataFrame:
        columns = ["player", time, counter, "game_id", value]
        kept = stats.thin_events(trend, counter, MAX_POINTS)[0]
        return kept[[c for c in columns if c in trend.columns]]

    def variant(data: pd.DataFrame) -> str:
        return time_axis(data[time], data.get("game_id"))

    def encode(data: Any, marked: bool, axis: str = "days") -> alt.Chart:
        return (
            alt.Chart(data, title=_(title))
            .mark_line(point=marked)
            .encode(
                x=_time_x(time, counter, _(counter_title), axis),
                y=alt.Y(f"{value}:Q", title=_(axis_title), axis=alt.Axis(format=axis_format)),
                color=_player_colour(),
                tooltip=[
                    alt.Tooltip("player:N", title=_("Player")),
                    alt.Tooltip(f"{time}:T", title=_("When (UTC)"), format="%Y-%m-%d %H:%M"),
                    alt.Tooltip(f"{counter}:Q", title=_(counter_title)),
                    alt.Tooltip(f"{value}:Q", title=_(axis_title), format=tip_format),
                ],
            )
        )

    return ChartKind(shape, encode, variant)


ROUND_SCORE_TREND = _trend(
    "player_round",
    "played_at",
    "rolling_avg",
    N_("Round score over time"),
    N_("Rolling average"),
    N_("Player's round"),
)
"""Each player's rolling average round score over time (from ``round_score_trend``)."""
WIN_RATE_TREND = _trend(
    "game_number",
    "game_started_at",
    "win_rate",
    N_("Win rate over time"),
    N_("Win rate"),
    N_("Game"),
)
"""Each player's win rate so far after each ended game (from ``win_rate_trend``)."""
CALL_SUCCESS_TREND = _trend(
    "call_number",
    "played_at",
    "success_rate",
    N_("Dutch-call success over time"),
    N_("Success rate"),
    N_("Call"),
)
"""Each player's Dutch-call success rate so far after each call (``call_success_trend``)."""


def _cumulative_totals(data: Any, marked: bool) -> alt.Chart:
    return (
        alt.Chart(data, title=_("Game totals round by round"))
        .mark_line(point=True)
        .encode(
            x=alt.X("round_number:Q", title=_("Round"), axis=alt.Axis(tickMinStep=1, format="d")),
            y=alt.Y("game_total:Q", title=_("Game total")),
            color=_player_colour(),
            tooltip=[
                alt.Tooltip("player:N", title=_("Player")),
                alt.Tooltip("round_number:Q", title=_("Round")),
                alt.Tooltip("round_score:Q", title=_("Round score")),
                alt.Tooltip("game_total:Q", title=_("Game total")),
            ],
        )
    )


CUMULATIVE_TOTALS = ChartKind(_as_is, _cumulative_totals)
"""Each player's game total after every round of one game (from ``cumulative_totals``)."""


RATING_TREND = _trend(
    "game_number",
    "game_started_at",
    "rating",
    N_("Rating over time"),
    N_("Skill (points a game below the table's average)"),
    N_("Game"),
    value_format=".0f",
)
"""Each player's skill after each rated game (from ``rating_history``)."""


def _win_chances(data: Any, marked: bool) -> alt.Chart:
    return (
        alt.Chart(data, title=_("Chance to win the next game"))
        .mark_bar()
        .encode(
            x=alt.X("win_chance:Q", title=_("Chance to win"), axis=alt.Axis(format=PERCENT_FORMAT)),
            y=alt.Y("player:N", title=None, sort="-x"),
            color=_player_colour(),
            tooltip=[
                alt.Tooltip("player:N", title=_("Player")),
                alt.Tooltip("win_chance:Q", title=_("Chance to win"), format=PERCENT_FORMAT),
                alt.Tooltip("rating:Q", title=_("Skill"), format=".1f"),
            ],
        )
    )


WIN_CHANCES = ChartKind(_as_is, _win_chances)
"""Bars of each player's chance to win a line-up's next game (from ``win_chances``)."""

CALL_SERIES = {
    N_("This group's calls"): "#0072B2",
    N_("Fit to this group"): "#56B4E9",
    N_("Random hands"): "#000000",
}
"""The call-chance chart's series, each with its colour (translate names with ``_``)."""


def _series_names() -> list[str]:
    return [_(name) for name in CALL_SERIES]


def call_chance_data(chances: pd.DataFrame, curves: pd.DataFrame, players: int) -> pd.DataFrame:
    """The chart data of :data:`CALL_CHANCES` for calls with ``players`` players.

    ``chances`` is ``call_chances``, ``curves`` ``call_curves`` of the same frame:
    the counted rates become points, the fit and the reference lines.
    """
    counted = chances.loc[chances["players"].eq(players).to_numpy(dtype=bool)]
    curve = curves.loc[curves["players"].eq(players).to_numpy(dtype=bool)]
    curve = curve.loc[curve["reference"].notna().to_numpy(dtype=bool) | curve["fitted"].notna()]
    names = _series_names()
    parts = [
        (counted, "lowest_rate", names[0], "point", counted["calls"].to_numpy()),
        (curve, "fitted", names[1], "line", np.zeros(len(curve), dtype="int64")),
        (curve, "reference", names[2], "line", np.zeros(len(curve), dtype="int64")),
    ]
    return pd.DataFrame(
        {
            "hand_total": np.concatenate([part["hand_total"].to_numpy() for part, *_ in parts]),
            "chance": np.concatenate([part[column].to_numpy() for part, column, *_ in parts]),
            "series": pd.array(
                np.concatenate([[name] * len(part) for part, _, name, *_ in parts]), dtype="str"
            ),
            "mark": pd.array(
                np.concatenate([[mark] * len(part) for part, _, _, mark, _ in parts]), dtype="str"
            ),
            "calls": np.concatenate([calls for *_, calls in parts]).astype("int64"),
        }
    ).dropna(subset=["chance"])


def _call_chances(data: Any, marked: bool) -> alt.LayerChart:
    series = alt.Scale(domain=_series_names(), range=list(CALL_SERIES.values()))
    x = alt.X("hand_total:Q", title=_("Caller's hand total"), scale=alt.Scale(domain=[0, 40]))
    y = alt.Y("chance:Q", title=_("Chance the call succeeds"), axis=alt.Axis(format=PERCENT_FORMAT))
    # One entry a line: the three labels side by side would not fit a phone.
    colour = alt.Color("series:N", title=None, scale=series, legend=alt.Legend(columns=1))
    base = alt.Chart(data)
    lines = (
        base.transform_filter(alt.datum.mark == "line")
        .mark_line()
        .encode(
            x=x,
            y=y,
            color=colour,
            strokeDash=alt.StrokeDash(
                "series:N",
                scale=alt.Scale(domain=_series_names(), range=[[1, 0], [1, 0], [6, 4]]),
            ),
            tooltip=[
                alt.Tooltip("series:N", title=_("Line")),
                alt.Tooltip("hand_total:Q", title=_("Hand total")),
                alt.Tooltip("chance:Q", title=_("Chance"), format=PERCENT_FORMAT),
            ],
        )
    )
    points = (
        base.transform_filter(alt.datum.mark == "point")
        .mark_circle(opacity=0.8)
        .encode(
            x=x,
            y=y,
            color=colour,
            size=alt.Size("calls:Q", title=_("Calls"), legend=None),
            tooltip=[
                alt.Tooltip("hand_total:Q", title=_("Hand total")),
                alt.Tooltip("chance:Q", title=_("Succeeded"), format=PERCENT_FORMAT),
                alt.Tooltip("calls:Q", title=_("Calls")),
            ],
        )
    )
    return alt.LayerChart(layer=[lines, points], title=_("Chance a call succeeds, by hand total"))


CALL_CHANCES = ChartKind(_as_is, _call_chances)
"""The group's success rate by hand total (points sized by calls), its logistic fit and the
random-hands reference line, for one number of players (data from ``call_chance_data``)."""
