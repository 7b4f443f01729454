"""Read-only links to one game: what they show, who can make and end them, and that a guessed
token gets exactly the answer an ended one gets; on SQLite and on PostgreSQL."""

from __future__ import annotations

from dataclasses import fields, replace

import pytest
from sqlalchemy import select

from dutch_app.services import games, groups, rounds, sharing
from dutch_app.services.errors import LimitReached, NotFound
from dutch_app.services.sharing import (
    LINK_TRIES_FROM,
    LINK_VISITS_FROM,
    SharedGameView,
    ShareLinkInvalid,
)
from dutch_app.services.unit_of_work import perform
from dutch_app.storage.models import SharedGame, token_hash
from dutch_core import PRESETS
from tests.views import get_group

CLIENT = "203.0.113.9"


@pytest.fixture
def game(session, owner, group, seated):
    """A classic game of Ann, Bo, Cy and Dee with two rounds, ended."""
    made = perform(
        session,
        games.start_game,
        owner,
        group.id,
        [p.id for p in seated],
        PRESETS["classic"],
        "Secret notes",
    )
    for hands, penalty in ((("3", "9", "9", "9"), None), (("4", "2", "8", "KS"), "QC 3D")):
        keyed = {player.id: hand for player, hand in zip(seated, hands, strict=True)}
        perform(session, rounds.add_round, owner, made.id, keyed, seated[0].id, "dutch", penalty)
    return perform(session, games.end_game, owner, made.id)


def open_shared_game(session, token, *, client: str) -> SharedGameView:
    """What a visitor holding ``token`` sees, read as the shared page reads it: the link
    opened, then its game."""
    link = perform(session, sharing.open_share_link, token, client=client)
    return perform(session, sharing.read_shared_game, link)


def refusal(session, token) -> str:
    with pytest.raises(ShareLinkInvalid) as refused:
        open_shared_game(session, token, client=CLIENT)
    return str(refused.value)


def test_the_link_shows_the_games_names_totals_and_rounds_only(session, owner, game):
    token = perform(session, sharing.make_share_link, owner, game.id)
    shown = open_shared_game(session, token, client=CLIENT)
    assert shown.players == ("Ann", "Bo", "Cy", "Dee")
    assert [(s.player, s.game_total) for s in shown.standings] == [
        (s.player, s.game_total) for s in game.standings
    ]
    assert [(r.number, r.scores, r.totals) for r in shown.rounds] == [
        (r.number, tuple(h.round_score for h in r.hands), tuple(h.game_total for h in r.hands))
        for r in game.rounds
    ]
    assert shown.rounds[0].totals == (3, 9, 9, 9)
    assert shown.finished and shown.winners == game.winners
    # Nothing else of the group travels: no ids, group name, notes, cards, members or rules.
    assert {f.name for f in fields(SharedGameView)} == {
        "players", "standings", "rounds", "finished", "winners", "ended_at", "rounds_played",
        "dealer", "end", "length",
    }  # fmt: skip
    assert shown.length == game.length is not None
    assert shown.rounds[-1].caller == "Ann" and shown.dealer == "Cy"
    text = repr(shown)
    group = perform(session, get_group, owner, game.group_id)
    for private in ("Friday club", "Secret notes", "QC", "Olga", "classic", "@example"):
        assert private not in text
    assert group.invite_code not in text and group.name not in text


def test_only_a_hash_of_the_token_is_stored(session, owner, game):
    token = perform(session, sharing.make_share_link, owner, game.id)
    stored = session.scalars(select(SharedGame.token_hash)).all()
    assert stored == [token_hash(token)] and token not in stored[0]
    assert len(token) >= 43  # 32 random bytes


def test_an_ended_link_and_a_guessed_one_get_the_same_answer(session, owner, game):
    token = perform(session, sharing.make_share_link, owner, game.id)
    perform(session, sharing.end_share_link, owner, game.id)
    ended = refusal(session, token)
    guessed = refusal(session, token[:-1] + ("A" if token[-1] != "A" else "B"))
    made_up = refusal(session, "x" * len(token))
    assert ended == guessed == made_up == refusal(session, "") == refusal(session, "\u0000" * 500)
    assert "does not work" in ended


def test_a_new_link_ends_the_old_one(session, owner, game):
    old = perform(session, sharing.make_share_link, owner, game.id)
    new = perform(session, sharing.make_share_link, owner, game.id)
    assert old != new
    assert refusal(session, old) == refusal(session, "nonsense")
    assert open_shared_game(session, new, client=CLIENT).players[0] == "Ann"
    assert len(session.scalars(select(SharedGame)).all()) == 1


def test_deleting_the_game_ends_its_link(session, owner, game):
    token = perform(session, sharing.make_share_link, owner, game.id)
    perform(session, games.delete_game, owner, game.id)
    assert "does not work" in refusal(session, token)
    assert session.scalars(select(SharedGame)).all() == []


def test_only_members_see_make_or_end_a_games_link(session, owner, game, make_user):
    stranger = make_user("Stan")
    for service in (sharing.share_link_state, sharing.make_share_link, sharing.end_share_link):
        with pytest.raises(NotFound):
            perform(session, service, stranger, game.id)
    member = make_user("Mo")
    perform(
        session,
        groups.join_group,
        member,
        perform(session, get_group, owner, game.group_id).invite_code,
    )
    token = perform(session, sharing.make_share_link, member, game.id)
    assert perform(session, sharing.share_link_state, owner, game.id).exists
    perform(session, sharing.end_share_link, owner, game.id)
    assert not perform(session, sharing.share_link_state, member, game.id).exists
    assert "does not work" in refusal(session, token)


def test_guessing_from_one_network_is_slowed_and_a_good_link_is_not_a_guess(session, owner, game):
    token = perform(session, sharing.make_share_link, owner, game.id)
    for _ in range(LINK_TRIES_FROM.free * 2):  # good links do not count as guesses
        open_shared_game(session, token, client=CLIENT)
    for attempt in range(LINK_TRIES_FROM.free):
        refusal(session, f"guess-{attempt}")
    with pytest.raises(LimitReached) as slowed:
        open_shared_game(session, f"guess-{LINK_TRIES_FROM.free}", client=CLIENT)
    assert "Try again in" in str(slowed.value)
    # Another network is not slowed by this one's guesses.
    assert open_shared_game(session, token, client="198.51.100.1").players[0] == "Ann"


def test_visits_of_a_working_link_are_slowed_per_network_too(session, owner, game, monkeypatch):
    monkeypatch.setattr(sharing, "LINK_VISITS_FROM", replace(LINK_VISITS_FROM, free=3))
    token = perform(session, sharing.make_share_link, owner, game.id)
    for _ in range(3):
        open_shared_game(session, token, client=CLIENT)
    with pytest.raises(LimitReached) as slowed:
        open_shared_game(session, token, client=CLIENT)
    assert "Too many visits" in str(slowed.value)
    assert open_shared_game(session, token, client="198.51.100.1").players[0] == "Ann"


def test_a_link_shows_the_standings_and_only_the_latest_rounds(
    session, owner, game, monkeypatch, rounds_read
):
    monkeypatch.setattr(sharing, "SHARED_ROUNDS", 1)
    token = perform(session, sharing.make_share_link, owner, game.id)
    link = perform(session, sharing.open_share_link, token, client=CLIENT)
    assert (link.game_id, link.version) == (game.id, game.version)
    assert rounds_read == []  # looking the link up reads no round
    shown = perform(session, sharing.read_shared_game, link)
    assert rounds_read == [1]
    assert [r.number for r in shown.rounds] == [2] and shown.rounds_played == 2
    assert [(s.player, s.game_total) for s in shown.standings] == [
        (s.player, s.game_total) for s in game.standings
    ]


def test_a_link_looked_up_after_a_change_carries_the_new_version(session, owner, game):
    token = perform(session, sharing.make_share_link, owner, game.id)
    before = perform(session, sharing.open_share_link, token, client=CLIENT)
    perform(session, games.reopen_game, owner, game.id)
    after = perform(session, sharing.open_share_link, token, client=CLIENT)
    assert after.version > before.version and after.digest == before.digest
    perform(session, sharing.end_share_link, owner, game.id)
    with pytest.raises(ShareLinkInvalid):  # a link ended since it was looked up shows nothing
        perform(session, sharing.read_shared_game, after)


def test_removing_a_member_ends_the_links_they_made_and_keeps_the_others(
    session, owner, game, seated, make_user
):
    """A removed member's links stop showing the game: they could otherwise keep reading
    the new rounds of a group that took them out."""
    ben = make_user("Ben")
    code = perform(session, get_group, owner, game.group_id).invite_code
    perform(session, groups.join_group, ben, code)
    second = perform(
        session, games.start_game, owner, game.group_id, [p.id for p in seated], PRESETS["classic"]
    )
    bens = perform(session, sharing.make_share_link, ben, game.id)
    owners = perform(session, sharing.make_share_link, owner, second.id)
    perform(session, groups.remove_member, owner, game.group_id, ben)
    assert "does not work" in refusal(session, bens)
    assert not perform(session, sharing.share_link_state, owner, game.id).exists
    assert open_shared_game(session, owners, client=CLIENT).players[0] == "Ann"


def test_leaving_keeps_the_links_one_made(session, owner, game, make_user):
    """Leaving is not being sent away: the links a member made for the group keep working."""
    ben = make_user("Ben")
    code = perform(session, get_group, owner, game.group_id).invite_code
    perform(session, groups.join_group, ben, code)
    token = perform(session, sharing.make_share_link, ben, game.id)
    perform(session, groups.leave_group, ben, game.group_id)
    assert open_shared_game(session, token, client=CLIENT).players[0] == "Ann"


def test_following_a_link_reaches_its_own_game_only_and_counts_nothing(
    session, owner, group, seated, game, count_rows
):
    """A page that opened a link follows it by the link's hash: whatever game id comes with
    it, the answer is the version of the link's own game; an ended link, like a made-up
    hash, gets the one answer; following writes nothing (no visit counted)."""
    other = perform(
        session, games.start_game, owner, group.id, [p.id for p in seated], PRESETS["classic"]
    )
    token = perform(session, sharing.make_share_link, owner, game.id)
    perform(session, sharing.make_share_link, owner, other.id)
    opened = perform(session, sharing.open_share_link, token, client=CLIENT)
    before = count_rows()
    asked_for_other = replace(opened, game_id=other.id, version=0)
    followed = perform(session, sharing.follow_share_link, asked_for_other)
    assert (followed.game_id, followed.version) == (game.id, game.version)
    assert perform(session, sharing.read_shared_game, followed).players[0] == "Ann"
    assert count_rows() == before
    made_up = sharing.SharedLink(token_hash("guessed"), game.id, game.version)
    with pytest.raises(ShareLinkInvalid) as guessed:
        perform(session, sharing.follow_share_link, made_up)
    perform(session, games.reopen_game, owner, game.id)
    assert perform(session, sharing.follow_share_link, opened).version > game.version
    perform(session, sharing.end_share_link, owner, game.id)
    with pytest.raises(ShareLinkInvalid) as ended:
        perform(session, sharing.follow_share_link, opened)
    assert str(ended.value) == str(guessed.value) == refusal(session, token)


def test_a_removed_group_ends_its_links(session, owner, group, game):
    token = perform(session, sharing.make_share_link, owner, game.id)
    opened = perform(session, sharing.open_share_link, token, client=CLIENT)
    perform(session, groups.leave_group, owner, group.id)  # the last member: the group goes
    with pytest.raises(ShareLinkInvalid):
        perform(session, sharing.follow_share_link, opened)
    assert "does not work" in refusal(session, token)
