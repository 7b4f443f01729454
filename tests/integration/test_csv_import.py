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
from dutch_core import PRESETS, EndCondition, HouseRules, PenaltyMode


@pytest.fixture
def played(session, owner, group):
    """A group with three games: classic rules ended by hand, points rules with a success
    bonus (negative scores) over two rounds, and an open game with a no-caller round, still on.
    Player names start like formulas; hands are cards, totals and empty."""
    names = ("Ann", "=Bo", "Cy", "-Dee")
    ann, bo, cy, dee = (add_player(session, owner, group.id, name) for name in names)

    classic = start_game(session, owner, group.id, [ann.id, bo.id, cy.id], PRESETS["classic"])
    add_round(
        session, owner, classic.id, {ann.id: "AH 2C", bo.id: "10", cy.id: "7"}, ann.id, "dutch"
    )
    add_round(
        session, owner, classic.id, {ann.id: "5", bo.id: "5D", cy.id: "9"}, bo.id, "dutch", "4S"
    )
    add_round(
        session,
        owner,
        classic.id,
        {ann.id: "KH KD", bo.id: "", cy.id: "6"},
        bo.id,
        "auto_dutch",
        "7",
    )
    end_game(session, owner, classic.id)

    bonus = HouseRules(
        penalty_mode=PenaltyMode.POINTS, success_bonus=5, end=EndCondition.after_rounds(2)
    )
    points = start_game(session, owner, group.id, [dee.id, ann.id], bonus)
    add_round(session, owner, points.id, {dee.id: "", ann.id: "9"}, dee.id, "auto_dutch")
    add_round(session, owner, points.id, {dee.id: "12", ann.id: "3"}, dee.id, "dutch")

    open_rules = HouseRules(allow_no_caller=True, end=EndCondition.open())
    still_on = start_game(session, owner, group.id, [cy.id, bo.id], open_rules)
    add_round(session, owner, still_on.id, {cy.id: "7,", bo.id: "Q"}, None, None)
    return group


def test_a_group_exported_and_imported_elsewhere_exports_to_the_same_file(session, owner, played):
    exported = export_rounds(session, owner, played.id)
    other = create_group(session, owner, "Backup club")
    report = import_rounds_csv(session, owner, other.id, exported)
    assert (report.games_imported, report.rounds_imported, report.games_skipped) == (3, 6, 0)
    assert sorted(report.players_created) == ["-Dee", "=Bo", "Ann", "Cy"]
    assert export_rounds(session, owner, other.id) == exported
    assert export_games(session, owner, other.id) == export_games(session, owner, played.id)


def test_importing_the_same_file_twice_stores_each_game_once(session, owner, played, count_rows):
    exported = export_rounds(session, owner, played.id)
    other = create_group(session, owner, "Backup club")
    import_rounds_csv(session, owner, other.id, exported)
    before = count_rows()
    again = import_rounds_csv(session, owner, other.id, exported)
    assert (again.games_imported, again.games_skipped, again.players_created) == (0, 3, ())
    after = count_rows()
    assert {k: v for k, v in after.items() if k != "groups"} == {
        k: v for k, v in before.items() if k != "groups"
    }


def test_a_file_imported_into_the_group_it_came_from_adds_nothing(session, owner, played):
    exported = export_rounds(session, owner, played.id)
    report = import_rounds_csv(session, owner, played.id, exported)
    assert (report.games_imported, report.games_skipped) == (0, 3)


def test_known_players_are_matched_whatever_the_case(session, owner, played):
    exported = export_rounds(session, owner, played.id).replace(b",Cy,", b",cY,")
    other = create_group(session, owner, "Backup club")
    add_player(session, owner, other.id, "Cy")
    report = import_rounds_csv(session, owner, other.id, exported)
    assert "cY" not in report.players_created
    assert sorted(p.name for p in list_players(session, owner, other.id)) == [
        "-Dee",
        "=Bo",
        "Ann",
        "Cy",
        "Olga",  # the owner, a player of the group since making it
    ]


def test_a_bad_file_writes_nothing(session, owner, played, count_rows):
    exported = export_rounds(session, owner, played.id)
    lines = exported.decode("utf-8").splitlines()
    lines[-1] = lines[-1].rsplit(",", 1)[0] + ",99"  # a wrong game total in the last game
    other = create_group(session, owner, "Backup club")
    before = count_rows()
    with pytest.raises(CsvImportError, match="but the rounds add up to"):
        import_rounds_csv(session, owner, other.id, ("\n".join(lines) + "\n").encode("utf-8"))
    assert count_rows() == before


def test_only_members_can_import(session, owner, make_user, played):
    stranger = make_user("Sam")
    with pytest.raises(NotFound):
        import_rounds_csv(session, stranger, played.id, export_rounds(session, owner, played.id))


def test_the_export_parses_to_the_stored_scores(session, owner, played):
    plan = parse_rounds_csv(export_rounds(session, owner, played.id))
    totals = [game.game.totals() for game in plan.games]
    assert totals[1] == {"-Dee": -5 + 12 + 10, "Ann": 9 + 3}
