"""The round route: the Play page's entry stores a complete round here with one request.

At the table the next round's form should be there the moment Save is tapped. Through
Streamlit, a save is a message to the page's script, a run of part of the page and the
browser drawing what that run sent; here it is one ``POST /_dutch/round`` with the entry
as JSON (see :mod:`dutch_app.round_payload`), answered as soon as the round is stored:
the element then shows the next round's empty form at once, and tells the page, which
draws the standings (and checks for itself that the round is there).

The route stores only a round that is complete and right. Anything else is answered
``{"stored": false}`` with nothing written: the element then saves through the page,
which shows each problem by its field, or what happened to the game (another phone saved
the round first, the game ended) with the choices that leaves. A round that the page and
the route both get (a retried request) is stored once: every save names the round number
it is for, and the service refuses, or recognises as the same, a second one.

Every request is checked as the live route's are (:mod:`dutch_app.web.live`): from the
page's own origin, a session cookie of a signed-in person (401 otherwise), and the game's
group must be theirs (404 for an unknown game and a stranger's alike). The body is JSON
of at most :data:`MAX_BODY` bytes (413 above; 400 when it is not an entry). The session
cookie is ``SameSite=Strict``, so no other site's page can send it here.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Callable
from dataclasses import dataclass

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from dutch_app.round_payload import NO_CALLER, chosen_round, number_of, read_entry
from dutch_app.services import games, rounds
from dutch_app.services.errors import ServiceError
from dutch_app.services.live import Watched
from dutch_app.services.unit_of_work import perform
from dutch_app.web.cookie import SESSION_COOKIE
from dutch_app.web.live import LiveResources, OwnChanges, is_tab_name, own_changes
from dutch_core.errors import DutchError
from dutch_core.game import dealer_seat, end_reached

log = logging.getLogger(__name__)

ROUND_ROUTE = "_dutch/round"
MAX_BODY = 16_384  # bytes: an entry of twelve players' hands is well under this


def round_route_path(base_url_path: str = "") -> str:
    """The route's path under Streamlit's ``server.baseUrlPath``."""
    base = base_url_path.strip("/")
    return f"/{base}/{ROUND_ROUTE}" if base else f"/{ROUND_ROUTE}"


@dataclass(frozen=True)
class Stored:
    """A round the route stored: its number, and the game after it."""

    number: int
    version: int | None
    dealer: str
    over: bool

    def as_json(self) -> dict:
        return {
            "stored": True,
            "number": self.number,
            "version": self.version,
            "dealer": self.dealer,
            "over": self.over,
        }


NOT_STORED = {"stored": False}


class RoundRoute:
    """The route's handler, bound to the app's resources."""

    def __init__(
        self, resources: Callable[[], LiveResources], own: OwnChanges | None = None
    ) -> None:
        self._resources = resources
        self.own = own_changes if own is None else own

    def routes(self, base_url_path: str = "") -> list[Route]:
        return [Route(round_route_path(base_url_path), self.respond, methods=["POST"])]

    async def respond(self, request: Request) -> Response:
        """Store the round the request holds, if it is complete and right."""
        if request.headers.get("sec-fetch-site", "same-origin") != "same-origin":
            return _refusal(403)
        if request.headers.get("content-type", "").split(";")[0].strip() != "application/json":
            return _refusal(415)
        token = request.cookies.get(SESSION_COOKIE, "")
        if not token:
            return _refusal(401)
        body = b""
        async for chunk in request.stream():
            body += chunk
            if len(body) > MAX_BODY:
                return _refusal(413)
        try:
            sent = json.loads(body)
        except (ValueError, RecursionError):
            return _refusal(400)
        game_id, basis = number_of(sent, "game"), number_of(sent, "round")
        tab = sent.get("tab") if isinstance(sent, dict) else None
        if game_id is None or basis is None or (tab is not None and not is_tab_name(tab)):
            return _refusal(400)
        try:
            answer = await run_in_threadpool(self._store, token, game_id, basis, sent)
        except PermissionError:
            return _refusal(401)
        except LookupError:
            return _refusal(404)
        except ValueError:
            return _refusal(400)
        except Exception:  # the database is away: the element saves through the page
            log.warning("storing a round through the round route failed", exc_info=True)
            return _refusal(503)
        if isinstance(answer, Stored) and tab is not None and answer.version is not None:
            self.own.note((Watched.GAME, game_id), tab, answer.version)
        return JSONResponse(
            answer.as_json() if isinstance(answer, Stored) else NOT_STORED,
            headers={"Cache-Control": "no-store"},
        )

    def _store(self, token: str, game_id: int, basis: int, sent: object) -> Stored | None:
        """Store the round; None when it is not complete and right, or the game moved on
        (nothing is written then). PermissionError: no valid session; LookupError: not a
        game of the person's; ValueError: not an entry of this game's shape."""
        resources = self._resources()
        account = resources.accounts.check_session(token)
        if account is None:
            raise PermissionError("no valid session")
        user = account.user_id
        try:
            with resources.sessions() as session:
                seating = perform(session, games.get_seating, user, game_id)
        except ServiceError as error:
            raise LookupError("not a game of this person's") from error
        names = [player.name for player in seating.players]
        callers = [*names, *([NO_CALLER] if seating.rules.allow_no_caller else [])]
        read = read_entry(sent, names, callers)
        if read is None:
            raise ValueError("not an entry of this game")
        entry = chosen_round(read[1], names, seating.rules)
        if entry is None or not entry.check.ok:
            return None
        ids = {player.name: player.id for player in seating.players}
        hands = {ids[name]: text for name, text in entry.hands.items()}
        caller = None if entry.caller is None else ids[entry.caller]
        try:
            with resources.sessions() as session:
                stored = perform(
                    session,
                    rounds.add_round,
                    user,
                    game_id,
                    hands,
                    caller,
                    entry.call_type,
                    entry.penalty.strip() or None,
                    for_round=basis,
                )
        except (ServiceError, DutchError):  # moved on, ended, or refused: the page says why
            return None
        # What the next form needs follows from the stored round, with no read again: who
        # deals next, and whether the game's end was reached.
        dealer = seating.players[dealer_seat(stored.number + 1, len(seating.players))].name
        totals = {hand.player: hand.game_total for hand in stored.hands}
        over = end_reached(seating.rules, stored.number, totals)
        return Stored(stored.number, stored.game_version, dealer, over)


def _refusal(status_code: int) -> Response:
    return Response(status_code=status_code, headers={"Cache-Control": "no-store"})
