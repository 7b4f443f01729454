"""CSV export and import: formats, exact round trips, and bad files refused with every problem.

The valid file below is the rules' worked examples 1 to 4 played as one game
(A, B, C, D; classic rules), followed by a one-round game still going on.
Totals after each round, by hand: A 3 10 7 25 | 12 15 16 30 | 52 19 28 60 |
52 26 34 62.
"""

from __future__ import annotations

import csv
import io
import random
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pandas as pd
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from dutch_app.csv_io import (
    MAX_BYTES,
    MAX_UPLOAD_MB,
    ROUND_COLUMNS,
    CsvImportError,
    ImportPlan,
    PlannedGame,
    PlannedRound,
    import_key,
    neutralise_text,
    parse_rounds_csv,
    restore_text,
)
from dutch_app.csv_io.export import export_games_csv, export_rounds_csv
from dutch_core import (
    PRESETS,
    EndCondition,
    Hand,
    HouseRules,
    Penalty,
    PenaltyMode,
    RoundInput,
    penalty_cards_due,
    score_round,
)
from tests.csv_history import core_game, plan_history, plan_players, plan_rules

G1 = "1,2025-05-10T18:00:00Z,ended,{}"
G2 = "2,2025-05-11T09:30:00Z,active,{}"
VALID = f"""\
{",".join(ROUND_COLUMNS)}
{G1},1,2025-05-10T18:05:00Z,0,A,AH 2C,3,A,dutch,lowest,0,,0,3,3
{G1},1,2025-05-10T18:05:00Z,1,B,10,10,A,dutch,lowest,0,,0,10,10
{G1},1,2025-05-10T18:05:00Z,2,C,7,7,A,dutch,lowest,0,,0,7,7
{G1},1,2025-05-10T18:05:00Z,3,D,25,25,A,dutch,lowest,0,,0,25,25
{G1},2,2025-05-10T18:12:00Z,0,A,5,5,A,dutch,tied,2,4S KD,4,9,12
{G1},2,2025-05-10T18:12:00Z,1,B,5,5,A,dutch,tied,0,,0,5,15
{G1},2,2025-05-10T18:12:00Z,2,C,9,9,A,dutch,tied,0,,0,9,16
{G1},2,2025-05-10T18:12:00Z,3,D,5,5,A,dutch,tied,0,,0,5,30
{G1},3,2025-05-10T18:20:00Z,0,A,12,12,A,dutch,beaten,3,QC 3D KS,28,40,52
{G1},3,2025-05-10T18:20:00Z,1,B,4,4,A,dutch,beaten,0,,0,4,19
{G1},3,2025-05-10T18:20:00Z,2,C,12,12,A,dutch,beaten,0,,0,12,28
{G1},3,2025-05-10T18:20:00Z,3,D,30,30,A,dutch,beaten,0,,0,30,60
{G1},4,2025-05-10T18:31:00Z,0,A,KH KD,0,B,auto_dutch,tied,0,,0,0,52
{G1},4,2025-05-10T18:31:00Z,1,B,,0,B,auto_dutch,tied,1,7H,7,7,26
{G1},4,2025-05-10T18:31:00Z,2,C,6,6,B,auto_dutch,tied,0,,0,6,34
{G1},4,2025-05-10T18:31:00Z,3,D,2,2,B,auto_dutch,tied,0,,0,2,62
{G2},1,2025-05-11T09:41:00Z,0,A,3,3,B,auto_dutch,lowest,0,,0,3,3
{G2},1,2025-05-11T09:41:00Z,1,B,,0,B,auto_dutch,lowest,0,,0,0,0
"""
# Line numbers: the header is line 1, so game 1 round r seat s is line 2 + 4 (r - 1) + s.


def lines() -> list[str]:
    return VALID.splitlines()


def with_lines(changed: dict[int, str]) -> bytes:
    """The valid file with some lines (1-based) replaced."""
    text = lines()
    for number, line in changed.items():
        text[number - 1] = line
    return ("\n".join(text) + "\n").encode("utf-8")


def problems_of(data: bytes, **limits) -> list[str]:
    with pytest.raises(CsvImportError) as caught:
        parse_rounds_csv(data, **limits)
    return [str(problem) for problem in caught.value.problems]


# --- the valid file ------------------------------------------------------------------------


def test_the_worked_examples_import_with_their_scores_and_totals():
    plan = parse_rounds_csv(VALID.encode("utf-8"))
    first, second = plan.games
    assert first.players == ("A", "B", "C", "D")
    assert core_game(first).totals() == {"A": 52, "B": 26, "C": 34, "D": 62}
    assert (first.status, second.status) == ("ended", "active")
    assert first.rules == PRESETS["classic"]
    assert first.rounds[2].result.input.penalty == Penalty.parse("QC 3D KS")
    assert plan_players(plan) == ("A", "B", "C", "D")
    assert sum(len(game.rounds) for game in plan.games) == 5


def test_exporting_an_imported_file_gives_the_same_bytes():
    plan = parse_rounds_csv(VALID.encode("utf-8"))
    assert export_rounds_csv(plan_history(plan), plan_rules(plan)) == VALID.encode("utf-8")


def test_games_file_has_one_row_per_player_per_game_with_rank_and_win():
    plan = parse_rounds_csv(VALID.encode("utf-8"))
    games = export_games_csv(plan_history(plan)).decode("utf-8").splitlines()
    assert games[0] == "game,game_started_at,game_status,seat,player,rounds,game_total,rank,won"
    assert games[1:5] == [
        "1,2025-05-10T18:00:00Z,ended,0,A,4,52,3,false",
        "1,2025-05-10T18:00:00Z,ended,1,B,4,26,1,true",
        "1,2025-05-10T18:00:00Z,ended,2,C,4,34,2,false",
        "1,2025-05-10T18:00:00Z,ended,3,D,4,62,4,false",
    ]
    # The second game is still going on: ranked, but nobody has won it yet.
    assert games[5:] == [
        "2,2025-05-11T09:30:00Z,active,0,A,1,3,2,false",
        "2,2025-05-11T09:30:00Z,active,1,B,1,0,1,false",
    ]


def test_a_file_without_games_says_so_instead_of_importing_nothing():
    """A header alone, or with blank rows after it, would "import 0 games" without a word."""
    header = ",".join(ROUND_COLUMNS) + "\n"
    blank = "," * (len(ROUND_COLUMNS) - 1) + "\n"
    for data in (header, header + blank * 3, "\n" + header + "\n \n" + blank):
        assert problems_of(data.encode("utf-8")) == ["the file has no games"]
    empty_history = export_rounds_csv(plan_history(ImportPlan(())), {})
    assert problems_of(empty_history) == ["the file has no games"]


def test_blank_rows_count_against_the_row_limit():
    """Each blank row costs a read, so a file of only blank rows is refused by the limit."""
    blank = "," * (len(ROUND_COLUMNS) - 1) + "\n"
    header = ",".join(ROUND_COLUMNS) + "\n"
    (message,) = problems_of((header + blank * 11).encode("utf-8"), max_rows=10)
    assert message == "line 12: the file has more than 10 rows; export a shorter date range"
    (message,) = problems_of((blank * 11 + header).encode("utf-8"), max_rows=10)
    assert message == "line 12: the file has more than 10 rows; export a shorter date range"
    padded = VALID.replace("\n", "\n" + blank, 1)  # header, a blank row, then 10 rows
    (message,) = problems_of(padded.encode("utf-8"), max_rows=10)
    assert message == "line 12: the file has more than 10 rows; export a shorter date range"


def test_columns_may_come_in_any_order_and_a_byte_order_mark_is_accepted():
    table = pd.read_csv(pd.io.common.StringIO(VALID), dtype=str, keep_default_na=False)
    shuffled = table[list(reversed(ROUND_COLUMNS))].to_csv(index=False)
    plan = parse_rounds_csv(b"\xef\xbb\xbf" + shuffled.encode("utf-8"))
    assert core_game(plan.games[0]).totals() == {"A": 52, "B": 26, "C": 34, "D": 62}


def test_an_empty_rules_cell_means_the_original_rules():
    data = VALID.replace(",{},", ",,")
    assert parse_rounds_csv(data.encode("utf-8")).games[0].rules == HouseRules()


# --- formulas and numbers --------------------------------------------------------------------


def test_text_that_looks_like_a_formula_is_neutralised_but_negative_scores_stay_numbers():
    rules = HouseRules(penalty_mode=PenaltyMode.POINTS, success_bonus=5, end=EndCondition.open())
    round_input = RoundInput.build({"=SUM(A1)": "", "-Dan": "9"}, "=SUM(A1)", "auto_dutch")
    plan = plan_of([(rules, "ended", [round_input])])
    text = export_rounds_csv(plan_history(plan), plan_rules(plan)).decode("utf-8")
    first, second = csv.DictReader(io.StringIO(text))
    assert first["player"] == "'=SUM(A1)" and first["caller"] == "'=SUM(A1)"
    assert (first["penalty_points"], first["round_score"], first["game_total"]) == ("-5",) * 3
    assert second["player"] == "'-Dan"
    again = parse_rounds_csv(text.encode("utf-8"))
    assert again.games[0].players == ("=SUM(A1)", "-Dan")


FORMULA_SIGNS = (
    *("=", "+", "-", "@", "\t", "\r"),
    *("\uff1d", "\uff0b", "\uff0d", "\uff20"),  # full-width = + - @
    *("\ufe66", "\ufe62", "\ufe63", "\ufe6b"),  # small = + - @
    "\u2212",  # the minus sign
)
"""Every start a spreadsheet may read as a formula, written out here rather than taken from
the app, so that a sign missing from the app's list fails the tests below."""


@pytest.mark.parametrize("sign", FORMULA_SIGNS, ids=[f"U+{ord(s):04X}" for s in FORMULA_SIGNS])
def test_each_formula_sign_is_neutralised_and_restored(sign):
    for text in (sign, f"{sign}1+1", f'{sign}HYPERLINK("http://x.example")'):
        assert neutralise_text(text) == "'" + text
        assert restore_text(neutralise_text(text)) == text


@given(st.text())
def test_neutralising_text_is_undone_exactly(text):
    assert restore_text(neutralise_text(text)) == text
    assert not neutralise_text(text).startswith(FORMULA_SIGNS)


# A carriage return never reaches a file (names and cards refuse control characters), and
# Python's csv writer would leave it unquoted; the property above covers it.
@pytest.mark.parametrize(
    "sign",
    [sign for sign in FORMULA_SIGNS if sign != "\r"],
    ids=[f"U+{ord(s):04X}" for s in FORMULA_SIGNS if s != "\r"],
)
@settings(deadline=None, max_examples=8)
@given(rest=st.text(st.characters(categories=["L", "N", "P"])))
def test_every_formula_sign_is_neutralised_in_both_files_and_read_back(sign, rest):
    name = f"{sign}1+1{rest}"
    round_input = RoundInput.build({name: "5", "Ben": "9"}, name, "dutch")
    plan = plan_of([(HouseRules(), "ended", [round_input])])
    history = plan_history(plan)
    rounds = export_rounds_csv(history, plan_rules(plan)).decode("utf-8")
    totals = export_games_csv(history).decode("utf-8")
    for text in (rounds, totals):
        cells = [cell for row in csv.reader(io.StringIO(text)) for cell in row]
        assert f"'{name}" in cells
        assert not [cell for cell in cells if cell.startswith(FORMULA_SIGNS)]
    assert parse_rounds_csv(rounds.encode("utf-8")).games[0].players == (name, "Ben")


# --- import keys -----------------------------------------------------------------------------


def test_the_same_game_gets_the_same_key_whatever_its_number_or_status():
    original = parse_rounds_csv(VALID.encode("utf-8")).games[0]
    renumbered = VALID.replace(
        "\n1,2025-05-10T18:00:00Z,ended,", "\n7,2025-05-10T18:00:00Z,active,"
    )
    moved = parse_rounds_csv(renumbered.encode("utf-8")).games[1]
    assert moved.number == 7 and moved.import_key == original.import_key
    changed = parse_rounds_csv(
        with_lines({3: f"{G1},1,2025-05-10T18:05:00Z,1,B,10D,10,A,dutch,lowest,0,,0,10,10"})
    )
    assert changed.games[0].import_key != original.import_key


def test_a_game_repeated_within_one_file_is_planned_once():
    game1 = [line for line in lines() if line.startswith("1,")]
    repeated = VALID + "\n".join("3" + line[1:] for line in game1) + "\n"
    plan = parse_rounds_csv(repeated.encode("utf-8"))
    assert [game.number for game in plan.games] == [1, 2]
    assert plan.repeated == (3,)


# --- bad files -------------------------------------------------------------------------------


def test_an_empty_file_is_refused():
    assert problems_of(b"") == ["the file is empty"]
    assert problems_of(b" \n\n") == ["the file is empty"]


def test_a_file_that_is_not_utf8_is_refused_with_its_line():
    data = VALID.replace("C,7,7", "Zoë,7,7").encode("latin-1")
    assert problems_of(data) == [
        "line 4: the file is not UTF-8 text (byte b'\\xeb'); save it as 'CSV UTF-8'"
    ]


def test_a_file_over_the_size_limit_is_refused_before_reading():
    assert MAX_BYTES == MAX_UPLOAD_MB * 1024 * 1024
    (message,) = problems_of(b"x" * (MAX_BYTES + 1))
    assert message.startswith(f"the file is {MAX_UPLOAD_MB}.1 MB; files up to 5 MB can be imported")


def test_a_file_over_the_row_limit_is_refused():
    (message,) = problems_of(VALID.encode("utf-8"), max_rows=10)
    assert message == "line 12: the file has more than 10 rows; export a shorter date range"


def test_missing_and_extra_columns_are_named():
    header = ",".join(c for c in ROUND_COLUMNS if c not in ("seat", "outcome")) + ",notes"
    found = problems_of(with_lines({1: header}))
    assert found[0] == "line 1: missing column(s): 'seat', 'outcome'"
    assert found[1] == "line 1: unexpected column(s): 'notes'"


def test_cells_of_the_wrong_type_are_each_reported_with_line_and_column():
    found = problems_of(
        with_lines(
            {
                3: f"{G1},1,2025-05-10T18:05:00Z,one,B,10,ten,A,dutch,lowest,0,,0,10,10",
                7: f"{G1},2,yesterday,1,B,5,5,A,shout,tied,0,,0,5,15",
                10: f"{G1},3,2025-05-10T18:20:00Z,0,A,Q K,12,A,dutch,beaten,3,QC 3D KS,28,40,52",
            }
        )
    )
    assert found == [
        "line 3, seat: 'one' is not a whole number",
        "line 3, hand_total: 'ten' is not a whole number",
        "line 7, played_at: 'yesterday' is not a date and time like 2025-05-10T18:30:00Z",
        "line 7, call_type: 'shout' is not a call type; "
        "use 'dutch', 'auto_dutch' or leave it empty",
        "line 10, cards: A: 'K' needs a colour: KH/KD (red, 0) or KS/KC (black, 13)",
    ]


def test_a_row_with_too_few_cells_is_reported():
    found = problems_of(with_lines({5: f"{G1},1,2025-05-10T18:05:00Z,3,D,25,25"}))
    assert found == ["line 5: 10 cells, but the header names 18 columns"]


def test_an_impossible_round_is_refused_naming_the_player_and_card():
    found = problems_of(
        with_lines({4: f"{G1},1,2025-05-10T18:05:00Z,2,C,2C 5H,7,A,dutch,lowest,0,,0,7,7"})
    )
    assert found == ["line 4: C: card '2C' is already A's"]


def test_scores_in_the_file_are_checked_not_trusted():
    found = problems_of(
        with_lines(
            {
                6: f"{G1},2,2025-05-10T18:12:00Z,0,A,5,5,A,dutch,tied,2,4S KD,4,5,8",
                8: f"{G1},2,2025-05-10T18:12:00Z,2,C,9,9,A,dutch,lowest,0,,0,9,16",
            }
        )
    )
    assert found == [
        "line 6, round_score: A: 5 in the file, but the rules make it 9",
        "line 6, game_total: A: 8 in the file, but the rounds add up to 12",
        "line 8, outcome: C: 'lowest' in the file, but the caller's outcome is 'tied'",
    ]


def test_a_wrong_number_of_penalty_cards_is_refused():
    found = problems_of(
        with_lines({6: f"{G1},2,2025-05-10T18:12:00Z,0,A,5,5,A,dutch,tied,2,4S,4,9,12"})
    )
    assert found == ["line 6: A: must draw 2 penalty cards, 1 was entered"]


def test_the_shape_of_games_and_rounds_is_checked():
    found = problems_of(
        with_lines(
            {
                # round 2's D moved to seat 2 (C's seat) and a round 3 row given a penalty
                9: f"{G1},2,2025-05-10T18:12:00Z,2,D,5,5,A,dutch,tied,0,,0,5,30",
                12: f"{G1},3,2025-05-10T18:20:00Z,2,C,12,12,A,dutch,beaten,0,7H,0,12,28",
                # game 2 skips round 1
                18: f"{G2},2,2025-05-11T09:41:00Z,0,A,3,3,B,auto_dutch,lowest,0,,0,3,3",
                19: f"{G2},2,2025-05-11T09:41:00Z,1,B,,0,B,auto_dutch,lowest,0,,0,0,0",
            }
        )
    )
    assert found == [
        "line 9, seat: expected seat 3 here; seats go 0, 1, 2, … once each",
        "line 12, penalty: only the caller's row has penalty cards ('C' did not call)",
        "line 18, round: game 2 has no round 1; number rounds 1, 2, 3, …",
    ]


def test_every_problem_in_the_file_is_reported_at_once():
    data = with_lines(
        {
            2: f"{G1},1,2025-05-10T18:05:00Z,0,A,AH 2C,3,A,dutch,lowest,0,,0,3,x",
            19: f"{G2},1,2025-05-11T09:41:00Z,1,B,,0,B,auto_dutch,lowest,0,,0,0,1",
        }
    )
    assert problems_of(data) == [
        "line 2, game_total: 'x' is not a whole number",
        "line 19, game_total: B: 1 in the file, but the rounds add up to 0",
    ]
    with pytest.raises(CsvImportError, match="2 problems in the file, nothing was imported"):
        parse_rounds_csv(data)


# --- exact round trips (property) --------------------------------------------------------------

NAMES = [
    "Ann",
    "bob",
    "=Eve",
    "-Dan",
    "+Ola",
    "@Kim",
    "'Quin",
    "Zoë",
    "Jo, Jr",
    'Al "Q"',
    "\tTab",
    "Ünal",
]
RANKS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
DECK = [f"{rank}{suit}" for rank in RANKS for suit in "HDSC"]
RULES = [
    PRESETS["classic"],
    PRESETS["classic_open"],
    PRESETS["points"],
    PRESETS["deck_out"],
    HouseRules(end=EndCondition.score_limit(30, exact_limit_halves=True)),
    HouseRules(penalty_mode=PenaltyMode.POINTS, success_bonus=3, allow_no_caller=True),
]


def random_round(rng: random.Random, players: list[str], rules: HouseRules) -> RoundInput:
    """A round one deck could deal: hands of cards or their totals, a caller and penalty."""
    deck = DECK.copy()
    rng.shuffle(deck)
    hands = {}
    for player in players:
        cards = [deck.pop() for _ in range(rng.randint(0, 4))]
        hand = Hand.of_cards(cards)
        hands[player] = Hand.of_total(hand.value(rules)) if rng.random() < 0.3 else hand
    if rules.allow_no_caller and rng.random() < 0.2:
        return RoundInput.build(hands)
    caller = rng.choice(players)
    call_type = "dutch"
    if rng.random() < 0.2:
        hands[caller], call_type = Hand.of_cards([]), "auto_dutch"
    due = penalty_cards_due(hands, caller, rules)
    penalty = Penalty.of_cards([deck.pop() for _ in range(due)]) if due else None
    if penalty is not None and rng.random() < 0.3:
        penalty = Penalty.of_total(penalty.value(rules))
    return RoundInput.build(hands, caller, call_type, penalty)


def plan_of(games: list[tuple[HouseRules, str, list[RoundInput]]]) -> ImportPlan:
    """An import plan for games given by their round inputs."""
    planned = []
    for number, (rules, status, inputs) in enumerate(games, start=1):
        started = datetime(2025, 1, 1, tzinfo=UTC) + timedelta(days=number, seconds=number * 7)
        rounds = tuple(
            PlannedRound(
                i, started + timedelta(minutes=3 * i), score_round(inputs[i - 1], rules), 0
            )
            for i in range(1, len(inputs) + 1)
        )
        players = inputs[0].players
        key = import_key(started, rules, [(r.played_at, r.result) for r in rounds])
        planned.append(PlannedGame(number, started, status, rules, players, rounds, key, 0))
    return ImportPlan(tuple(planned))


@st.composite
def histories(draw) -> ImportPlan:
    games = []
    for _ in range(draw(st.integers(1, 3))):  # a file of no games is refused (see above)
        rules = draw(st.sampled_from(RULES))
        players = draw(
            st.lists(st.sampled_from(NAMES), min_size=2, max_size=5, unique_by=str.casefold)
        )
        rng = draw(st.randoms(use_true_random=False))
        inputs = [random_round(rng, players, rules) for _ in range(draw(st.integers(1, 4)))]
        games.append((rules, draw(st.sampled_from(["active", "ended"])), inputs))
    return plan_of(games)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(histories())
def test_export_import_export_is_identical(plan):
    exported = export_rounds_csv(plan_history(plan), plan_rules(plan))
    imported = parse_rounds_csv(exported)
    assert export_rounds_csv(plan_history(imported), plan_rules(imported)) == exported
    assert [g.import_key for g in imported.games] == [g.import_key for g in plan.games]
    pd.testing.assert_frame_equal(plan_history(imported), plan_history(plan))


def test_the_csv_page_documents_every_column():
    section = (Path(__file__).parents[2] / "docs/csv.md").read_text(encoding="utf-8")
    for column in (*ROUND_COLUMNS, "rank", "won"):
        assert f"`{column}`" in section
