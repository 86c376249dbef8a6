"""The `sheet` block: sections, abilities, skills and saves, fields, derived values, lists, live."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import Field, Tag, model_validator

from .base import PROMPT_SAFE, WITHOUT_COMMENT, Label, Number, SheetId, Short, Strict, length, shape
from .refs import IntOrRef, StepTable, ValueRef

Suggestion = Annotated[str, length(60), PROMPT_SAFE]
KindLabel = Annotated[str, length(16), PROMPT_SAFE]
Rounding = Literal["down", "up", "nearest"]


class UntrainedBy(Strict):
    by: Annotated[int, Field(ge=-20, le=20)]


def _string_or_object(value: Any) -> str | None:
    if isinstance(value, str):
        return "word"
    return "object" if isinstance(value, dict | UntrainedBy) else None


Untrained = Annotated[
    Annotated[Literal["normal", "harder", "refuse"], Tag("word")]
    | Annotated[UntrainedBy, Tag("object")],
    shape(_string_or_object, '"normal", "harder", "refuse" or {"by": n}'),
]


class HideWhen(Strict):
    field: SheetId
    equals: Number | str | bool | None = None
    not_equals: Number | str | bool | None = None
    in_: Annotated[list[Number | str | bool], Field(min_length=1, max_length=40)] | None = Field(
        default=None, alias="in"
    )

    @model_validator(mode="after")
    def _exactly_one(self) -> HideWhen:
        named = [key for key in ("equals", "not_equals", "in_") if key in self.model_fields_set]
        if len(named) != 1:
            raise ValueError("hideWhen names exactly one of: equals, notEquals, in")
        return self

    @property
    def way(self) -> str:
        for name, alias in (("equals", "equals"), ("not_equals", "notEquals"), ("in_", "in")):
            if name in self.model_fields_set:
                return alias
        raise AssertionError("validated to name one way")

    @property
    def values(self) -> list[Any]:
        if self.in_ is not None:
            return list(self.in_)
        return [self.equals if self.way == "equals" else self.not_equals]


class Section(Strict):
    id: SheetId
    label: Label
    untrained: Untrained | None = None


class Ability(Strict):
    id: SheetId
    label: Label
    short: Short | None = None
    min: int
    max: int
    default: int
    section: SheetId | None = None


class Skill(Strict):
    id: SheetId
    label: Label
    ability: SheetId | None = None
    cap: ValueRef | None = None
    section: SheetId | None = None
    untrained: Untrained | None = None


class BonusRange(Strict):
    min: int
    max: int


# Field and column shapes, one class per type. A field adds section/hideWhen, a column `required`.


class _NumberShape(Strict):
    type: Literal["number"]
    min: Number
    max: Number
    default: Number | None = None
    integer: bool = True


class _TextShape(Strict):
    type: Literal["text"]
    max_length: Annotated[int, Field(ge=1, le=500)] = 500
    suggestions: Annotated[list[Suggestion], Field(min_length=1, max_length=40)] | None = None
    pick: IntOrRef | None = None
    default: str | None = None


class _LongTextShape(Strict):
    type: Literal["longtext"]
    max_length: Annotated[int, Field(ge=1, le=4000)] = 4000
    default: str | None = None


class _BooleanShape(Strict):
    type: Literal["boolean"]
    default: bool | None = None


class _EnumShape(Strict):
    type: Literal["enum"]
    values: Annotated[
        list[Annotated[str, Field(min_length=1, max_length=80)]], Field(min_length=1, max_length=40)
    ]
    value_labels: Annotated[dict[str, Label], WITHOUT_COMMENT] | None = None
    default: str | None = None

    def label_of(self, value: str) -> str:
        return str((self.value_labels or {}).get(value, value))


class _DiceShape(Strict):
    type: Literal["dice"]
    default: str | None = None
    example: str | None = None


class _FieldPlace(Strict):
    id: SheetId
    label: Label
    section: SheetId | None = None
    hide_when: HideWhen | None = None


class NumberField(_FieldPlace, _NumberShape): ...


class TextField(_FieldPlace, _TextShape): ...


class LongTextField(_FieldPlace, _LongTextShape): ...


class BooleanField(_FieldPlace, _BooleanShape): ...


class EnumField(_FieldPlace, _EnumShape): ...


class DiceField(_FieldPlace, _DiceShape): ...


SheetField = Annotated[
    NumberField | TextField | LongTextField | BooleanField | EnumField | DiceField,
    Field(discriminator="type"),
]


class SidesFromColumn(Strict):
    column: SheetId


def _sides_shape(value: Any) -> str | None:
    if isinstance(value, int) and not isinstance(value, bool):
        return "count"
    if isinstance(value, SidesFromColumn):
        return "column"
    if isinstance(value, ValueRef):
        return "ref"
    if isinstance(value, dict):
        return "column" if set(value) == {"column"} else "ref"
    return None


Sides = Annotated[
    Annotated[int, Field(ge=2, le=1000), Tag("count")]
    | Annotated[SidesFromColumn, Tag("column")]
    | Annotated[ValueRef, Tag("ref")],
    shape(_sides_shape, "a number of sides, {column: id}, or a value reference"),
]


class ColumnRoll(Strict):
    count: Annotated[int, Field(ge=1, le=100)]
    sides: Sides


class _ColumnPlace(Strict):
    id: SheetId
    label: Label
    required: bool = False


class NumberColumn(_ColumnPlace, _NumberShape):
    roll: ColumnRoll | None = None


class TextColumn(_ColumnPlace, _TextShape): ...


class LongTextColumn(_ColumnPlace, _LongTextShape): ...


class BooleanColumn(_ColumnPlace, _BooleanShape): ...


class EnumColumn(_ColumnPlace, _EnumShape): ...


class DiceColumn(_ColumnPlace, _DiceShape): ...


Column = Annotated[
    NumberColumn | TextColumn | LongTextColumn | BooleanColumn | EnumColumn | DiceColumn,
    Field(discriminator="type"),
]


class RowPools(Strict):
    name_column: SheetId
    max_column: SheetId
    recharge_column: SheetId | None = None


class SheetList(Strict):
    id: SheetId
    label: Label
    section: SheetId | None = None
    hide_when: HideWhen | None = None
    max_items: Annotated[int, Field(ge=1, le=500)] = 500
    columns: Annotated[list[Column], Field(min_length=1, max_length=24)]
    pools: RowPools | None = None


# Derived values, one class per operation.


class _DerivedPlace(Strict):
    id: SheetId
    label: Label
    section: SheetId | None = None
    hide_when: HideWhen | None = None


class SumDerived(_DerivedPlace):
    op: Literal["sum"]
    of: Annotated[list[ValueRef], Field(min_length=1, max_length=12)]


class MinDerived(_DerivedPlace):
    op: Literal["min"]
    of: Annotated[list[ValueRef], Field(min_length=2, max_length=12)]


class MaxDerived(_DerivedPlace):
    op: Literal["max"]
    of: Annotated[list[ValueRef], Field(min_length=2, max_length=12)]


class MultiplyDerived(_DerivedPlace):
    op: Literal["multiply"]
    of: Annotated[list[ValueRef], Field(min_length=2, max_length=6)]


class ScaleDerived(_DerivedPlace):
    op: Literal["scale"]
    of: ValueRef
    multiplier: Number
    round: Rounding = "down"


class StepTableDerived(_DerivedPlace):
    op: Literal["stepTable"]
    from_: ValueRef = Field(alias="from")
    table: StepTable


class EnumTableFrom(Strict):
    field: SheetId | None = None
    live_state: SheetId | None = None

    @model_validator(mode="after")
    def _exactly_one(self) -> EnumTableFrom:
        if (self.field is None) == (self.live_state is None):
            raise ValueError("from names exactly one of: field, liveState")
        return self


class EnumTableDerived(_DerivedPlace):
    op: Literal["enumTable"]
    from_: EnumTableFrom = Field(alias="from")
    table: Annotated[dict[str, Number], WITHOUT_COMMENT, Field(min_length=1, max_length=40)]
    default: Number = 0


Derived = Annotated[
    SumDerived
    | MinDerived
    | MaxDerived
    | MultiplyDerived
    | ScaleDerived
    | StepTableDerived
    | EnumTableDerived,
    Field(discriminator="op"),
]


def derived_refs(derived: Any) -> list[ValueRef]:
    """The value references a derived value reads (enumTable reads none: its key is not a ref)."""
    if isinstance(derived, ScaleDerived):
        return [derived.of]
    if isinstance(derived, StepTableDerived):
        return [derived.from_]
    if isinstance(derived, EnumTableDerived):
        return []
    return list(derived.of)


# Live state.


class Pool(Strict):
    id: SheetId
    label: Label
    max: ValueRef
    allow_temp: bool = False
    group: SheetId | None = None
    start: Literal["full", "empty"] = "full"
    hide_when: HideWhen | None = None


class Level(Strict):
    label: Label
    penalty: Annotated[int, Field(ge=-1000, le=0)]


class Kind(Strict):
    id: SheetId
    label: KindLabel
    severity: Annotated[int, Field(ge=-100, le=100)]


class BoxPenalty(Strict):
    by: Literal["filled", "remaining"]
    table: Annotated[
        list[Annotated[list[int], Field(min_length=2, max_length=2)]],
        Field(min_length=1, max_length=40),
    ]


class Boxes(Strict):
    penalty: BoxPenalty | None = None


class Extra(Strict):
    list_: SheetId = Field(alias="list")
    count_column: SheetId
    penalty_column: SheetId


class Track(Strict):
    id: SheetId
    label: Label
    min: int
    max: IntOrRef
    default: int | None = None
    levels: Annotated[list[Level], Field(min_length=1, max_length=16)] | None = None
    kinds: Annotated[list[Kind], Field(min_length=1, max_length=6)] | None = None
    boxes: Boxes | None = None
    fill: Literal["sequential", "indexed"] | None = None
    on_full: Literal["upgrade", "refuse"] | None = None
    extra: Extra | None = None
    always_show: bool | None = None
    hide_when: HideWhen | None = None

    @property
    def is_wound(self) -> bool:
        return self.kinds is not None and (self.levels is not None or self.boxes is not None)


class LiveText(Strict):
    id: SheetId
    label: Label
    max_length: Annotated[int, Field(ge=1, le=500)] = 500


class Condition(Strict):
    id: SheetId
    label: Label


StateValue = Annotated[str, Field(min_length=1, max_length=80)]


class State(Strict):
    id: SheetId
    label: Label
    values: Annotated[list[StateValue], Field(min_length=2, max_length=40)]
    value_labels: Annotated[dict[str, Label], WITHOUT_COMMENT] | None = None
    default: str | None = None
    hide_when: HideWhen | None = None

    @property
    def start(self) -> str:
        return self.default if self.default is not None else self.values[0]

    def label_of(self, value: str) -> str:
        return str((self.value_labels or {}).get(value, value))


class Live(Strict):
    pools: Annotated[list[Pool], Field(max_length=60)] = []
    tracks: Annotated[list[Track], Field(max_length=30)] = []
    text: Annotated[list[LiveText], Field(max_length=12)] = []
    conditions: Annotated[list[Condition], Field(max_length=80)] = []
    states: Annotated[list[State], Field(max_length=12)] = []


class Sheet(Strict):
    version: Annotated[int, Field(ge=1)] = 1
    sections: Annotated[list[Section], Field(max_length=20)] = []
    abilities: Annotated[list[Ability], Field(max_length=20)] = []
    skills: Annotated[list[Skill], Field(max_length=120)] = []
    saves: Annotated[list[Skill], Field(max_length=40)] = []
    skill_tiers: Annotated[list[SheetId], Field(min_length=1, max_length=12)] | None = None
    save_tiers: Annotated[list[SheetId], Field(min_length=1, max_length=12)] | None = None
    bonus_range: BonusRange = BonusRange.model_construct(min=-20, max=40)
    fields: Annotated[list[SheetField], Field(max_length=160)] = []
    # 800 is the most any capability allows; the minor a package declares may lower it (SH-7).
    derived: Annotated[list[Derived], Field(max_length=800)] = []
    lists: Annotated[list[SheetList], Field(max_length=20)] = []
    live: Live = Live.model_construct()
