"""`[inventory: ...]` run against a state: what a character holds, wears, binds and uses.

Each action changes one bag (two for give) and answers as the Engine does: `now` is how many of the
item the bag holds after (worn after for equip and unequip, bound after for bind and unbind, charges
left for a use that spends charges), or the family's money in its units for pay, earn and buy's
price (`engine/money.py`). A refusal changes nothing. The rules:

- add: a name that is one of the ruleset's items (its label, any case) adds that item; any other
  name adds a plain item, unless `freeform` is "refuse" (`unknown-item`). An invented item's
  `category=`, `rarity=` and stats must be the ruleset's words and within its `rarityCaps`.
  Past `carry.limit` is `over-limit`; past `carry.encumberedAbove` the character is encumbered.
- remove and give take from the top down, worn and bound ones last; a cursed bound item stays.
- equip needs an item with slots and room in them (`slot-full`); bind needs an item that binds and
  fewer bound than `binding.max` off the bearer's own sheet (`binding-full`); a cursed bound item
  is neither unbound nor taken off (`cursed`).
- use spends the item's charges (`no-charges` when they are gone) or one of a stack it consumes.
"""

from __future__ import annotations

from dataclasses import replace
from types import MappingProxyType
from typing import Any

from ..commands.inventory import InventoryCommand
from ..reasons import Reason
from ..ruleset.checks_items import stat_problem
from ..sheet.inventory import Stack
from ..state import Draft, draft_of
from .bags import Bag, bag_named, cursed
from .money import run_money
from .outcome import Outcome


def run_inventory(command: InventoryCommand, state: Draft[Any]) -> Outcome:
    """Run `command` against `state` (a draft, changed in place when it applies)."""
    bag = bag_named(state, command.who)
    if isinstance(bag, Outcome):
        return bag
    if bag.book is None and command.action not in ("add", "remove", "give"):
        return Outcome.refused(
            Reason.NO_ITEMS, f"this ruleset has no items block, so {command.action} is off"
        )
    if command.action in ("pay", "earn", "buy"):
        return run_money(command, bag)
    return _ACTIONS[command.action](command, bag)


def _add(command: InventoryCommand, bag: Bag) -> Outcome:
    like = _new_stack(command, bag)
    if isinstance(like, Outcome):
        return like
    inventory = bag.added(like, command.count)
    refused = bag.cannot_hold(inventory)
    if refused is not None:
        return refused
    draft_of(bag.state).set_inventory(inventory)
    return _held(bag, like)


def _new_stack(command: InventoryCommand, bag: Bag) -> Stack | Outcome:
    """What one of the named item is: the ruleset's item of that label, or a plain one."""
    book_item = bag.item_of(command.item or "")
    name = command.item or ""
    if book_item is not None:
        return Stack("", book_item.name, 1, item=book_item.id)
    if bag.book is not None and bag.book.items.freeform == "refuse":
        return Outcome.refused(
            Reason.UNKNOWN_ITEM,
            f"{name!r} is none of the ruleset's items, and this ruleset adds no others",
        )
    invented = _invented(command, bag)
    if isinstance(invented, Outcome):
        return invented
    return Stack("", name, 1, extra=MappingProxyType(invented))


def _invented(command: InventoryCommand, bag: Bag) -> dict[str, Any] | Outcome:
    """An invented item's words, checked against the items block and its rarityCaps."""
    if not command.words:
        return {}
    if bag.book is None:
        return Outcome.refused(Reason.BAD_VALUE, "this ruleset has no items block to describe it")
    items = bag.book.items
    words = dict(command.words)
    found: dict[str, Any] = {}
    for key, ids in (("category", items.categories), ("rarity", items.rarities or [])):
        if key in words:
            value = words.pop(key).lower()
            if value not in {word.id for word in ids}:
                known = ", ".join(word.id for word in ids) or "none"
                return Outcome.refused(Reason.BAD_VALUE, f"{key} {value!r} is not one of: {known}")
            found[key] = value
    stats: dict[str, Any] = {}
    for stat_id, written in words.items():
        stat_value = _stat_value(written)
        problem = stat_problem(items, stat_id, stat_value)
        if problem:
            return Outcome.refused(Reason.BAD_VALUE, problem)
        stats[stat_id] = stat_value
    cap = next((c for c in items.rarity_caps or () if c.rarity == found.get("rarity")), None)
    for stat_id, most in (cap.stats if cap is not None else {}).items():
        held = stats.get(stat_id)
        if isinstance(held, int | float) and not isinstance(held, bool) and held > most:
            return Outcome.refused(
                Reason.OVER_CAP,
                f"a {found['rarity']} item has at most {most} {stat_id}, not {held}",
            )
    if stats:
        found["stats"] = stats
    return found


def _stat_value(written: str) -> object:
    lowered = written.strip().lower()
    if lowered in ("true", "false"):
        return lowered == "true"
    try:
        number = float(written)
    except ValueError:
        return written.strip()
    return int(number) if number.is_integer() else number


def _remove(command: InventoryCommand, bag: Bag) -> Outcome:
    stacks = bag.matching(command.item or "")
    if not stacks:
        return _none_held(bag, command.item)
    inventory, taken = bag.taken(stacks, command.count)
    if not taken:
        return Outcome.refused(Reason.CURSED, f"{stacks[0].shown} is bound and will not come off")
    draft_of(bag.state).set_inventory(inventory)
    return _held(bag, stacks[0])


def _give(command: InventoryCommand, bag: Bag) -> Outcome:
    if command.to is None:
        return Outcome.refused(Reason.NO_RECIPIENT, "give names who receives it with to=")
    receiver = bag_named(bag.state, command.to)
    if isinstance(receiver, Outcome):
        return receiver
    stacks = bag.matching(command.item or "")
    if not stacks:
        return _none_held(bag, command.item)
    inventory, taken = bag.taken(stacks, command.count)
    if not taken:
        return Outcome.refused(Reason.CURSED, f"{stacks[0].shown} is bound and will not come off")
    # What is handed over is neither worn nor bound by whoever takes it.
    given = replace(stacks[0], equipped=0, bound=0, charges=stacks[0].charges)
    after = receiver.added(given, taken, inventory)
    refused = receiver.cannot_hold(after)
    if refused is not None:
        return refused
    draft_of(bag.state).set_inventory(after)
    return _held(receiver, given)


def _equip(command: InventoryCommand, bag: Bag, *, on: bool) -> Outcome:
    stacks = bag.matching(command.item or "")
    if not stacks:
        return _none_held(bag, command.item)
    stack = stacks[0]
    slots = bag.book.slots(stack) if bag.book is not None else {}
    if not slots:
        return Outcome.refused(
            Reason.NOT_WEARABLE, f"{stack.shown} takes no slot, so it is not worn"
        )
    if on:
        free = [s for s in stacks if s.quantity > s.equipped]
        if not free:
            return Outcome.refused(Reason.NONE_HELD, f"every {stack.shown} held is worn already")
        stack = free[0]
        used = bag.slots_used()
        for slot in bag.book.items.slots or () if bag.book is not None else ():
            need = slots.get(slot.id, 0)
            if need and used.get(slot.id, 0) + need > slot.count:
                return Outcome.refused(
                    Reason.SLOT_FULL,
                    f"{slot.label} holds {slot.count}; {used.get(slot.id, 0)} in use and "
                    f"{stack.shown} takes {need}",
                )
        changed = replace(stack, equipped=stack.equipped + 1)
    else:
        worn = [s for s in stacks if s.equipped]
        if not worn:
            return Outcome.refused(Reason.NONE_HELD, f"no {stack.shown} is worn")
        stack = worn[0]
        if cursed(bag.book, stack):
            return Outcome.refused(Reason.CURSED, f"{stack.shown} is bound and will not come off")
        changed = replace(stack, equipped=stack.equipped - 1)
    _swap(bag, stack, changed)
    return Outcome(now=str(sum(s.equipped for s in bag.matching(command.item or ""))))


def _bind(command: InventoryCommand, bag: Bag, *, on: bool) -> Outcome:
    stacks = bag.matching(command.item or "")
    if not stacks:
        return _none_held(bag, command.item)
    stack = stacks[0]
    book_item = bag.book.of(stack) if bag.book is not None else None
    if book_item is None or book_item.definition.binds is None:
        return Outcome.refused(Reason.NOT_BINDABLE, f"{stack.shown} is not an item that binds")
    if on:
        free = [s for s in stacks if s.quantity > s.bound]
        if not free:
            return Outcome.refused(Reason.NONE_HELD, f"every {stack.shown} held is bound already")
        most = bag.limit("binding")
        if most is not None and bag.bound() + 1 > most:
            label = bag.book.items.binding.label if bag.book and bag.book.items.binding else ""
            return Outcome.refused(
                Reason.BINDING_FULL,
                f"{bag.character.name} has {bag.bound()} {label.lower()} of {int(most)}",
            )
        stack = free[0]
        changed = replace(stack, bound=stack.bound + 1)
    else:
        bound = [s for s in stacks if s.bound]
        if not bound:
            return Outcome.refused(Reason.NONE_HELD, f"no {stack.shown} is bound")
        stack = bound[0]
        if cursed(bag.book, stack):
            return Outcome.refused(Reason.CURSED, f"{stack.shown} will not be unbound")
        changed = replace(stack, bound=stack.bound - 1)
    _swap(bag, stack, changed)
    return Outcome(now=str(sum(s.bound for s in bag.matching(command.item or ""))))


def _use(command: InventoryCommand, bag: Bag) -> Outcome:
    stacks = bag.matching(command.item or "")
    if not stacks:
        return _none_held(bag, command.item)
    stack = stacks[0]
    book_item = bag.book.of(stack) if bag.book is not None else None
    definition = book_item.definition if book_item is not None else None
    if definition is None or (definition.use is None and definition.charges is None):
        return Outcome.refused(Reason.NOT_USABLE, f"{stack.shown} has no use the ruleset names")
    use = definition.use or {}
    if definition.charges is not None:
        spent = int(use.get("charges", 1)) if isinstance(use.get("charges", 1), int) else 1
        left = definition.charges.max if stack.charges is None else stack.charges
        if left < spent:
            return Outcome.refused(Reason.NO_CHARGES, f"{stack.shown} has {left} charges left")
        left -= spent
        _swap(bag, stack, replace(stack, charges=None if left == definition.charges.max else left))
        return Outcome(now=str(left))
    if use.get("consumes"):
        inventory, _ = bag.taken([stack], 1)
        draft_of(bag.state).set_inventory(inventory)
    return _held(bag, stack)


def _swap(bag: Bag, old: Stack, new: Stack) -> None:
    stacks = [new if stack.id == old.id else stack for stack in bag.state.inventory.stacks]
    draft_of(bag.state).set_inventory(bag.state.inventory.with_stacks(stacks))


def _held(bag: Bag, like: Stack) -> Outcome:
    return Outcome(now=str(bag.count(like)))


def _none_held(bag: Bag, item: str | None) -> Outcome:
    return Outcome.refused(Reason.NONE_HELD, f"{bag.character.name} holds no {item}")


_ACTIONS = {
    "add": _add,
    "remove": _remove,
    "give": _give,
    "equip": lambda command, bag: _equip(command, bag, on=True),
    "unequip": lambda command, bag: _equip(command, bag, on=False),
    "bind": lambda command, bag: _bind(command, bag, on=True),
    "unbind": lambda command, bag: _bind(command, bag, on=False),
    "use": _use,
}
