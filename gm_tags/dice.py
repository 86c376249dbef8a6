"""The engine's dice. Every roll gm-tags makes goes through a `Dice`, so a seed makes it exact:
tests and replays give the same faces every time. A reply's run keeps the faces its dice threw,
roll by roll (`Recorded`, around whatever dice it is given), so a stored reply read again throws
them again, each roll its own (`ThrownAgain`)."""

from __future__ import annotations

import random
import secrets
from collections.abc import Mapping, Sequence
from typing import NamedTuple

# A throw's sides when they are not known: a reply stored on schema 8 kept its faces as one run.
SIDES_NOT_KNOWN = 0


class Throw(NamedTuple):
    """One roll's faces, as a reply's run keeps them: `at`, where the tag it was thrown for
    begins in the reply's text, the dice's `sides`, and the `faces` in the order thrown. With
    sides `SIDES_NOT_KNOWN` (`one_run`), the faces of a whole reply kept before its rolls were
    kept apart; its `at` says nothing. A tuple: JSON writes it as `[at, sides, [faces]]`."""

    at: int
    sides: int
    faces: tuple[int, ...]


# What a reply's dice threw, roll by roll, in the order thrown.
Thrown = tuple[Throw, ...]


def one_run(faces: Sequence[int]) -> Thrown:
    """`faces` kept as one run, their rolls not known apart (a reply stored on schema 8)."""
    return (Throw(0, SIDES_NOT_KNOWN, tuple(faces)),) if faces else ()


def is_one_run(thrown: Thrown) -> bool:
    """Whether `thrown` is faces kept as one run (`one_run`), not roll by roll."""
    return len(thrown) == 1 and thrown[0].sides == SIDES_NOT_KNOWN


def faces_of(thrown: Thrown) -> tuple[int, ...]:
    """Every face of `thrown` in the order thrown, as one run (what schema 8 keeps)."""
    return tuple(face for throw in thrown for face in throw.faces)


def joined(first: Thrown, then: Thrown, offset: int) -> Thrown:
    """What a reply that threw `first`, continued by text that threw `then`, throws read again
    whole: the continuation's tags where they are in the whole, `offset` (the reply's length)
    on. A reply kept as one run stays one (which of its rolls a tag threw is not known)."""
    if is_one_run(first):
        return one_run(faces_of(first) + faces_of(then))
    return first + tuple(throw._replace(at=throw.at + offset) for throw in then)


def rest_from(thrown: Thrown, at: int, part: Thrown) -> Thrown:
    """What a reply's tags from `at` in its text on threw, placed in the text from there: the
    rest of a reply whose text before `at` is split off (the part split off threw `part`, read
    again). A reply kept as one run: the faces after as many as `part` threw."""
    if is_one_run(thrown):
        return one_run(faces_of(thrown)[len(faces_of(part)) :])
    return tuple(throw._replace(at=throw.at - at) for throw in thrown if throw.at >= at)


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

    def for_tag(self, at: int) -> None:
        """The rolls from here on are for the tag that begins at `at` in the reply's text: dice
        throwing a stored reply's faces again give each tag its own (`ThrownAgain`)."""

    def again(self) -> Dice:
        """New dice that throw the faces these threw, in the same order, and go on as these
        would (a reply read again from its start rolls what it rolled the first time)."""
        return Dice(self._seed)


class ThrownAgain(Dice):
    """Dice that throw what a stored reply's dice threw (`thrown`), each roll the faces its own
    roll threw, and the rest as `then` throws. The k-th roll of a tag (known by where it begins
    in the reply's text) takes the faces of the k-th roll that tag made, when its dice have the
    same sides: the first of them when it asks for fewer, all of them and then `then`'s when it
    asks for more. A roll with other sides, or past the rolls its tag made, throws `then`'s. So
    on the state it was read on a reply rolls what it rolled, and on another (an earlier turn
    changed) a check whose pool grew or shrank, that explodes more, or that is refused there
    changes no other check's faces.

    A reply kept as one run (`one_run`, schema 8) throws its faces in order, each to the roll
    that asks next, a face above a die's sides taken round them, as it was read before."""

    def __init__(self, thrown: Thrown, then: Dice | None = None) -> None:
        super().__init__()
        self._thrown, self._then = thrown, then or Dice()
        self._run = thrown[0].faces if is_one_run(thrown) else None
        self._next = 0  # the run's next face
        self._kept: dict[tuple[int, int], Throw] = {}  # by tag and roll of the tag
        rolls: dict[int, int] = {}
        for throw in thrown:
            rolls[throw.at] = number = rolls.get(throw.at, -1) + 1
            self._kept[throw.at, number] = throw
        self._at = self._rolls = 0

    def roll(self, count: int, sides: int) -> list[int]:
        if self._run is not None:
            taken = self._run[self._next : self._next + count]
            self._next += len(taken)
            faces = [(face - 1) % sides + 1 for face in taken]
        else:
            kept = self._kept.get((self._at, self._rolls))
            self._rolls += 1
            faces = list(kept.faces[:count]) if kept is not None and kept.sides == sides else []
        if len(faces) < count:
            faces += self._then.roll(count - len(faces), sides)
        return faces

    def for_tag(self, at: int) -> None:
        self._at, self._rolls = at, 0
        self._then.for_tag(at)

    def again(self) -> Dice:
        return ThrownAgain(self._thrown, self._then.again())


class Recorded(Dice):
    """`dice` that keep the faces they threw, roll by roll (`thrown`): a reply's run throws
    through these, so what it keeps does not hang on how the dice it was given roll (a `Dice`
    subclass with a `roll` of its own, or no call to `Dice.__init__`)."""

    def __init__(self, dice: Dice) -> None:  # the dice given throw: no generator of its own
        self._dice = dice
        self._thrown: list[Throw] = []
        self._at = 0

    def roll(self, count: int, sides: int) -> list[int]:
        faces = self._dice.roll(count, sides)
        self._thrown.append(Throw(self._at, sides, tuple(faces)))
        return faces

    def for_tag(self, at: int) -> None:
        self._at = at
        self._dice.for_tag(at)

    @property
    def thrown(self) -> Thrown:
        """Every roll so far, in order, with where its tag begins and its dice's sides."""
        return tuple(self._thrown)

    def moved(self, places: Mapping[int, int]) -> None:
        """The tags that began at `places`' keys begin at their values now (a stopped reply's
        text leaves out what the client was not given before them): their rolls go with them."""
        self._thrown = [throw._replace(at=places.get(throw.at, throw.at)) for throw in self._thrown]

    def again(self) -> Dice:
        return self._dice.again()
