"""The picture of a game's result to download and send: standings and the totals chart, as PNG.

Drawn on the server with vl-convert (Vega-Lite rendered without a browser), in the light
colours whatever the page's theme, so the picture reads the same in any chat or gallery.
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime

import altair as alt
import pandas as pd
import vl_convert

from dutch_app.charts import distinct_colours
from dutch_app.i18n import _, format_date, format_duration, ngettext
from dutch_app.services.sharing import SharedGameView

WIDTH = 520
BACKGROUND, INK, MUTED = "#FBFAF6", "#1E2A23", "#5B6660"


def totals_frame(view: SharedGameView) -> pd.DataFrame:
    """Long form of the game totals after each round shown, everyone at 0 before round 1
    (when round 1 is among them)."""
    rows = []
    if not view.rounds or view.rounds[0].number == 1:
        rows = [{"round_number": 0, "player": name, "game_total": 0} for name in view.players]
    for played in view.rounds:
        rows.extend(
            {"round_number": played.number, "player": name, "game_total": total}
            for name, total in zip(view.players, played.totals, strict=True)
        )
    return pd.DataFrame(rows, columns=["round_number", "player", "game_total"])


def standings_lines(view: SharedGameView) -> pd.DataFrame:
    """One line per player, best first: ``1.  Ann  40``."""
    return pd.DataFrame(
        {
            "line": list(range(len(view.standings))),
            "place": [f"{s.rank}." for s in view.standings],
            "player": [s.player for s in view.standings],
            "total": [str(s.game_total) for s in view.standings],
        }
    )


def heading(view: SharedGameView) -> str:
    """The picture's title: who won (or that the game is still going)."""
    if not view.rounds:
        return _("Dutch Scorer: no rounds yet")
    if not view.finished:
        return _("Dutch Scorer: standings after round {number}").format(
            number=view.rounds[-1].number
        )
    winners = _(" and ").join(view.winners)
    if len(view.winners) > 1:
        return _("Dutch Scorer: {names} share the win").format(names=winners)
    return _("Dutch Scorer: {names} wins").format(names=winners)


def _standings_chart(view: SharedGameView, colours: Mapping[str, str]) -> alt.LayerChart:
    data = standings_lines(view)
    base = alt.Chart(data).encode(
        y=alt.Y("line:O", axis=None), color=alt.value(INK)
    ).properties(width=WIDTH, height=26 * max(1, len(data)))  # fmt: skip
    names = list(data["player"])
    return alt.LayerChart(
        layer=[
            base.mark_text(align="left", fontSize=16, fontWeight="bold").encode(
                x=alt.value(0), text="place:N"
            ),
            base.mark_text(align="left", fontSize=16).encode(
                x=alt.value(40),
                text="player:N",
                color=alt.Color(
                    "player:N",
                    scale=alt.Scale(domain=names, range=distinct_colours(names, colours)),
                    legend=None,
                ),
            ),
            base.mark_text(align="right", fontSize=16, fontWeight="bold").encode(
                x=alt.value(WIDTH), text="total:N"
            ),
        ]
    )


def _totals_chart(view: SharedGameView, colours: Mapping[str, str]) -> alt.Chart:
    names = list(view.players)
    return (
        alt.Chart(totals_frame(view), title=_("Game totals round by round"))
        .mark_line(point=True, strokeWidth=2.5)
        .encode(
            x=alt.X("round_number:Q", title=_("Round"), axis=alt.Axis(tickMinStep=1, format="d")),
            y=alt.Y("game_total:Q", title=_("Game total")),
            color=alt.Color(
                "player:N",
                title=_("Player"),
                scale=alt.Scale(domain=names, range=distinct_colours(names, colours)),
                legend=alt.Legend(orient="bottom", columns=3),
            ),
        )
        .properties(width=WIDTH, height=260)
    )


def result_spec(
    view: SharedGameView, colours: Mapping[str, str], when: datetime | None = None
) -> dict:
    """The Vega-Lite spec of the picture (standings above the totals chart)."""
    rounds = view.rounds_played
    parts = [ngettext("{count} round", "{count} rounds", rounds).format(count=rounds)]
    if view.length is not None:
        parts.append(_("Played for {length}").format(length=format_duration(view.length)))
    if when is not None:
        parts.append(format_date(when, "long"))
    subtitle = " · ".join(parts)
    chart = alt.vconcat(
        _standings_chart(view, colours), _totals_chart(view, colours), spacing=24
    ).properties(
        title=alt.Title(heading(view), subtitle=subtitle, anchor="start", fontSize=20),
        background=BACKGROUND,
        padding=24,
    )
    spec = chart.to_dict()
    spec["config"] = {
        **spec.get("config", {}),
        "font": "DejaVu Sans, Liberation Sans, sans-serif",
        "view": {"stroke": None},
        "title": {"color": INK, "subtitleColor": MUTED, "subtitleFontSize": 13},
        "axis": {"labelColor": MUTED, "titleColor": INK, "labelFontSize": 12},
        "legend": {"labelColor": INK, "labelFontSize": 13, "titleColor": INK},
    }
    return spec


def result_png(
    view: SharedGameView, colours: Mapping[str, str], when: datetime | None = None
) -> bytes:
    """The picture of the result as PNG bytes (twice the size of the spec, for sharp phones)."""
    return vl_convert.vegalite_to_png(result_spec(view, colours, when), scale=2)
