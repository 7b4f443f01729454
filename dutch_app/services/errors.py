"""The errors services raise; pages show their message next to the field concerned.

The scoring core's own errors (:class:`dutch_core.errors.DutchError`) pass
through services unchanged: they already name the player and the bad token.
"""

from __future__ import annotations

from dutch_app.i18n import N_, _

NOT_FOUND = {
    ("game", "id"): N_("No game with id {ident!r}."),
    ("group", "id"): N_("No group with id {ident!r}."),
    ("group", "invite code"): N_("No group with invite code {ident!r}."),
    ("member", "id"): N_("No member with id {ident!r}."),
    ("player", "id"): N_("No player with id {ident!r}."),
    ("round", "id"): N_("No round with id {ident!r}."),
    ("user", "id"): N_("No user with id {ident!r}."),
}
"""What a person reads when something is not there (or not theirs), by kind and key."""


class ServiceError(Exception):
    """Base of every error a service raises for a request it cannot carry out."""


class NotFound(ServiceError, LookupError):
    """No such object, or one the acting user may not see (the two are not told apart).

    >>> str(NotFound("game", 12))
    'No game with id 12.'
    >>> str(NotFound("group", "X7Q2", key="invite code"))
    "No group with invite code 'X7Q2'."
    """

    def __init__(self, kind: str, ident: object, key: str = "id") -> None:
        self.kind = kind
        self.ident = ident
        self.key = key
        template = NOT_FOUND.get((kind, key))
        if template is None:
            message = f"No {kind} with {key} {ident!r}."
        else:
            message = _(template).format(ident=ident)
        super().__init__(message)


class Conflict(ServiceError):
    """Someone else changed the object first, or its state forbids the change."""


class Forbidden(ServiceError):
    """A member asked for something only the group's owner may do."""


class ValidationError(ServiceError, ValueError):
    """Input a service refuses; ``field`` names the argument or form field.

    >>> error = ValidationError("name", "A name cannot be empty.")
    >>> error.field, str(error)
    ('name', 'A name cannot be empty.')
    """

    def __init__(self, field: str, message: str) -> None:
        self.field = field
        super().__init__(message)


class LimitReached(ServiceError):
    """A cap or a throttle refuses the request: too many groups, players, or wrong codes.

    ``field`` names the form field the message belongs next to, when there is one.
    """

    def __init__(self, message: str, field: str | None = None) -> None:
        self.field = field
        super().__init__(message)


class StaleRound(Conflict):
    """A round written against a round number the game has moved past (or back from).

    ``next_number`` is the number the next round gets now; ``latest`` is the
    number of the game's latest round (0 before the first) and ``latest_by`` who
    entered it (a display name, or None when unknown).
    """

    def __init__(
        self, message: str, *, next_number: int, latest: int, latest_by: str | None
    ) -> None:
        self.next_number = next_number
        self.latest = latest
        self.latest_by = latest_by
        super().__init__(message)


class GameEnded(Conflict):
    """A round written into a game that has ended; ``winners`` and ``total`` say who won,
    ``final`` that it reached its end condition (reopened, it takes no more rounds)."""

    def __init__(
        self, message: str, *, winners: tuple[str, ...], total: int | None, final: bool = False
    ) -> None:
        self.winners = winners
        self.total = total
        self.final = final
        super().__init__(message)


class EndCrossed(ServiceError):
    """A correction after which the game would have ended before its last round, refused
    until the person chooses what then (see ``rounds.PastTheEnd``); nothing was saved.
    ``ended_after`` is the round after which the end rule now holds, ``played`` the rounds
    stored."""

    def __init__(self, message: str, *, ended_after: int, played: int) -> None:
        self.ended_after = ended_after
        self.played = played
        super().__init__(message)
