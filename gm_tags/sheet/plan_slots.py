"""The slot table a sheet's values are worked out in: numbered slots with a function each, a
slot made the first time a key is asked for (depth first, so every slot comes after those it
reads), and whether it reads the live state. What each kind of key computes is defined by the
plan's parts (plan.py: the sheet's own values, plan_checks.py: skills and saves, plan_live.py:
pools and tracks), each a `_define_<kind>` method found by name.
"""

from __future__ import annotations

import threading
import weakref
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from ..ruleset.loader import Ruleset
from ..ruleset.refs import ValueRef
from .arithmetic import Number
from .build import Build, Item
from .live import LiveState

Key = tuple[Any, ...]


@dataclass(frozen=True)
class Context:
    """What one character's values are worked out from."""

    build: Build
    live: LiveState
    items: tuple[Item, ...] = ()
    has_sheet: bool = True


Step = Callable[[list[Number], Context], Number]


class SlotTable:
    """Slots for one ruleset, added on demand."""

    def __init__(self, ruleset: Ruleset) -> None:
        # No strong reference to the ruleset: the plan is dropped with it (see `plan_for`).
        self.ruleset = weakref.ref(ruleset)
        self.definition = ruleset.definition
        self.index = ruleset.index
        self.sheet = ruleset.definition.sheet
        self.slots: dict[Key, int] = {}
        self.steps: list[Step] = []
        self.live: list[bool] = []
        self._lock = threading.RLock()
        self._defining: set[Key] = set()

    def slot(self, key: Key) -> int:
        found = self.slots.get(key)
        if found is not None:
            return found
        with self._lock:
            if key in self.slots:
                return self.slots[key]
            if key in self._defining:
                raise RuntimeError(f"the sheet reads itself in a circle through {key}")
            self._defining.add(key)
            try:
                step, reads_live = self._define(key)
            finally:
                self._defining.discard(key)
            self.steps.append(step)
            self.live.append(reads_live)
            self.slots[key] = len(self.steps) - 1
            return self.slots[key]

    def _reads(self, *keys: Key) -> tuple[list[int], bool]:
        slots = [self.slot(key) for key in keys]
        return slots, any(self.live[slot] for slot in slots)

    def _define(self, key: Key) -> tuple[Step, bool]:
        kind = key[0]
        define = getattr(self, f"_define_{kind}", None)
        if define is None:
            raise RuntimeError(f"no value of kind {kind!r}")
        step, reads_live = define(*key[1:])
        return step, reads_live


def ref_key(ref: ValueRef) -> Key:
    kind, target = ref.kind, ref.target
    if kind == "listSum":
        return ("listSum", target.list_, target.column, target.only_when)
    if kind == "itemStat":
        return (
            "itemStat",
            target.stat,
            target.from_,
            target.pick,
            target.slot,
            target.category,
            target.tag,
            target.default,
        )
    if kind == "liveTrack":
        return ("liveTrack", target, ref.read or "value")
    return (kind, target)
