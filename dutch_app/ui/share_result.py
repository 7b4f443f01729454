"""Sharing a game's result: the picture to download, the read-only link, and the page it opens."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from functools import partial

import pandas as pd
import streamlit as st

from dutch_app.i18n import _, format_moment
from dutch_app.services import games, sharing
from dutch_app.services.sharing import SharedGameView
from dutch_app.services.views import GameView
from dutch_app.share_image import result_png, totals_frame
from dutch_app.ui.client import client_address
from dutch_app.ui.context import call, current_account, run_service
from dutch_app.ui.guard import guarded
from dutch_app.ui.invite_link import app_address

SHARED_PATH = "shared"
FRESH_LINK_KEY = "share_fresh_link"


def shared_link(token: str, address: str) -> str:
    """The read-only link of a game.

    >>> shared_link("abc", "https://scores.example.com")
    'https://scores.example.com/shared?game=abc'
    """
    return f"{address.rstrip('/')}/{SHARED_PATH}?{sharing.QUERY_PARAMETER}={token}"


def _picture(user_id: int, game_id: int, colours: Mapping[str, str]) -> bytes:
    game = run_service(games.get_game, user_id, game_id, sharing.SHARED_ROUNDS)
    return result_png(sharing.shared_view(game), colours, game.ended_at or game.started_at)


def picture_maker(game: GameView, colours: Mapping[str, str]) -> Callable[[], bytes]:
    """What the download button calls (when clicked, outside the page's run): the PNG."""
    account = current_account()
    if account is None:  # pragma: no cover - the Play page is behind the sign-in gate
        st.stop()
    return partial(_picture, account.user_id, game.id, dict(colours))


def share_result(game: GameView, colours: Mapping[str, str]) -> None:
    """The end of a game: the result as a picture, and a read-only link if the group wants."""
    st.markdown(_("#### Share the result"))
    day = (game.ended_at or game.started_at).date().isoformat()
    st.download_button(
        _("Download the result (PNG)"),
        picture_maker(game, colours),
        file_name=f"dutch-result-{day}.png",
        mime="image/png",
        key="play_share_picture",
        on_click="ignore",
        icon=":material/image:",
    )
    with guarded():
        read_only_link(game)


def read_only_link(game: GameView) -> None:
    """Make, show and end the game's read-only link (for people without an account)."""
    state = call(sharing.share_link_state, game.id)
    fresh = st.session_state.get(FRESH_LINK_KEY)
    st.caption(
        _(
            "A read-only link shows this game's names, totals and rounds to anyone who has "
            "it, without an account; nothing else of the group. Any member can end it."
        )
    )
    if state.exists and fresh is not None and fresh[0] == game.id:
        st.code(shared_link(fresh[1], app_address()), language=None)
    elif state.made_at is not None:
        st.caption(
            _(
                "This game has a read-only link since {when} UTC. Make a new one to see a "
                "link again (the old one then stops working)."
            ).format(when=format_moment(state.made_at))
        )
    make, end = st.columns(2)
    label = _("Make a new read-only link") if state.exists else _("Make a read-only link")
    if make.button(label, key="play_share_make", icon=":material/link:"):
        token = call(sharing.make_share_link, game.id)
        st.session_state[FRESH_LINK_KEY] = (game.id, token)
        st.rerun()
    ended = state.exists and end.button(
        _("End the link"), key="play_share_end", icon=":material/link_off:"
    )
    if ended:
        call(sharing.end_share_link, game.id)
        st.session_state.pop(FRESH_LINK_KEY, None)
        st.toast(_("The read-only link no longer works."))
        st.rerun()


@st.cache_data(max_entries=64, ttl=3600, show_spinner=False)
def _shared_game(digest: str, game_id: int, version: int) -> SharedGameView:
    # The version is part of the cache key: a change to the game is read afresh.
    return run_service(sharing.read_shared_game, sharing.SharedLink(digest, game_id, version))


def open_shared(token: object) -> SharedGameView:
    """The game a read-only link shows (no account needed; visits and tries counted per
    network). The link is looked up on every visit, so an ended one stops at once; what
    it shows is read once per version of the game, whoever visits."""
    link = run_service(sharing.open_share_link, token, client=client_address())
    return _shared_game(link.digest, link.game_id, link.version)


def chart_frame(view: SharedGameView) -> pd.DataFrame:
    """The totals chart's data: game total and round score after each round shown."""
    frame = totals_frame(view)
    scores = {(0, name): 0 for name in view.players}
    for played in view.rounds:
        scores.update(
            ((played.number, name), score)
            for name, score in zip(view.players, played.scores, strict=True)
        )
    frame["round_score"] = [
        scores[(number, name)]
        for number, name in zip(frame["round_number"], frame["player"], strict=True)
    ]
    return frame


def rounds_table(view: SharedGameView) -> pd.DataFrame:
    """One row per round: each player's round score."""
    return pd.DataFrame(
        [
            {_("Round"): played.number, **dict(zip(view.players, played.scores, strict=True))}
            for played in view.rounds
        ],
        columns=[_("Round"), *view.players],
    )
