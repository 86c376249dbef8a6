"""Import checks on the items block and on the catalogs that hold items: every name declared once,
every name an item uses declared, carrying and binding read off the sheet without the live state,
and currency families counted in their smallest coin. Paths and refusals are the Engine's
(`game-ruleset-items`), in our words.
"""

from __future__ import annotations

import re
from typing import Any

from .checks import Path, Reporter
from .items import EnumStat, ItemDef, Items, NumberStat, TextStat

DICE_TEXT = re.compile(r"^\d{0,3}d\d{1,4}([+-]\d{1,4})?$")


class ItemChecks(Reporter):
    def run(self) -> None:
        items = self.ruleset.items
        if items is not None:
            self.block(items)
        for position, catalog in enumerate(self.ruleset.catalogs or []):
            self.catalog(catalog, ("catalogs", position))

    # the block ---------------------------------------------------------------------------------

    def block(self, items: Items) -> None:
        for key in ("categories", "rarities", "tags", "stats", "slots", "currencies"):
            self.unique(getattr(items, key) or [], ("items", key))
        for position, stat in enumerate(items.stats):
            self.stat_shape(stat, ("items", "stats", position))
        if items.carry is not None:
            self.carry(items)
        if items.binding is not None:
            self.value(items.binding.max, ("items", "binding", "max"), "the binding limit")
        self.currencies(items)
        for position, cap in enumerate(items.rarity_caps or []):
            self.rarity_cap(items, cap, ("items", "rarityCaps", position))
        self.unique(items.loot_tables or [], ("items", "lootTables"))
        for position, table in enumerate(items.loot_tables or []):
            if table.money is not None:
                self.unit(items, table.money.unit, ("items", "lootTables", position, "money"))
        if items.market is not None:
            currencies = {currency.id: currency for currency in items.currencies or []}
            for position, family in enumerate(items.market.accepts or []):
                self.exists(
                    currencies, family, ("items", "market", "accepts", position), "currency"
                )

    def stat_shape(self, stat: Any, path: Path) -> None:
        """A stat is declared like a list column of its type."""
        if isinstance(stat, NumberStat):
            if stat.min > stat.max:
                self.report(path, f"min {stat.min} is above max {stat.max}")
            elif stat.default is not None and not stat.min <= stat.default <= stat.max:
                self.report(
                    (*path, "default"), f"default {stat.default} is outside {stat.min}..{stat.max}"
                )
        elif isinstance(stat, EnumStat):
            if len(set(stat.values)) != len(stat.values):
                self.report((*path, "values"), "values must be unique")
            self.choices(stat.values, stat.default, stat.value_labels, path)

    def carry(self, items: Items) -> None:
        assert items.carry is not None
        carry, at = items.carry, ("items", "carry")
        stats = {stat.id: stat for stat in items.stats}
        if self.exists(stats, carry.stat, (*at, "stat"), "item stat"):
            stat = stats[carry.stat]
            if not isinstance(stat, NumberStat):
                self.report((*at, "stat"), f"item stat {carry.stat!r} is not a number")
            elif stat.min < 0:
                self.report(
                    (*at, "stat"),
                    f"item stat {carry.stat!r} is a weight, so its min is 0 or more",
                )
        for key, ref in (("encumberedAbove", carry.encumbered_above), ("limit", carry.limit)):
            if ref is not None:
                self.value(ref, (*at, key), f"carry.{key}")

    def value(self, ref: Any, path: Path, what: str) -> None:
        """A capacity is worked out without the live state, like a pool's maximum."""
        self.ref(ref, path)
        self.no_live_read(ref, (*path, ref.kind), what)

    def currencies(self, items: Items) -> None:
        units: dict[str, str] = {}
        for position, family in enumerate(items.currencies or []):
            at: Path = ("items", "currencies", position)
            values: dict[int, str] = {}
            for unit_position, unit in enumerate(family.units):
                where = (*at, "units", unit_position)
                if unit.id in units:
                    self.report(
                        (*where, "id"),
                        f"duplicate currency unit id {unit.id!r}, already a unit of "
                        f"{units[unit.id]!r}; a cost names its unit alone",
                    )
                units.setdefault(unit.id, family.id)
                if unit.value in values:
                    self.report(
                        (*where, "value"),
                        f"another unit of {family.id!r} ({values[unit.value]!r}) is already "
                        f"worth {unit.value}",
                    )
                values.setdefault(unit.value, unit.id)
            if 1 not in values:
                self.report(
                    (*at, "units"),
                    f"the smallest unit of {family.id!r} is worth 1 (every value counts it); "
                    f"the smallest here is worth {min(values)}",
                )
            if family.per_weight is not None and items.carry is None:
                self.report(
                    (*at, "perWeight"),
                    "coins weigh something only when the items block has a carry block",
                )

    def rarity_cap(self, items: Items, cap: Any, path: Path) -> None:
        rarities = {rarity.id: rarity for rarity in items.rarities or []}
        if not rarities:
            self.report((*path, "rarity"), "this ruleset declares no rarities")
        else:
            self.exists(rarities, cap.rarity, (*path, "rarity"), "rarity")
        stats = {stat.id: stat for stat in items.stats}
        for stat_id in cap.stats:
            if self.exists(stats, stat_id, (*path, "stats", stat_id), "item stat") and not (
                isinstance(stats[stat_id], NumberStat)
            ):
                self.report((*path, "stats", stat_id), f"item stat {stat_id!r} is not a number")

    def unit(self, items: Items, unit_id: str, path: Path) -> None:
        if not items.currencies:
            self.report((*path, "unit"), "this ruleset declares no currencies")
        elif items.unit(unit_id) is None:
            known = {unit.id: unit for family in items.currencies for unit in family.units}
            self.exists(known, unit_id, (*path, "unit"), "currency unit")

    # catalogs ----------------------------------------------------------------------------------

    def catalog(self, catalog: Any, path: Path) -> None:
        holds = catalog.holds or "rows"
        entries = catalog.entries or []
        if holds != "items":
            for position, entry in enumerate(entries):
                if entry.item is not None:
                    self.report(
                        (*path, "entries", position, "item"),
                        f"catalog {catalog.id!r} holds {holds}, so an entry cannot carry an item",
                    )
            return
        if self.ruleset.items is None:
            self.report(
                (*path, "holds"),
                "a catalog of items needs an items block for its items to be written in",
            )
        if catalog.feeds:
            self.report((*path, "feeds"), "a catalog of items writes no rows, so it feeds no list")
        for position, entry in enumerate(entries):
            self.entry(catalog.id, entry, (*path, "entries", position))

    def entry(self, catalog_id: str, entry: Any, path: Path) -> None:
        if entry.item is None:
            self.report(
                (*path, "item"), f"catalog {catalog_id!r} holds items, so every entry carries one"
            )
            return
        if entry.rows or entry.creature is not None:
            self.report(path, 'an entry has exactly one of "rows", "creature" or "item"')
        if entry.mechanics is not None:
            self.report(
                (*path, "mechanics"),
                "an item is written only in its item block, so it carries no mechanics",
            )
        if self.ruleset.items is not None:
            self.item(self.ruleset.items, entry.item, (*path, "item"))

    def item(self, items: Items, item: ItemDef, path: Path) -> None:
        self.exists(
            {c.id: c for c in items.categories}, item.category, (*path, "category"), "category"
        )
        if item.rarity is not None:
            if items.rarities is None:
                self.report((*path, "rarity"), "this ruleset declares no rarities")
            else:
                rarities = {rarity.id: rarity for rarity in items.rarities}
                self.exists(rarities, item.rarity, (*path, "rarity"), "rarity")
        tags = {tag.id: tag for tag in items.tags or []}
        for position, tag in enumerate(item.tags):
            if tag in item.tags[:position]:
                self.report((*path, "tags", position), f"duplicate item tag {tag!r}")
            else:
                self.exists(tags, tag, (*path, "tags", position), "item tag")
        for stat_id, value in item.stats.items():
            problem = stat_problem(items, stat_id, value)
            if problem:
                self.report((*path, "stats"), problem)
        slots = {slot.id: slot for slot in items.slots or []}
        for slot_id, count in item.slots.items():
            at = (*path, "slots", slot_id)
            if self.exists(slots, slot_id, at, "slot") and count > slots[slot_id].count:
                self.report(
                    (*path, "slots", slot_id),
                    f"a character has {slots[slot_id].count} of slot {slot_id!r}, not {count}",
                )
        if item.cost is not None:
            self.unit(items, item.cost.unit, (*path, "cost"))
        if item.binds is not None and items.binding is None:
            self.report((*path, "binds"), "this ruleset declares no binding, so nothing is bound")
        if item.charges is not None and item.charges.recharge is not None:
            rests = {rest.id: rest for rest in self.ruleset.rests}
            for position, rest in enumerate(item.charges.recharge.rests):
                at = (*path, "charges", "recharge", "rests", position)
                self.exists(rests, rest, at, "rest")


def stat_problem(items: Items, stat_id: str, value: Any) -> str | None:
    """Why `value` is not one the stat `stat_id` could hold (None when it is)."""
    stat = items.stat(stat_id)
    if stat is None:
        known = ", ".join(s.id for s in items.stats) or "none declared"
        return f"unknown stat {stat_id!r}; declared: {known}"
    if isinstance(stat, NumberStat):
        if isinstance(value, bool) or not isinstance(value, int | float):
            return f"stat {stat_id!r} takes a number, not {value!r}"
        if stat.integer and value != int(value):
            return f"stat {stat_id!r} takes a whole number, not {value}"
        if not stat.min <= value <= stat.max:
            return f"stat {stat_id!r} is outside {stat.min} to {stat.max}: {value}"
    elif isinstance(stat, EnumStat):
        if value not in stat.values:
            return f"stat {stat_id!r} takes one of its declared values ({', '.join(stat.values)})"
    elif stat.type == "dice":
        if not isinstance(value, str) or not DICE_TEXT.match(value):
            return f"stat {stat_id!r} takes dice text such as 1d6, not {value!r}"
    elif stat.type == "boolean":
        if not isinstance(value, bool):
            return f"stat {stat_id!r} takes true or false, not {value!r}"
    elif isinstance(stat, TextStat):
        if not isinstance(value, str):
            return f"stat {stat_id!r} takes text, not {value!r}"
        if len(value) > stat.max_length:
            return f"stat {stat_id!r} is longer than {stat.max_length} characters"
    return None
