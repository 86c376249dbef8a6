"""The engine's dice. Every roll gm-tags makes goes through a `Dice`, so a seed makes it exact:
tests and replays give the same faces every time. A reply's run keeps the faces its dice threw
(`Recorded`, around whatever dice it is given), so a stored reply read again throws them again
(`ThrownAgain`)."""

from __future__ import annotations

import random
import secrets
from collections.abc import Sequence


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


class ThrownAgain(Dice):
    """Dice that throw `faces` first, in order (what a stored reply's dice threw), then go on as
    `then` throws: a reply read again, whole or cut, on the state it was read on rolls what it
    rolled; on another state (an earlier turn changed) the same faces still come in the same
    order, each to the roll that asks next. A face above a die's sides (the order met another
    die there) is taken round its sides."""

    def __init__(self, faces: Sequence[int], then: Dice | None = None) -> None:
        super().__init__()
        self._faces = tuple(faces)
        self._next = 0
        self._then = then or Dice()

    def roll(self, count: int, sides: int) -> list[int]:
        taken = self._faces[self._next : self._next + count]
        self._next += len(taken)
        faces = [(face - 1) % sides + 1 for face in taken]
        if len(faces) < count:
            faces += self._then.roll(count - len(faces), sides)
        return faces

    def again(self) -> Dice:
        return ThrownAgain(self._faces, self._then.again())


class Recorded(Dice):
    """`dice` that keep the faces they threw, in order (`thrown`): a reply's run throws through
    these, so what it keeps does not hang on how the dice it was given roll (a `Dice` subclass
    with a `roll` of its own, or no call to `Dice.__init__`)."""

    def __init__(self, dice: Dice) -> None:  # the dice given throw: no generator of its own
        self._dice = dice
        self._thrown: list[int] = []

    def roll(self, count: int, sides: int) -> list[int]:
        faces = self._dice.roll(count, sides)
        self._thrown += faces
        return faces

    @property
    def thrown(self) -> tuple[int, ...]:
        """Every face thrown so far, in order."""
        return tuple(self._thrown)

    def again(self) -> Dice:
        return self._dice.again()
