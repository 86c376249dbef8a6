from __future__ import annotations

from collections.abc import Iterable

from gm_tags import Dice


class ScriptedDice(Dice):
    """Dice that throw the faces a test scripts, in order: for hand-worked checks."""

    def __init__(self, faces: Iterable[int]) -> None:
        super().__init__(0)
        self.faces = list(faces)

    def roll(self, count: int, sides: int) -> list[int]:
        thrown, self.faces = self.faces[:count], self.faces[count:]
        assert len(thrown) == count, "the test scripted too few faces"
        assert all(1 <= face <= sides for face in thrown)
        return thrown
