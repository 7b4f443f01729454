"""The round route: the one way the Play page stores a round, ``POST /_dutch/round``.

The page's entry element (``dutch_app/ui/play_entry.js``) sends the whole entry as JSON
(see :mod:`dutch_app.round_payload`) with the round number it is for, and draws whatever
the route answers. Every outcome is an answer of its own, in the person's language:

- ``stored``: the round's number, who deals next, whether the game's end was reached, and
  one line saying so (the element shows the next round's empty form at once);
- ``invalid``: the entry's problems, each by its field, nothing written;
- ``moved_on``: another phone saved that round number first (or took the one before it
  back): the number the entry can be saved as now, and who saved the round it was for;
- ``ended``: the game ended, with whether reopening it can take the round; the element
  then offers to reopen it and save (a request with ``reopen``);
- ``refused``: any other refusal of the service, as a sentence;
- ``other_account``: the entry was kept on the phone for another account than the one now
  signed in there; it is not stored.

A round sent twice (a retried request, a double tap) is stored once: every save names the
round number it is for, and the service answers the same entry for the same number with
the round as stored (:func:`dutch_app.services.rounds.add_round`).

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
from typing import Any

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from dutch_app.i18n import LANGUAGES, _, error_text, use_language
from dutch_app.labels import call_summary
from dutch_app.round_payload import (
    caller_options,
    check_draft,
    number_of,
    problems_data,
    read_entry,
)
from dutch_app.services import games, rounds
from dutch_app.services.errors import GameEnded, ServiceError, StaleRound
from dutch_app.services.live import Watched
from dutch_app.services.unit_of_work import perform
from dutch_app.web.assets import asset_path
from dutch_app.web.cookie import SESSION_COOKIE, no_store
from dutch_app.web.live import LiveResources, OwnChanges, is_tab_name, own_changes
from dutch_core.errors import DutchError
from dutch_core.game import dealer_seat, end_reached

log = logging.getLogger(__name__)

MAX_BODY = 16_384  # bytes: an entry of twelve players' hands is well under this


def round_route_path(base_url_path: str = "") -> str:
    """The route's path under Streamlit's ``server.baseUrlPath``."""
    return asset_path("round", base_url_path)


def store_entry(resources: LiveResources, user_id: int, sent: dict[str, Any]) -> dict[str, Any]:
    """Store the entry ``sent`` as the round it names, and say what happened (the route's
    answer, see the module's docstring). LookupError: not a game of the person's;
    ValueError: not an entry of this game's shape."""
    game_id, basis = number_of(sent, "game"), number_of(sent, "round")
    if game_id is None or basis is None:
        raise ValueError("no game or round number")
    owner = sent.get("account")
    if owner is not None and owner != user_id:
        # Kept on a phone for another account, now sent with this one's cookie (another
        # person signed in on that phone): it is not this person's round to save.
        return {"outcome": "other_account"}
    language = sent.get("lang")
    locale = sent.get("locale")
    use_language(
        language if isinstance(language, str) and language in LANGUAGES else None,
        browser=locale if isinstance(locale, str) and len(locale) < 36 else None,
    )
    try:
        with resources.sessions() as session:
            seating = perform(session, games.get_seating, user_id, game_id)
    except ServiceError as error:
        raise LookupError("not a game of this person's") from error
    names = [player.name for player in seating.players]
    draft = read_entry(sent, names, caller_options(names, seating.rules))
    if draft is None:
        raise ValueError("not an entry of this game")
    fields, check, errors = check_draft(draft, names, seating.rules)
    problems = problems_data(errors, names, draft.caller is not None)
    if problems is not None:
        return {"outcome": "invalid", **problems}
    ids = {player.name: player.id for player in seating.players}
    hands = {ids[name]: text for name, text in fields.hand_texts.items()}
    caller = None if fields.caller is None else ids[fields.caller]
    try:
        with resources.sessions() as session:
            stored = perform(
                session,
                rounds.add_round,
                user_id,
                game_id,
                hands,
                caller,
                fields.call_type,
                fields.penalty_text.strip() or None,
                for_round=basis,
                reopen=sent.get("reopen") is True,
            )
    except StaleRound as error:
        return {
            "outcome": "moved_on",
            "next": error.next_number,
            "latest": error.latest,
            "by": error.latest_by,
        }
    except GameEnded as error:
        return {"outcome": "ended", "message": error_text(error), "reopen": not error.final}
    except (ServiceError, DutchError) as error:
        return {"outcome": "refused", "message": error_text(error)}
    # What the next form needs follows from the stored round, with no read again: who
    # deals next, and whether the game's end was reached.
    dealer = names[dealer_seat(stored.number + 1, len(names))]
    totals = {hand.player: hand.game_total for hand in stored.hands}
    saved = _("Round {number} saved.").format(number=stored.number)
    return {
        "outcome": "stored",
        "number": stored.number,
        "version": stored.game_version,
        "dealer": dealer,
        "over": end_reached(seating.rules, stored.number, totals),
        "line": f"{saved} {call_summary(check.result)}" if check.result else saved,
    }


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
        """Store the round the request holds, or say why not."""
        if request.headers.get("sec-fetch-site", "same-origin") != "same-origin":
            return no_store(403)
        if request.headers.get("content-type", "").split(";")[0].strip() != "application/json":
            return no_store(415)
        token = request.cookies.get(SESSION_COOKIE, "")
        if not token:
            return no_store(401)
        body = b""
        async for chunk in request.stream():
            body += chunk
            if len(body) > MAX_BODY:
                return no_store(413)
        try:
            sent = json.loads(body)
        except (ValueError, RecursionError):
            return no_store(400)
        if not isinstance(sent, dict):
            return no_store(400)
        tab = sent.get("tab")
        if tab is not None and not is_tab_name(tab):
            return no_store(400)
        try:
            answer = await run_in_threadpool(self._store, token, sent)
        except PermissionError:
            return no_store(401)
        except LookupError:
            return no_store(404)
        except ValueError:
            return no_store(400)
        except Exception:  # the database is away: the element keeps the entry and says so
            log.warning("storing a round through the round route failed", exc_info=True)
            return no_store(503)
        version = answer.get("version")
        if answer["outcome"] == "stored" and tab is not None and version is not None:
            self.own.note((Watched.GAME, sent["game"]), tab, version)
        return JSONResponse(answer, headers={"Cache-Control": "no-store"})

    def _store(self, token: str, sent: dict[str, Any]) -> dict[str, Any]:
        resources = self._resources()
        account = resources.accounts.check_session(token)
        if account is None:
            raise PermissionError("no valid session")
        return store_entry(resources, account.user_id, sent)
