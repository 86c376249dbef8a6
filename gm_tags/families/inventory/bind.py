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

from ...commands.common import Refused, integer, malformed, requested
from ...commands.inventory import (
    ACTIONS,
    COUNT_KEYS,
    MONEY,
    MOST,
    NAME_LIMIT,
    InventoryCommand,
)
from ...parse import Tag

_KNOWN = frozenset({"action", "item", "items", "who", "to", "amount", "unit", *COUNT_KEYS})


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
    who, to = name(attributes.get("who")), name(attributes.get("to"))
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


def _count(attributes: dict[str, str]) -> int:
    """The Engine's count: missing, broken or below 1 reads 1; past 9999 reads 9999."""
    written = next((attributes[key] for key in COUNT_KEYS if key in attributes), "")
    number = integer(written or "")
    return 1 if number is None or number < 1 else min(number, MOST)


def name(value: str | None) -> str | None:
    """A name as written, or None when it is blank."""
    return value.strip() or None if value is not None else None
