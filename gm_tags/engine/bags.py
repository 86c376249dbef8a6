"""One character's bag, read from a state: its stacks, its purse, and the limits its own sheet sets
(how much it carries before it is encumbered and at most, how many items it may bind), with the
stack arithmetic every inventory action shares (the Engine's add onto the first stack of an item,
take from the top down).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace

from ..names import PARTY, normalize_name
from ..reasons import Reason
from ..sheet.character import Character
from ..sheet.inventory import (
    MOST_MONEY,
    MOST_QUANTITY,
    MOST_STACKS,
    Inventory,
    Stack,
    bag_of,
    item_key,
)
from ..sheet.item_book import BookItem, ItemBook, book_for
from ..state import StateReads
from .outcome import Outcome
from .targets import targets

# At most this many stacks one add starts (the Engine's GAME_INVENTORY_MAX_NEW_STACKS).
MOST_NEW_STACKS = 100


@dataclass(frozen=True)
class Bag:
    state: StateReads
    character: Character
    book: ItemBook | None

    @classmethod
    def of(cls, state: StateReads, character: Character) -> Bag:
        return cls(state, character, book_for(state.ruleset))

    @property
    def key(self) -> str:
        return self.character.key

    @property
    def player_key(self) -> str | None:
        player = self.state.player_character
        return player.key if player is not None else None

    @property
    def holder(self) -> str | None:
        """What a stack of this bag stores as its holder (none for the player's own)."""
        return None if self.key == self.player_key else self.character.name

    @property
    def stacks(self) -> list[Stack]:
        return self.state.inventory.held_by(self.key, self.player_key)

    def mine(self, stack: Stack) -> bool:
        return bag_of(stack, self.player_key) == self.key

    # Which stacks a name means --------------------------------------------------------------

    def item_of(self, name: str) -> BookItem | None:
        return self.book.named(name) if self.book is not None else None

    def matching(self, name: str) -> list[Stack]:
        """This bag's stacks of the item `name` means: the ruleset's item of that label, else the
        stacks called that (by their own name first, then by a nickname)."""
        book_item = self.item_of(name)
        if book_item is not None:
            found = [s for s in self.stacks if s.item == book_item.id]
            if found:
                return found
        key = item_key(name)
        own = [s for s in self.stacks if item_key(s.name) == key]
        return own or [s for s in self.stacks if s.answers_to(key)]

    def count(self, like: Stack) -> int:
        return sum(s.quantity for s in self.stacks if _same_item(s, like))

    # Limits read off the character's own sheet -------------------------------------------------

    def limit(self, which: str) -> float | None:
        items = self.book.items if self.book is not None else None
        if items is None or self.state.ruleset is None:
            return None
        if which == "binding":
            ref = items.binding.max if items.binding is not None else None
        else:
            carry = items.carry
            ref = None if carry is None else getattr(carry, which)
        if ref is None:
            return None
        view = self.character.view(self.state.ruleset, self.state.live_of(self.character))
        return view.read(ref)

    def load(self, inventory: Inventory | None = None) -> float:
        """What the bag weighs: each stack's weight times its quantity, and the coins that weigh."""
        inventory = inventory or self.state.inventory
        if self.book is None or self.book.items.carry is None:
            return 0
        stacks = inventory.held_by(self.key, self.player_key)
        weight = sum(self.book.weight(stack) * stack.quantity for stack in stacks)
        purse = inventory.purse(self.key)
        for family in self.book.items.currencies or ():
            if family.per_weight:
                weight += purse.get(family.id, 0) / family.per_weight
        return weight

    def cannot_hold(self, inventory: Inventory) -> Outcome | None:
        """Why this bag cannot take what `inventory` would leave it: past the stored bounds
        (`live-state-full`) or past its carry limit (`over-limit`); None when it can."""
        if len(inventory.stacks) > MOST_STACKS:
            return Outcome.refused(
                Reason.LIVE_STATE_FULL, f"the inventory keeps at most {MOST_STACKS} stacks"
            )
        if any(amount > MOST_MONEY for amount in inventory.purse(self.key).values()):
            return Outcome.refused(
                Reason.LIVE_STATE_FULL, f"a purse holds at most {MOST_MONEY} of its smallest unit"
            )
        over = self.over_limit(inventory)
        return Outcome.refused(Reason.OVER_LIMIT, over) if over else None

    def over_limit(self, inventory: Inventory) -> str | None:
        """Why `inventory` would leave this bag past its carry limit (None when it would not)."""
        limit = self.limit("limit")
        if limit is None:
            return None
        before, after = self.load(), self.load(inventory)
        if after > limit and after > before:
            return (
                f"{self.character.name} would carry {_amount(after)}, past the limit of "
                f"{_amount(limit)}"
            )
        return None

    def slots_used(self, inventory: Inventory | None = None) -> dict[str, int]:
        used: dict[str, int] = {}
        if self.book is None:
            return used
        stacks = (inventory or self.state.inventory).held_by(self.key, self.player_key)
        for stack in stacks:
            for slot, count in self.book.slots(stack).items():
                used[slot] = used.get(slot, 0) + count * stack.equipped
        return used

    def bound(self) -> int:
        return sum(stack.bound for stack in self.stacks)

    # Stack arithmetic -------------------------------------------------------------------------

    def added(self, like: Stack, count: int, inventory: Inventory | None = None) -> Inventory:
        """The inventory (the state's, or `inventory`) with `count` more of `like`'s item in this
        bag: onto its first stack up to the item's stack size, then in new stacks (never more than
        MOST_NEW_STACKS)."""
        inventory = inventory or self.state.inventory
        size = self._stack_size(like)
        stacks = list(inventory.stacks)
        for at, stack in enumerate(stacks):
            if count and self.mine(stack) and _same_item(stack, like) and stack.quantity < size:
                poured = min(count, size - stack.quantity)
                stacks[at] = replace(stack, quantity=stack.quantity + poured)
                count -= poured
        inventory = inventory.with_stacks(stacks)
        for _ in range(MOST_NEW_STACKS):
            if not count:
                break
            poured = min(count, size)
            fresh = replace(
                like, id=inventory.new_id(like.name), quantity=poured, holder=self.holder
            )
            inventory = inventory.with_stacks((*inventory.stacks, fresh))
            count -= poured
        return inventory

    def taken(self, stacks: list[Stack], count: int) -> tuple[Inventory, int]:
        """The inventory with up to `count` taken from `stacks`, top to bottom (worn and bound
        ones last); how many were taken."""
        wanted = {stack.id for stack in stacks}
        left = count
        changed: dict[str, Stack] = {}
        for stack in sorted(stacks, key=lambda s: (s.bound > 0, s.equipped > 0)):
            free = stack.quantity - (stack.bound if cursed(self.book, stack) else 0)
            take = min(left, free)
            if take:
                quantity = stack.quantity - take
                changed[stack.id] = replace(
                    stack,
                    quantity=quantity,
                    equipped=min(stack.equipped, quantity),
                    bound=min(stack.bound, quantity),
                )
                left -= take
        inventory = self.state.inventory.with_stacks(
            changed.get(stack.id, stack) if stack.id in wanted else stack
            for stack in self.state.inventory.stacks
        )
        return inventory, count - left

    def _stack_size(self, like: Stack) -> int:
        book_item = self.book.of(like) if self.book is not None else None
        return book_item.stack if book_item is not None and book_item.stack else MOST_QUANTITY


def _same_item(stack: Stack, like: Stack) -> bool:
    if like.item is not None or stack.item is not None:
        return stack.item == like.item
    return item_key(stack.name) == item_key(like.name)


def bag_named(state: StateReads, who: str | None) -> Bag | Outcome:
    """The bag `who=` names, matched as every family's `who=`; none, or `party`, is the player's
    own (the Engine's bag without a holder), as the Engine reads an inventory tag's who."""
    if who is not None and normalize_name(who) == PARTY:
        who = None
    found = targets(state, who)
    return found if isinstance(found, Outcome) else Bag.of(state, found[0][0])


def cursed(book: ItemBook | None, stack: Stack) -> bool:
    """A bound item that will not come off again (`binds.cursed`)."""
    book_item = book.of(stack) if book is not None else None
    binds = book_item.definition.binds if book_item is not None else None
    return bool(binds is not None and binds.cursed and stack.bound)


def _amount(value: float) -> str:
    return str(int(value)) if float(value).is_integer() else f"{math.floor(value * 10) / 10}"


def recharged(state: StateReads, resting: list[Character], rest_id: str) -> Inventory | None:
    """The inventory after `resting` took the rest `rest_id`: every item they carry whose charges
    recharge on it gets them back (all of them, or its `amount`), or None when nothing changed."""
    book = book_for(state.ruleset)
    if book is None:
        return None
    player = state.player_character
    keys = {character.key for character in resting}
    stacks = list(state.inventory.stacks)
    changed = False
    for at, stack in enumerate(stacks):
        book_item = book.of(stack)
        charges = book_item.definition.charges if book_item is not None else None
        recharge = charges.recharge if charges is not None else None
        if (
            charges is None
            or recharge is None
            or rest_id not in recharge.rests
            or stack.charges is None
            or bag_of(stack, player.key if player is not None else None) not in keys
        ):
            continue
        left = charges.max if recharge.amount == "max" else stack.charges + recharge.amount
        stacks[at] = replace(stack, charges=None if left >= charges.max else left)
        changed = True
    return state.inventory.with_stacks(stacks) if changed else None
