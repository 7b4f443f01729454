"""Sharing a game: the picture of its result, the live link for a TV or tablet (made on
Play), and the pieces of the page the link opens."""

from __future__ import annotations

import logging
from collections.abc import Callable, Mapping
from functools import partial

import pandas as pd
import streamlit as st

from dutch_app.charts import player_colours
from dutch_app.i18n import _, format_moment
from dutch_app.services import games, sharing
from dutch_app.services.sharing import SharedGameView
from dutch_app.services.views import GameView
from dutch_app.share_image import result_png, totals_frame
from dutch_app.ui.client import client_address
from dutch_app.ui.context import call, current_account, run_service
from dutch_app.ui.guard import guarded
from dutch_app.ui.invite_link import app_address, qr_png
from dutch_app.ui.live import LIVE_EVERY

log = logging.getLogger(__name__)

SHARED_PATH = "shared"
FRESH_LINK_KEY = "share_fresh_link"
OPENED_KEY = "shared_opened"  # (token, SharedLink): the link this tab opened and counted


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


def tv_link(game: GameView) -> None:
    """During a game: the live link for a TV or tablet, folded away until wanted."""
    with st.expander(_("Show on a TV or tablet"), icon=":material/cast:"), guarded():
        read_only_link(game)


def read_only_link(game: GameView) -> None:
    """Make, show (as a link and a QR code) and end the game's live link, which needs no
    account."""
    state = call(sharing.share_link_state, game.id)
    fresh = st.session_state.get(FRESH_LINK_KEY)
    st.caption(
        _(
            "A live link shows this game as it goes (standings, the last round, who deals "
            "next) on a TV or tablet, or to anyone who has it, without an account; nothing "
            "else of the group. Any member can end it."
        )
    )
    if state.exists and fresh is not None and fresh[0] == game.id:
        link = shared_link(fresh[1], app_address())
        st.code(link, language=None)
        st.image(qr_png(link), caption=_("Scan to watch the game"), width=220)
    elif state.made_at is not None:
        st.caption(
            _(
                "This game has a live link since {when} UTC. Make a new one to see a "
                "link again (the old one then stops working)."
            ).format(when=format_moment(state.made_at))
        )
    make, end = st.columns(2)
    label = _("Make a new live link") if state.exists else _("Make a live link")
    if make.button(label, key="play_share_make", icon=":material/link:"):
        token = call(sharing.make_share_link, game.id)
        st.session_state[FRESH_LINK_KEY] = (game.id, token)
        st.rerun()
    if state.exists and end.button(
        _("End the link"), key="play_share_end", icon=":material/link_off:"
    ):
        call(sharing.end_share_link, game.id)
        st.session_state.pop(FRESH_LINK_KEY, None)
        st.toast(_("The live link no longer works."))
        st.rerun()


@st.cache_data(max_entries=64, ttl=3600, show_spinner=False)
def _shared_game(digest: str, game_id: int, version: int) -> SharedGameView:
    # The version is part of the cache key: a change to the game is read afresh.
    return run_service(sharing.read_shared_game, sharing.SharedLink(digest, game_id, version))


def open_shared(token: object) -> tuple[sharing.SharedLink, SharedGameView]:
    """The link and the game it shows (no account needed). A tab's first look counts as a
    visit, its tries per network (:func:`sharing.open_share_link`); its later runs (the
    game moved on) look the link up again without counting, so an ended link stops at
    once. What a link shows is read once per version of the game, whoever watches."""
    opened = st.session_state.get(OPENED_KEY)
    if opened is not None and opened[0] == token:
        link = run_service(sharing.follow_share_link, opened[1])
    else:
        link = run_service(sharing.open_share_link, token, client=client_address())
        st.session_state[OPENED_KEY] = (token, link)
    return link, _shared_game(link.digest, link.game_id, link.version)


@st.cache_data(max_entries=16, ttl=3600, show_spinner=False)
def shared_picture(digest: str, game_id: int, version: int) -> bytes:
    """The result's picture of a link's game, drawn once per version of the game."""
    view = _shared_game(digest, game_id, version)
    return result_png(view, player_colours(enumerate(view.players)), view.ended_at)


@st.fragment(run_every=LIVE_EVERY)
def follow_link(link: sharing.SharedLink) -> None:
    """Keep a link's page in step with its game: every :data:`LIVE_EVERY` seconds look up
    the game's version (one indexed query, nothing drawn) and run the page again when it
    moved on, or when the link no longer works."""
    try:
        now = run_service(sharing.follow_share_link, link)
    except sharing.ShareLinkInvalid:
        st.rerun()
    except Exception:  # a passing database hiccup: the next look tries again
        log.warning("following a shared game failed", exc_info=True)
        return
    if now.version != link.version:
        st.rerun()


_full_screen = st.components.v2.component(
    "dutch_full_screen",
    html="<button type='button' class='full-screen'></button>",
    css=""".full-screen { font: inherit; padding: 0.4rem 0.9rem; border-radius: 0.5rem;
  border: 1px solid currentColor; background: transparent; color: inherit; cursor: pointer; }
.full-screen[hidden] { display: none; }""",
    js="""export default function ({ data, parentElement }) {
  const button = parentElement.querySelector("button");
  const root = document.documentElement;
  const enter = root.requestFullscreen || root.webkitRequestFullscreen;
  button.hidden = !enter;
  const label = () => {
    const full = document.fullscreenElement || document.webkitFullscreenElement;
    button.textContent = full ? data.leave : data.enter;
  };
  label();
  button.onclick = () => {
    if (document.fullscreenElement || document.webkitFullscreenElement) {
      (document.exitFullscreen || document.webkitExitFullscreen).call(document);
    } else if (enter) {
      enter.call(root);
    }
  };
  document.addEventListener("fullscreenchange", label);
  return () => document.removeEventListener("fullscreenchange", label);
}""",
)


def full_screen_button() -> None:
    """A button that fills the screen with the page (and leaves full screen again); hidden
    where the browser cannot."""
    _full_screen(
        key="shared_full_screen",
        data={"enter": _("Full screen"), "leave": _("Leave full screen")},
        height="content",
    )


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
