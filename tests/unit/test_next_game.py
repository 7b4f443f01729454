"""Which game the Play page shows, and what its picker of games in progress offers."""

import pytest

from dutch_app.ui.next_game import GameChoice, choose_game

NEWEST, OLDER, ENDED = 9, 5, 7


def test_no_game_in_progress_means_the_set_up():
    choice = choose_game([], None, None)
    assert choice.shown is None and choice.offered == ()


def test_a_lone_game_in_progress_is_shown_without_a_picker():
    assert choose_game([OLDER], None, None) == GameChoice(OLDER, (), None, "play_choose_game")


def test_several_games_in_progress_start_at_the_newest():
    choice = choose_game([NEWEST, OLDER], None, None)
    assert choice.offered == (NEWEST, OLDER) and choice.preselected == NEWEST
    assert choice.after_pick(NEWEST) == NEWEST


def test_the_game_chosen_before_stays_chosen():
    choice = choose_game([NEWEST, OLDER], OLDER, OLDER)
    assert choice.shown == OLDER and choice.preselected == OLDER
    assert choice.picker_key == "play_choose_game"


@pytest.mark.parametrize("others", [[OLDER], [NEWEST, OLDER]])
def test_a_game_that_ended_on_show_stays_with_a_picker_of_its_own(others):
    choice = choose_game(others, ENDED, ENDED)
    assert choice.shown == ENDED, "its result (or the form open on it) stays"
    assert choice.offered == tuple(others) and choice.preselected is None
    assert choice.picker_key == f"play_choose_game_after_{ENDED}"
    assert choice.after_pick(None) == ENDED
    assert choice.after_pick(others[-1]) == others[-1]


def test_a_game_that_ended_on_show_with_nothing_else_in_progress_has_no_picker():
    assert choose_game([], ENDED, ENDED) == GameChoice(
        ENDED, (), None, f"play_choose_game_after_{ENDED}"
    )


def test_a_game_that_ended_before_this_tab_showed_it_gives_way_to_the_newest():
    # chosen, but another game was last on show here: it does not hold the page
    choice = choose_game([NEWEST, OLDER], ENDED, OLDER)
    assert choice.preselected == NEWEST and choice.picker_key == "play_choose_game"
