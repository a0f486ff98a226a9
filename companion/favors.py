"""The favor cards: a deck of 36 (6 × 0, 12 × 1, 12 × 2, 6 × 3) and a face-up stack of six +4 cards."""

from __future__ import annotations

#: Copies of each value in the favor deck.
DECK_COMPOSITION: dict[int, int] = {0: 6, 1: 12, 2: 12, 3: 6}
#: The value of a special card, and how many there are.
SPECIAL_VALUE = 4
SPECIAL_COUNT = 6

FULL_DECK: tuple[int, ...] = tuple(v for v, n in DECK_COMPOSITION.items() for _ in range(n))
TOTAL_CARDS = len(FULL_DECK) + SPECIAL_COUNT  # 42
