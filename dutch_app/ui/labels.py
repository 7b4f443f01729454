"""What the screens call each member of the app's enums: one table per enum.

The tables hold the English labels, marked for the catalogues; :func:`label` gives a
member's label in this run's language (a select's ``format_func`` should call it
during the run, never keep its result).

>>> CALL_TYPE_LABELS[CallType.AUTO_DUTCH], GAME_STATUS_LABELS[GameStatus.ACTIVE]
('Auto Dutch', 'In progress')
>>> label(Role.OWNER)
'Owner'
"""

from __future__ import annotations

from dutch_app.i18n import N_, _
from dutch_app.services.views import Role
from dutch_core.game import GameStatus
from dutch_core.round_input import CallType
from dutch_core.scoring import Outcome

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
