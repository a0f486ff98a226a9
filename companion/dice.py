"""Dice, symbols and tokens: the names the table uses, and the faces of each die.

A die count is a :class:`Dice` value (white, red, blue); a rolled stash is a :class:`Roll`,
the symbols on top grouped by color. Both are small immutable tuples so that game states
stay cheap to copy and safe to share.
"""

from __future__ import annotations

import random
from math import floor
from typing import NamedTuple

COLORS: tuple[str, ...] = ("white", "red", "blue")
SYMBOLS: tuple[str, ...] = ("finger", "gun", "cocktail", "gavel")
TOKENS: tuple[str, ...] = ("lawyer", "speakeasy", "streets", "investigator")

#: The symbol that influences each token, and back.
TOKEN_SYMBOL: dict[str, str] = {
    "lawyer": "gavel",
    "speakeasy": "cocktail",
    "streets": "gun",
    "investigator": "finger",
}
SYMBOL_TOKEN: dict[str, str] = {symbol: token for token, symbol in TOKEN_SYMBOL.items()}

#: Each color's own symbol, shown twice on its dice (the finger is on every die twice).
OWN_SYMBOL: dict[str, str] = {"red": "gun", "blue": "cocktail", "white": "gavel"}


def _faces(color: str) -> tuple[str, ...]:
    own = OWN_SYMBOL[color]
    others = tuple(s for s in SYMBOLS if s not in ("finger", own))
    return ("finger", "finger", own, own) + others


#: The six faces of a die of each color.
FACES: dict[str, tuple[str, ...]] = {color: _faces(color) for color in COLORS}


class Dice(NamedTuple):
    """How many dice of each color a place holds (a stash, a token, the box)."""

    white: int = 0
    red: int = 0
    blue: int = 0

    @property
    def total(self) -> int:
        return self[0] + self[1] + self[2]

    def of(self, color: str) -> int:
        return self[COLORS.index(color)]

    def plus(self, color: str, n: int = 1) -> "Dice":
        """These dice with ``n`` more of ``color`` (fewer, for a negative ``n``)."""
        white, red, blue = self
        if color == "white":
            return _new(Dice, (white + n, red, blue))
        if color == "red":
            return _new(Dice, (white, red + n, blue))
        if color == "blue":
            return _new(Dice, (white, red, blue + n))
        raise ValueError(f"{color!r} is not a dice color")

    def add(self, other: "Dice") -> "Dice":
        return _new(Dice, (self[0] + other[0], self[1] + other[1], self[2] + other[2]))

    def as_dict(self) -> dict[str, int]:
        return {"white": self[0], "red": self[1], "blue": self[2]}

    def colors(self) -> tuple[str, ...]:
        """The colors of which there is at least one die."""
        # Looked up rather than built: engine and bots ask for it at nearly every decision.
        return _PRESENT[(self[0] > 0) + 2 * (self[1] > 0) + 4 * (self[2] > 0)]

    @classmethod
    def from_colors(cls, colors: "list[str] | tuple[str, ...]") -> "Dice":
        return _new(cls, (colors.count("white"), colors.count("red"), colors.count("blue")))


#: A named tuple built straight from its values, skipping the keyword-handling constructor.
_new = tuple.__new__
#: The colors present, for each pattern of white (1), red (2) and blue (4) being present.
_PRESENT: tuple[tuple[str, ...], ...] = tuple(
    tuple(color for i, color in enumerate(COLORS) if pattern & (1 << i)) for pattern in range(8)
)

NO_DICE = Dice(0, 0, 0)


class Roll(NamedTuple):
    """The symbols showing on a player's rolled dice, grouped by color."""

    white: tuple[str, ...] = ()
    red: tuple[str, ...] = ()
    blue: tuple[str, ...] = ()

    def count(self, symbol: str) -> int:
        """How many of these dice show ``symbol``."""
        return self[0].count(symbol) + self[1].count(symbol) + self[2].count(symbol)

    def symbols(self) -> frozenset[str]:
        """The symbols showing on at least one die."""
        return frozenset(self[0] + self[1] + self[2])

    def dice(self) -> Dice:
        return Dice(len(self[0]), len(self[1]), len(self[2]))

    def as_dict(self) -> dict[str, list[str]]:
        return {color: list(faces) for color, faces in zip(COLORS, self)}

    @classmethod
    def from_dict(cls, faces: dict[str, list[str] | tuple[str, ...]]) -> "Roll":
        return cls(*(tuple(faces.get(color, ())) for color in COLORS))


def roll_dice(dice: Dice, rng: random.Random) -> Roll:
    """Roll ``dice`` with their real faces: 2 fingers, 2 of the color's own symbol, 1 of each other.

    Virtual dice for play without a camera and for bots; randomness comes only from ``rng``.
    """
    # One die after the other, white first: the same faces for the same rng. A face is picked as
    # floor(random() * 6), as random.choices() does: uniform over the six faces, and far cheaper
    # than choice() in a simulation (floor() is also cheaper than int() here, with the same
    # result). All the dice are rolled in one pass and then grouped by color, which is cheaper
    # than a pass per color.
    random_ = rng.random
    white, red, blue = dice
    faces = tuple([die[floor(random_() * 6)] for die in _WHITE_DIE * white + _RED_DIE * red + _BLUE_DIE * blue])
    white_red = white + red
    return _new(Roll, (faces[:white], faces[white:white_red], faces[white_red:]))


#: One die of each color, as its tuple of faces (repeated to list the dice to roll).
_WHITE_DIE, _RED_DIE, _BLUE_DIE = (FACES["white"],), (FACES["red"],), (FACES["blue"],)
