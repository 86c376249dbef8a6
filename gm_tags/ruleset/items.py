"""The items block (Capability API 1.49) and the item an item catalog's entry carries.

The block declares the words every item is written in: categories, rarities, tags, stats (shaped
like list columns, never long text), slots, binding, carrying, currencies, and the switches
`native` and `freeform`; `rarityCaps` (1.51) bound what an invented item may be. `lootTables` and
`market` are gm-tags' own (docs/inventory.md): the Engine has neither. The names an item uses are
checked against the block in `checks_items.py`, once the whole file is read.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import Field

from .base import Label, Number, SheetId, Strict
from .effects import WornEffect
from .refs import ValueRef
from .sheet import _BooleanShape, _DiceShape, _EnumShape, _NumberShape, _TextShape

# The most one stack holds, and the most of anything one inventory command moves (the Engine's
# GAME_INVENTORY_MAX_QUANTITY).
MOST_QUANTITY = 9999


class ItemWord(Strict):
    """A category, a rarity or a tag: an id and the label the prompt shows."""

    id: SheetId
    label: Label


class _StatPlace(Strict):
    id: SheetId
    label: Label
    # False keeps the stat on the item's card and out of everything the Game Master reads.
    prompt_visible: bool = True


class NumberStat(_StatPlace, _NumberShape): ...


class TextStat(_StatPlace, _TextShape): ...


class BooleanStat(_StatPlace, _BooleanShape): ...


class EnumStat(_StatPlace, _EnumShape): ...


class DiceStat(_StatPlace, _DiceShape): ...


ItemStatDef = Annotated[
    NumberStat | TextStat | BooleanStat | EnumStat | DiceStat, Field(discriminator="type")
]


class Slot(Strict):
    id: SheetId
    label: Label
    count: Annotated[int, Field(ge=1, le=12)]


class Binding(Strict):
    label: Label
    max: ValueRef


class Carry(Strict):
    stat: SheetId
    encumbered_above: ValueRef | None = None
    limit: ValueRef | None = None


class Unit(Strict):
    id: SheetId
    label: Label
    value: Annotated[int, Field(ge=1, le=1_000_000)]


class Currency(Strict):
    id: SheetId
    label: Label
    units: Annotated[list[Unit], Field(min_length=1, max_length=8)]
    # How many of the smallest unit weigh one of the carry stat (only with a carry block).
    per_weight: Annotated[int, Field(ge=1, le=1_000_000)] | None = None

    @property
    def smallest(self) -> Unit:
        return min(self.units, key=lambda unit: unit.value)


class RarityCap(Strict):
    rarity: SheetId
    stats: dict[SheetId, Number] = {}
    bonus: Annotated[int, Field(ge=0, le=20)] | None = None


class LootRow(Strict):
    """One row of a loot table: an item (a catalog item's label or a plain name), how many, and
    how often it comes up against the other rows (`weight`)."""

    item: Annotated[str, Field(min_length=1, max_length=80)]
    count: Annotated[int, Field(ge=1, le=MOST_QUANTITY)] = 1
    weight: Annotated[int, Field(ge=1, le=1000)] = 1


class LootTable(Strict):
    id: SheetId
    label: Label
    rolls: Annotated[int, Field(ge=1, le=12)] = 1
    rows: Annotated[list[LootRow], Field(min_length=1, max_length=100)]
    # Money found beside the items: an amount of one unit.
    money: Cost | None = None


class Market(Strict):
    """Prices where the ruleset has a market: `markup` percent of an item's cost to buy, and the
    currencies the seller takes (every family when left out)."""

    markup: Annotated[int, Field(ge=0, le=1000)] = 100
    accepts: Annotated[list[SheetId], Field(min_length=1, max_length=8)] | None = None


class Items(Strict):
    categories: Annotated[list[ItemWord], Field(min_length=1, max_length=40)]
    rarities: Annotated[list[ItemWord], Field(min_length=1, max_length=12)] | None = None
    tags: Annotated[list[ItemWord], Field(max_length=40)] | None = None
    stats: Annotated[list[ItemStatDef], Field(max_length=24)] = []
    slots: Annotated[list[Slot], Field(min_length=1, max_length=12)] | None = None
    binding: Binding | None = None
    carry: Carry | None = None
    currencies: Annotated[list[Currency], Field(min_length=1, max_length=4)] | None = None
    native: bool = True
    freeform: Literal["plain", "refuse"] = "plain"
    rarity_caps: Annotated[list[RarityCap], Field(min_length=1, max_length=12)] | None = None
    loot_tables: Annotated[list[LootTable], Field(min_length=1, max_length=24)] | None = None
    market: Market | None = None

    def stat(self, stat_id: str) -> Any:
        return next((stat for stat in self.stats if stat.id == stat_id), None)

    def unit(self, unit_id: str) -> tuple[Currency, Unit] | None:
        for currency in self.currencies or ():
            for unit in currency.units:
                if unit.id == unit_id:
                    return currency, unit
        return None


# The item an entry of a `holds: "items"` catalog carries.


class Cost(Strict):
    amount: Annotated[int, Field(ge=0, le=1_000_000)]
    unit: SheetId


class Binds(Strict):
    restriction: Annotated[str, Field(min_length=1, max_length=400)] | None = None
    cursed: bool | None = None


class Recharge(Strict):
    rests: Annotated[list[SheetId], Field(min_length=1, max_length=12)]
    amount: Literal["max"] | Annotated[int, Field(ge=1, le=100)] = "max"


class Charges(Strict):
    max: Annotated[int, Field(ge=1, le=100)]
    recharge: Recharge | None = None
    breaks_on: dict[str, Any] | None = None


class ItemDef(Strict):
    category: SheetId
    rarity: SheetId | None = None
    tags: Annotated[list[SheetId], Field(max_length=12)] = []
    stats: dict[SheetId, Number | str | bool] = {}
    slots: dict[SheetId, Annotated[int, Field(ge=1, le=12)]] = {}
    stack: Annotated[int, Field(ge=1, le=MOST_QUANTITY)] | None = None
    cost: Cost | None = None
    binds: Binds | None = None
    charges: Charges | None = None
    # What wearing or carrying it does (checked whole: `effects.py`, `checks_effects.py`); what
    # using, requiring and attacking with it do belong to the fights (docs/inventory.md): carried
    # here as written.
    worn: WornEffect | None = None
    carried: WornEffect | None = None
    use: dict[str, Any] | None = None
    requires: list[dict[str, Any]] | None = None
    attack: dict[str, Any] | None = None


LootTable.model_rebuild()
