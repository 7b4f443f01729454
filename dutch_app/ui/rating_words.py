"""The skill ratings in a player's words: who is best, how each player stands against
the group, and each player's chance to win the next game of a line-up.

No Streamlit here: each function returns Markdown in this run's language (names
escaped with :func:`dutch_app.ui.text.md`), and the Stats page shows it. The
numbers are the rating model's (:mod:`dutch_core.stats.ratings`).
"""

from __future__ import annotations

from dutch_app.i18n import _, format_number, ngettext
from dutch_app.ui.text import md, percent
from dutch_core import stats


def points_a_game(rating: float) -> str:
    """A skill as points a game better (+) or worse (-) than the table's average.

    >>> points_a_game(3.21), points_a_game(-0.5), points_a_game(0.01)
    ('+3.2 points a game', '-0.5 points a game', '0.0 points a game')
    """
    return _("{points} points a game").format(points=format_number(rating, 1, signed=True))


def rating_label(rating: float, provisional: bool, games: int) -> str:
    """The rating as shown: points a game once settled, else how many more games it needs.

    >>> rating_label(3.21, False, 7), rating_label(3.21, True, 4)
    ('+3.2 points a game', 'provisional: 1 more game')
    """
    if provisional:
        needed = stats.games_to_settle(games)
        return ngettext(
            "provisional: {count} more game", "provisional: {count} more games", needed
        ).format(count=needed)
    return points_a_game(rating)


def in_ten(chance: float) -> str:
    """A chance as how many games in ten, rounded ("about 4 in 10").

    >>> in_ten(0.38), in_ten(0.04), in_ten(0.96)
    ('about 4 in 10', 'fewer than 1 in 10', 'more than 9 in 10')
    """
    tenths = round(chance * 10)
    if tenths <= 0:
        return _("fewer than 1 in 10")
    if tenths >= 10:
        return _("more than 9 in 10")
    return _("about {count} in 10").format(count=tenths)


def leader_sentence(ratings) -> str:
    """Who is best: the first settled player of ``player_ratings`` (ranked best first),
    or that nobody is settled yet."""
    settled = ratings.loc[~ratings["provisional"].to_numpy(dtype=bool)]
    if settled.empty:
        return _(
            "Nobody is settled yet, so there is no best player: a rating settles after "
            "{needed} rated games."
        ).format(needed=stats.PROVISIONAL_GAMES)
    best = settled.iloc[0]
    return _("Best player: {player}, at {points}.").format(
        player=f"**{md(best['player'])}**", points=points_a_game(best["rating"])
    )


def standing_line(row) -> str:
    """One player's rating and their chance to win a game against the group."""
    share = percent(row.group_chance)
    if row.provisional:
        needed = stats.games_to_settle(row.rated_games)
        return ngettext(
            "{player}: {count} more game to settle ({points} so far); "
            "wins {share} of games against this group",
            "{player}: {count} more games to settle ({points} so far); "
            "wins {share} of games against this group",
            needed,
        ).format(
            player=f"**{md(row.player)}**",
            count=needed,
            points=points_a_game(row.rating),
            share=share,
        )
    return _("{player}: {points}; wins {share} of games against this group").format(
        player=f"**{md(row.player)}**", points=points_a_game(row.rating), share=share
    )


def chance_line(player: str, chance: float) -> str:
    """A player's chance to win the next game of a line-up, in games out of ten."""
    return _("{player} wins {in_ten} such games").format(
        player=f"**{md(player)}**", in_ten=in_ten(chance)
    )


def your_chance(player: str, chance: float) -> str:
    """The signed-in person's own chance to win the next game of a line-up."""
    return _("Your chance tonight: you ({player}) win {in_ten} games against this line-up.").format(
        player=md(player), in_ten=in_ten(chance)
    )
