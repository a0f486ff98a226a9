"""The nine character cards of the box, as data.

The rulebook does not print the characters' abilities; the table applies them through host
adjustments. What the engine needs is a name and a hand size (favor cards dealt at setup and
refilled to), which defaults to the tutorial's 3 and can be changed per game.
"""

from __future__ import annotations

from dataclasses import dataclass

TUTORIAL_HAND_SIZE = 3


@dataclass(frozen=True, slots=True)
class Character:
    name: str
    hand_size: int = TUTORIAL_HAND_SIZE


CHARACTERS: tuple[Character, ...] = tuple(
    Character(name)
    for name in (
        "Nancy Hughs",
        "Bobby Washington",
        "Eddie Vandenburg",
        "Franky",
        "Roberts",
        "Silvio",
        "Timmy Green",
        "Don Ciaperinelli",
        "Liza Bruno",
    )
)

CHARACTER_BY_NAME: dict[str, Character] = {c.name: c for c in CHARACTERS}


def character(name: str, hand_size: int | None = None) -> Character:
    """The character called ``name``, with its hand size changed when one is given."""
    try:
        base = CHARACTER_BY_NAME[name]
    except KeyError:
        raise ValueError(f"there is no character called {name!r}") from None
    return base if hand_size is None else Character(base.name, hand_size)
