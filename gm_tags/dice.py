"""The engine's dice. Every roll gm-tags makes goes through a `Dice`, so a seed makes it exact:
tests and replays give the same faces every time."""

from __future__ import annotations

import random
import secrets


class Dice:
    """Fair dice from a private random generator; the same `seed` throws the same faces."""

    def __init__(self, seed: int | str | None = None) -> None:
        self._seed = seed
        self._random: random.Random | None = None

    def roll(self, count: int, sides: int) -> list[int]:
        """`count` dice of `sides` faces each, in the order thrown."""
        if self._random is None:
            # Seeding from the system costs more than a short reply's whole processing, and most
            # replies roll nothing: the generator is made on the first roll. Dice without a seed
            # draw one then (64 bits from the system, cheaper than seeding the generator from
            # it), so `again` can throw the same faces.
            if self._seed is None:
                self._seed = secrets.randbits(64)
            self._random = random.Random(self._seed)
        return [self._random.randint(1, sides) for _ in range(count)]

    def again(self) -> Dice:
        """New dice that throw the faces these threw, in the same order, and go on as these
        would (a reply read again from its start rolls what it rolled the first time)."""
        return Dice(self._seed)
