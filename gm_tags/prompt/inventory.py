"""What the Game Master reads of items: the inventory command lines of the reminder (only when the
ruleset has items, and each action only where the ruleset can use it, as the Engine teaches equip
only with slots and bind only with binding), and each character's carried things in its sheet
block, in the ruleset's words: category, rarity and tag labels, only the stats the Game Master may
see, worn and bound counts, the load against what the character carries before it is encumbered
and at most, the slots in use, the bound items against the limit, and money in unit labels.
"""

from __future__ import annotations

from ..engine.bags import Bag
from ..ruleset.loader import Ruleset
from ..sheet.character import Character
from ..sheet.inventory import Stack
from ..sheet.item_book import ItemBook, book_for, money_text
from ..state import StateReads
from .text import number, safe

MOST_SHOWN = 40


def inventory_command_lines(ruleset: Ruleset) -> list[str]:
    book = book_for(ruleset)
    if book is None:
        return []
    items = book.items
    catalog = bool(book.by_id)
    lines = [
        '- [inventory: action="add|remove|give" item="Name" count="1" who="Name" to="Name"] - '
        "when a character gains, loses or hands over something (to= only on give; who left "
        "out is the player). One item a tag."
        + (
            " An item named exactly as one of the ruleset's items becomes that item."
            if catalog
            else ""
        )
        + (
            " Only the ruleset's items can be added."
            if items.freeform == "refuse"
            else " An invented item may say category=, rarity= and its stats by id."
        )
    ]
    wearing = [
        *(["equip|unequip"] if items.slots else []),
        *(["bind|unbind"] if items.binding else []),
    ]
    if wearing:
        doings = [
            what
            for what, present in (
                ("puts on or takes off one of the ruleset's items", items.slots),
                ("binds or unbinds one", items.binding),
            )
            if present
        ]
        checks = " and ".join(
            what
            for what, present in (("the slots", items.slots), ("the binding limit", items.binding))
            if present
        )
        lines.append(
            f'- [inventory: action="{"|".join(wearing)}" item="Name" who="Name"] - when a '
            f"character {', or '.join(doings)}; it must be in their own bag. The engine checks "
            f"{checks} shown on each sheet."
        )
    if any(b.definition.use or b.definition.charges for b in book.by_id.values()):
        lines.append(
            '- [inventory: action="use" item="Name" who="Name"] - when a character uses an item '
            "that has a use: it spends a charge, or one of a stack it uses up."
        )
    if items.currencies:
        units = "|".join(unit.id for family in items.currencies for unit in family.units)
        lines.append(
            f'- [inventory: action="pay|earn" amount="N" unit="{units}" who="Name"] - money '
            "changing hands; the engine makes change. "
            + "; ".join(
                f"{safe(family.label)}: "
                + ", ".join(f"{u.id} = {u.value} {family.smallest.id}" for u in family.units)
                for family in items.currencies
            )
            + (". Families do not mix." if len(items.currencies) > 1 else ".")
        )
        if any(b.cost for b in book.by_id.values()):
            lines.append(
                '- [inventory: action="buy" item="Name" count="1" who="Name"] - a character buys '
                "one of the ruleset's items at its price, paid in the price's own currency."
            )
            lines += _market(book)
    if items.loot_tables:
        tables = "|".join(table.id for table in items.loot_tables)
        lines.append(
            f'- [loot: table="{tables}" who="Name"] - what a character finds; the engine rolls it.'
        )
    lines.append("Never write result, reason or now in these tags: the engine writes them.")
    return ["Items:", *lines]


def _market(book: ItemBook) -> list[str]:
    if book.items.market is None:
        return []
    priced = [item for item in book.by_id.values() if item.cost is not None][:MOST_SHOWN]
    shown = []
    for item in priced:
        assert item.cost is not None
        found = book.items.unit(item.cost.unit)
        if found is None:
            continue
        family, unit = found
        price = -(-item.cost.amount * unit.value * book.items.market.markup // 100)
        shown.append(f"{safe(item.name)} {money_text(family, price)}")
    return ["For sale: " + "; ".join(shown) + "."] if shown else []


def inventory_lines(state: StateReads, character: Character) -> list[str]:
    """The lines of `character`'s sheet block about what it carries."""
    bag = Bag.of(state, character)
    if not bag.stacks and not any(state.inventory.purse(bag.key).values()):
        return []
    if bag.book is None:
        return _plain(bag)
    lines = [_carried(bag), _bearing(bag), _money(bag)]
    return [line for line in lines if line]


def _plain(bag: Bag) -> list[str]:
    stacks = bag.stacks[:MOST_SHOWN]
    return ["Carries: " + ", ".join(_stack(None, stack) for stack in stacks)] if stacks else []


def _carried(bag: Bag) -> str:
    stacks = bag.stacks[:MOST_SHOWN]
    if not stacks:
        return ""
    return "Carries: " + "; ".join(_stack(bag.book, stack) for stack in stacks)


def _stack(book: ItemBook | None, stack: Stack) -> str:
    text = safe(stack.shown)
    if stack.nickname:
        text += f" ({safe(stack.name)})"
    if stack.quantity > 1:
        text += f" \u00d7{stack.quantity}"  # the Engine's multiplication sign
    marks = [
        f"{count} {word}"
        for count, word in ((stack.equipped, "worn"), (stack.bound, "bound"))
        if count
    ]
    if stack.charges is not None:
        marks.append(f"{stack.charges} charges left")
    if marks:
        text += f" ({', '.join(marks)})"
    facts = book.facts(stack) if book is not None else ""
    return text + (f" [{safe(facts, 200)}]" if facts else "")


def _bearing(bag: Bag) -> str:
    assert bag.book is not None
    items = bag.book.items
    parts = []
    if items.carry is not None:
        load = f"Load {number(bag.load())}"
        above, most = bag.limit("encumbered_above"), bag.limit("limit")
        if above is not None:
            load += f" of {number(above)}"
        if most is not None:
            load += f", most {number(most)}"
        if above is not None and bag.load() > above:
            load += ", encumbered"
        parts.append(load)
    used = bag.slots_used()
    slots = [f"{safe(s.label)} {used.get(s.id, 0)} of {s.count}" for s in items.slots or ()]
    if slots and any(stack.equipped for stack in bag.stacks):
        parts.append(", ".join(slots))
    if items.binding is not None:
        most = bag.limit("binding")
        shown = f" of {number(most)}" if most is not None else ""
        parts.append(f"{safe(items.binding.label)} {bag.bound()}{shown}")
    return "; ".join(parts)


def _money(bag: Bag) -> str:
    assert bag.book is not None
    purse = bag.state.inventory.purse(bag.key)
    held = [
        f"{safe(family.label)} {money_text(family, purse[family.id])}"
        for family in bag.book.items.currencies or ()
        if purse.get(family.id)
    ]
    return ("Money: " + "; ".join(held)) if held else ""
