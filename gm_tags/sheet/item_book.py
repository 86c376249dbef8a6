"""The ruleset's items as a game reads them (the Engine's `rulesetItemBook`): each catalog item by
its id (`<catalog>/<entry>`) and by its label in any case (the first the ruleset lists wins a
shared label), with its weight, slots, binding, charges and price, and its facts in the ruleset's
own words. Built once per ruleset.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any

from ..ruleset import Ruleset
from ..ruleset.effects import ItemEffect
from ..ruleset.items import Cost, Currency, ItemDef, Items
from ..ruleset.layer_models import CatalogHide
from .build import Item
from .character import Character
from .inventory import Inventory, Stack, item_key


@dataclass(frozen=True, slots=True)
class BookItem:
    id: str
    name: str
    definition: ItemDef
    # What it does to checks and saves while worn, and while only carried (`checks/effects.py`).
    while_worn: ItemEffect | None = None
    while_carried: ItemEffect | None = None

    @property
    def stack(self) -> int | None:
        return self.definition.stack

    @property
    def cost(self) -> Cost | None:
        return self.definition.cost


@dataclass(frozen=True)
class ItemBook:
    items: Items
    by_id: Mapping[str, BookItem]
    by_name: Mapping[str, BookItem]

    def named(self, name: str) -> BookItem | None:
        return self.by_name.get(item_key(name))

    def of(self, stack: Stack) -> BookItem | None:
        return self.by_id.get(stack.item) if stack.item is not None else None

    def weight(self, stack: Stack) -> float:
        """What one of the stack weighs: its value of the carry stat (0 without one)."""
        carry = self.items.carry
        if carry is None:
            return 0
        value = _stats(self, stack).get(carry.stat, 0)
        return value if isinstance(value, int | float) and not isinstance(value, bool) else 0

    def slots(self, stack: Stack) -> Mapping[str, int]:
        book = self.of(stack)
        return book.definition.slots if book is not None else {}

    def held(self, stack: Stack) -> tuple[Item, ...]:
        """The stack as `itemStat` reads it: each worn one an item on the body, and the rest of the
        stack one carried item (a stack of twenty arrows is carried, not twenty times over)."""
        book = self.of(stack)
        category = book.definition.category if book else stack.invented("category")
        tags = tuple(book.definition.tags) if book else ()
        stats = {k: v for k, v in _stats(self, stack).items() if _is_number(v)}
        slot = next(iter(book.definition.slots), None) if book else None
        worn = Item(stack.shown, True, category, slot, tags, stats, stack.item)
        carried = Item(stack.shown, False, category, slot, tags, stats, stack.item)
        rest = (carried,) if stack.quantity > stack.equipped else ()
        return (worn,) * min(stack.equipped, 12) + rest

    def facts(self, stack: Stack) -> str:
        """What a ruleset item is, in the ruleset's words and only the stats the Game Master may
        see: `Weapon, Common, Thrown; Bulk 1, Damage 1d6, Rolls with brawn`."""
        book = self.of(stack)
        items = self.items
        category = book.definition.category if book else stack.invented("category")
        rarity = book.definition.rarity if book else stack.invented("rarity")
        words = [
            _label(items.categories, category),
            _label(items.rarities or [], rarity),
            *(_label(items.tags or [], tag) for tag in (book.definition.tags if book else ())),
        ]
        stats = []
        for stat_id, value in _stats(self, stack).items():
            stat = items.stat(stat_id)
            if stat is None or not stat.prompt_visible or value is False:
                continue
            if value is True:
                stats.append(stat.label)
            else:
                shown = stat.label_of(value) if stat.type == "enum" else _number_text(value)
                stats.append(f"{stat.label} {shown}")
        head = ", ".join(word for word in words if word)
        parts = [head, ", ".join(stats), self.price(book)]
        return "; ".join(part for part in parts if part)

    def price(self, book_item: BookItem | None) -> str:
        """What one costs, in the unit labels (`costs 2 sovereigns`), or ""."""
        cost = book_item.cost if book_item is not None else None
        found = self.items.unit(cost.unit) if cost is not None else None
        if cost is None or found is None:
            return ""
        family, unit = found
        return f"costs {money_text(family, cost.amount * unit.value)}"


def money_text(family: Currency, amount: int) -> str:
    """`amount` of `family`'s smallest unit in the largest units it makes up."""
    parts = []
    for unit in sorted(family.units, key=lambda unit: -unit.value):
        count, amount = divmod(amount, unit.value)
        if count:
            parts.append(f"{count} {unit.label}")
    return ", ".join(parts) or f"0 {family.smallest.label}"


def _stats(book: ItemBook, stack: Stack) -> Mapping[str, Any]:
    found = book.of(stack)
    if found is not None:
        return found.definition.stats
    invented = stack.invented("stats")
    return invented if isinstance(invented, Mapping) else {}


def _is_number(value: Any) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)


def _number_text(value: Any) -> str:
    return str(int(value)) if isinstance(value, float) and value.is_integer() else str(value)


def _label(words: Any, word_id: Any) -> str:
    return next((word.label for word in words if word.id == word_id), "")


def holding(
    characters: tuple[Character, ...],
    inventory: Inventory,
    book: ItemBook | None,
    player: str | None,
) -> tuple[Character, ...]:
    """`characters`, each holding what it carries in `inventory` (as `itemStat` reads it)."""
    changed = []
    for character in characters:
        held: tuple[Item, ...] = ()
        if book is not None:
            for stack in inventory.held_by(character.key, player):
                held += book.held(stack)
        changed.append(character if held == character.held else replace(character, held=held))
    return tuple(changed)


def _hides(ruleset: Ruleset) -> dict[str, list[CatalogHide]]:
    """The hide rules of the layers the game plays with, by catalog."""
    base = ruleset.base or ruleset
    found: dict[str, list[CatalogHide]] = {}
    for layer in base.definition.layers or ():
        if layer.id in ruleset.layers:
            for rule in layer.catalogs or ():
                found.setdefault(rule.id, []).append(rule.hide)
    return found


def _hidden(hide: CatalogHide, filters: Mapping[str, Any]) -> bool:
    value = filters.get(hide.filter)
    if hide.equals is not None:
        return value == hide.equals
    if hide.not_in is not None:
        return value not in hide.not_in
    if not isinstance(value, int | float) or isinstance(value, bool):
        return False
    return (hide.above is not None and value > hide.above) or (
        hide.below is not None and value < hide.below
    )


def book_for(ruleset: Ruleset | None) -> ItemBook | None:
    """The item book of `ruleset`, built on first use (None: the ruleset has no items block)."""
    if ruleset is None or ruleset.definition.items is None:
        return None
    cached: ItemBook | None = ruleset.__dict__.get("_item_book")
    if cached is None:
        cached = _build(ruleset)
        object.__setattr__(ruleset, "_item_book", cached)
    return cached


def _build(ruleset: Ruleset) -> ItemBook:
    definition = ruleset.definition
    assert definition.items is not None
    by_id: dict[str, BookItem] = {}
    by_name: dict[str, BookItem] = {}
    hides = _hides(ruleset)
    for catalog in definition.catalogs or []:
        if catalog.holds != "items":
            continue
        for entry in catalog.entries or []:
            item = entry.item
            if item is None:
                continue
            book = BookItem(
                f"{catalog.id}/{entry.id}",
                entry.label,
                item,
                item.worn.on_checks if item.worn else None,
                item.carried.on_checks if item.carried else None,
            )
            by_id[book.id] = book
            # A layer that hides an entry takes it out of what a name finds (and so of what can
            # be added or bought); one already held still reads as itself, by its id.
            if not any(_hidden(hide, entry.filters or {}) for hide in hides.get(catalog.id, ())):
                by_name.setdefault(item_key(entry.label), book)
    return ItemBook(definition.items, by_id, by_name)
