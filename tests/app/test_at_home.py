"""Preferences on the Account page, the last used house rules, the invite link, and sharing a
result (the picture and the read-only link), driven with AppTest."""

from __future__ import annotations

import io
import re
from dataclasses import replace
from datetime import UTC, datetime, timedelta

import pytest
from PIL import Image

from dutch_app.services import games, groups, preferences, rounds, sharing
from dutch_app.services.preferences import Preferences
from dutch_app.services.unit_of_work import perform
from dutch_core import EndCondition, HouseRules
from tests.app.apptools import make_table, messages, open_app, save_round
from tests.app.downloads import Media, download_file, keep_media
from tests.views import get_group

ACCOUNT, GROUP, PLAY = "pages/account.py", "pages/group.py", "pages/play.py"


@pytest.fixture
def media(monkeypatch) -> Media:
    return keep_media(monkeypatch)


def test_preferences_saved_on_the_account_page_are_kept_with_the_account(table):
    at = open_app(table.account, ACCOUNT)
    assert at.selectbox(key="account_language").options == [
        "Like my browser", "English", "Nederlands", "Deutsch", "Français",
    ]  # fmt: skip
    at.selectbox(key="account_language").select("nl")
    at.radio(key="account_theme").set_value("dark")
    at.toggle(key="account_keep_awake").set_value(False)
    at.button(key="FormSubmitter:account_preferences_form-Save the preferences").click().run()
    assert not at.exception
    assert "Your preferences are saved." in messages(at)
    kept = table.call(preferences.get_preferences)
    assert kept == Preferences(language="nl", theme="dark", keep_awake=False, last_rules=None)
    # A new tab (another device) starts from what was saved, and the page asks for the theme.
    again = open_app(table.account, ACCOUNT)
    assert again.selectbox(key="account_language").value == "nl"
    assert again.radio(key="account_theme").value == "dark"
    assert again.toggle(key="account_keep_awake").value is False
    assert any('data-theme="Dark"' in element.proto.body for element in again.get("html"))


def test_a_new_game_offers_the_rules_of_the_last_game_started(table):
    rules = HouseRules(red_king_value=4, end=EndCondition.after_rounds(6))
    game = table.call(
        games.start_game, table.group_id, [table.player_ids["Ann"], table.player_ids["Ben"]], rules
    )
    table.call(games.end_game, game.id)
    at = open_app(table.account, PLAY)  # no game in progress: the set-up form
    picker = at.selectbox(key="play_setup_rules_preset")
    # The group's last game is also Ann's: it comes first, under the group's label.
    assert picker.value == "last_used" and picker.options[0] == "The last game's rules"
    for name in ("Cleo", "Dan"):
        at.multiselect(key="play_setup_players").select(table.player_ids[name])
    at.button(key="play_setup_start").click().run()
    assert not at.exception
    newest = max(table.call(games.list_games, table.group_id), key=lambda g: g.id)
    assert table.call(games.get_game, newest.id).rules == rules


def test_someone_with_no_game_yet_gets_the_usual_presets(table):
    at = open_app(table.account, PLAY)
    assert "last_used" not in at.selectbox(key="play_setup_rules_preset").options


def test_an_invite_link_joins_after_sign_in_and_a_rotated_ones_is_refused(app_resources):
    owner = make_table(app_resources)
    code = owner.call(get_group, owner.group_id).invite_code
    ben = app_resources.accounts.sign_up("ben@example.com", "correct horse 42", "Ben")

    at = open_app()
    at.query_params["join"] = code
    at.run()
    assert any("You were invited to join a group" in text for text in messages(at))
    at.text_input(key="signin_email").input("ben@example.com")
    at.text_input(key="signin_password").input("correct horse 42")
    at.button(key="FormSubmitter:signin_form-Sign in").click().run()
    assert not at.exception
    assert "You joined Friday cards with the invite link; it is now your active group." in (
        messages(at)
    )
    with app_resources.sessions() as session:
        assert [g.id for g in perform(session, groups.list_groups, ben.user_id)] == [owner.group_id]
    assert at.session_state["active_group_id"] == owner.group_id

    owner.call(groups.rotate_invite_code, owner.group_id)
    cleo = app_resources.accounts.sign_up("cleo@example.com", "correct horse 42", "Cleo")
    late = open_app(cleo)
    late.query_params["join"] = code
    late.run()
    assert any("This invite link no longer works" in text for text in messages(late))
    with app_resources.sessions() as session:
        assert perform(session, groups.list_groups, cleo.user_id) == []


def _ended_game(table):
    game = table.call(
        games.start_game,
        table.group_id,
        [table.player_ids["Ann"], table.player_ids["Ben"]],
        HouseRules(end=EndCondition.score_limit(20)),
    )
    at = open_app(table.account, PLAY)
    save_round(at, ["3", "25"], "Ann", "dutch")
    assert not at.exception
    return game, at


def test_the_end_of_a_game_offers_its_picture(table, media):
    _, at = _ended_game(table)
    picture = download_file(at, "play_share_picture", media)
    assert picture.mimetype == "image/png"
    assert Image.open(io.BytesIO(picture.content)).format == "PNG"


def test_a_read_only_link_is_made_shown_once_and_ended(table):
    game, at = _ended_game(table)
    at.button(key="play_share_make").click().run()
    assert not at.exception
    link = next(code.value for code in at.code if "/shared?game=" in code.value)
    token = link.split("game=", 1)[1]

    viewer = open_app()  # nobody signed in
    viewer.query_params["game"] = token
    viewer.switch_page("pages/shared.py").run()
    assert not viewer.exception
    assert "🏆 Ann wins with 3 points" in drawn(viewer)
    assert [i.captions for i in viewer.get("image")] == [
        ["The result as a picture"]
    ]  # the picture of the result
    assert "Friday cards" not in drawn(viewer) + str([m.value for m in viewer.markdown])

    at.button(key="play_share_end").click().run()
    assert not at.exception
    viewer.run()
    assert any("does not work" in e.value for e in viewer.error)
    assert not table.call(sharing.share_link_state, game.id).exists


def drawn(at) -> str:
    """The HTML the page drew (the large-type view)."""
    return "".join(element.proto.body for element in at.get("html"))


def test_play_offers_a_live_link_with_its_qr_code_during_a_game(table):
    ids = [table.player_ids["Ann"], table.player_ids["Ben"]]
    game = table.call(games.start_game, table.group_id, ids, HouseRules())
    at = open_app(table.account, PLAY)
    assert [e.label for e in at.expander] == ["Show on a TV or tablet"]
    at.button(key="play_share_make").click().run()
    assert not at.exception
    link = next(code.value for code in at.code if "/shared?game=" in code.value)
    assert [i.captions for i in at.get("image")] == [["Scan to watch the game"]]  # the QR code
    assert table.call(sharing.share_link_state, game.id).exists
    at.button(key="play_share_end").click().run()
    assert not table.call(sharing.share_link_state, game.id).exists
    assert not any(link == code.value for code in at.code)


def _shared_page(token: str):
    viewer = open_app()  # nobody signed in
    viewer.query_params["game"] = token
    viewer.switch_page("pages/shared.py").run()
    assert not viewer.exception
    return viewer


def test_a_shared_game_is_read_once_per_version_whoever_visits(table, monkeypatch, rounds_read):
    game, _at = _ended_game(table)
    token = table.call(sharing.make_share_link, game.id)
    reads: list[int] = []
    real = sharing.read_shared_game

    def counted(session, link):
        reads.append(link.game_id)
        return real(session, link)

    monkeypatch.setattr(sharing, "read_shared_game", counted)
    rounds_read.clear()
    for _visit in range(3):
        viewer = _shared_page(token)
        assert "🏆 Ann wins with 3 points" in drawn(viewer)
    assert len(reads) == 1 and rounds_read == [1]
    table.call(games.reopen_game, game.id)  # a change to the game is read at the next visit
    viewer = _shared_page(token)
    assert len(reads) == 2 and "🏆 Ann wins" in drawn(viewer)
    table.call(sharing.end_share_link, game.id)  # an ended link shows nothing, kept or not
    viewer = _shared_page(token)
    assert any("does not work" in e.value for e in viewer.error) and len(reads) == 2


def test_a_long_shared_game_shows_its_latest_rounds_and_says_so(table, monkeypatch, rounds_read):
    monkeypatch.setattr(sharing, "SHARED_ROUNDS", 2)
    ids = [table.player_ids["Ann"], table.player_ids["Ben"]]
    game = table.call(games.start_game, table.group_id, ids, HouseRules())
    for _round in range(3):
        table.call(
            rounds.add_round, game.id, dict(zip(ids, ("3", "9"), strict=True)), ids[0], "dutch"
        )
    token = table.call(sharing.make_share_link, game.id)
    rounds_read.clear()
    viewer = _shared_page(token)
    assert rounds_read == [2]
    assert viewer.dataframe[-1].value["Round"].tolist() == [2, 3]
    assert "The latest 2 of the game's 3 rounds." in [c.value for c in viewer.caption]
    totals = re.findall(r"class='total'>(\d+)<", drawn(viewer))
    assert totals == ["9", "27"]  # the whole game's


def test_a_shared_game_says_how_long_it_has_been_played(table):
    ids = [table.player_ids["Ann"], table.player_ids["Ben"]]
    started = datetime(2025, 3, 7, 20, 0, tzinfo=UTC)
    game = table.call(games.start_game, table.group_id, ids, HouseRules(), started_at=started)
    token = table.call(sharing.make_share_link, game.id)
    assert "Played for" not in drawn(_shared_page(token))  # no round yet
    for minutes in (40, 85):
        hands = dict(zip(ids, ("3", "9"), strict=True))
        at = started + timedelta(minutes=minutes)
        table.call(rounds.add_round, game.id, hands, ids[0], "dutch", entered_at=at)
    assert "Played for 1h 25 mins" in drawn(_shared_page(token))


def test_visits_of_a_shared_game_from_one_network_are_slowed(table, monkeypatch):
    slowed = replace(sharing.LINK_VISITS_FROM, free=2, first_wait=timedelta(minutes=1))
    monkeypatch.setattr(sharing, "LINK_VISITS_FROM", slowed)
    game, _at = _ended_game(table)
    token = table.call(sharing.make_share_link, game.id)
    watching = [_shared_page(token) for _visit in range(2)]
    assert not any(viewer.error for viewer in watching)
    refused = _shared_page(token)
    assert any("Too many visits" in e.value for e in refused.error)
    # A tab that opened the link follows the game without counting a visit again.
    table.call(games.reopen_game, game.id)
    watching[0].run()
    assert not watching[0].error and "🏆 Ann wins" in drawn(watching[0])


@pytest.mark.parametrize("odd", ["", "x" * 5000, "\U0001f0cf\u202e\u0000", "K7QX M2PD' OR 1=1"])
def test_odd_invite_links_and_game_links_get_the_projects_own_answer(table, odd):
    at = open_app(table.account)
    at.query_params["join"] = odd
    at.run()
    assert not at.exception
    assert any("This invite link no longer works" in text for text in messages(at))
    assert [g.id for g in table.call(groups.list_groups)] == [table.group_id]

    viewer = open_app()
    viewer.query_params["game"] = odd
    viewer.switch_page("pages/shared.py").run()
    assert not viewer.exception
    assert any("This link to a game does not work" in e.value for e in viewer.error)
