"""The engine's dice. Every roll gm-tags makes goes through a `Dice`, so a seed makes it exact:
tests and replays give the same faces every time."""

from __future__ import annotations

import random


class Dice:
    """Fair dice from a private random generator; the same `seed` throws the same faces."""

    def __init__(self, seed: int | str | None = None) -> None:
        self._seed = seed
        self._random: random.Random | None = None

    def roll(self, count: int, sides: int) -> list[int]:
        """`count` dice of `sides` faces each, in the order thrown."""
        if self._random is None:
            # Seeding from the system costs more than a short reply's whole processing, and most
            # replies roll nothing: the generator is made on the first roll.
            self._random = random.Random(self._seed)
        return [self._random.randint(1, sides) for _ in range(count)]
