"""CSV through the database: export, import into another group, export again gives the same file;
imports are all or nothing and never store a game twice."""

from __future__ import annotations

import pytest

from dutch_app.csv_io import CsvImportError, parse_rounds_csv
from dutch_app.services.csv_export import export_games, export_rounds
from dutch_app.services.csv_import import import_rounds_csv
from dutch_app.services.errors import NotFound
from dutch_app.services.games import end_game, start_game
from dutch_app.services.groups import create_group
from dutch_app.services.players import add_player, list_players
from dutch_app.services.rounds import add_round
from dutch_app.services.unit_of_work import perform
from dutch_core import PRESETS, EndCondition, HouseRules, PenaltyMode
from tests.csv_history import core_game


@pytest.fixture
def played(session, owner, group):
    """A group with three games: classic rules ended by hand, points rules with a success
    bonus (negative scores) over two rounds, and an open game with a no-caller round, still on.
    Player names start like formulas; hands are cards, totals and empty."""
    names = ("Ann", "=Bo", "Cy", "-Dee")
    ann, bo, cy, dee = (perform(session, add_player, owner, group.id, name) for name in names)

    classic = perform(
        session, start_game, owner, group.id, [ann.id, bo.id, cy.id], PRESETS["classic"]
    )
    perform(
        session,
        add_round,
        owner,
        classic.id,
        {ann.id: "AH 2C", bo.id: "10", cy.id: "7"},
        ann.id,
        "dutch",
    )
    perform(
        session,
        add_round,
        owner,
        classic.id,
        {ann.id: "5", bo.id: "5D", cy.id: "9"},
        bo.id,
        "dutch",
        "4S",
    )
    perform(
        session,
        add_round,
        owner,
        classic.id,
        {ann.id: "KH KD", bo.id: "", cy.id: "6"},
        bo.id,
        "auto_dutch",
        "7",
    )
    perform(session, end_game, owner, classic.id)

    bonus = HouseRules(
        penalty_mode=PenaltyMode.POINTS, success_bonus=5, end=EndCondition.after_rounds(2)
    )
    points = perform(session, start_game, owner, group.id, [dee.id, ann.id], bonus)
    perform(session, add_round, owner, points.id, {dee.id: "", ann.id: "9"}, dee.id, "auto_dutch")
    perform(session, add_round, owner, points.id, {dee.id: "12", ann.id: "3"}, dee.id, "dutch")

    open_rules = HouseRules(allow_no_caller=True, end=EndCondition.open())
    still_on = perform(session, start_game, owner, group.id, [cy.id, bo.id], open_rules)
    perform(session, add_round, owner, still_on.id, {cy.id: "7,", bo.id: "Q"}, None, None)
    return group


def test_a_group_exported_and_imported_elsewhere_exports_to_the_same_file(session, owner, played):
    exported = perform(session, export_rounds, owner, played.id)
    other = perform(session, create_group, owner, "Backup club")
    report = perform(session, import_rounds_csv, owner, other.id, exported)
    assert (report.games_imported, report.rounds_imported, report.games_skipped) == (3, 6, 0)
    assert sorted(report.players_created) == ["-Dee", "=Bo", "Ann", "Cy"]
    assert perform(session, export_rounds, owner, other.id) == exported
    assert perform(session, export_games, owner, other.id) == perform(
        session, export_games, owner, played.id
    )


def test_importing_the_same_file_twice_stores_each_game_once(session, owner, played, count_rows):
    exported = perform(session, export_rounds, owner, played.id)
    other = perform(session, create_group, owner, "Backup club")
    perform(session, import_rounds_csv, owner, other.id, exported)
    before = count_rows()
    again = perform(session, import_rounds_csv, owner, other.id, exported)
    assert (again.games_imported, again.games_skipped, again.players_created) == (0, 3, ())
    after = count_rows()
    assert {k: v for k, v in after.items() if k != "groups"} == {
        k: v for k, v in before.items() if k != "groups"
    }


def test_a_file_imported_into_the_group_it_came_from_adds_nothing(session, owner, played):
    exported = perform(session, export_rounds, owner, played.id)
    report = perform(session, import_rounds_csv, owner, played.id, exported)
    assert (report.games_imported, report.games_skipped) == (0, 3)


def test_known_players_are_matched_whatever_the_case(session, owner, played):
    exported = perform(session, export_rounds, owner, played.id).replace(b",Cy,", b",cY,")
    other = perform(session, create_group, owner, "Backup club")
    perform(session, add_player, owner, other.id, "Cy")
    report = perform(session, import_rounds_csv, owner, other.id, exported)
    assert "cY" not in report.players_created
    assert sorted(p.name for p in perform(session, list_players, owner, other.id)) == [
        "-Dee",
        "=Bo",
        "Ann",
        "Cy",
        "Olga",  # the owner, a player of the group since making it
    ]


def test_a_bad_file_writes_nothing(session, owner, played, count_rows):
    exported = perform(session, export_rounds, owner, played.id)
    lines = exported.decode("utf-8").splitlines()
    lines[-1] = lines[-1].rsplit(",", 1)[0] + ",99"  # a wrong game total in the last game
    other = perform(session, create_group, owner, "Backup club")
    before = count_rows()
    with pytest.raises(CsvImportError, match="but the rounds add up to"):
        perform(
            session, import_rounds_csv, owner, other.id, ("\n".join(lines) + "\n").encode("utf-8")
        )
    assert count_rows() == before


def test_only_members_can_import(session, owner, make_user, played):
    stranger = make_user("Sam")
    with pytest.raises(NotFound):
        perform(
            session,
            import_rounds_csv,
            stranger,
            played.id,
            perform(session, export_rounds, owner, played.id),
        )


def test_the_export_parses_to_the_stored_scores(session, owner, played):
    plan = parse_rounds_csv(perform(session, export_rounds, owner, played.id))
    totals = [core_game(game).totals() for game in plan.games]
    assert totals[1] == {"-Dee": -5 + 12 + 10, "Ann": 9 + 3}
