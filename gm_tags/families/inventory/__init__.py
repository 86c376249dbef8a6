"""`[inventory: ...]`: items added, removed, given, worn and bound, and money paid and earned
(`gm_tags.engine.inventory`, docs/inventory.md), and the reminder's inventory commands (the
`[loot:]` tag's among them)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ...commands.inventory import InventoryCommand
from ...dice import Dice
from ...engine.inventory import run_inventory
from ...engine.outcome import Outcome
from ...prompt.inventory import inventory_command_lines
from ...prompt.reminder import Teaching
from ...reasons import Reason
from ...state import Draft, GameState
from ..family import Family
from .bind import bind_inventory


def run(command: InventoryCommand, draft: Draft[Any], dice: Dice) -> Outcome:
    return run_inventory(command, draft)


def words(request: Mapping[str, str | None]) -> list[str]:
    """`Mira add Rope`, `Mira pay gold`, `Mira loot Goblin pockets`."""
    what = request.get("item") or request.get("table") or request.get("unit") or ""
    return [request.get("who") or "", request.get("action") or "loot", what]


def teach(game: GameState) -> Teaching:
    assert game.ruleset is not None
    return Teaching(inventory_command_lines(game.ruleset))


# What a bag, a purse or a ruleset allows: how much is carried, held, bound, worth.
EXPLAINED = frozenset(
    {
        Reason.SLOT_FULL,
        Reason.BINDING_FULL,
        Reason.OVER_LIMIT,
        Reason.OVER_CAP,
        Reason.UNKNOWN_UNIT,
        Reason.WRONG_CURRENCY,
        Reason.UNKNOWN_TABLE,
    }
)
FAMILY = Family(
    "inventory",
    bind_inventory,
    run,
    words,
    explained=EXPLAINED | {Reason.INSUFFICIENT},
    teach=teach,
)
