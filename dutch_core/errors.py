"""The errors the core raises for bad input.

Every message names the player (where there is one) and quotes the offending
token or number, so the shell can show it next to the field it concerns.
"""


def player_prefix(player: str | None) -> str:
    """What starts a message about ``player``'s field: ``"Ann: "``, or nothing without one."""
    return f"{player}: " if player else ""


class DutchError(ValueError):
    """Base of every error the core raises for input it cannot accept.

    ``player`` is whose field the error belongs to (None for the round as a whole);
    the message then starts with their name.

    >>> error = DutchError("'K' needs a colour", player="Ann")
    >>> str(error), error.player
    ("Ann: 'K' needs a colour", 'Ann')
    """

    def __init__(self, message: str, player: str | None = None) -> None:
        super().__init__(player_prefix(player) + message)
        self.player = player


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
