"""The commands `[inventory: ...]` and `[loot: ...]` tags bind to
(`gm_tags.families.inventory.bind`), with the actions and limits they hold to.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..text import clean
from .common import Request

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
COUNT_KEYS = ("count", "qty", "quantity")


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
