"""The errors the core raises for bad input.

Every message names the player (where there is one) and quotes the offending
token or number, so the shell can show it next to the field it concerns.

A message is an English template with its parameters kept apart, so the shell can
show it in the person's language (``dutch_app.i18n.error_text``) while the core
stays free of any translation machinery:

>>> error = CardError("{token!r} is not a card", player="Ann", token="X")
>>> str(error), error.template, error.params
("Ann: 'X' is not a card", '{token!r} is not a card', {'token': 'X'})

``player`` names whose field the message is about; it comes first, as ``"Ann: "``.
Without parameters the template is taken as it is (no braces are read).
"""

from dutch_core.phrases import Phrase


def player_prefix(player: str | None) -> str:
    """What starts a message about ``player``'s field: ``"Ann: "``, or nothing without one."""
    return f"{player}: " if player else ""


class DutchError(ValueError):
    """Base of every error the core raises for input it cannot accept.

    ``template`` is the English message with ``{name}`` fields and ``params`` fill
    them; ``player`` is whose field the error belongs to (None for the round as a
    whole), given when the error is made; the message then starts with their name.

    >>> error = DutchError("'K' needs a colour", player="Ann")
    >>> str(error), error.player
    ("Ann: 'K' needs a colour", 'Ann')
    """

    def __init__(self, template: str, /, player: str | None = None, **params: object) -> None:
        message = template.format(**params) if params else template
        super().__init__(player_prefix(player) + message)
        self.template = template
        self.params = params
        self.player = player

    def phrase(self) -> Phrase:
        """The message as a :class:`~dutch_core.phrases.Phrase` (for a form's field)."""
        return Phrase(self.template, player=self.player, **self.params)


class CardError(DutchError):
    """A card token could not be read (unknown rank, bare King, bad suit)."""


class HandError(DutchError):
    """A hand is not usable: malformed text, or a total out of range."""


class RulesError(DutchError):
    """House rules that contradict themselves or are out of range."""


class RoundError(DutchError):
    """A round that cannot be scored: players, caller or call type are wrong."""


class PenaltyError(RoundError):
    """Penalty cards that do not match what the caller must draw."""


class DeckError(RoundError):
    """A round that no single deck could have produced (too many of a card)."""


class GameError(DutchError):
    """A game operation that is not allowed (unknown round, game over, players)."""
