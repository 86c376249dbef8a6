from __future__ import annotations

import json
from collections.abc import Iterable
from typing import Any

from gm_tags import Dice, Game, load_ruleset
from gm_tags.checks.record import CheckRecord, CheckRequest
from gm_tags.checks.run import roll_check
from gm_tags.sheet.live import LiveState
from tests.conftest import FIXTURES


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


def rolled(game: Game, request: CheckRequest, faces: list[int]) -> CheckRecord:
    """`request` rolled for its character with these faces, the game unchanged."""
    return rolled_and_paid(game, request, faces)[0]


def rolled_and_paid(
    game: Game, request: CheckRequest, faces: list[int]
) -> tuple[CheckRecord, LiveState]:
    """The record and the character's live state after it (a spend or a use pays on the check)."""
    character = game.character(request.who)
    record, live = roll_check(
        game.ruleset,  # type: ignore[arg-type]
        character,
        game.live_of(character),
        request,
        ScriptedDice(faces),
    )
    assert isinstance(record, CheckRecord)
    return record, live


def gravewatch_with(**resolution: Any) -> Game:
    """Wren (Sinew 3 dice, Resolve 4) on Gravewatch with these resolution keys changed."""
    data = json.loads((FIXTURES / "rulesets" / "reference" / "gravewatch.json").read_text("utf-8"))
    data["resolution"].update(resolution)
    return Game.new(load_ruleset(data), {"Wren": {"abilities": {"sinew": 3, "wits": 3}}})
