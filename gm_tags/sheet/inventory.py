"""What the party carries: stacks in the Engine's storage shape, and money per character.

    "gameInventory": [{"id": "st-rope-0", "name": "Rope", "quantity": 2},
                      {"id": "st-lantern-coat-0", "name": "Lantern-keeper's coat", "quantity": 1,
                       "holder": "Agnes", "item": "kit/lantern-coat", "equipped": 1}],
    "gameMoney": {"agnes": {"coin": 30}}

A stack is the Engine's (`id`, `name`, `quantity`, `holder`, `nickname`, `item`); `holder` names
the card that carries it, none being the player. `equipped` and `bound` count how many of the
stack are worn and bound, as the Engine's reminder shows them; `charges` (charges left, stored only
below the item's max), and `category`, `rarity`, `stats` of an invented item are gm-tags' own.
Money is ours too (the Engine has none): per normalized card name, per currency family, an amount
in the family's smallest unit, so change is never a question of which coins are held.
Everything here is an immutable value; the engine returns new ones.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace
from types import MappingProxyType
from typing import Any

from ..names import normalize_name

MOST_QUANTITY = 9999
# What a stored game document holds at most (`game_document` refuses more): stacks in all, and
# one family's money in its smallest unit.
MOST_STACKS = 2000
MOST_MONEY = 10**12
EMPTY: Mapping[str, Any] = MappingProxyType({})
_SLUG = re.compile(r"[^0-9a-z]+")
_READ = ("id", "name", "quantity", "holder", "nickname", "item", "equipped", "bound", "charges")
_OWN = ("category", "rarity", "stats")


@dataclass(frozen=True, slots=True)
class Stack:
    id: str
    name: str
    quantity: int
    holder: str | None = None
    item: str | None = None
    equipped: int = 0
    bound: int = 0
    charges: int | None = None
    nickname: str | None = None
    # An invented item's words (its category, rarity and stats), and keys this build does not
    # read, kept for the round trip.
    extra: Mapping[str, Any] = field(default_factory=lambda: EMPTY)

    @property
    def shown(self) -> str:
        return self.nickname or self.name

    def answers_to(self, key: str) -> bool:
        """Whether `key` (a name as `item_key` reads it) is this stack's name or nickname."""
        return item_key(self.name) == key or (
            self.nickname is not None and item_key(self.nickname) == key
        )

    def to_json(self) -> dict[str, Any]:
        stored: dict[str, Any] = {"id": self.id, "name": self.name, "quantity": self.quantity}
        optional = (
            ("holder", self.holder),
            ("nickname", self.nickname),
            ("item", self.item),
            ("equipped", self.equipped or None),
            ("bound", self.bound or None),
            ("charges", self.charges),
        )
        stored.update((key, value) for key, value in optional if value is not None)
        stored.update(self.extra)
        return stored

    @classmethod
    def from_json(cls, raw: Mapping[str, Any]) -> Stack:
        """A stored stack, already checked by the game document's shapes."""
        return cls(
            id=raw["id"],
            name=raw["name"],
            quantity=raw["quantity"],
            holder=raw.get("holder"),
            item=raw.get("item"),
            equipped=raw.get("equipped", 0),
            bound=raw.get("bound", 0),
            charges=raw.get("charges"),
            nickname=raw.get("nickname"),
            extra=MappingProxyType({k: v for k, v in raw.items() if k not in _READ}),
        )

    def invented(self, key: str) -> Any:
        """An invented item's own `category`, `rarity` or `stats`."""
        return self.extra.get(key) if key in _OWN else None


def item_key(name: str) -> str:
    """How an item's name is compared: in any case, spacing aside (the Engine's label match)."""
    return " ".join(name.casefold().split())


@dataclass(frozen=True, slots=True)
class Inventory:
    stacks: tuple[Stack, ...] = ()
    # Money per normalized card name, per currency family, in the family's smallest unit.
    money: Mapping[str, Mapping[str, int]] = field(default_factory=lambda: EMPTY)

    @property
    def empty(self) -> bool:
        return not self.stacks and not any(self.money.values())

    def held_by(self, holder_key: str, player_key: str | None) -> list[Stack]:
        """The stacks one character carries (`holder_key` normalized; the player's own bag holds
        the stacks without a holder)."""
        return [stack for stack in self.stacks if bag_of(stack, player_key) == holder_key]

    def purse(self, holder_key: str) -> Mapping[str, int]:
        return self.money.get(holder_key) or EMPTY

    def with_stacks(self, stacks: Iterable[Stack]) -> Inventory:
        return replace(self, stacks=tuple(stack for stack in stacks if stack.quantity > 0))

    def with_money(self, holder_key: str, family: str, amount: int) -> Inventory:
        money = {key: dict(purse) for key, purse in self.money.items()}
        purse = money.setdefault(holder_key, {})
        if amount:
            purse[family] = amount
        else:
            purse.pop(family, None)
        if not purse:
            del money[holder_key]
        return replace(self, money=MappingProxyType(money))

    def new_id(self, name: str) -> str:
        """A stack id the Engine's way (`st-<name>-<n>`), not yet used."""
        slug = _SLUG.sub("-", item_key(name)).strip("-")[:40] or "item"
        used = {stack.id for stack in self.stacks}
        n = 0
        while f"st-{slug}-{n}" in used:
            n += 1
        return f"st-{slug}-{n}"

    def to_document(self) -> dict[str, Any]:
        document: dict[str, Any] = {}
        if self.stacks:
            document["gameInventory"] = [stack.to_json() for stack in self.stacks]
        money = {key: dict(purse) for key, purse in self.money.items() if purse}
        if money:
            document["gameMoney"] = money
        return document


def bag_of(stack: Stack, player_key: str | None) -> str | None:
    """The normalized name of whoever carries `stack` (None: nobody, there being no player)."""
    return normalize_name(stack.holder) if stack.holder is not None else player_key
