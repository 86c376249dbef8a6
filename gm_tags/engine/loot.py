"""`[loot: table= who=]`: a ruleset's loot table rolled by the engine's dice (gm-tags' own; the
Engine has no loot table). Each of the table's `rolls` picks one row, a row coming up as often as
its `weight` against the others; what comes up, and the table's money, goes into one bag at once
(past the carry limit, none of it: `over-limit`). `now` lists what was found.
"""

from __future__ import annotations

from typing import Any

from ..commands.inventory import LootCommand
from ..dice import Dice
from ..reasons import Reason
from ..sheet.inventory import Stack, item_key
from ..sheet.item_book import money_text
from ..state import Draft
from .bags import bag_named
from .outcome import Outcome


def run_loot(command: LootCommand, state: Draft[Any], dice: Dice) -> Outcome:
    bag = bag_named(state, command.who)
    if isinstance(bag, Outcome):
        return bag
    if bag.book is None:
        return Outcome.refused(Reason.NO_ITEMS, "this ruleset has no items block, so no loot")
    items = bag.book.items
    key = item_key(command.table)
    table = next(
        (t for t in items.loot_tables or () if key in (t.id, item_key(t.label))),
        None,
    )
    if table is None:
        known = ", ".join(t.id for t in items.loot_tables or ()) or "none"
        return Outcome.refused(
            Reason.UNKNOWN_TABLE, f"no loot table {command.table!r}; tables: {known}"
        )
    total = sum(row.weight for row in table.rows)
    inventory = state.inventory
    found_words: list[str] = []
    for _ in range(table.rolls):
        face = dice.roll(1, total)[0] if total > 1 else 1
        for row in table.rows:
            face -= row.weight
            if face <= 0:
                break
        book_item = bag.item_of(row.item)
        like = (
            Stack("", book_item.name, 1, item=book_item.id)
            if book_item is not None
            else Stack("", row.item, 1)
        )
        inventory = bag.added(like, row.count, inventory)
        found_words.append(f"{like.name} x{row.count}")
    if table.money is not None:
        family, unit = items.unit(table.money.unit) or (None, None)
        if family is not None and unit is not None:
            held = inventory.purse(bag.key).get(family.id, 0)
            inventory = inventory.with_money(
                bag.key, family.id, held + table.money.amount * unit.value
            )
            found_words.append(money_text(family, table.money.amount * unit.value))
    refused = bag.cannot_hold(inventory)
    if refused is not None:
        return refused
    state.set_inventory(inventory)
    return Outcome(now="; ".join(found_words))
