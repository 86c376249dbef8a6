"""A catalog's parts in the Engine's shape (Capability API 1.21): what its picker filters on, the
units its numbers are in, and an entry's `mechanics`, a closed vocabulary (a typo is refused now,
not ignored when a fight or a `use` reads it). Cross-references: `checks_catalogs.py`.
"""

from __future__ import annotations

import re
from typing import Annotated, Any, Literal

from pydantic import Field, field_validator, model_validator

from .base import PROMPT_SAFE, Label, Number, SheetId, Strict, length

# The reserved mark a picked row carries: "<catalog id>/<entry id>". No list may declare it.
CATALOG_MARK = "_catalog"
ENTRY_ID = r"^[a-z0-9]+(?:-[a-z0-9]+)*$"
ASSET = re.compile(r"^catalogs/[a-z][a-z0-9_]{0,39}\.json$")
_DICE = re.compile(r"^[1-9]\d{0,2}d(?:[2-9]|[1-9]\d{1,3})(?:[+-]\d{1,4})?$")
# What one use may buy on a check (the Engine's ceiling for a spend's effect).
MOST_BOUGHT = 10


def asset_path(catalog_id: str) -> str:
    return f"catalogs/{catalog_id}.json"


class StartFrom(Strict):
    field: SheetId


class CatalogFilter(Strict):
    id: SheetId
    label: Label
    type: Literal["number", "text", "tags"]
    start_from: StartFrom | None = None


class Distance(Strict):
    label: Annotated[str, length(12), PROMPT_SAFE]
    per_cell: Annotated[Number, Field(gt=0)]


class Units(Strict):
    distance: Distance | None = None


class Amount(Strict):
    dice: str | None = None
    flat: int | None = None

    @field_validator("dice")
    @classmethod
    def _dice(cls, dice: str | None) -> str | None:
        if dice is not None and not _DICE.match(dice):
            raise ValueError("Dice look like 2d6 or 1d8+3: at least one die, of at least two sides")
        return dice


class Area(Strict):
    shape: Literal["burst", "cone", "line"]
    size: Annotated[Number, Field(gt=0)]


class Save(Strict):
    save: SheetId
    on_success: Literal["none", "half", "negates"]


class Cost(Strict):
    pool: SheetId
    amount: Annotated[int, Field(ge=1)]


class CheckReroll(Strict):
    up_to: Annotated[int, Field(ge=1, le=999)]
    mode: Literal["once", "until"]


class CheckEffect(Strict):
    """What using an entry does to the check it is named on (`use=`): dice re-thrown, dice or
    successes added, the target, explode or double face moved for that check."""

    reroll: CheckReroll | None = None
    dice: Annotated[int, Field(ge=1, le=MOST_BOUGHT)] | None = None
    successes: Annotated[int, Field(ge=1, le=MOST_BOUGHT)] | None = None
    threshold: Annotated[int, Field(ge=2, le=1000)] | None = None
    explode: Annotated[int, Field(ge=2, le=1000)] | None = None
    double: Annotated[int, Field(ge=2, le=1000)] | None = None

    @model_validator(mode="after")
    def _does_something(self) -> CheckEffect:
        if not any(value is not None for value in self.__dict__.values()):
            raise ValueError("A check effect does something, or is left out")
        return self


class Mechanics(Strict):
    """What an entry does. Typed where gm-tags reads it (`cost`, `perCostStep`, `check`, `save`);
    the rest, read by a fight, checked for its keys and carried."""

    kind: Literal["attack", "heal", "buff", "debuff", "utility", "rider"]
    range: Annotated[Number, Field(ge=0)] | None = None
    area: Area | None = None
    targets: Literal["self", "ally", "enemy", "any"] | None = None
    friendly_fire: bool | None = None
    amount: Amount | None = None
    damage_type: Annotated[str, length(40), PROMPT_SAFE] | None = None
    plus: Annotated[list[dict[str, Any]], Field(max_length=3)] | None = None
    attack_roll: bool | None = None
    save: Save | None = None
    cost: Annotated[list[Cost], Field(max_length=4)] | None = None
    per_cost_step: Amount | None = None
    check: CheckEffect | None = None
    concentration: bool | None = None
    reaction: bool | dict[str, Any] | None = None
    target_count: Annotated[int, Field(ge=1, le=20)] | None = None
    auto_hit: bool | None = None
    applies: Annotated[list[dict[str, Any]], Field(max_length=4)] | None = None
    temporary: Amount | None = None
    scales: dict[str, Any] | None = None
    budget: SheetId | None = None
    free: Literal[True] | None = None
    gives: Annotated[list[dict[str, Any]], Field(min_length=1, max_length=4)] | None = None
    standard: dict[str, Any] | None = None
    rider: dict[str, Any] | None = None

    @model_validator(mode="after")
    def _consistent(self) -> Mechanics:
        if self.rider is not None and self.kind != "rider":
            raise ValueError('An entry with a rider is of the kind "rider"')
        if self.kind == "rider" and self.rider is None:
            raise ValueError('A "rider" entry says what its rider does')
        if self.plus is not None and self.amount is None:
            raise ValueError("A clause needs an amount beside it")
        if self.free and self.budget is not None:
            raise ValueError("Something free spends no budget, so it names none")
        return self
