"""A catalog entry's `mechanics` in the Engine's shape: what using the entry does. The vocabulary
is closed (a typo is refused now, not ignored when a fight or a `use` reads it) and every part of
it is typed, down to the clauses, conditions, riders and moments inside. What these models cannot
say (a name the sheet lacks, a rule spanning two keys, paths below the object) is checked in
`checks_mechanics.py`, at the Engine's paths.
"""

from __future__ import annotations

import re
from typing import Annotated, Any, Literal

from pydantic import AfterValidator, Field, Tag, model_validator

from .base import PROMPT_SAFE, Number, SheetId, Strict, length, shape
from .refs import StepTable, ValueRef

_DICE = re.compile(r"^[1-9]\d{0,2}d(?:[2-9]|[1-9]\d{1,3})(?:[+-]\d{1,4})?$")
# What one use may buy on a check (the Engine's ceiling for a spend's effect).
MOST_BOUGHT = 10
DamageType = Annotated[str, length(40), PROMPT_SAFE]
# The keys a rider carries nothing of: nobody takes a rider, so nothing that would put it on a
# menu or spend something for it (`mechanics` keys, in the Engine's order).
RIDER_FORBIDS = (
    "range",
    "area",
    "targets",
    "friendlyFire",
    "amount",
    "damageType",
    "plus",
    "attackRoll",
    "save",
    "cost",
    "perCostStep",
    "concentration",
    "reaction",
    "targetCount",
    "autoHit",
    "applies",
    "temporary",
    "budget",
    "free",
    "gives",
    "standard",
)


def _dice(dice: str) -> str:
    if len(dice) > 40 or not _DICE.match(dice):
        raise ValueError("Dice look like 2d6 or 1d8+3: at least one die, of at least two sides")
    return dice


Dice = Annotated[str, AfterValidator(_dice)]


class Amount(Strict):
    dice: Dice | None = None
    flat: int | None = None


class Area(Strict):
    shape: Literal["burst", "cone", "line"]
    size: Annotated[Number, Field(gt=0)]


class Save(Strict):
    save: SheetId
    on_success: Literal["none", "half", "negates"]


class Cost(Strict):
    pool: SheetId
    amount: Annotated[int, Field(ge=1)]


class ClauseSave(Strict):
    """The save one clause asks the target for; a success leaves none or half of the clause."""

    save: SheetId
    difficulty: Annotated[int, Field(ge=0, le=1000)] | None = None
    on_success: Literal["none", "half"]


class PlusClause(Strict):
    """One more amount on the same blow, rolled and typed on its own ("and 2d6 fire")."""

    dice: Dice | None = None
    flat: Annotated[int, Field(ge=-1000, le=10000)] | None = None
    type: DamageType | None = None
    save: ClauseSave | None = None

    @model_validator(mode="after")
    def _some_amount(self) -> PlusClause:
        if self.dice is None and self.flat is None:
            raise ValueError("A clause names dice, a flat amount, or both")
        return self


class Rounds(Strict):
    rounds: Annotated[int, Field(ge=1, le=1000)]
    at: Literal["turn-start"] | None = None


def _word_or_object(word: str, model: str) -> Any:
    """Picks a union member by shape: a string is the `word` member, an object the `model`."""

    def choose(value: Any) -> str | None:
        if isinstance(value, str):
            return word
        return model if isinstance(value, dict | Strict) else None

    return choose


Duration = Annotated[
    Annotated[Literal["instant", "until-save"], Tag("word")] | Annotated[Rounds, Tag("rounds")],
    shape(_word_or_object("word", "rounds"), '"instant", "until-save" or {"rounds": N}'),
]


class SaveEnds(Strict):
    save: SheetId
    at: Literal["turn-end", "turn-start"]


class Applies(Strict):
    """A condition a use puts on the targets it affects, and what takes it off again."""

    condition: SheetId
    duration: Duration
    save_ends: SaveEnds | None = None
    ends_after: Literal["own-attack", "attacked", "own-save"] | None = None

    @property
    def rounds(self) -> int | None:
        return self.duration.rounds if isinstance(self.duration, Rounds) else None


class Against(Strict):
    catalogs: Annotated[list[SheetId], Field(min_length=1, max_length=12)]


class Moment(Strict):
    """The moment a reaction waits for, whom it may answer, and what it may call off."""

    on: Literal["aimed", "hit", "harmed", "used"]
    at: Literal["source", "chosen"] = "source"
    cancels: Literal[True] | None = None
    against: Against | None = None

    @model_validator(mode="after")
    def _cancels_before(self) -> Moment:
        if self.cancels and self.on in ("harmed", "hit"):
            raise ValueError(
                'Only an "aimed" or "used" reaction cancels: what has already happened '
                "cannot be called off"
            )
        return self


class RiderColumn(Strict):
    column: SheetId


class Rider(Strict):
    """What a passive entry adds, by itself, to the first qualifying hit of its period."""

    on: Literal["hit"]
    when: (
        Annotated[list[Literal["advantage", "ally-adjacent"]], Field(min_length=1, max_length=2)]
        | None
    ) = None
    once_per: Literal["turn", "round"]
    amount: Amount
    type: DamageType | None = None
    sources: Annotated[list[SheetId], Field(min_length=1, max_length=8)] | None = None
    requires: RiderColumn | None = None


class Scales(Strict):
    """An amount that grows with the sheet: the table gives the extra dice at each step."""

    from_: ValueRef = Field(alias="from")
    table: StepTable


class Gift(Strict):
    budget: SheetId
    count: Annotated[int, Field(ge=1, le=10)]


class StandardPermit(Strict):
    actions: Annotated[
        list[Literal["dash", "disengage", "dodge", "help", "hide", "ready"]],
        Field(min_length=1, max_length=6),
    ]
    budget: SheetId


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


def _flag_or_moment(value: Any) -> str | None:
    if isinstance(value, bool):
        return "flag"
    return "moment" if isinstance(value, dict | Moment) else None


Reaction = Annotated[
    Annotated[bool, Tag("flag")] | Annotated[Moment, Tag("moment")],
    shape(_flag_or_moment, 'true, false or the moment it waits for ({"on": ...})'),
]


class Mechanics(Strict):
    """What an entry does. gm-tags reads `cost`, `perCostStep` and `check` outside a fight, and a
    fight reads the rest (docs/ruleset-format.md, "Catalog mechanics")."""

    kind: Literal["attack", "heal", "buff", "debuff", "utility", "rider"]
    range: Annotated[Number, Field(ge=0)] | None = None
    area: Area | None = None
    targets: Literal["self", "ally", "enemy", "any"] | None = None
    friendly_fire: bool | None = None
    amount: Amount | None = None
    damage_type: DamageType | None = None
    plus: Annotated[list[PlusClause], Field(max_length=3)] | None = None
    attack_roll: bool | None = None
    save: Save | None = None
    cost: Annotated[list[Cost], Field(max_length=4)] | None = None
    per_cost_step: Amount | None = None
    check: CheckEffect | None = None
    concentration: bool | None = None
    reaction: Reaction | None = None
    target_count: Annotated[int, Field(ge=1, le=20)] | None = None
    auto_hit: bool | None = None
    applies: Annotated[list[Applies], Field(max_length=4)] | None = None
    temporary: Amount | None = None
    scales: Scales | None = None
    budget: SheetId | None = None
    free: Literal[True] | None = None
    gives: Annotated[list[Gift], Field(min_length=1, max_length=4)] | None = None
    standard: StandardPermit | None = None
    rider: Rider | None = None

    @property
    def moment(self) -> Moment | None:
        """The moment a reaction names (1.33), None for `reaction: true` or none at all."""
        return self.reaction if isinstance(self.reaction, Moment) else None
