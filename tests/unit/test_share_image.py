"""The result picture: a real PNG drawn without a browser, showing the standings and the
totals chart; and the dark theme's chart colours."""

from __future__ import annotations

import io
import json
from dataclasses import replace
from datetime import UTC, datetime, timedelta

from PIL import Image

from dutch_app.charts import CUMULATIVE_TOTALS, OKABE_ITO, coloured, for_theme, player_colours
from dutch_app.services.sharing import SharedGameView, SharedRound
from dutch_app.share_image import heading, result_png, result_spec, totals_frame
from dutch_core import Standing

ANN, BEN = "Ann", "Ben <b>&"


def a_game(finished: bool = True) -> SharedGameView:
    rounds = (SharedRound(1, (3, 9), (3, 9)), SharedRound(2, (25, 0), (28, 9)))
    standings = (Standing(BEN, 9, 1, 1), Standing(ANN, 28, 2, 0))
    return SharedGameView((ANN, BEN), standings, rounds, finished, (BEN,), None, 2)


def test_the_picture_is_a_png_of_the_standings_and_the_chart():
    colours = player_colours([(1, ANN), (2, BEN)])
    picture = Image.open(io.BytesIO(result_png(a_game(), colours)))
    assert picture.format == "PNG"
    assert picture.width >= 1000 and picture.height > picture.width / 2  # drawn at twice size
    spec = json.dumps(result_spec(a_game(), colours))
    assert f"{BEN} wins" in json.loads(spec)["title"]["text"]
    for name in (ANN, BEN):
        assert name in spec  # names travel as data, drawn as text, never as markup
    assert colours[ANN] in spec and colours[BEN] in spec


def test_the_chart_starts_everyone_at_zero_and_follows_the_stored_totals():
    frame = totals_frame(a_game())
    assert frame[frame["round_number"] == 0]["game_total"].tolist() == [0, 0]
    assert frame[frame["round_number"] == 2]["game_total"].tolist() == [28, 9]


def test_the_picture_says_how_long_the_game_was_played():
    played = replace(a_game(), length=timedelta(hours=1, minutes=25))
    when = datetime(2025, 3, 9, 22, 0, tzinfo=UTC)
    subtitle = result_spec(played, {}, when)["title"]["subtitle"]
    assert subtitle == "2 rounds · Played for 1h 25 mins · 9 March 2025"
    assert "Played for" not in result_spec(a_game(), {}, when)["title"]["subtitle"]


def test_a_game_still_going_says_so():
    assert heading(a_game(finished=False)) == "Dutch Scorer: standings after round 2"


def test_the_dark_theme_turns_text_light_and_swaps_only_the_black_of_the_palette():
    spec = CUMULATIVE_TOTALS.spec(totals_frame(a_game()).assign(round_score=0))
    everyone = {ANN: OKABE_ITO[7], BEN: OKABE_ITO[0]}  # black and orange
    light = for_theme(coloured(spec, everyone), dark=False)
    dark = for_theme(coloured(spec, everyone), dark=True)
    assert light["encoding"]["color"]["scale"]["range"] == [OKABE_ITO[7], OKABE_ITO[0]]
    assert dark["encoding"]["color"]["scale"]["range"] == ["#EDEDED", OKABE_ITO[0]]
    assert dark["config"]["axis"]["labelColor"] != light["config"]["axis"].get("labelColor")
    assert dark["config"]["background"] == "transparent"
    assert dark["datasets"] == spec["datasets"]  # the data is passed on untouched
    assert "#000000" in json.dumps(spec["config"]["range"])  # the shared template is unchanged
