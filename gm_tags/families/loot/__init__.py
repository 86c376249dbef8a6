"""`[loot: ...]`: a loot table rolled into a character's bag (`gm_tags.engine.loot`); the
reminder teaches it with the inventory's commands."""

from __future__ import annotations

from typing import Any

from ...commands.inventory import LootCommand
from ...dice import Dice
from ...engine.loot import run_loot
from ...engine.outcome import Outcome
from ...state import Draft
from ..family import Family
from ..inventory import EXPLAINED, words
from .bind import bind_loot


def run(command: LootCommand, draft: Draft[Any], dice: Dice) -> Outcome:
    return run_loot(command, draft, dice)


FAMILY = Family("loot", bind_loot, run, words, explained=EXPLAINED)
