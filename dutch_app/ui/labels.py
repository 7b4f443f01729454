"""What the screens call each member of the app's enums: one table per enum.

>>> CALL_TYPE_LABELS[CallType.AUTO_DUTCH], GAME_STATUS_LABELS[GameStatus.ACTIVE]
('Auto Dutch', 'In progress')
"""

from __future__ import annotations

from dutch_app.services.views import Role
from dutch_core.game import GameStatus
from dutch_core.round_input import CallType
from dutch_core.scoring import Outcome

CALL_TYPE_LABELS: dict[CallType, str] = {CallType.DUTCH: "Dutch", CallType.AUTO_DUTCH: "Auto Dutch"}
OUTCOME_LABELS: dict[Outcome, str] = {
    Outcome.LOWEST: "lowest hand",
    Outcome.TIED: "tied",
    Outcome.BEATEN: "beaten",
}
GAME_STATUS_LABELS: dict[GameStatus, str] = {
    GameStatus.ACTIVE: "In progress",
    GameStatus.ENDED: "Ended",
}
ROLE_LABELS: dict[Role, str] = {Role.OWNER: "Owner", Role.MEMBER: "Member"}
