"""A character card: its name, its permanent build and the items it holds, and every value of
its sheet worked out against a live state."""

from __future__ import annotations

import copy
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cached_property
from types import MappingProxyType
from typing import Any

from ..names import normalize_name
from ..ruleset.loader import Ruleset
from ..ruleset.refs import ValueRef
from .arithmetic import Number
from .build import Build, Item
from .live import LiveState
from .plan import Plan, plan_for
from .plan_slots import Context, Key, ref_key


@dataclass(frozen=True)
class Character:
    """One card. `card` is the card as stored, kept whole for the round trip; `has_sheet` is
    false for a card nobody made a ruleset sheet for (it plays on a blank build, untrained rules
    aside)."""

    name: str
    build: Build
    items: tuple[Item, ...] = ()
    has_sheet: bool = True
    card: Mapping[str, Any] = field(default_factory=lambda: MappingProxyType({}))
    # What the character carries in the game's inventory, as `itemStat` reads it (the card's own
    # `items` stay beside them).
    held: tuple[Item, ...] = ()

    @cached_property
    def key(self) -> str:
        """The normalized name: what `who=` is matched against and live state is stored under."""
        return normalize_name(self.name)

    def context(self, live: LiveState) -> Context:
        return Context(self.build, live, self.items + self.held, self.has_sheet)

    def permanent_values(self, plan: Plan) -> list[Number]:
        """The values that read no live state, worked out once per character and ruleset."""
        cache: dict[int, list[Number]] = self.__dict__.setdefault("_permanent", {})
        found = cache.get(id(plan))
        if found is None or len(found) < len(plan.steps):
            found = cache[id(plan)] = _compute(plan, self.context(LiveState()), None)
        return found

    def view(self, ruleset: Ruleset, live: LiveState) -> SheetView:
        plan = plan_for(ruleset)
        return SheetView(plan, self, live)

    def to_card(self) -> dict[str, Any]:
        """The card as stored, with the build as it stands now."""
        card = copy.deepcopy(dict(self.card))
        if self.has_sheet and isinstance(card.get("rulesetSheet"), dict):
            card["rulesetSheet"]["build"] = self.build.to_json()
        return card


class SheetView:
    """Every value of one character's sheet, the live state as it stands included."""

    def __init__(self, plan: Plan, character: Character, live: LiveState) -> None:
        self.plan = plan
        self.character = character
        self.live = live
        self._context = character.context(live)
        self._values = _compute(plan, self._context, character.permanent_values(plan))

    def __getitem__(self, key: Key) -> Number:
        slot = self.plan.slot(key)
        if slot >= len(self._values):
            self._values = _compute(self.plan, self._context, self._values)
        return self._values[slot]

    def read(self, ref: ValueRef) -> Number:
        return self[ref_key(ref)]


def _compute(plan: Plan, context: Context, known: list[Number] | None) -> list[Number]:
    """All slot values: from scratch (`known` None), or the live slots (and any slots added since)
    on top of the permanent ones in `known`."""
    steps, live = plan.steps, plan.live
    if known is None:
        values: list[Number] = [0] * len(steps)
        for slot, step in enumerate(steps):
            if not live[slot]:
                values[slot] = step(values, context)
        return values
    values = known + [0] * (len(steps) - len(known))
    for slot in range(len(steps)):
        if live[slot] or slot >= len(known):
            values[slot] = steps[slot](values, context)
    return values
