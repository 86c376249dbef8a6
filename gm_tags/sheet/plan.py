"""The evaluation plan: every value a sheet can read, compiled once per ruleset into numbered
slots with a function each, in an order where everything a slot reads comes before it.

A value reference compiles to the slot that holds its value, so working out a sheet is one pass
over a list of functions, never a walk over the ruleset. Slots are made depth first, so their
numbers are already in dependency order. Slots that read the live state (pools, tracks, a table
keyed on a live state) are kept apart from the rest, so the permanent values of a character are
worked out once and only the live ones again as play changes them.

This module defines the sheet's own values (ability scores and modifiers, fields, list sums,
item stats, derived values) and keeps one plan a ruleset; the slot table itself is plan_slots.py,
skills and saves plan_checks.py, pools, tracks and states plan_live.py.
"""

from __future__ import annotations

import math
import threading
import weakref

from ..ruleset.loader import Ruleset
from ..ruleset.resolution import HalfMinusTenModifier, IdentityModifier
from ..ruleset.sheet import (
    EnumTableDerived,
    MaxDerived,
    MinDerived,
    MultiplyDerived,
    ScaleDerived,
    StepTableDerived,
    SumDerived,
)
from .arithmetic import Number, rounded, step_function, step_lookup, whole
from .build import cell, field_value, hidden, list_rows
from .plan_checks import CheckSlots
from .plan_live import LiveSlots, state_value
from .plan_slots import Context, Step, ref_key


class Plan(CheckSlots, LiveSlots):
    """Slots for one ruleset. Built when first asked for; new slots (a value reference nobody
    on the sheet reads, asked for through `Game.read`) are added on demand, after the rest."""

    def __init__(self, ruleset: Ruleset) -> None:
        super().__init__(ruleset)
        for ability in self.sheet.abilities:
            self.slot(("abilityMod", ability.id))
        for derived in self.sheet.derived:
            self.slot(("derived", derived.id))
        for kind, entries in (("skillMod", self.sheet.skills), ("saveMod", self.sheet.saves)):
            for entry in entries:
                self.slot((kind, entry.id))
        for pool in self.sheet.live.pools:
            self.slot(("livePool", pool.id))
        for track in self.sheet.live.tracks:
            self.slot(("liveTrack", track.id, "value"))
            if track.is_wound:
                self.slot(("liveTrack", track.id, "penalty"))
        self.size_at_build = len(self.steps)

    # Each `_define_<kind>` returns the slot's step and whether it reads the live state.

    def _define_const(self, value: Number) -> tuple[Step, bool]:
        return (lambda v, c: value), False

    def _define_abilityScore(self, ability_id: str) -> tuple[Step, bool]:
        ability = self.index.abilities.get(ability_id)
        default = ability.default if ability is not None else 0

        def score(v: list[Number], c: Context) -> Number:
            stored = c.build.part("abilities").get(ability_id)
            if isinstance(stored, bool) or not isinstance(stored, int | float):
                return default
            # NaN or infinity (Python's JSON reads them) is no score: the default, as on the
            # Engine, never a NaN that would poison every value read from it.
            return stored if math.isfinite(stored) else default

        return score, False

    def _define_abilityMod(self, ability_id: str) -> tuple[Step, bool]:
        (score,), _ = self._reads(("abilityScore", ability_id))
        modifier = self.modifier
        return (lambda v, c: modifier(v[score])), False

    def modifier(self, score: Number) -> Number:
        rule = self.definition.resolution.ability_modifier
        if isinstance(rule, IdentityModifier):
            return score
        if isinstance(rule, HalfMinusTenModifier):
            return math.floor((score - 10) / 2)
        return step_lookup(rule.table, score)

    def _define_field(self, field_id: str) -> tuple[Step, bool]:
        fields = self.index.fields

        def read(v: list[Number], c: Context) -> Number:
            value = field_value(fields, c.build, field_id)
            if isinstance(value, bool):
                return int(value)
            return value if isinstance(value, int | float) else 0

        return read, False

    def _define_abilityModFromField(self, field_id: str) -> tuple[Step, bool]:
        mods, _ = self._reads(*(("abilityMod", a.id) for a in self.sheet.abilities))
        by_ability = dict(zip((a.id for a in self.sheet.abilities), mods, strict=True))
        fields = self.index.fields

        def read(v: list[Number], c: Context) -> Number:
            named = field_value(fields, c.build, field_id)
            slot = by_ability.get(named) if isinstance(named, str) else None
            return 0 if slot is None else v[slot]

        return read, False

    def _define_listSum(
        self, list_id: str, column_id: str, only_when: str | None
    ) -> tuple[Step, bool]:
        sheet_list = self.index.lists.get(list_id)
        fields = self.index.fields
        columns = {column.id: column for column in sheet_list.columns} if sheet_list else {}
        column, gate = columns.get(column_id), columns.get(only_when) if only_when else None

        def total(v: list[Number], c: Context) -> Number:
            if (
                sheet_list is None
                or column is None
                or hidden(sheet_list.hide_when, fields, c.build)
            ):
                return 0
            found: Number = 0
            for row in list_rows(sheet_list, c.build):
                if gate is not None and cell(gate, row) is not True:
                    continue
                value = cell(column, row)
                if isinstance(value, int | float) and not isinstance(value, bool):
                    found += value
            return found

        return total, False

    def _define_itemStat(
        self,
        stat: str | None,
        source: str,
        pick: str,
        slot: str | None,
        category: str | None,
        tag: str | None,
        default: Number | None,
    ) -> tuple[Step, bool]:
        def read(v: list[Number], c: Context) -> Number:
            chosen = [
                item
                for item in c.items
                if (source == "all" or item.worn == (source == "worn"))
                and (slot is None or item.slot == slot)
                and (category is None or item.category == category)
                and (tag is None or tag in item.tags)
            ]
            if pick == "count":
                return len(chosen)
            values = [
                item.stats[stat] for item in chosen if stat is not None and stat in item.stats
            ]
            if not values:
                return 0 if pick == "sum" or default is None else default
            return sum(values) if pick == "sum" else (max(values) if pick == "max" else min(values))

        return read, True

    def _define_derived(self, derived_id: str) -> tuple[Step, bool]:
        derived = self.index.derived.get(derived_id)
        if derived is None:
            return (lambda v, c: 0), False
        if isinstance(derived, EnumTableDerived):
            return self._enum_table(derived)
        if isinstance(derived, ScaleDerived | StepTableDerived):
            source = derived.of if isinstance(derived, ScaleDerived) else derived.from_
            (read,), reads_live = self._reads(ref_key(source))
            if isinstance(derived, ScaleDerived):
                multiplier, how = derived.multiplier, derived.round
                return (lambda v, c: rounded(v[read] * multiplier, how)), reads_live
            lookup = step_function(derived.table)
            return (lambda v, c: lookup(v[read])), reads_live
        slots, reads_live = self._reads(*(ref_key(ref) for ref in derived.of))
        if isinstance(derived, SumDerived):
            return (lambda v, c: whole(sum(v[slot] for slot in slots))), reads_live
        if isinstance(derived, MinDerived):
            return (lambda v, c: min(v[slot] for slot in slots)), reads_live
        if isinstance(derived, MaxDerived):
            return (lambda v, c: max(v[slot] for slot in slots)), reads_live
        assert isinstance(derived, MultiplyDerived)
        return (lambda v, c: whole(math.prod(v[slot] for slot in slots))), reads_live

    def _enum_table(self, derived: EnumTableDerived) -> tuple[Step, bool]:
        table, default = derived.table, derived.default
        fields = self.index.fields
        source_field, state_id = derived.from_.field, derived.from_.live_state
        if source_field is not None:

            def by_field(v: list[Number], c: Context) -> Number:
                value = field_value(fields, c.build, source_field)
                return table.get(value, default) if isinstance(value, str) else default

            return by_field, False
        state = self.index.states.get(state_id or "")

        def by_state(v: list[Number], c: Context) -> Number:
            if state is None or hidden(state.hide_when, fields, c.build):
                return default
            return table.get(state_value(state, c.live), default)

        return by_state, True


_PLANS: dict[int, Plan] = {}
_PLANS_LOCK = threading.Lock()


def plan_for(ruleset: Ruleset) -> Plan:
    """The ruleset's plan, built the first time it is asked for and dropped with the ruleset."""
    found = _PLANS.get(id(ruleset))
    if found is not None and found.ruleset() is ruleset:
        return found
    with _PLANS_LOCK:
        found = _PLANS.get(id(ruleset))
        if found is None or found.ruleset() is not ruleset:
            found = _PLANS[id(ruleset)] = Plan(ruleset)
            weakref.finalize(ruleset, _PLANS.pop, id(ruleset), None)
        return found
