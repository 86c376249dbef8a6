from __future__ import annotations

import copy
import json
from collections.abc import Callable
from typing import Any

from gm_tags import Game
from gm_tags.dice import Dice
from gm_tags.pipeline import Turn
from gm_tags.ruleset.loader import Ruleset, validate
from tests.conftest import FIXTURES

REFERENCE = FIXTURES / "rulesets" / "reference"


class Scripted(Dice):
    """Dice written down in advance; running out is a failure, so a roll nobody expected is
    caught where it happens rather than as a wrong number later."""

    def __init__(self, *faces: int) -> None:
        super().__init__(0)
        self.faces = list(faces)

    def roll(self, count: int, sides: int) -> list[int]:
        assert len(self.faces) >= count, f"the script ran out of dice ({count}d{sides} asked)"
        thrown, self.faces = self.faces[:count], self.faces[count:]
        assert all(1 <= face <= sides for face in thrown), f"{thrown} on d{sides}"
        return thrown


def variant(name: str, edit: Callable[[dict[str, Any]], None]) -> Ruleset:
    """A reference ruleset (or another fixture ruleset) with `edit` made to its document."""
    path = REFERENCE / f"{name}.json"
    if not path.exists():
        path = REFERENCE.parent / f"{name}.json"
    document = copy.deepcopy(json.loads(path.read_text("utf-8")))
    edit(document)
    return validate(document)


def played(game: Game, reply: str, *faces: int) -> Turn[Game]:
    """`reply` applied with exactly `faces` (all of them used)."""
    from gm_tags.pipeline import process

    dice = Scripted(*faces)
    turn = process(game, reply, dice)
    assert not dice.faces, f"dice left over: {dice.faces}"
    return turn


WARDEN = {
    "abilities": {"sinew": 3, "nerve": 2, "warmth": 2},
    "skills": {"wrestle": "rating_2"},
    "lists": {
        "arms": [
            {
                "name": "Nail",
                "rating": "sinew",
                "trade": "wrestle",
                "dice": "1d10",
                "harm": "tearing",
            },
            {
                "name": "Cudgel",
                "rating": "sinew",
                "trade": "wrestle",
                "dice": "1d10",
                "harm": "blunt",
            },
        ]
    },
}

TRAVELLER = {
    "abilities": {"brawn": 2, "wits": 1, "heart": 1},
    "fields": {"calling": "Hauler", "toughness": 2},
    "lists": {
        "gear": [
            {"name": "Road axe", "swing": "brawn", "damage": "1d6", "harm": "cut", "packed": False},
            {"name": "Sling", "swing": "wits", "damage": "1d4", "harm": "crush", "packed": False},
        ]
    },
}


class Table:
    """A game played reply by reply with scripted dice, keeping every receipt as written back."""

    def __init__(self, game: Game) -> None:
        self.game = game
        self.receipts: list[str] = []

    def step(self, reply: str, *faces: int) -> Turn[Game]:
        turn = played(self.game, reply, *faces)
        self.receipts.extend(r.tag for r in turn.receipts)
        self.game = turn.game
        return turn
