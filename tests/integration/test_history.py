"""The history frame: schema, values, running totals (halving included), filters, cost."""

from __future__ import annotations

from datetime import UTC, date, datetime

import pandas as pd
import pytest
from sqlalchemy import event

from dutch_app.services.errors import NotFound, ValidationError
from dutch_app.services.games import end_game, get_game, start_game
from dutch_app.services.history import history_query, load_history
from dutch_app.services.players import add_player, merge_players
from dutch_app.services.rounds import add_round
from dutch_app.services.unit_of_work import perform
from dutch_core import PRESETS, EndCondition, HouseRules
from dutch_core.stats import HISTORY_COLUMNS, HISTORY_DTYPES, empty_history

HISTORY_ORDER = ["game_started_at", "game_id", "round_number", "seat"]


def play(session, owner, group, table, rounds, rules=PRESETS["classic_open"], started=None):
    """A game of ``table`` (players) with ``rounds``: [(hands in seat order, caller, penalty)]."""
    game = perform(
        session, start_game, owner, group.id, [p.id for p in table], rules, started_at=started
    )
    for hands, caller, penalty in rounds:
        keyed = {player.id: hand for player, hand in zip(table, hands, strict=True)}
        call = "auto_dutch" if hands[table.index(caller)] == "" else "dutch"
        perform(session, add_round, owner, game.id, keyed, caller.id, call, penalty)
    return game.id


@pytest.fixture
def two_games(session, owner, group, seated):
    """January: Ann, Bo, Cy, Dee play worked examples 3 and 4. March: Bo and Cy, one round."""
    ann, bo, cy, _ = seated
    january = play(
        session, owner, group, seated,
        [(("12", "4", "12", "30"), ann, "QC 3D KS"), (("KH KD", "", "6", "2"), bo, "7H")],
        started=datetime(2024, 1, 10, 19, 30, tzinfo=UTC),
    )  # fmt: skip
    march = play(
        session, owner, group, [cy, bo], [(("2", "5"), cy, None)],
        started=datetime(2024, 3, 5, 19, 30, tzinfo=UTC),
    )  # fmt: skip
    perform(session, end_game, owner, january)
    return january, march


def test_the_frame_has_exactly_the_agreed_columns_dtypes_and_order(
    session, owner, group, two_games
):
    frame = perform(session, load_history, owner, group.id)
    assert tuple(frame.columns) == HISTORY_COLUMNS
    assert frame.dtypes.astype(str).to_dict() == HISTORY_DTYPES
    assert len(frame) == 4 + 4 + 2
    assert frame.equals(frame.sort_values(HISTORY_ORDER, kind="stable", ignore_index=True))
    assert frame.index.equals(pd.RangeIndex(len(frame)))


def test_one_row_per_player_per_round_with_the_round_facts_on_each(
    session, owner, group, two_games
):
    frame = perform(session, load_history, owner, group.id)
    first = frame[frame["round_number"].eq(1) & frame["game_id"].eq(two_games[0])]
    assert first["player"].tolist() == ["Ann", "Bo", "Cy", "Dee"]
    assert first["seat"].tolist() == [0, 1, 2, 3]
    assert first["round_score"].tolist() == [40, 4, 12, 30]
    assert first["is_caller"].tolist() == [True, False, False, False]
    assert set(first["caller"]) == {"Ann"}
    assert set(first["caller_hand_total"]) == {12}
    assert set(first["outcome"]) == {"beaten"}
    assert set(first["call_type"]) == {"dutch"}
    assert first["penalty_cards_due"].tolist() == [3, 0, 0, 0]
    assert first["penalty"].tolist()[0] == "QC 3D KS"
    assert first["penalty"].iloc[1:].isna().all()
    assert first["penalty_points"].tolist() == [28, 0, 0, 0]
    assert first["cards"].isna().all()  # entered as totals
    second = frame[frame["round_number"].eq(2) & frame["game_id"].eq(two_games[0])]
    assert second["cards"].tolist() == ["KH KD", "", pd.NA, pd.NA]
    assert (second["call_type"].iloc[0], second["caller_hand_total"].iloc[0]) == ("auto_dutch", 0)
    assert set(frame["game_status"]) == {"ended", "active"}
    assert frame["game_started_at"].iloc[0] == pd.Timestamp("2024-01-10 19:30", tz="UTC")


def test_game_totals_run_on_within_each_game(session, owner, group, two_games):
    frame = perform(session, load_history, owner, group.id)
    january = frame[frame["game_id"].eq(two_games[0])]
    assert january["game_total"].tolist() == [40, 4, 12, 30, 40, 11, 18, 32]
    march = frame[frame["game_id"].eq(two_games[1])]
    assert march["game_total"].tolist() == [2, 5]


def test_a_halving_games_totals_are_the_cores(session, owner, group, seated):
    ann, bo = seated[:2]
    rules = HouseRules(end=EndCondition.score_limit(20, exact_limit_halves=True))
    rounds = [(("5", "10"), ann, None), (("3", "10"), ann, None), (("2", "10"), ann, None)]
    halving = play(session, owner, group, [ann, bo], rounds, rules=rules)
    plain = play(session, owner, group, [ann, bo], rounds[:2])
    frame = perform(session, load_history, owner, group.id)
    view = perform(session, get_game, owner, halving)
    expected = [total for totals in view.running_totals() for total in totals.values()]
    assert frame.loc[frame["game_id"].eq(halving), "game_total"].tolist() == expected
    assert expected[2:4] == [8, 10]  # Bo's 20 was halved
    assert frame.loc[frame["game_id"].eq(plain), "game_total"].tolist() == [5, 10, 8, 20]


def test_filters_keep_or_drop_whole_games(session, owner, group, seated, two_games):
    january, march = two_games
    ann, dee = seated[0], seated[3]

    def games(**filters):
        return sorted(set(perform(session, load_history, owner, group.id, **filters)["game_id"]))

    assert games(date_from=date(2024, 2, 1)) == [march]
    assert games(date_to=date(2024, 1, 10)) == [january]
    assert games(date_to=datetime(2024, 1, 10, 19, 0, tzinfo=UTC)) == []
    assert games(status="active") == [march]
    assert games(player_ids=[dee.id]) == [january]
    assert len(perform(session, load_history, owner, group.id, player_ids=[ann.id])) == 8
    assert games(player_ids=[]) == []
    with pytest.raises(ValidationError, match="'done'"):
        perform(session, load_history, owner, group.id, status="done")
    with pytest.raises(NotFound, match="No player with id 424242"):
        perform(session, load_history, owner, group.id, player_ids=[424242])


def test_a_merged_player_is_not_a_filter_the_history_accepts(
    session, owner, group, seated, two_games
):
    """As in the game list: once merged, a player's games are the other name's."""
    january, _ = two_games
    ann = seated[0]
    twin = perform(session, add_player, owner, group.id, "Annie")
    perform(session, merge_players, owner, group.id, twin.id, ann.id)
    with pytest.raises(NotFound, match=f"No player with id {twin.id}"):
        perform(session, load_history, owner, group.id, player_ids=[twin.id])
    assert january in set(
        perform(session, load_history, owner, group.id, player_ids=[ann.id])["game_id"]
    )


def test_an_empty_group_gives_the_empty_frame(session, owner, group):
    frame = perform(session, load_history, owner, group.id)
    assert frame.empty
    assert frame.dtypes.equals(empty_history().dtypes)


def test_the_frame_matches_a_bare_read_of_the_same_rows(session, engine, owner, group, two_games):
    frame = perform(session, load_history, owner, group.id)
    with engine.connect() as connection:
        bare = pd.read_sql(history_query(group.id), connection)
    assert len(bare) == len(frame)
    for column in ("game_id", "round_id", "player_id", "seat", "hand_total", "round_score"):
        assert frame[column].tolist() == bare[column].tolist()


def test_loading_takes_the_same_few_statements_however_long_the_history(
    session, engine, owner, group, seated
):
    def statements() -> int:
        seen = []

        def count(*_args):
            seen.append(1)

        event.listen(engine, "before_cursor_execute", count)
        try:
            perform(session, load_history, owner, group.id)
        finally:
            event.remove(engine, "before_cursor_execute", count)
        return len(seen)

    ann, bo = seated[:2]
    play(session, owner, group, [ann, bo], [(("3", "9"), ann, None)])
    few = statements()
    for _ in range(6):
        play(session, owner, group, [ann, bo], [(("3", "9"), ann, None)] * 3)
    assert statements() == few
