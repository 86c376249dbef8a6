"""Money: pay, earn and buy, in a ruleset's currency families.

A purse holds each family as one amount in its smallest unit, so paying two shillings from pennies
takes 24 of them and the change is whatever is left, shown in the largest units it makes up
(`2 shillings, 6 pennies`). Families never mix: coin cannot pay a salt price (`insufficient`, or
`wrong-currency` when the buyer names a unit of another family, or the market does not take the
price's family). A buy pays the item's `cost` times the market's `markup` (percent, rounded up),
then adds the item as `add` does; past the carry limit it is refused and nothing is paid.
"""

from __future__ import annotations

import math

from ..commands.inventory import InventoryCommand
from ..reasons import Reason
from ..ruleset.items import Currency, Items
from ..sheet.inventory import Inventory, Stack
from ..sheet.item_book import money_text
from ..state import draft_of
from .bags import Bag
from .outcome import Outcome


def run_money(command: InventoryCommand, bag: Bag) -> Outcome:
    assert bag.book is not None
    items = bag.book.items
    if command.action == "buy":
        return _buy(command, bag, items)
    found = items.unit(command.unit or "")
    if found is None:
        return _unknown_unit(items, command.unit)
    family, unit = found
    held = bag.state.inventory.purse(bag.key).get(family.id, 0)
    change = command.amount * unit.value
    if command.action == "pay":
        if held < change:
            return _short(bag, family, held, change)
        after = held - change
    else:
        after = held + change
    inventory = bag.state.inventory.with_money(bag.key, family.id, after)
    refused = bag.cannot_hold(inventory)
    if refused is not None:
        return refused
    draft_of(bag.state).set_inventory(inventory)
    return Outcome(now=money_text(family, after))


def _buy(command: InventoryCommand, bag: Bag, items: Items) -> Outcome:
    book_item = bag.item_of(command.item or "")
    if book_item is None or book_item.cost is None:
        return Outcome.refused(
            Reason.UNKNOWN_ITEM, f"{command.item!r} is none of the ruleset's items with a price"
        )
    found = items.unit(book_item.cost.unit)
    assert found is not None  # the unit of a cost is checked at import
    family, unit = found
    markup = items.market.markup if items.market is not None else 100
    price = math.ceil(book_item.cost.amount * unit.value * command.count * markup / 100)
    accepts = items.market.accepts if items.market is not None else None
    if accepts is not None and family.id not in accepts:
        return Outcome.refused(
            Reason.WRONG_CURRENCY, f"the seller does not take {family.label}, the price's currency"
        )
    offered = items.unit(command.unit) if command.unit is not None else None
    if command.unit is not None and offered is None:
        return _unknown_unit(items, command.unit)
    if offered is not None and offered[0].id != family.id:
        return Outcome.refused(
            Reason.WRONG_CURRENCY,
            f"the price is {money_text(family, price)} of {family.label}; "
            f"{offered[0].label} does not pay it",
        )
    held = bag.state.inventory.purse(bag.key).get(family.id, 0)
    if held < price:
        return _short(bag, family, held, price)
    paid = bag.state.inventory.with_money(bag.key, family.id, held - price)
    inventory: Inventory = bag.added(
        Stack("", book_item.name, 1, item=book_item.id), command.count, paid
    )
    refused = bag.cannot_hold(inventory)
    if refused is not None:
        return refused
    draft_of(bag.state).set_inventory(inventory)
    return Outcome(now=str(bag.count(Stack("", book_item.name, 1, item=book_item.id))))


def _short(bag: Bag, family: Currency, held: int, wanted: int) -> Outcome:
    others = [
        key
        for key, amount in bag.state.inventory.purse(bag.key).items()
        if amount and key != family.id
    ]
    mixing = f"; {', '.join(others)} does not pay {family.label}" if others else ""
    return Outcome.refused(
        Reason.INSUFFICIENT,
        f"{bag.character.name} has {money_text(family, held)} of {family.label}, and this "
        f"costs {money_text(family, wanted)}{mixing}",
    )


def _unknown_unit(items: Items, unit: str | None) -> Outcome:
    known = ", ".join(u.id for family in items.currencies or () for u in family.units) or "none"
    return Outcome.refused(
        Reason.UNKNOWN_UNIT, f"no currency unit {unit!r}; the units are: {known}"
    )
