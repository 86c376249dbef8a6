"""What changes a check or a save, in the Engine's condition vocabulary: `combat.conditions[]`
(an active condition), `combat.levels[]` (a level a track or derived value has reached) and an
item's `worn` / `carried` effect (`ItemEffect`, for the items block to name).

Each source may lean a roll (`effects`: own-checks-/own-saves-advantage/-disadvantage), change a
number (`modifiers`: `to` one of attacks, defense, saves, checks, speed; `flat`, `dice`, `times`,
`mode`), fail saves without a roll (`failsSaves`) and be narrowed to some `skills` or `saves`. A
check outside a fight reads the check and save parts (`gm_tags/checks/effects.py`); the rest is
what a fight reads, checked here and carried. Shape rules are the Engine's, refused at the key.
"""

from __future__ import annotations

import re
from typing import Annotated, Any, Literal

from pydantic import Field, field_validator, model_validator

from .base import Number, SheetId, Strict

CHECK_LEANS = ("own-checks-advantage", "own-checks-disadvantage")
SAVE_LEANS = ("own-saves-advantage", "own-saves-disadvantage")
# The closed list of what a condition does (the Engine's), the check leans included.
ConditionEffect = Literal[
    "own-attacks-advantage",
    "own-attacks-disadvantage",
    "attacks-against-advantage",
    "attacks-against-disadvantage",
    "attacks-against-adjacent-advantage",
    "attacks-against-far-disadvantage",
    "attacks-from-adjacent-critical",
    "cannot-act",
    "cannot-react",
    "speed-zero",
    "half-move-to-stand",
    "ends-on-damage",
    "own-saves-advantage",
    "own-saves-disadvantage",
    "resist-all",
    "cannot-target-source",
    "cannot-approach-source",
    "own-checks-advantage",
    "own-checks-disadvantage",
]
# A level stays while the track stands there: nothing that ends by itself or needs a source.
NOT_ON_A_LEVEL = frozenset(
    {"half-move-to-stand", "ends-on-damage", "cannot-target-source", "cannot-approach-source"}
)
ItemLean = Literal[
    "own-checks-advantage",
    "own-checks-disadvantage",
    "own-saves-advantage",
    "own-saves-disadvantage",
]
_DICE = re.compile(r"^[1-9]\d?d[1-9]\d{0,2}(?:[+-]\d{1,3})?$")
Ids = Annotated[list[SheetId], Field(min_length=1, max_length=120)]


class Modifier(Strict):
    """A number a source changes. `flat` and `dice` add (or, with `minus`, take away dice);
    `times` multiplies speed; `mode` rolls a check or save twice."""

    to: Literal["attacks", "defense", "saves", "checks", "speed"]
    flat: int | None = None
    dice: str | None = None
    minus: bool | None = None
    times: Annotated[Number, Field(gt=0, le=10)] | None = None
    mode: Literal["advantage", "disadvantage"] | None = None
    skills: Ids | None = None
    saves: Ids | None = None

    @field_validator("flat")
    @classmethod
    def _not_zero(cls, flat: int | None) -> int | None:
        if flat == 0:
            raise ValueError("A flat change of 0 changes nothing; leave it out")
        return flat

    @field_validator("dice")
    @classmethod
    def _dice(cls, dice: str | None) -> str | None:
        if dice is not None and not _DICE.match(dice):
            raise ValueError(f"dice are written like 1d4 or 2d6+1, found {dice!r}")
        return dice

    @model_validator(mode="after")
    def _says_something(self) -> Modifier:
        if (self.flat, self.dice, self.times, self.mode) == (None, None, None, None):
            raise ValueError(
                "A modifier changes a number by a flat amount, by dice, for speed by times, "
                "or for checks and saves by a mode"
            )
        if self.dice is not None and self.to in ("defense", "speed"):
            raise ValueError(f"Dice are rolled; {self.to} is a number read, not rolled")
        if self.minus and self.dice is None:
            raise ValueError('"minus" takes dice away; write a negative flat instead')
        if self.times is not None and self.to != "speed":
            raise ValueError('"times" changes speed only')
        if self.mode is not None and self.to not in ("checks", "saves"):
            raise ValueError('"mode" rolls checks or saves twice; it cannot change ' + self.to)
        if self.skills is not None and self.to != "checks":
            raise ValueError('"skills" narrows a change to checks')
        if self.saves is not None and self.to != "saves":
            raise ValueError('"saves" narrows a change to saves')
        return self


class EffectSource(Strict):
    """The parts every source shares, and what narrowing needs beside it."""

    effects: list[str] = []
    modifiers: Annotated[list[Modifier], Field(max_length=12)] | None = None
    fails_saves: Ids | None = None
    skills: Ids | None = None
    saves: Ids | None = None

    def narrowing_problem(self) -> str | None:
        checks = any(e in CHECK_LEANS for e in self.effects) or any(
            m.to == "checks" for m in self.modifiers or ()
        )
        saves = any(e in SAVE_LEANS for e in self.effects) or any(
            m.to == "saves" for m in self.modifiers or ()
        )
        if self.skills is not None and not checks:
            return (
                '"skills" narrows own-checks-advantage and own-checks-disadvantage and '
                "modifiers to checks; this has none of them"
            )
        if self.saves is not None and not saves:
            return (
                '"saves" narrows own-saves-advantage and own-saves-disadvantage and '
                "modifiers to saves; this has none of them"
            )
        return None

    def staying_problem(self, holder: str, stays: str) -> str | None:
        """Why a source that stays (a level reached, an item held) cannot be as written: an
        effect that ends by itself or needs whoever applied it, or narrowing of nothing."""
        for effect in self.effects:
            if effect in NOT_ON_A_LEVEL:
                return (
                    f'{holder} cannot have "{effect}": it ends by itself or needs whoever '
                    f"applied it, and {stays}"
                )
        return self.narrowing_problem()

    @property
    def changes_checks(self) -> bool:
        """Whether a check or save outside a fight reads anything of this source."""
        return (
            any(effect in CHECK_LEANS + SAVE_LEANS for effect in self.effects)
            or bool(self.fails_saves)
            or any(m.to in ("checks", "saves") for m in self.modifiers or ())
        )

    def does_nothing(self) -> bool:
        return not self.effects and not self.modifiers and not self.fails_saves


class CombatCondition(EffectSource):
    """`combat.conditions[]`: what one of the sheet's conditions does while it is active."""

    condition: SheetId
    effects: Annotated[list[ConditionEffect], Field(max_length=19)] = []  # type: ignore[assignment]
    while_source_in_sight: bool | list[ConditionEffect] | None = None
    ends_when_source_down: bool | None = None

    @model_validator(mode="after")
    def _narrowed(self) -> CombatCondition:
        problem = self.narrowing_problem()
        if problem:
            raise ValueError(problem)
        return self


class CombatLevel(EffectSource):
    """`combat.levels[]`: what a plain track (or a derived value) does from level `at` up."""

    track: SheetId | None = None
    derived: SheetId | None = None
    at: Annotated[int, Field(ge=1)]
    effects: Annotated[list[ConditionEffect], Field(max_length=19)] = []  # type: ignore[assignment]

    @model_validator(mode="after")
    def _one_source_and_something(self) -> CombatLevel:
        if (self.track is None) == (self.derived is None):
            raise ValueError("A level reads exactly one of: track, derived")
        if self.does_nothing():
            raise ValueError("A level does something: effects, modifiers or failsSaves")
        problem = self.staying_problem("A level", "a level stays while the track stands there")
        if problem:
            raise ValueError(problem)
        return self

    @property
    def reads(self) -> str:
        return self.track if self.track is not None else str(self.derived)


class ItemEffect(EffectSource):
    """An item's `worn` or `carried` effect: it changes checks and saves only (a fight's part of
    an item comes with weapons and armor)."""

    effects: Annotated[list[ItemLean], Field(max_length=4)] = []  # type: ignore[assignment]

    @model_validator(mode="after")
    def _checks_and_saves(self) -> ItemEffect:
        if self.does_nothing():
            raise ValueError("An item's effect does something: effects, modifiers or failsSaves")
        for modifier in self.modifiers or ():
            if modifier.to not in ("checks", "saves"):
                raise ValueError(
                    "An item changes checks and saves; what it does in a fight comes with "
                    "weapons and armor in a fight"
                )
        problem = self.narrowing_problem()
        if problem:
            raise ValueError(problem)
        return self


class WornEffect(EffectSource):
    """An item's `worn` or `carried` as written (Capability API 1.53; the Engine widened it in
    1.56): every condition effect but the four a level cannot have, modifiers to anything a
    condition's may change, `failsSaves`, narrowing, and what a fight and the sheet read beside
    (`abilities` set or shifted while held, `resist`, `vulnerable`, `immune` damage types and
    `conditionImmunities`). A check reads its check and save parts (`ItemEffect`)."""

    effects: Annotated[list[ConditionEffect], Field(max_length=19)] = []  # type: ignore[assignment]
    abilities: dict[SheetId, dict[str, Any]] | None = None
    resist: (
        Annotated[list[Annotated[str, Field(min_length=1, max_length=40)]], Field(max_length=40)]
        | None
    ) = None
    vulnerable: (
        Annotated[list[Annotated[str, Field(min_length=1, max_length=40)]], Field(max_length=40)]
        | None
    ) = None
    immune: (
        Annotated[list[Annotated[str, Field(min_length=1, max_length=40)]], Field(max_length=40)]
        | None
    ) = None
    condition_immunities: Annotated[list[SheetId], Field(max_length=80)] | None = None

    @model_validator(mode="after")
    def _does_something(self) -> WornEffect:
        beside = (self.abilities, self.resist, self.vulnerable, self.immune)
        if self.does_nothing() and all(not part for part in (*beside, self.condition_immunities)):
            raise ValueError(
                "An item's effect does something: effects, modifiers, failsSaves, abilities, "
                "resist, vulnerable, immune or conditionImmunities"
            )
        problem = self.staying_problem("An item's effect", "an item's stays while it is held")
        if problem:
            raise ValueError(problem)
        return self

    @property
    def on_checks(self) -> ItemEffect | None:
        """The part a check or save reads, or None when it changes none."""
        modifiers = [m for m in self.modifiers or () if m.to in ("checks", "saves")]
        leans = [e for e in self.effects if e in CHECK_LEANS + SAVE_LEANS]
        if not leans and not modifiers and not self.fails_saves:
            return None
        try:
            return ItemEffect(
                effects=leans,  # type: ignore[arg-type]
                modifiers=modifiers or None,
                fails_saves=self.fails_saves,
                skills=self.skills,
                saves=self.saves,
            )
        except ValueError:  # narrowing that only narrowed what a fight reads
            return None
