"""Value references: how anything on a sheet names a number.

A value reference is an object with exactly one key out of `REF_KINDS` (`read` may stand beside
`liveTrack` only). Which ids exist is checked later, in `checks`, once the whole file is read.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import Field, Tag, model_validator

from .base import Number, SheetId, Strict, shape

REF_KINDS = (
    "const",
    "field",
    "derived",
    "abilityScore",
    "abilityMod",
    "abilityModFromField",
    "skillMod",
    "saveMod",
    "listSum",
    "livePool",
    "liveTrack",
    "itemStat",
)

TrackRead = Literal["value", "filled", "remaining", "penalty"]


class ListSumRef(Strict):
    list_: SheetId = Field(alias="list")
    column: SheetId
    only_when: SheetId | None = None


class ItemStatRef(Strict):
    stat: SheetId | None = None
    from_: Literal["worn", "carried", "all"] = Field(alias="from")
    pick: Literal["sum", "max", "min", "count"]
    slot: SheetId | None = None
    category: SheetId | None = None
    tag: SheetId | None = None
    default: Number | None = None


class ValueRef(Strict):
    const: Number | None = None
    field: SheetId | None = None
    derived: SheetId | None = None
    ability_score: SheetId | None = None
    ability_mod: SheetId | None = None
    ability_mod_from_field: SheetId | None = None
    skill_mod: SheetId | None = None
    save_mod: SheetId | None = None
    list_sum: ListSumRef | None = None
    live_pool: SheetId | None = None
    live_track: SheetId | None = None
    read: TrackRead | None = None
    item_stat: ItemStatRef | None = None

    @model_validator(mode="after")
    def _exactly_one(self) -> ValueRef:
        named = [kind for kind in REF_KINDS if getattr(self, _FIELD_BY_KIND[kind]) is not None]
        if len(named) != 1:
            found = ", ".join(named) if named else "none"
            raise ValueError(
                f"A value reference names exactly one of: {', '.join(REF_KINDS)} (found {found})"
            )
        if self.read is not None and self.live_track is None:
            raise ValueError("read is allowed only beside liveTrack")
        return self

    # Read straight from the instance dict: these run for every reference on every sheet read.
    @property
    def kind(self) -> str:
        """Which of `REF_KINDS` this reference names."""
        values = self.__dict__
        for name in self.__pydantic_fields_set__:
            kind = _KIND_BY_FIELD.get(name)
            if kind is not None and values[name] is not None:
                return kind
        raise AssertionError("validated to name exactly one kind")

    @property
    def target(self) -> Any:
        """The id (or object, for listSum and itemStat; the number, for const) it names."""
        return self.__dict__[_FIELD_BY_KIND[self.kind]]


_FIELD_BY_KIND = {
    kind: name
    for name, info in ValueRef.model_fields.items()
    for kind in REF_KINDS
    if info.alias == kind
}
_KIND_BY_FIELD = {name: kind for kind, name in _FIELD_BY_KIND.items()}


def _int_or_ref(value: Any) -> str | None:
    if isinstance(value, int) and not isinstance(value, bool):
        return "int"
    return "ref" if isinstance(value, dict | ValueRef) else None


IntOrRef = Annotated[
    Annotated[int, Tag("int")] | Annotated[ValueRef, Tag("ref")],
    shape(_int_or_ref, "a whole number or a value reference object"),
]

StepTable = Annotated[
    list[Annotated[list[Number], Field(min_length=2, max_length=2)]],
    Field(min_length=1, max_length=100),
]
