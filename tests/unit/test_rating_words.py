"""The ratings in words: labels, chances in games out of ten, the leader and each
player's line, in English and in the other languages' number formats."""

from __future__ import annotations

from collections.abc import Iterator

import pandas as pd
import pytest

from dutch_app.i18n import use_language
from dutch_app.ui import rating_words as words
from tests.rendering import render


@pytest.fixture
def language() -> Iterator[None]:
    yield
    use_language("en")


def shown(markdown: str) -> str:
    """The text a person sees for the Markdown."""
    return render(markdown)[0]


def ratings(*rows: tuple[str, float, int, float]) -> pd.DataFrame:
    """A ``player_ratings`` table of ``(player, rating, rated games, group chance)`` rows,
    ranked as given."""
    return pd.DataFrame(
        [
            {
                "player": player,
                "rating": rating,
                "rated_games": games,
                "provisional": games < 5,
                "group_chance": chance,
            }
            for player, rating, games, chance in rows
        ]
    )


def test_a_settled_rating_reads_as_signed_points_a_game_in_the_locales_numbers(language):
    assert words.rating_label(3.24, False, 5) == "+3.2 points a game"
    assert words.rating_label(-12.06, False, 9) == "-12.1 points a game"
    assert words.rating_label(-0.04, False, 9) == "0.0 points a game"
    use_language("nl")
    assert words.rating_label(3.24, False, 5) == "+3,2 punten per spel"
    use_language("de")
    assert words.rating_label(-1234.5, False, 5) == "-1.234,5 Punkte pro Spiel"


def test_a_provisional_rating_says_how_many_more_games_it_needs(language):
    assert words.rating_label(8.0, True, 0) == "provisional: 5 more games"
    assert words.rating_label(8.0, True, 4) == "provisional: 1 more game"
    use_language("fr")
    assert words.rating_label(8.0, True, 2) == "provisoire : encore 3 parties"


@pytest.mark.parametrize(
    ("chance", "said"),
    [
        (0.0, "fewer than 1 in 10"),
        (0.049, "fewer than 1 in 10"),
        (0.051, "about 1 in 10"),
        (0.38, "about 4 in 10"),
        (0.5, "about 5 in 10"),
        (0.949, "about 9 in 10"),
        (0.951, "more than 9 in 10"),
        (1.0, "more than 9 in 10"),
    ],
)
def test_a_chance_is_said_in_games_out_of_ten(chance, said):
    assert words.in_ten(chance) == said


def test_the_leader_is_the_best_settled_player_even_below_a_provisional_one():
    table = ratings(("Ann", 4.0, 9, 0.4), ("Ben", -0.5, 6, 0.3), ("Cleo", 9.0, 2, 0.6))
    table = table.sort_values(["provisional"], kind="stable")
    assert shown(words.leader_sentence(table)) == "Best player: Ann, at +4.0 points a game."


def test_without_a_settled_player_nobody_is_called_best(language):
    table = ratings(("Ann", 4.0, 2, 0.4), ("Ben", -4.0, 2, 0.3))
    assert shown(words.leader_sentence(table)) == (
        "Nobody is settled yet, so there is no best player: a rating settles after 5 rated games."
    )
    use_language("de")
    assert shown(words.leader_sentence(table)).startswith("Noch hat niemand eine feste Wertung")


def test_each_line_gives_the_rating_and_the_share_of_games_won_against_the_group(language):
    settled, provisional = ratings(("Ann", 4.0, 9, 0.456), ("**Ben**", -1.0, 3, 0.2)).itertuples()
    assert shown(words.standing_line(settled)) == (
        "Ann: +4.0 points a game; wins 46% of games against this group"
    )
    assert shown(words.standing_line(provisional)) == (
        "**Ben**: 2 more games to settle (-1.0 points a game so far); "
        "wins 20% of games against this group"
    )
    use_language("nl")
    assert shown(words.standing_line(settled)) == (
        "Ann: +4,0 punten per spel; wint 46% van de spellen tegen deze groep"
    )


def test_the_chances_of_a_line_up_are_said_per_player_and_to_the_person_playing(language):
    assert shown(words.chance_line("Ann", 0.41)) == "Ann wins about 4 in 10 such games"
    assert shown(words.your_chance("Ann", 0.41)) == (
        "Your chance tonight: you (Ann) win about 4 in 10 games against this line-up."
    )
    use_language("nl")
    assert shown(words.chance_line("Ann", 0.41)) == "Ann wint ongeveer 4 op 10 van zulke spellen"
