"""The app's words for the game: what the screens call each member of the app's enums
(one table per enum), and the sentence telling how a round's call went, which the Play
page and the round route both say.

The tables hold the English labels, marked for the catalogues; :func:`label` gives a
member's label in this run's language (a select's ``format_func`` should call it
during the run, never keep its result).

>>> CALL_TYPE_LABELS[CallType.AUTO_DUTCH], GAME_STATUS_LABELS[GameStatus.ACTIVE]
('Auto Dutch', 'In progress')
>>> label(Role.OWNER)
'Owner'
"""

from __future__ import annotations

from dutch_app.i18n import N_, _, ngettext
from dutch_app.services.views import Role
from dutch_core.game import GameStatus
from dutch_core.round_input import CallType
from dutch_core.scoring import Outcome, RoundResult

CALL_TYPE_LABELS: dict[CallType, str] = {
    CallType.DUTCH: N_("Dutch"),
    CallType.AUTO_DUTCH: N_("Auto Dutch"),
}
OUTCOME_LABELS: dict[Outcome, str] = {
    Outcome.LOWEST: N_("lowest hand"),
    Outcome.TIED: N_("tied"),
    Outcome.BEATEN: N_("beaten"),
}
GAME_STATUS_LABELS: dict[GameStatus, str] = {
    GameStatus.ACTIVE: N_("In progress"),
    GameStatus.ENDED: N_("Ended"),
}
ROLE_LABELS: dict[Role, str] = {Role.OWNER: N_("Owner"), Role.MEMBER: N_("Member")}


def label(member: CallType | Outcome | GameStatus | Role) -> str:
    """``member``'s label from its enum's table, in this run's language."""
    if isinstance(member, CallType):
        return _(CALL_TYPE_LABELS[member])
    if isinstance(member, Outcome):
        return _(OUTCOME_LABELS[member])
    if isinstance(member, GameStatus):
        return _(GAME_STATUS_LABELS[member])
    return _(ROLE_LABELS[member])


def players_word(count: int) -> str:
    """ "1 player", "3 players", in this run's language."""
    return ngettext("{count} player", "{count} players", count).format(count=count)


def call_summary(result: RoundResult) -> str:
    """One sentence saying how the caller fared and what it cost (plain text: pass it
    through :func:`~dutch_app.ui.text.md` to show it as Markdown)."""
    if result.caller is None or result.call_type is None:
        return _("Nobody called: every player scores their hand.")
    call = label(result.call_type)
    caller_score = next(s for s in result.scores if s.is_caller)
    if result.outcome is Outcome.LOWEST:
        if caller_score.penalty_points < 0:  # fixed-points rules with a bonus for success
            bonus = -caller_score.penalty_points
            taken = ngettext("{count} point taken off", "{count} points taken off", bonus).format(
                count=bonus
            )
            return _("{caller} called {call} and had the lowest hand: {taken}.").format(
                caller=result.caller, call=call, taken=taken
            )
        return _("{caller} called {call} and had the lowest hand: no penalty.").format(
            caller=result.caller, call=call
        )
    parts = []
    if result.lower:
        parts.append(_("beaten by {players}").format(players=players_word(result.lower)))
    if result.tied:
        parts.append(_("tied with {players}").format(players=players_word(result.tied)))
    if result.penalty_cards_due:
        cost = ngettext(
            "drew {cards} penalty card worth {points}",
            "drew {cards} penalty cards worth {points}",
            result.penalty_cards_due,
        ).format(cards=result.penalty_cards_due, points=caller_score.penalty_points)
    else:
        cost = _("took {points} penalty points").format(points=caller_score.penalty_points)
    return _("{caller} called {call}, was {how}, and {cost}.").format(
        caller=result.caller, call=call, how=_(" and ").join(parts), cost=cost
    )
