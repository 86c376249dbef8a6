"""`[inventory: ...]` and `[loot: ...]` tags bound to inventory commands.

The Engine's grammar: `action=` (or the action as a bare word: `[inventory: add item="Rope"]`),
`item=` (or `items=`), `count=` (or `qty=`, `quantity=`; 1 when missing or not a positive whole
number, at most 9999), `who=`, `to=`. gm-tags adds the actions the Engine has no tag for (equip and
bind come from its reminder; use, pay, earn and buy are ours), `amount=` and `unit=` for money, and
an invented item's `category=`, `rarity=` and stats by their ids. One item a tag: the Engine
answers each of `item="A, B"` on its own, in tags of their own, which a receipt per tag cannot
(docs/inventory.md).
"""

from __future__ import annotations

from dataclasses import dataclass

from ..parse import Tag
from ..text import clean
from .common import Refused, Request, integer, malformed, requested

ACTIONS = (
    "add",
    "remove",
    "give",
    "equip",
    "unequip",
    "bind",
    "unbind",
    "use",
    "pay",
    "earn",
    "buy",
)
MONEY = frozenset({"pay", "earn"})
MOST = 9999
NAME_LIMIT = 200
_COUNT_KEYS = ("count", "qty", "quantity")
_KNOWN = frozenset({"action", "item", "items", "who", "to", "amount", "unit", *_COUNT_KEYS})


@dataclass(frozen=True, slots=True)
class InventoryCommand:
    action: str
    item: str | None = None
    count: int = 1
    who: str | None = None
    to: str | None = None
    amount: int = 0
    unit: str | None = None
    # An invented item's words, as written: category=, rarity= and stats by their ids.
    words: tuple[tuple[str, str], ...] = ()

    @property
    def request(self) -> Request:
        """The request as the Engine writes it back: action, item, count, who, to (and ours)."""
        parts: list[tuple[str, str | None]] = [("action", self.action)]
        if self.action in MONEY:
            parts += [("amount", str(self.amount)), ("unit", self.unit or "")]
        else:
            parts += [("item", clean(self.item or "")), ("count", str(self.count))]
            parts += [(key, clean(value)) for key, value in self.words]
            if self.unit is not None:
                parts.append(("unit", self.unit))
        parts += [
            (key, clean(value)) for key, value in (("who", self.who), ("to", self.to)) if value
        ]
        return tuple(parts)


@dataclass(frozen=True, slots=True)
class LootCommand:
    table: str
    who: str | None = None

    @property
    def request(self) -> Request:
        parts: list[tuple[str, str | None]] = [("table", clean(self.table))]
        return (*parts, ("who", clean(self.who))) if self.who else tuple(parts)


def bind_inventory(tag: Tag) -> InventoryCommand | Refused:
    attributes = requested(tag)
    action = (attributes.get("action") or "").strip().lower()
    if not action:
        action = next((flag.lower() for flag in tag.flags if flag.lower() in ACTIONS), "")
    if action not in ACTIONS:
        asked = f"action {action!r}" if action else "no action"
        return malformed(
            tag, f"an inventory tag asks for one of {', '.join(ACTIONS)}; this asks {asked}"
        )
    who, to = _name(attributes.get("who")), _name(attributes.get("to"))
    unit = (attributes.get("unit") or "").strip().lower() or None
    if action in MONEY:
        amount = integer(attributes.get("amount") or "")
        if amount is None or amount < 1:
            return malformed(tag, f"{action} names a positive whole amount= and a unit=")
        if unit is None:
            return malformed(tag, f"{action} names the unit= the amount is counted in")
        return InventoryCommand(action, amount=min(amount, 10**9), unit=unit, who=who)
    item = (attributes.get("item") or attributes.get("items") or "").strip()
    if not item:
        return malformed(tag, f"{action} names the item= it {action}s")
    if "," in item:
        return malformed(tag, "one item a tag: write a tag for each item")
    if len(item) > NAME_LIMIT:
        return malformed(tag, f"the item's name is {len(item)} characters; at most {NAME_LIMIT}")
    words = tuple(
        (key, value.strip())
        for key, value in attributes.items()
        if key not in _KNOWN and value is not None and value.strip()
    )
    return InventoryCommand(action, item, _count(attributes), who, to, unit=unit, words=words)


def bind_loot(tag: Tag) -> LootCommand | Refused:
    attributes = requested(tag)
    table = (attributes.get("table") or "").strip()
    if not table:
        return malformed(tag, "a loot tag names its table=")
    return LootCommand(table, _name(attributes.get("who")))


def _count(attributes: dict[str, str]) -> int:
    """The Engine's count: missing, broken or below 1 reads 1; past 9999 reads 9999."""
    written = next((attributes[key] for key in _COUNT_KEYS if key in attributes), "")
    number = integer(written or "")
    return 1 if number is None or number < 1 else min(number, MOST)


def _name(value: str | None) -> str | None:
    return value.strip() or None if value is not None else None
