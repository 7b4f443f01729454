"""CSV import of odd and hostile files: every one gets a clear problem with its line, never a
crash; every problem of a file is found in one pass; junk files are bounded in what they cost.

The valid file is the one of ``test_csv_io`` (the rules' worked examples as one game, then a
one-round game); game 1 round r seat s is on line 2 + 4 (r - 1) + s.
"""

from __future__ import annotations

import csv
import io
import json
import re

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from dutch_app.csv_io import (
    MAX_PROBLEMS,
    ROUND_COLUMNS,
    CsvImportError,
    ImportPlan,
    parse_rounds_csv,
)
from dutch_app.ui.history_files import problems_frame, refusal
from tests.unit.test_csv_io import G1, VALID, lines, with_lines


def problems_of(data: bytes, **options) -> list[str]:
    with pytest.raises(CsvImportError) as caught:
        parse_rounds_csv(data, **options)
    return [str(problem) for problem in caught.value.problems]


def with_cell(line: int, column: str, value: str) -> bytes:
    """The valid file with one cell of one line changed (``value`` is CSV-quoted)."""
    cells = lines()[line - 1].split(",")
    quoted = '"' + value.replace('"', '""') + '"'
    cells[ROUND_COLUMNS.index(column)] = quoted
    return with_lines({line: ",".join(cells)})


# --- odd cells -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "moment", ["0001-01-01T00:00:00+05:00", "9999-12-31T23:59:59-05:00", "9999-12-31T23:00:00Z"]
)
@pytest.mark.parametrize("column", ["game_started_at", "played_at"])
def test_dates_at_the_edge_of_the_calendar_are_refused_with_their_line(moment, column):
    found = problems_of(with_cell(3, column, moment))
    assert f"line 3, {column}: {moment!r} is outside the dates that can be stored" in found[0]


def test_a_rules_cell_with_a_huge_number_is_refused_with_its_line():
    huge = '{"end":{"kind":"score_limit","limit":' + "9" * 10_000 + "}}"
    (found,) = {p for p in problems_of(with_cell(2, "rules", huge)) if "line 2, rules" in p}
    assert "house rules are 10,0" in found


def test_a_number_too_long_for_json_is_refused_as_json_even_without_the_length_limit(
    monkeypatch,
):
    monkeypatch.setattr("dutch_app.csv_io.reader.RULES_LENGTH", 20_000)
    cell = '{"end":{"kind":"score_limit","limit":' + "9" * 10_000 + "}}"
    found = [p for p in problems_of(with_cell(2, "rules", cell)) if "line 2, rules" in p]
    assert found and "is not house rules written as JSON" in found[0]
    assert len(found[0]) < 200  # the cell is quoted short


@pytest.mark.parametrize("depth", [900, 5000])
def test_rules_nested_deep_are_refused_with_their_line(depth, monkeypatch):
    # Past the length limit the cell is refused for its length; under it, json's recursion
    # limit is what refuses it, so the limit is lifted here to reach that path too.
    monkeypatch.setattr("dutch_app.csv_io.reader.RULES_LENGTH", 20_000)
    nested = "[" * depth + "]" * depth
    found = [p for p in problems_of(with_cell(2, "rules", nested)) if "line 2, rules" in p]
    assert found and "is not house rules written as JSON" in found[0]


def test_a_name_the_group_refuses_is_reported_with_the_other_problems():
    def check(name: str) -> str | None:
        return "names have no digits here" if any(c.isdigit() for c in name) else None

    data = with_lines({3: lines()[2].replace(",B,", ",B7,"), 19: lines()[18][:-4] + ",5,0"})
    found = problems_of(data, check_name=check)
    assert "line 3, player: names have no digits here" in found
    assert any(p.startswith("line 19, round_score") for p in found)


# --- every problem in one pass ---------------------------------------------------------------


def test_a_game_with_an_unreadable_row_still_has_its_other_rounds_and_totals_checked():
    row = lines()
    data = with_lines(
        {
            2: row[1].removesuffix(",3,3") + ",3,4",  # round 1: A's game total is 3
            6: row[5].removesuffix(",9,12") + ",9,13",  # round 2: A's game total is 12
            10: row[9].replace(",12,12,A,", ",12,twelve,A,"),  # round 3: unreadable
            16: row[15].removesuffix(",6,34") + ",7,34",  # round 4: C's round score is 6
        }
    )
    found = problems_of(data)
    assert found[0].startswith("line 2, game_total: A: 4 in the file, but the rounds add up to 3")
    assert found[1].startswith("line 6, game_total: A: 13 in the file, but the rounds add up to 12")
    assert found[2].startswith("line 10, hand_total: 'twelve' is not a whole number")
    assert found[3].startswith("line 16, round_score: C: 7 in the file, but the rules make it 6")
    assert len(found) == 4  # totals after the unreadable round are not guessed at


def test_problems_are_listed_in_line_order():
    data = with_lines({10: lines()[9].replace("dutch,beaten", "dutch,lost"), 3: "x,y"})
    numbers = [int(re.match(r"line (\d+)", p).group(1)) for p in problems_of(data)]
    assert numbers == sorted(numbers) and numbers[0] == 3


# --- junk is bounded -------------------------------------------------------------------------


def test_a_file_of_junk_rows_keeps_a_bounded_list_and_counts_the_rest():
    junk = ",".join(ROUND_COLUMNS) + "\n" + "x\n" * 20_000
    with pytest.raises(CsvImportError) as caught:
        parse_rounds_csv(junk.encode("utf-8"))
    error = caught.value
    assert error.count == 20_000
    assert len(error.problems) == MAX_PROBLEMS
    assert "20,000 problems in the file" in str(error)
    assert str(error).endswith(f"… and {20_000 - CsvImportError.shown:,} more")
    assert "first 200 listed below" in refusal(error)
    table = problems_frame(error)
    assert len(table) == MAX_PROBLEMS + 1
    assert table["Problem"].iloc[-1] == f"… and {20_000 - MAX_PROBLEMS:,} more"


def test_a_file_with_more_rows_than_the_limit_is_refused_before_they_are_read():
    many = VALID + "".join(f"{G1},9,2025-05-10T18:05:00Z,0,A,3,3,,,,0,,0,3,3\n" for _ in range(50))
    (message,) = problems_of(many.encode("utf-8"), max_rows=30)
    assert message.endswith("the file has more than 30 rows; export a shorter date range")


# --- fuzzing the reader ----------------------------------------------------------------------


def outcome_of(data: bytes) -> ImportPlan | CsvImportError:
    try:
        return parse_rounds_csv(data)
    except CsvImportError as error:
        assert error.problems, "a refusal names at least one problem"
        return error


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.binary(max_size=600))
def test_any_bytes_are_read_or_refused_with_problems(data):
    outcome_of(data)


CELL = st.one_of(
    st.text(max_size=40),
    st.integers().map(str),
    st.sampled_from(["0001-01-01T00:00:00+14:00", "9999-12-31T23:59:59-14:00", "[[[[", "1e999"]),
    st.recursive(
        st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=5),
        lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=5), inner),
        max_leaves=8,
    ).map(json.dumps),
)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.lists(
        st.tuples(st.integers(2, len(VALID.splitlines())), st.sampled_from(ROUND_COLUMNS), CELL),
        min_size=1,
        max_size=4,
    )
)
def test_any_cells_in_a_valid_file_are_read_or_refused_with_their_line(changes):
    rows = list(csv.reader(io.StringIO(VALID)))
    for line, column, value in changes:
        rows[line - 1][ROUND_COLUMNS.index(column)] = value
    buffer = io.StringIO()
    csv.writer(buffer, lineterminator="\n").writerows(rows)
    outcome = outcome_of(buffer.getvalue().encode("utf-8"))
    if isinstance(outcome, CsvImportError):
        assert all(problem.line is not None for problem in outcome.problems)


def test_a_huge_round_number_is_reported_without_listing_every_missing_round():
    row = lines()[17]  # game 2, round 1, seat 0
    data = with_lines({18: row.replace(",1,2025-05-11T09:41", ",999999999,2025-05-11T09:41")})
    found = [p for p in problems_of(data) if ", round: " in p]
    assert found == [
        "line 18, round: game 2 has no round 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, … "
        "(999,999,997 rounds missing); number rounds 1, 2, 3, …"
    ]
