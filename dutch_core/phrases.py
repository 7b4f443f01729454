"""Text the core writes for people (rule descriptions, labels), kept translatable.

A :class:`Phrase` is the English sentence, as a ``str``, that also remembers its
template and parameters, so the shell can show it in the person's language while
the core knows nothing of languages:

>>> phrase = Phrase("Red Kings count {red}.", red=0)
>>> phrase, phrase.template, phrase.params
('Red Kings count 0.', 'Red Kings count {red}.', {'red': 0})
"""

from __future__ import annotations


class Phrase(str):
    """An English sentence with its template (``{name}`` fields) and their values."""

    template: str
    params: dict[str, object]

    player: str | None

    def __new__(cls, template: str, /, *, player: str | None = None, **params: object) -> Phrase:
        text = template.format(**params) if params else template
        phrase = super().__new__(cls, f"{player}: {text}" if player else text)
        phrase.template = template
        phrase.params = params
        phrase.player = player
        return phrase
