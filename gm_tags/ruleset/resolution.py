"""The `resolution` block: how a check is rolled, for both kinds (`dice-sum`, `dice-pool`)."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import Field, Tag, model_validator

from .base import Label, SheetId, Strict, shape
from .refs import StepTable, ValueRef

Rounding = Literal["down", "up", "nearest"]


class IdentityModifier(Strict):
    op: Literal["identity"]


class HalfMinusTenModifier(Strict):
    op: Literal["floorHalfMinusTen"]


class StepTableModifier(Strict):
    op: Literal["stepTable"]
    table: StepTable


AbilityModifier = Annotated[
    IdentityModifier | HalfMinusTenModifier | StepTableModifier, Field(discriminator="op")
]


class Proficiency(Strict):
    bonus: ValueRef


class ProficiencyTier(Strict):
    id: SheetId
    label: Label
    multiplier: Annotated[float, Field(ge=0, le=10)] = 0
    round: Rounding = "down"
    flat: Annotated[int, Field(ge=-50, le=50)] = 0


class Adjust(Strict):
    value: ValueRef
    abilities: Annotated[list[SheetId], Field(min_length=1, max_length=12)] | None = None


class Reroll(Strict):
    up_to: Annotated[int, Field(ge=1, le=999)]
    mode: Literal["once", "until"]


class NamedReroll(Reroll):
    id: SheetId


def _per_check_shape(value: Any) -> str | None:
    if value == "pool":
        return "pool"
    if isinstance(value, int) and not isinstance(value, bool):
        return "count"
    return "ref" if isinstance(value, dict | ValueRef) else None


PerCheck = Annotated[
    Annotated[int, Field(ge=1, le=10), Tag("count")]
    | Annotated[ValueRef, Tag("ref")]
    | Annotated[Literal["pool"], Tag("pool")],
    shape(_per_check_shape, 'a whole number from 1 to 10, a value reference, or "pool"'),
]


class Spend(Strict):
    pool: SheetId
    amount: Annotated[int, Field(ge=1, le=100)]
    successes: Annotated[int, Field(ge=1, le=10)] | None = None
    dice: Annotated[int, Field(ge=1, le=10)] | None = None
    reroll: Reroll | None = None
    per_check: PerCheck

    @model_validator(mode="after")
    def _buys_something(self) -> Spend:
        if self.successes is None and self.dice is None and self.reroll is None:
            raise ValueError("a spend rule must buy something: successes, dice or reroll")
        return self


class _Shared(Strict):
    ability_modifier: AbilityModifier
    proficiency: Proficiency | None = None
    proficiency_tiers: Annotated[list[ProficiencyTier], Field(min_length=1, max_length=12)]
    penalty_from: SheetId | None = None
    adjust: Annotated[list[Adjust], Field(max_length=8)] | None = None


class Dice(Strict):
    count: Annotated[int, Field(ge=1, le=10)]
    sides: Annotated[int, Field(ge=2, le=1000)]


Natural = Literal["none", "both", "max-only", "min-only"]


class Naturals(Strict):
    check: Natural = "none"
    save: Natural = "none"


class SumStep(Strict):
    label: Label
    dc: Annotated[int, Field(ge=-100, le=1000)]


class DiceSum(_Shared):
    kind: Literal["dice-sum"]
    dice: Dice = Dice.model_construct(count=1, sides=20)
    advantage: bool = False
    naturals: Naturals = Naturals.model_construct()
    # Not part of a sum ruleset; declared so the import can say why it is refused.
    spend: list[Any] | None = None
    difficulty_ladder: Annotated[list[SumStep], Field(min_length=1, max_length=12)]


class Die(Strict):
    sides: Annotated[int, Field(ge=2, le=100)]


Face = Annotated[int, Field(ge=2, le=100)]


class PoolSize(Strict):
    min: Annotated[int, Field(ge=0, le=100)]
    max: Annotated[int, Field(ge=1, le=100)]
    ability_plus_ability: bool | None = None


class Target(Strict):
    default: Face
    min: Face
    max: Face


class FaceRule(Strict):
    from_: Face | None = Field(default=None, alias="from")
    min: Face | None = None

    @model_validator(mode="after")
    def _one_of(self) -> FaceRule:
        if self.from_ is None and self.min is None:
            raise ValueError("names at least one of: from, min")
        return self


class UpTo(Strict):
    up_to: Annotated[int, Field(ge=1, le=99)]


class Botch(UpTo):
    rule: Literal["noSuccesses", "halfOrMore"] = "noSuccesses"


class Exceptional(Strict):
    successes: Annotated[int, Field(ge=1, le=100)]


class SituationalDice(Strict):
    min: Annotated[int, Field(ge=-20, le=0)]
    max: Annotated[int, Field(ge=0, le=20)]


class PoolStep(Strict):
    label: Label
    successes: Annotated[int, Field(ge=1, le=100)]
    target: Face | None = None


class DicePool(_Shared):
    kind: Literal["dice-pool"]
    die: Die = Die.model_construct(sides=10)
    pool: PoolSize = PoolSize.model_construct(min=1, max=40)
    target: Target
    double: FaceRule | None = None
    explode: FaceRule | None = None
    cancel: UpTo | None = None
    botch: Botch | None = None
    exceptional: Exceptional | None = None
    situational_dice: SituationalDice | None = None
    reroll: Annotated[list[NamedReroll], Field(min_length=1, max_length=6)] | None = None
    spend: Annotated[list[Spend], Field(max_length=4)] | None = None
    difficulty_ladder: Annotated[list[PoolStep], Field(min_length=1, max_length=12)]

    @property
    def most_successes(self) -> int:
        """The Engine's ceiling: the most successes one roll could count (the largest pool, as
        many exploded dice again, every one doubled)."""
        most = self.pool.max * (2 if self.explode else 1)
        return most * (2 if self.double else 1)


Resolution = Annotated[DiceSum | DicePool, Field(discriminator="kind")]
