"""Checking the rows of a rounds file and scoring its games afresh: building the import plan.

Rows are grouped into games (by the ``game`` column) and rounds; the shape of
each game is checked, every round is scored by the core, and every derived
number in the file (hand totals, outcomes, penalties, scores, game totals)
must agree with the core's. Every problem is found in one pass: in a game with
unreadable rows the other rounds are still checked, and the game totals up to the
first round that could not be read; such a game is never planned.
"""

from __future__ import annotations

import unicodedata
from collections import defaultdict

from dutch_app.csv_io.format import CsvProblem, Problems
from dutch_app.csv_io.plan import ImportPlan, PlannedGame, PlannedRound, import_key
from dutch_app.csv_io.reader import ReadRows, RoundRow
from dutch_app.i18n import N_, _, error_text, format_number, ngettext
from dutch_core import DutchError, Game, RoundInput, RoundResult, score_round

GAME_WIDE = ("game_started_at", "game_status", "rules")
ROUND_WIDE = ("played_at", "caller", "call_type")


class _Checker:
    """Collects the problems of one file while its games are planned."""

    def __init__(self, problems: Problems) -> None:
        self.problems = problems

    def add(self, line: int | None, column: str | None, message: str) -> None:
        self.problems.add(CsvProblem(line, column, message))

    def mismatch(
        self, row: RoundRow, column: str, written: object, scored: object, template: str
    ) -> None:
        """Report a number in the file that differs from the core's; ``template`` (marked
        with ``N_``) says so with ``{player}``, ``{written}`` and ``{scored}``."""
        message = _(template).format(player=row.player, written=written, scored=scored)
        self.add(row.line, column, message)

    def same_on_every_row(self, rows: list[RoundRow], column: str, game: int | None = None) -> bool:
        """Report rows whose ``column`` differs from the first row's (in a game, or else in a
        round); True when all agree."""
        first = getattr(rows[0], column)
        agree = True
        for row in rows[1:]:
            if getattr(row, column) != first:
                if game is None:
                    message = _(
                        "differs from line {line}; it must be the same on every row of a round"
                    ).format(line=rows[0].line)
                else:
                    message = _(
                        "differs from line {line}; it must be the same on every row of game {game}"
                    ).format(line=rows[0].line, game=game)
                self.add(row.line, column, message)
                agree = False
        return agree


def _round_numbers(
    check: _Checker, game: int, rows: list[RoundRow], unread: set[int | None]
) -> dict[int, list[RoundRow]]:
    rounds: dict[int, list[RoundRow]] = defaultdict(list)
    for row in rows:
        rounds[row.round].append(row)
    if None not in unread:  # else a bad row's round is unknown: it may be any of them
        numbered = set(rounds) | {number for number in unread if number is not None}
        count = max(numbered) - len(numbered)
        if count:
            check.add(rows[0].line, "round", _gaps(game, numbered, count))
    return dict(sorted(rounds.items()))


def _gaps(game: int, numbered: set, count: int, listed: int = 10) -> str:
    """What is missing from rounds 1 to the highest ``numbered``: the first few numbers
    (found without listing a range as long as the highest number, which a file sets)."""
    missing: list[int] = []
    number = 1
    while len(missing) < min(count, listed):
        if number not in numbered:
            missing.append(number)
        number += 1
    gaps = ", ".join(map(str, missing))
    if count > listed:
        gaps += ", … ({})".format(
            ngettext("{count} round missing", "{count} rounds missing", count).format(
                count=format_number(count)
            )
        )
    return _("game {game} has no round {gaps}; number rounds 1, 2, 3, …").format(
        game=game, gaps=gaps
    )


def _seated(check: _Checker, rows: list[RoundRow]) -> list[RoundRow] | None:
    """The round's rows in seat order if the seats are 0, 1, 2, … and the names distinct."""
    seated = sorted(rows, key=lambda row: row.seat)
    good = True
    names: dict[str, int] = {}
    for expected, row in enumerate(seated):
        if row.seat != expected:
            check.add(
                row.line,
                "seat",
                _("expected seat {seat} here; seats go 0, 1, 2, … once each").format(seat=expected),
            )
            good = False
            break
    for row in seated:
        key = player_key(row.player)
        if key in names:
            check.add(
                row.line,
                "player",
                _("{player!r} already plays this round (line {line})").format(
                    player=row.player, line=names[key]
                ),
            )
            good = False
        names[key] = row.line
    return seated if good else None


def player_key(name: str) -> str:
    """The form in which a group compares names: spaces tidied, Unicode composed, any case.

    >>> player_key(" ann  MARIE") == player_key("Ann Marie")
    True
    """
    return " ".join(unicodedata.normalize("NFC", name).split()).casefold()


def _round_input(check: _Checker, rows: list[RoundRow]) -> RoundInput | None:
    first = rows[0]
    good = all(  # a list, not a generator: every column is checked and reported
        [check.same_on_every_row(rows, column) for column in ROUND_WIDE]
    )
    players = [row.player for row in rows]
    if first.caller is not None and first.caller not in players:
        check.add(
            first.line,
            "caller",
            _("{caller!r} is not playing this round").format(caller=first.caller),
        )
        good = False
    penalty = None
    for row in rows:
        if row.player == first.caller:
            penalty = row.penalty
        elif row.penalty is not None:
            check.add(
                row.line,
                "penalty",
                _("only the caller's row has penalty cards ({player!r} did not call)").format(
                    player=row.player
                ),
            )
            good = False
    if not good:
        return None
    try:
        return RoundInput(
            tuple((row.player, row.cards) for row in rows), first.caller, first.call_type, penalty
        )
    except DutchError as error:
        check.add(_line_of(rows, error), None, error_text(error))
        return None


def _line_of(rows: list[RoundRow], error: DutchError) -> int:
    """The line of the player an error names, else the round's first line."""
    return next((row.line for row in rows if row.player == error.player), rows[0].line)


def _compare(check: _Checker, rows: list[RoundRow], result: RoundResult) -> None:
    """Report every number in the file that differs from the core's."""
    scores = {score.player: score for score in result.scores}
    outcome = result.outcome
    for row in rows:
        score = scores[row.player]
        due = result.penalty_cards_due if score.is_caller else 0
        expected = {
            "hand_total": score.hand_total,
            "penalty_cards_due": due,
            "penalty_points": score.penalty_points,
            "round_score": score.round_score,
        }
        for column, value in expected.items():
            if getattr(row, column) != value:
                check.mismatch(
                    row,
                    column,
                    getattr(row, column),
                    value,
                    N_("{player}: {written} in the file, but the rules make it {scored}"),
                )
        if row.outcome != outcome:
            written = row.outcome.value if row.outcome else ""
            scored = outcome.value if outcome else ""
            check.mismatch(
                row,
                "outcome",
                repr(written),
                repr(scored),
                N_("{player}: {written} in the file, but the caller's outcome is {scored}"),
            )


def _plan_game(
    check: _Checker, number: int, rows: list[RoundRow], unread: set[int | None]
) -> PlannedGame | None:
    """The planned game, or None when anything is wrong with it (all of it reported).

    ``unread`` holds the numbers of the game's rounds with unreadable rows (None for
    rows whose round is unknown too): those rounds are left out, and game totals are
    checked only up to the first of them.
    """
    first = rows[0]
    agree = [check.same_on_every_row(rows, column, number) for column in GAME_WIDE]
    good, rules_agree = all(agree), agree[GAME_WIDE.index("rules")]
    rounds = _round_numbers(check, number, rows, unread)
    seating: list[str] | None = None
    planned: list[PlannedRound] = []
    for round_number, round_rows in rounds.items():
        if round_number in unread:
            continue
        seated = _seated(check, round_rows)
        if seated is None:
            good = False
            continue
        names = [row.player for row in seated]
        if seating is None:
            seating = names
        elif names != seating:
            message = _("round {number} seats {seats}; round 1 seats {first}").format(
                number=round_number, seats=", ".join(names), first=", ".join(seating)
            )
            check.add(seated[0].line, "player", message)
            good = False
            continue
        round_input = _round_input(check, seated)
        if round_input is None:
            good = False
            continue
        try:
            result = score_round(round_input, first.rules)
        except DutchError as error:
            check.add(_line_of(seated, error), None, error_text(error))
            good = False
            continue
        _compare(check, seated, result)
        planned.append(PlannedRound(round_number, seated[0].played_at, result, seated[0].line))
    if seating is None:
        return None
    # Totals are checked over the rounds 1, 2, 3, … read and scored before any that was not.
    prefix = []
    if rules_agree and None not in unread:
        for expected, planned_round in enumerate(planned, start=1):
            if planned_round.number != expected:
                break
            prefix.append(planned_round)
    running = []
    if prefix:
        game = Game(tuple(seating), first.rules, tuple(r.result for r in prefix))
        running = game.running_totals()
    for planned_round, totals in zip(prefix, running, strict=True):
        for row in rounds[planned_round.number]:
            if row.game_total != totals[row.player]:
                total = totals[row.player]
                check.mismatch(
                    row,
                    "game_total",
                    row.game_total,
                    total,
                    N_("{player}: {written} in the file, but the rounds add up to {scored}"),
                )
    if not good or unread:
        return None
    key = import_key(first.game_started_at, first.rules, [(r.played_at, r.result) for r in planned])
    return PlannedGame(
        number,
        first.game_started_at,
        first.game_status,
        first.rules,
        tuple(seating),
        tuple(planned),
        key,
        first.line,
    )


def plan_import(read: ReadRows) -> tuple[ImportPlan, Problems]:
    """The plan for the typed rows, with every problem found (the reader's first)."""
    check = _Checker(read.problems)
    unread: dict[int, set[int | None]] = defaultdict(set)
    for game, round_number in read.bad_rounds:
        unread[game].add(round_number)
    by_game: dict[int, list[RoundRow]] = defaultdict(list)
    for row in read.rows:
        by_game[row.game].append(row)
    games: list[PlannedGame] = []
    seen: dict[str, int] = {}
    repeated: list[int] = []
    for number in sorted(by_game):
        planned = _plan_game(check, number, by_game[number], unread.get(number, set()))
        if planned is None:
            continue
        if planned.import_key in seen:
            repeated.append(number)
            continue
        seen[planned.import_key] = number
        games.append(planned)
    return ImportPlan(tuple(games), tuple(repeated)), check.problems
