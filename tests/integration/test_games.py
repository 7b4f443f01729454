"""Games: starting under a snapshot of house rules, ending, listing with filters, deleting."""

from __future__ import annotations

from datetime import UTC, date, datetime

import pytest

from dutch_app.services import games
from dutch_app.services.errors import Conflict, Forbidden, NotFound, ValidationError
from dutch_app.services.groups import create_group, join_group
from dutch_app.services.players import add_player
from dutch_app.services.rounds import add_round
from dutch_app.services.unit_of_work import perform
from dutch_core import PRESETS, EndCondition, GameError, HouseRules

HALVING = HouseRules(end=EndCondition.score_limit(20, exact_limit_halves=True))


def ids(players):
    return [player.id for player in players]


def test_a_new_game_keeps_its_players_in_seat_order_and_its_rules(session, owner, group, seated):
    rules = HouseRules(red_king_value=1, end=EndCondition.after_rounds(3))
    order = [seated[2], seated[0], seated[1]]
    game = perform(
        session, games.start_game, owner, group.id, ids(order), rules, notes=" Cup final "
    )
    assert [p.name for p in game.players] == ["Cy", "Ann", "Bo"]
    assert game.rules == rules
    assert (game.status, game.version, game.notes, game.rounds) == ("active", 1, "Cup final", ())
    assert game.started_at.tzinfo is not None
    again = perform(session, games.get_game, owner, game.id)
    assert again.rules == rules
    assert tuple(p.name for p in again.players) == ("Cy", "Ann", "Bo")


@pytest.mark.parametrize(
    ("player_ids", "rules", "error", "message"),
    [
        (lambda p: [p[0].id], PRESETS["classic"], GameError, "2 to 12 players"),
        (lambda p: [p[0].id, p[0].id], PRESETS["classic"], ValidationError, "Ann is seated twice"),
        (lambda p: [p[0].id, 999_999], PRESETS["classic"], NotFound, "No player with id 999999"),
        (lambda p: [p[0].id, "Bo"], PRESETS["classic"], ValidationError, "not 'Bo'"),
        (lambda p: p[0].id, PRESETS["classic"], ValidationError, "list of player ids"),
        (lambda p: [p[0].id, p[1].id], {"end": "open"}, ValidationError, "house rules"),
    ],
)
def test_a_game_that_cannot_start_writes_nothing(
    session, owner, group, seated, count_rows, player_ids, rules, error, message
):
    before = count_rows()
    with pytest.raises(error, match=message):
        perform(session, games.start_game, owner, group.id, player_ids(seated), rules)
    assert count_rows() == before


def test_a_player_of_another_group_cannot_sit_down(session, owner, group, seated):
    elsewhere = perform(session, create_group, owner, "Other club")
    stranger = perform(session, add_player, owner, elsewhere.id, "Zed")
    with pytest.raises(NotFound, match=f"No player with id {stranger.id}"):
        perform(
            session,
            games.start_game,
            owner,
            group.id,
            [seated[0].id, stranger.id],
            PRESETS["classic"],
        )


def test_reaching_the_score_limit_ends_the_game(session, owner, group, seated):
    ann, bo = seated[:2]
    game = perform(session, games.start_game, owner, group.id, [ann.id, bo.id], PRESETS["classic"])
    perform(session, add_round, owner, game.id, {ann.id: "3", bo.id: "120"}, ann.id, "dutch")
    view = perform(session, games.get_game, owner, game.id)
    assert (view.status, view.is_over, view.winners) == ("ended", True, ("Ann",))
    assert view.ended_at is not None
    with pytest.raises(Conflict, match="start a new game to play on"):
        perform(session, add_round, owner, game.id, {ann.id: "3", bo.id: "9"}, ann.id, "dutch")
    perform(session, games.reopen_game, owner, game.id)
    with pytest.raises(GameError, match="ended after round 1"):
        perform(session, add_round, owner, game.id, {ann.id: "3", bo.id: "9"}, ann.id, "dutch")


def test_ending_and_reopening_by_hand(session, owner, group, seated):
    open_rules = PRESETS["classic_open"]
    game = perform(session, games.start_game, owner, group.id, ids(seated[:2]), open_rules)
    ended = perform(session, games.end_game, owner, game.id)
    assert (ended.status, ended.version) == ("ended", 2)
    assert ended.ended_at is not None
    assert perform(session, games.end_game, owner, game.id).version == 2  # already ended: no change
    reopened = perform(session, games.reopen_game, owner, game.id)
    assert (reopened.status, reopened.ended_at, reopened.version) == ("active", None, 3)


def test_standings_and_winners_come_from_the_core(session, owner, group, seated):
    ann, bo, cy, dee = seated
    game = perform(session, games.start_game, owner, group.id, ids(seated), PRESETS["classic"])
    hands = {ann.id: "12", bo.id: "4", cy.id: "12", dee.id: "30"}
    perform(session, add_round, owner, game.id, hands, ann.id, "dutch", "QC 3D KS")
    view = perform(session, games.get_game, owner, game.id)
    assert [(s.player, s.game_total, s.rank) for s in view.standings] == [
        ("Bo", 4, 1),
        ("Cy", 12, 2),
        ("Dee", 30, 3),
        ("Ann", 40, 4),
    ]
    assert view.winners == ("Bo",)


def test_only_the_owner_or_the_starter_deletes_a_game(
    session, owner, make_user, group, seated, count_rows
):
    ben, cleo = make_user("Ben"), make_user("Cleo")
    perform(session, join_group, ben, group.invite_code)
    perform(session, join_group, cleo, group.invite_code)
    bens = perform(session, games.start_game, ben, group.id, ids(seated[:2]), PRESETS["classic"])
    perform(
        session,
        add_round,
        ben,
        bens.id,
        {seated[0].id: "3", seated[1].id: "9"},
        seated[0].id,
        "dutch",
    )
    before = count_rows()
    with pytest.raises(Forbidden):
        perform(session, games.delete_game, cleo, bens.id)
    assert count_rows() == before
    perform(session, games.delete_game, ben, bens.id)
    after = count_rows()
    assert (after["games"], after["rounds"], after["round_hands"]) == (0, 0, 0)
    owners = perform(session, games.start_game, cleo, group.id, ids(seated[:2]), PRESETS["classic"])
    perform(session, games.delete_game, owner, owners.id)
    with pytest.raises(NotFound):
        perform(session, games.get_game, owner, owners.id)


@pytest.fixture
def season(session, owner, group, seated):
    """Three games: January (Ann, Bo; ended), February (Cy, Dee), March (Ann, Cy)."""
    ann, bo, cy, dee = seated
    made = {}
    for month, table in ((1, [ann, bo]), (2, [cy, dee]), (3, [ann, cy])):
        started = datetime(2024, month, 15, 20, 0, tzinfo=UTC)
        game = perform(
            session,
            games.start_game,
            owner,
            group.id,
            ids(table),
            PRESETS["classic_open"],
            started_at=started,
        )
        perform(
            session,
            add_round,
            owner,
            game.id,
            {table[0].id: "2", table[1].id: "7"},
            table[0].id,
            "dutch",
        )
        made[month] = game.id
    perform(session, games.end_game, owner, made[1])
    return made


def test_games_are_listed_newest_first_with_totals(session, owner, group, season):
    listed = perform(session, games.list_games, owner, group.id)
    assert [g.id for g in listed] == [season[3], season[2], season[1]]
    assert (listed[0].players, listed[0].totals, listed[0].rounds_played) == (
        ("Ann", "Cy"),
        (2, 7),
        1,
    )
    assert listed[0].leaders == ("Ann",)


def test_listing_filters_by_dates_player_and_status(session, owner, group, seated, season):
    listed = games.list_games
    assert [g.id for g in listed(session, owner, group.id, date_from=date(2024, 2, 15))] == [
        season[3],
        season[2],
    ]
    assert [g.id for g in listed(session, owner, group.id, date_to=date(2024, 2, 15))] == [
        season[2],
        season[1],
    ]
    assert [g.id for g in listed(session, owner, group.id, player_id=seated[0].id)] == [
        season[3],
        season[1],
    ]
    assert [g.id for g in listed(session, owner, group.id, status="ended")] == [season[1]]
    with pytest.raises(ValidationError, match="'finished'"):
        listed(session, owner, group.id, status="finished")
    with pytest.raises(ValidationError, match="date_from must be a date"):
        listed(session, owner, group.id, date_from="2024-01-01")


def test_a_halving_games_listed_totals_follow_the_core(session, owner, group, seated):
    ann, bo = seated[:2]
    game = perform(session, games.start_game, owner, group.id, [ann.id, bo.id], HALVING)
    perform(session, add_round, owner, game.id, {ann.id: "5", bo.id: "10"}, ann.id, "dutch")
    perform(session, add_round, owner, game.id, {ann.id: "3", bo.id: "10"}, ann.id, "dutch")
    (summary,) = perform(session, games.list_games, owner, group.id)
    assert summary.totals == (8, 10)  # Bo's 20 landed on the limit and was halved
    assert summary.totals == tuple(perform(session, games.get_game, owner, game.id).totals.values())
