"""History: the group's games with filters, one game round by round (correct or delete a
round, end, reopen or delete the game), and the history as CSV files out and in."""

import streamlit as st

from dutch_app.csv_io import MAX_ROWS, MAX_UPLOAD_MB, CsvImportError
from dutch_app.i18n import _, error_text, format_number, localized
from dutch_app.services import csv_import, games, rounds
from dutch_app.services.errors import Conflict, EndCrossed, ServiceError
from dutch_app.services.views import GameSummary, GroupView, RoundView
from dutch_app.ui.cache import roster
from dutch_app.ui.context import active_group, call, my_groups, require_account
from dutch_app.ui.flash import flash, forget_flash, show_flash
from dutch_app.ui.game_tables import standings_frame
from dutch_app.ui.guard import guarded
from dutch_app.ui.history_files import (
    GAMES,
    ROUNDS,
    csv_download,
    file_maker,
    game_file_maker,
    game_file_name,
    import_summary,
    problems_frame,
    refusal,
)
from dutch_app.ui.history_view import (
    STATUS_LABELS,
    Filters,
    date_range,
    game_label,
    games_frame,
    round_by_round_frame,
    rounds_word,
    service_input,
    when,
)
from dutch_app.ui.round_edit import (
    PastTheEndQuestion,
    ask_past_the_end,
    conflict,
    edit_target,
    forget_past_the_end,
    keep_saved,
    note_conflict,
    past_the_end,
    reload_target,
)
from dutch_app.ui.round_form import round_form, set_round_errors
from dutch_app.ui.round_view import correction_summary
from dutch_app.ui.routing import ensure_routed
from dutch_app.ui.seasons import group_seasons, local_bounds, period_picker, viewer_zone
from dutch_app.ui.text import distinct_labels, md
from dutch_app.ui.widgets import (
    confirmed,
    date_range_field,
    field_room,
    labelled_selectbox,
    reset_on_next_run,
    shown_as,
    shown_table,
)
from dutch_core.errors import DutchError
from dutch_core.game import GameStatus

ensure_routed()

EDIT_FORM = "history_edit"
TZ = viewer_zone()


def read_filters(group: GroupView) -> Filters:
    """The period, date range (days of the person's time zone), player and status filters."""
    names = {player.id: player.name for player in roster(group)}
    period_picker("history", "history_filter_dates", group_seasons(group), TZ)
    dates_col, player_col, status_col = st.columns(3)
    with dates_col, field_room():
        dates = date_range_field(_("Started between"), key="history_filter_dates")
    with player_col, field_room():
        player_id = labelled_selectbox(
            _("Player"),
            [None, *names],
            {None: _("Everyone"), **names},
            key="history_filter_player",
        )
    with status_col, field_room():
        status = st.selectbox(
            _("Status"),
            list(STATUS_LABELS),
            format_func=shown_as(STATUS_LABELS),
            key="history_filter_status",
        )
    date_from, date_to = local_bounds(*date_range(dates), TZ)
    return Filters(date_from, date_to, player_id, status)


def game_actions(game) -> None:
    """End or reopen the game; delete it after a confirmation."""
    show_flash("history_game")
    if game.status is GameStatus.ACTIVE:
        if st.button(_("End this game"), key="history_end_game", icon=":material/flag:"):
            with guarded():
                call(games.end_game, game.id)
                flash(_("The game is marked as ended."), "history_game")
    elif st.button(_("Reopen this game"), key="history_reopen_game", icon=":material/replay:"):
        with guarded():
            call(games.reopen_game, game.id)
            flash(_("The game is open again: add rounds on the Play page."), "history_game")
    with st.expander(_("Delete this game")):
        if confirmed(
            _("Yes, delete this game and its {rounds}").format(
                rounds=rounds_word(game.rounds_played)
            ),
            _("Delete the game"),
            _("Tick the box above to confirm; nothing was deleted."),
            key="history_delete_game",
            icon=":material/delete:",
        ):
            with guarded():
                call(games.delete_game, game.id)
                reset_on_next_run(history_delete_game_confirm=False)
                flash(
                    _("The game and its {rounds} were deleted.").format(
                        rounds=rounds_word(game.rounds_played)
                    ),
                    "history_games",
                    toast=True,
                )


def answer_past_the_end(stored: RoundView, question: PastTheEndQuestion) -> None:
    """A correction that would have ended the game before its last round: say so, and save
    it only once the person chose to end the game there or to play on as an open game."""
    st.warning(md(question.message), icon=":material/flag:")
    end_there, play_on = st.columns(2)
    choice = None
    if end_there.button(
        _("End the game after round {number}").format(number=question.ended_after),
        key="history_end_there",
        icon=":material/flag:",
    ):
        choice = rounds.PastTheEnd.END_THERE
    if play_on.button(
        _("Keep playing as an open game"), key="history_play_on", icon=":material/all_inclusive:"
    ):
        choice = rounds.PastTheEnd.PLAY_ON
    if choice is None:
        return
    forget_past_the_end()
    saved = save_correction(
        question.round_id, question.version, question.correction, past_the_end=choice
    )
    if saved is not None:
        if choice is rounds.PastTheEnd.END_THERE:
            then = _("The game ended after round {number}; the rounds after it were deleted.")
        else:
            then = _("The game goes on as an open game, with every round.")
        summary = md(correction_summary(stored, saved))
        flash(f"{summary} {then.format(number=question.ended_after)}", "history_round")


def save_correction(round_id: int, version: int, correction, **choice):
    """Store a correction of round ``round_id``: the round as saved, or None when it was refused
    (said where the person looks; a correction that crosses the game's end is asked about)."""
    try:
        saved = call(rounds.edit_round, round_id, version, *correction, **choice)
    except EndCrossed as error:
        ask_past_the_end(
            PastTheEndQuestion(round_id, version, correction, error.ended_after, error_text(error))
        )
    except Conflict as error:
        note_conflict(error_text(error))
        st.rerun()
    except (ServiceError, DutchError) as error:
        set_round_errors(EDIT_FORM, {"round": error_text(error)})
    else:
        keep_saved(saved)
        return saved
    return None


def correct_round(game) -> None:
    """Pick a round; correct it with the round form, or delete it after a confirmation."""
    show_flash("history_round")
    numbers = [stored.number for stored in game.rounds]
    number = st.selectbox(
        _("Round"),
        numbers,
        index=len(numbers) - 1,
        format_func={n: _("Round {number}").format(number=n) for n in numbers}.__getitem__,
        key="history_round",
    )
    stored = game.rounds[numbers.index(number)]
    target = edit_target(EDIT_FORM, stored)
    names = [player.name for player in game.players]
    submitted = round_form(
        EDIT_FORM,
        names,
        game.rules,
        submit_label=_("Save the correction"),
        initial=target.initial,
        live=False,  # the whole page reruns: only when a field is left
    )
    if message := conflict():
        st.error(md(message))
        if st.button(_("Load the round as it is now"), key="history_reload_round"):
            reload_target()
            st.rerun()
    if submitted is not None:
        fields, _check = submitted
        forget_past_the_end()
        correction = service_input(game, fields)
        saved = save_correction(stored.id, target.version, correction)
        if saved is not None:
            flash(md(correction_summary(stored, saved)), "history_round")
    if asked := past_the_end(stored.id):
        answer_past_the_end(stored, asked)
    if confirmed(
        _("Yes, delete round {number}").format(number=stored.number),
        _("Delete round {number}").format(number=stored.number),
        _("Tick the box above to confirm; nothing was deleted."),
        key="history_delete_round",
        icon=":material/delete:",
    ):
        with guarded():
            call(rounds.delete_round, stored.id, target.version)
            reload_target()
            reset_on_next_run(history_delete_round_confirm=False)
            flash(
                _("Round {number} was deleted; later rounds moved up one number.").format(
                    number=stored.number
                ),
                "history_round",
            )


def rounds_page(played: int) -> int:
    """The last round to show of a game of ``played`` rounds, with the
    ``games.HISTORY_ROUNDS`` before it: the game's last, or an older page's, picked here."""
    size = games.HISTORY_ROUNDS
    lasts = list(range(played, 0, -size))[::-1] or [0]
    last = lasts[-1]
    if len(lasts) > 1:
        last = st.selectbox(
            _("Rounds shown"),
            lasts,
            index=len(lasts) - 1,
            format_func=lambda n: _("Rounds {first} to {last}").format(
                first=max(1, n - size + 1), last=n
            ),
            key="history_rounds_page",
        )
    return last


def show_game(summary: GameSummary, files: tuple[int, int, str]) -> None:
    """One game: standings, the round-by-round table (a page of rounds at a time), and
    what can be done with it.

    ``files`` is (user id, group id, cache stamp), what the CSV files are made for.
    """
    heading = st.container()  # drawn once the game is read, above the page of rounds
    last = rounds_page(summary.rounds_played)
    older = last < summary.rounds_played
    game = call(games.get_game, summary.id, games.HISTORY_ROUNDS, last if older else None)
    with heading:
        status = _("in progress") if game.status is GameStatus.ACTIVE else _("ended")
        st.subheader(
            _("Game of {when} ({status})").format(when=when(game.started_at, TZ), status=status)
        )
        st.caption(" · ".join(md(localized(line)) for line in game.rules.describe()))
        if game.notes:
            st.text(game.notes)
        shown_table(standings_frame(game), "standings")
    if game.rounds:
        shown_table(round_by_round_frame(game), "rounds")
        csv_download(
            _("This game (rounds)"),
            game_file_maker(*files, game.id, game.started_at),
            game_file_name(game.started_at, TZ),
            "history_download_game",
        )
    else:
        st.info(_("No rounds were played in this game yet."))
    game_actions(game)
    if game.rounds:
        st.markdown(_("#### Correct or delete a round"))
        correct_round(game)


def downloads(files: tuple[int, int, str], filters: Filters) -> None:
    """The group's history as CSV files: all rounds, all games, and the games listed.

    ``files`` is (user id, group id, cache stamp), what the CSV files are made for.
    """
    st.subheader(_("Download as CSV"))
    csv_download(_("All rounds"), file_maker(*files, ROUNDS), "rounds", "history_download_rounds")
    csv_download(
        _("All games (totals)"), file_maker(*files, GAMES), "games", "history_download_games"
    )
    if filters.is_set:
        csv_download(
            _("Rounds of the games listed"),
            file_maker(*files, ROUNDS, filters),
            "rounds-filtered",
            "history_download_filtered",
        )
    st.caption(_("The rounds file can be imported again, here or into another group."))


def import_section(group_id: int) -> None:
    """Upload a rounds file; every problem is listed with its line, and nothing is saved then."""
    st.subheader(_("Import rounds from a CSV file"))
    st.caption(
        _(
            'Use a rounds file, as the "All rounds" download makes it. Games this '
            "group already has are skipped, new player names become new players, "
            "and a file with any problem is refused as a whole. "
            "Files up to {MAX_UPLOAD_MB} MB and {max_rows} rows."
        ).format(MAX_UPLOAD_MB=MAX_UPLOAD_MB, max_rows=format_number(MAX_ROWS))
    )
    show_flash("history_import")
    uploaded = st.file_uploader(
        _("Rounds file"), type=["csv"], key="history_import_file", max_upload_size=MAX_UPLOAD_MB
    )
    if (
        st.button(_("Import the file"), key="history_import", disabled=uploaded is None)
        and uploaded
    ):
        with guarded():
            try:
                report = call(csv_import.import_rounds_csv, group_id, uploaded.getvalue())
            except CsvImportError as error:
                st.error(refusal(error))
                st.dataframe(problems_frame(error), hide_index=True, width="stretch")
            else:
                flash(import_summary(report), "history_import")


st.title(_("History"))
group = active_group(my_groups())
if group is None:
    st.info(_("You are not in a group yet, so there is no history to show."))
    st.page_link("pages/group.py", label=_("Create or join a group"), icon=":material/group_add:")
    st.stop()
st.caption(_("Group: {name}").format(name=md(group.name)))
files = (require_account().user_id, group.id, group.cache_stamp)

with guarded():
    every_game = call(games.list_games, group.id)
    if not every_game:
        show_flash("history_games")
        st.info(
            _(
                "This group has no games yet. Start one on the Play page: every round you enter "
                "there shows up here, where you can check and correct it later."
            )
        )
        st.page_link("pages/play.py", label=_("Start a game"), icon=":material/playing_cards:")
    else:
        filters = read_filters(group)
        listed = every_game
        if filters.is_set:
            listed = call(
                games.list_games,
                group.id,
                filters.date_from,
                filters.date_to,
                filters.player_id,
                filters.status,
            )
        show_flash("history_games")
        if not listed:
            st.info(_("No games match these filters."))
        else:
            shown_table(games_frame(listed, TZ), "games")
            labels = distinct_labels({game.id: game_label(game, TZ) for game in listed})
            with field_room():
                chosen = labelled_selectbox(
                    _("Game to open"), list(labels), labels, key="history_game"
                )
            show_game(next(game for game in listed if game.id == chosen), files)
        downloads(files, filters)

with guarded():
    import_section(group.id)
forget_flash()
