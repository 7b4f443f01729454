"""Odd input reaching the services gets the project's own clear error, never a crash, on
SQLite and PostgreSQL: text a database cannot store (NUL, a lone surrogate), and ids no
database column can hold."""

from __future__ import annotations

import unicodedata

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from dutch_app.services import games, groups, players, rounds
from dutch_app.services.errors import NotFound, ValidationError
from dutch_app.services.unit_of_work import perform
from dutch_core import PRESETS
from tests.views import get_group

UNSTORABLE = {
    "a NUL": ("Cup\x00final", "control character (U+0000) at position 4"),
    "a lone surrogate": ("Cup \ud83d final", "half of a character (U+D83D at position 5)"),
    "a direction override": ("Cup \u202efinal", "control character (U+202E) at position 5"),
}


def ids(seated):
    return [player.id for player in seated]


@pytest.mark.parametrize(("notes", "problem"), UNSTORABLE.values(), ids=list(UNSTORABLE))
def test_game_notes_a_database_cannot_store_are_refused_naming_the_notes(
    session, owner, group, seated, count_rows, notes, problem
):
    before = count_rows()
    with pytest.raises(ValidationError) as refused:
        perform(session, games.start_game, owner, group.id, ids(seated), PRESETS["classic"], notes)
    assert refused.value.field == "notes"
    assert str(refused.value).startswith("Notes: contains ") and problem in str(refused.value)
    session.rollback()
    assert count_rows() == before


def test_notes_keep_their_line_breaks_and_emoji(session, owner, group, seated):
    notes = "Cup final\nat Ann's 👨\u200d👩\u200d👧"
    game = perform(
        session, games.start_game, owner, group.id, ids(seated), PRESETS["classic"], notes
    )
    assert perform(session, games.get_game, owner, game.id).notes == notes


EMOJI_NAMES = [
    "Ann 👨\u200d👩\u200d👧",  # a family: three emoji joined by zero-width joiners
    "🏴\U000e0067\U000e0062\U000e0073\U000e0063\U000e0074\U000e007f Sco",  # Scotland's flag
    "Bo 🇳🇱 👍🏽 1️⃣",  # a country's flag, a skin tone, a keycap
]


@pytest.mark.parametrize("name", EMOJI_NAMES)
def test_a_name_with_any_emoji_is_stored_exactly(session, owner, group, name):
    player = perform(session, players.add_player, owner, group.id, name)
    assert name in [p.name for p in perform(session, players.list_players, owner, group.id)]
    assert player.name == name


@pytest.mark.parametrize(
    "name", ["Sco \U000e0067\U000e0062\U000e007f", "🏴\U000e0067\U000e0062 unfinished"]
)
def test_tag_characters_outside_a_regions_flag_are_refused(session, owner, group, name):
    with pytest.raises(ValidationError, match=r"control character \(U\+E0067\)"):
        perform(session, players.add_player, owner, group.id, name)


@pytest.mark.parametrize(("text", "problem"), UNSTORABLE.values(), ids=list(UNSTORABLE))
def test_names_a_database_cannot_store_are_refused(
    session, owner, group, seated, count_rows, text, problem
):
    before = count_rows()
    attempts = {
        "name": [
            lambda: perform(session, players.add_player, owner, group.id, text),
            lambda: perform(session, players.rename_player, owner, seated[0].id, text),
            lambda: perform(session, groups.create_group, owner, text),
            lambda: perform(session, groups.rename_group, owner, group.id, text),
        ]
    }
    for field, calls in attempts.items():
        for attempt in calls:
            with pytest.raises(ValidationError) as refused:
                attempt()
            assert refused.value.field == field
            assert problem in str(refused.value)
            session.rollback()
    assert count_rows() == before


HUGE_IDS = [2**63, 2**64, 10**30, -(2**63) - 1]


@pytest.mark.parametrize("huge", HUGE_IDS)
def test_an_id_beyond_64_bits_is_not_found_like_any_missing_id(
    session, owner, group, seated, count_rows, huge
):
    game = perform(session, games.start_game, owner, group.id, ids(seated), PRESETS["classic"])
    session.commit()
    before = count_rows()
    missing = 987_654
    lookups = [
        ("game", lambda i: perform(session, games.get_game, owner, i)),
        ("game", lambda i: perform(session, games.end_game, owner, i)),
        ("group", lambda i: perform(session, get_group, owner, i)),
        ("group", lambda i: perform(session, games.list_games, owner, i)),
        ("player", lambda i: perform(session, players.rename_player, owner, i, "Zed")),
        ("round", lambda i: perform(session, rounds.delete_round, owner, i, 1)),
        ("user", lambda i: perform(session, groups.create_group, i, "Elsewhere")),
    ]
    for kind, lookup in lookups:
        answers = []
        for ident in (missing, huge):
            with pytest.raises(NotFound) as refused:
                lookup(ident)
            session.rollback()
            answers.append(str(refused.value).replace(repr(ident), "ID"))
        assert answers == [f"No {kind} with id ID."] * 2
    # An oversized seat or caller is refused as any id outside the game is.
    hands = {player.id: "5" for player in seated}
    for bad_hands, caller in [({**hands, huge: "5"}, seated[0].id), (hands, huge)]:
        with pytest.raises(ValidationError):
            perform(session, rounds.add_round, owner, game.id, bad_hands, caller, "dutch")
        session.rollback()
    assert count_rows() == before


ANY_TEXT = st.text(st.characters(codec=None), max_size=80) | st.text(
    st.sampled_from(["\x00", "\ud83d", "\u202e", "\u200d", "\n", " ", "A", "é", "👨"]), max_size=8
)


@settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(name=ANY_TEXT, notes=ANY_TEXT)
def test_any_text_is_stored_exactly_or_refused_with_the_projects_error(
    session, owner, group, seated, name, notes
):
    """Whatever the Unicode, a name or notes either come back as stored, or are refused
    with a ValidationError naming the field; never a database or encoding error."""
    try:
        player = perform(session, players.add_player, owner, group.id, name)
    except ValidationError as refused:
        assert refused.field == "name"
    else:
        assert player.name == " ".join(unicodedata.normalize("NFC", name).split())
        listed = {
            listed.id: listed.name
            for listed in perform(session, players.list_players, owner, group.id)
        }
        assert listed[player.id] == player.name
    session.rollback()
    try:
        game = perform(
            session, games.start_game, owner, group.id, ids(seated), PRESETS["classic"], notes
        )
    except ValidationError as refused:
        assert refused.field == "notes"
    else:
        stored = perform(session, games.get_game, owner, game.id).notes
        assert stored == unicodedata.normalize("NFC", notes.strip())
    session.rollback()
