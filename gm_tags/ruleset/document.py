"""The ruleset file's top level, and the blocks beside `sheet`: rests, gm, clocks, party, and the
sections the page only refers to (catalogs, items, battle, combat, layers), carried as data.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import AfterValidator, Field, Tag, field_validator, model_validator

from .base import PROMPT_SAFE, Carried, Label, SheetId, Strict, length, shape
from .catalogs import ENTRY_ID, CatalogFilter, Units
from .combat import Combat, Creature
from .items import ItemDef, Items
from .layer_models import MOST_LAYERS, Layer
from .mechanics import Mechanics
from .refs import REF_KINDS, StepTable, ValueRef
from .resolution import Resolution
from .sheet import HideWhen, Pool, Sheet, SheetField, SheetList

RESERVED_IDS = frozenset({"engine-legacy", "traditional"})


def _not_reserved(ruleset_id: str) -> str:
    if ruleset_id in RESERVED_IDS:
        raise ValueError(f"the id {ruleset_id!r} is reserved; choose another")
    return ruleset_id


RulesetId = Annotated[
    str,
    Field(pattern=r"^[a-z0-9]+(?:-[a-z0-9]+)*$", min_length=1, max_length=64),
    AfterValidator(_not_reserved),
]
Guidance = Annotated[str, length(1500), PROMPT_SAFE]
RulesetName = Annotated[str, length(80), PROMPT_SAFE]
Edition = Annotated[str, length(160), PROMPT_SAFE]
Reference = Annotated[str, length(16000), PROMPT_SAFE]
ShortText = Annotated[str, length(400), PROMPT_SAFE]

REST_TARGETS = ("pool", "poolGroup", "listPools", "track", "state")


class License(Strict):
    spdx: Annotated[str, Field(max_length=64)] | None = None
    attribution: Annotated[str, Field(max_length=4000)] | None = None


class Coverage(Strict):
    checks: bool = False
    saves: bool = False
    sheet: bool = False
    resources: bool = False
    rests: bool = False
    combat: bool = False
    summary: ShortText


class ConstStep(Strict):
    const: int


class FractionStep(Strict):
    fraction_of_max: Annotated[float, Field(gt=0, le=1)]
    round: Literal["down", "up", "nearest"] = "down"
    min: Annotated[int, Field(ge=0)] = 0


def _change_shape(value: Any) -> str | None:
    if isinstance(value, ConstStep | FractionStep):
        return "fraction" if isinstance(value, FractionStep) else "const"
    if isinstance(value, dict):
        return "fraction" if "fractionOfMax" in value else "const"
    return None


RestChange = Annotated[
    Annotated[ConstStep, Tag("const")] | Annotated[FractionStep, Tag("fraction")],
    shape(_change_shape, '{"const": n} or {"fractionOfMax": f}'),
]


class RestoreStep(Strict):
    pool: SheetId | None = None
    pool_group: SheetId | None = None
    list_pools: SheetId | None = None
    track: SheetId | None = None
    state: SheetId | None = None
    recharge: Annotated[list[str], Field(min_length=1, max_length=40)] | None = None
    kind: SheetId | None = None
    shared: bool | None = None
    to: Literal["max", "min"] | int | str | None = None
    by: RestChange | None = None

    @model_validator(mode="after")
    def _one_target_one_change(self) -> RestoreStep:
        targets = [t for t in REST_TARGETS if getattr(self, _snake(t)) is not None]
        if len(targets) != 1:
            raise ValueError(
                "A restore step names exactly one of: pool, poolGroup, listPools, track, state"
            )
        if (self.to is None) == (self.by is None):
            raise ValueError("A restore step either sets (to) or changes (by), exactly one")
        return self

    @property
    def target_kind(self) -> str:
        return next(t for t in REST_TARGETS if getattr(self, _snake(t)) is not None)

    @property
    def target(self) -> str:
        return str(getattr(self, _snake(self.target_kind)))


def _snake(camel: str) -> str:
    return "".join("_" + c.lower() if c.isupper() else c for c in camel)


def _all_or_list(value: Any) -> str | None:
    return "all" if isinstance(value, str) else "ids" if isinstance(value, list) else None


AllOrIds = Annotated[
    Annotated[Literal["all"], Tag("all")] | Annotated[list[SheetId], Tag("ids")],
    shape(_all_or_list, '"all" or a list of ids'),
]


class Clear(Strict):
    text: list[SheetId] = []
    conditions: AllOrIds = []


class Rest(Strict):
    id: SheetId
    label: Label
    restore: Annotated[list[RestoreStep], Field(max_length=40)] = []
    clear: Clear = Clear.model_construct()


class SummaryList(Strict):
    list_: SheetId = Field(alias="list")
    name_column: SheetId
    columns: Annotated[list[SheetId], Field(min_length=1, max_length=3)] | None = None
    group_by: SheetId | None = None
    only_when: SheetId | None = None


class SheetSummary(Strict):
    fields: Annotated[list[SheetId], Field(max_length=24)] = []
    derived: Annotated[list[SheetId], Field(max_length=24)] = []
    lists: Annotated[list[SummaryList], Field(max_length=8)] = []


class Gm(Strict):
    check_guidance: Guidance
    sheet_guidance: Guidance | None = None
    world_guidance: Guidance | None = None
    opposition: Literal["game-master", "engine"] | None = None
    sheet_summary: SheetSummary | None = None


class Clocks(Strict):
    sizes: Annotated[
        list[Annotated[int, Field(ge=2, le=12)]], Field(min_length=1, max_length=6)
    ] = [4, 6, 8]
    max: Annotated[int, Field(ge=1, le=12)] = 8
    text: ShortText | None = None

    @field_validator("sizes")
    @classmethod
    def _unique_sizes(cls, sizes: list[int]) -> list[int]:
        if len(set(sizes)) != len(sizes):
            raise ValueError(f"sizes must be unique, found {sizes}")
        return sizes


class Advancement(Strict):
    fields: Annotated[list[SheetId], Field(min_length=1, max_length=40)]
    text: ShortText | None = None


class FromMembers(Strict):
    field: SheetId
    count: Literal[True] | None = None
    sum: SheetId | None = None

    @model_validator(mode="after")
    def _exactly_one(self) -> FromMembers:
        if (self.count is None) == (self.sum is None):
            raise ValueError("fromMembers names exactly one of: count, sum")
        return self


class Party(Strict):
    label: Label
    fields: Annotated[list[SheetField], Field(max_length=160)] = []
    pools: Annotated[list[Pool], Field(max_length=60)] = []
    lists: Annotated[list[SheetList], Field(max_length=12)] | None = None
    advancement: Advancement | None = None
    text: ShortText | None = None
    summary: SheetSummary | None = None
    builder: dict[str, Any] | None = None
    from_members: Annotated[list[FromMembers], Field(max_length=8)] | None = None

    @model_validator(mode="after")
    def _not_empty(self) -> Party:
        if not self.fields and not self.pools:
            raise ValueError("a party sheet needs at least one field or pool")
        return self


# Sections the page only refers to. Only the parts our rules read are typed.


class ScaledColumn(Strict):
    """A number column the sheet keeps up to date: the reference's number, or it looked up in
    `table` (a maximum that grows with a level)."""

    from_: ValueRef = Field(alias="from")
    table: StepTable | None = None


class CatalogRow(Strict):
    list_: SheetId = Field(alias="list")
    values: dict[str, Any] = {}
    scaled: dict[str, ScaledColumn] | None = None


class CatalogEntry(Carried):
    id: Annotated[str, Field(max_length=80, pattern=ENTRY_ID)]
    label: Annotated[str, length(120), PROMPT_SAFE]
    summary: Annotated[str, Field(max_length=300)] | None = None
    filters: dict[str, Any] | None = None
    rows: list[CatalogRow] = []
    mechanics: Mechanics | None = None
    creature: Creature | None = None
    # An entry of a catalog of items (holds: "items"): the item, in the items block's words.
    item: ItemDef | None = None


class Catalog(Carried):
    id: SheetId
    label: Label
    feeds: Annotated[list[SheetId], Field(max_length=8)] = []
    holds: Literal["rows", "items", "creatures"] | None = None
    filters: Annotated[list[CatalogFilter], Field(max_length=8)] | None = None
    units: Units | None = None
    entries: Annotated[list[CatalogEntry], Field(max_length=2000)] | None = None
    asset: Annotated[str, Field(max_length=240)] | None = None

    @model_validator(mode="after")
    def _entries_or_asset(self) -> Catalog:
        if (self.entries is None) == (self.asset is None):
            raise ValueError('A catalog has exactly one of "entries" or "asset"')
        return self


class RulesetFile(Strict):
    schema_url: str | None = Field(default=None, alias="$schema", exclude=True, repr=False)
    schema_version: Literal[1]
    id: RulesetId
    version: Annotated[int, Field(ge=1)]
    name: RulesetName
    edition: Edition | None = None
    license: License | None = None
    coverage: Coverage
    resolution: Resolution
    sheet: Sheet
    rests: Annotated[list[Rest], Field(max_length=12)] = []
    gm: Gm
    gm_reference: Reference | None = None
    clocks: Clocks | None = None
    party: Party | None = None
    catalogs: Annotated[list[Catalog], Field(max_length=12)] | None = None
    items: Items | None = None
    battle: dict[str, Any] | None = None
    combat: Combat | None = None
    layers: Annotated[list[Layer], Field(max_length=MOST_LAYERS)] | None = None


__all__ = ["REF_KINDS", "HideWhen", "RulesetFile"]
