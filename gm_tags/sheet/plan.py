"""The evaluation plan: every value a sheet can read, compiled once per ruleset into numbered
slots with a function each, in an order where everything a slot reads comes before it.

A value reference compiles to the slot that holds its value, so working out a sheet is one pass
over a list of functions, never a walk over the ruleset. Slots are made depth first, so their
numbers are already in dependency order. Slots that read the live state (pools, tracks, a table
keyed on a live state) are kept apart from the rest, so the permanent values of a character are
worked out once and only the live ones again as play changes them.
"""

from __future__ import annotations

import math
import threading
import weakref
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from ..ruleset.loader import Ruleset
from ..ruleset.refs import ValueRef
from ..ruleset.resolution import HalfMinusTenModifier, IdentityModifier
from ..ruleset.sheet import (
    EnumTableDerived,
    MaxDerived,
    MinDerived,
    MultiplyDerived,
    ScaleDerived,
    StepTableDerived,
    SumDerived,
    Track,
    UntrainedBy,
)
from .arithmetic import Number, rounded, step_function, step_lookup, whole
from .build import Build, Item, cell, field_value, hidden, list_rows
from .live import LiveState
from .wounds import MAX_BOXES, filled, penalty, rungs

Key = tuple[Any, ...]


@dataclass(frozen=True)
class Context:
    """What one character's values are worked out from."""

    build: Build
    live: LiveState
    items: tuple[Item, ...] = ()
    has_sheet: bool = True


Step = Callable[[list[Number], Context], Number]


class Plan:
    """Slots for one ruleset. Built when first asked for; new slots (a value reference nobody
    on the sheet reads, asked for through `Game.read`) are added on demand, after the rest."""

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

    # Slots ---------------------------------------------------------------------------------

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

    def ref_slot(self, ref: ValueRef) -> int:
        return self.slot(ref_key(ref))

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

    def _define_profBonus(self) -> tuple[Step, bool]:
        proficiency = self.definition.resolution.proficiency
        if proficiency is None:
            return (lambda v, c: 0), False
        (read,), reads_live = self._reads(ref_key(proficiency.bonus))
        return (lambda v, c: v[read]), reads_live

    def _define_skillMod(self, skill_id: str) -> tuple[Step, bool]:
        return self._capped("skills", skill_id)

    def _define_saveMod(self, save_id: str) -> tuple[Step, bool]:
        return self._capped("saves", save_id)

    def entry(self, part: str, entry_id: str) -> Any:
        return (self.index.skills if part == "skills" else self.index.saves).get(entry_id)

    def _capped(self, part: str, entry_id: str) -> tuple[Step, bool]:
        """A skill's or save's number as the sheet shows it and a check rolls it: held to its
        cap."""
        entry = self.entry(part, entry_id)
        cap = entry.cap if entry is not None else None
        keys: list[Key] = [("checkRaw", part, entry_id)]
        if cap is not None:
            keys.append(ref_key(cap))
        slots, reads_live = self._reads(*keys)
        raw = slots[0]
        if cap is None:
            return (lambda v, c: v[raw]), reads_live
        capped = slots[1]
        return (lambda v, c: min(v[raw], v[capped])), reads_live

    def _define_checkRaw(self, part: str, entry_id: str) -> tuple[Step, bool]:
        """A skill's or save's number before its cap: ability modifier, tier, bonus, and the
        untrained `by` (first tier only, and only for a character with a sheet)."""
        entry = self.entry(part, entry_id)
        if entry is None:
            return (lambda v, c: 0), False
        keys: list[Key] = [("profBonus",)]
        if entry.ability:
            keys.append(("abilityMod", entry.ability))
        slots, reads_live = self._reads(*keys)
        bonus_slot = slots[0]
        ability_slot = slots[1] if entry.ability else None
        tiers = self.index.tiers
        untrained_by = self.untrained_by(entry)
        tier_of = self.tier_of

        def number(v: list[Number], c: Context) -> Number:
            tier_id, first = tier_of(part, entry_id, c.build)
            tier = tiers[tier_id]
            total: Number = 0 if ability_slot is None else v[ability_slot]
            total += rounded(tier.multiplier * v[bonus_slot], tier.round) + tier.flat
            extra = c.build.part("bonuses").get(entry_id)
            if isinstance(extra, int | float) and not isinstance(extra, bool):
                total += extra
            if first and c.has_sheet:
                total += untrained_by
            return total

        return number, reads_live

    def tier_of(self, part: str, entry_id: str, build: Build) -> tuple[str, bool]:
        """The tier a build holds for a skill or save (the first when it holds none the ruleset
        offers), and whether that is the first tier: untrained."""
        offered = self.tiers_for(part)
        stored = build.part(part).get(entry_id)
        tier_id = stored if isinstance(stored, str) and stored in offered else offered[0]
        return tier_id, tier_id == offered[0]

    def tiers_for(self, part: str) -> list[str]:
        declared = self.sheet.skill_tiers if part == "skills" else self.sheet.save_tiers
        known = [tier for tier in declared or () if tier in self.index.tiers]
        return known or list(self.index.tiers)

    def untrained(self, entry: Any) -> Any:
        """An entry's untrained rule: its own, else its section's, else "normal"."""
        if entry.untrained is not None:
            return entry.untrained
        section = self.index.sections.get(entry.section or "")
        return (
            section.untrained if section is not None and section.untrained is not None else "normal"
        )

    def untrained_by(self, entry: Any) -> int:
        rule = self.untrained(entry)
        return rule.by if isinstance(rule, UntrainedBy) else 0

    def _define_poolMax(self, pool_id: str) -> tuple[Step, bool]:
        pool = self.index.pools[pool_id]
        (read,), reads_live = self._reads(ref_key(pool.max))
        return (lambda v, c: math.floor(v[read])), reads_live

    def _define_trackMax(self, track_id: str) -> tuple[Step, bool]:
        track = self.index.tracks[track_id]
        if isinstance(track.max, int):
            fixed = track.max
            return (lambda v, c: fixed), False
        (read,), reads_live = self._reads(ref_key(track.max))
        return (lambda v, c: math.floor(v[read])), reads_live

    def _define_livePool(self, pool_id: str) -> tuple[Step, bool]:
        pool = self.index.pools.get(pool_id)
        if pool is None:
            return (lambda v, c: 0), True
        (maximum,), _ = self._reads(("poolMax", pool_id))
        fields, start_full = self.index.fields, pool.start == "full"

        def left(v: list[Number], c: Context) -> Number:
            if hidden(pool.hide_when, fields, c.build):
                return 0
            most = max(0, v[maximum])
            stored = c.live.pools.get(pool_id)
            value = stored.value if stored is not None else (most if start_full else 0)
            return min(max(value, 0), most)

        return left, True

    def _define_liveTrack(self, track_id: str, read: str) -> tuple[Step, bool]:
        track = self.index.tracks.get(track_id)
        if track is None:
            return (lambda v, c: 0), True
        if track.is_wound:
            return self._wound_read(track, read)
        (maximum,), _ = self._reads(("trackMax", track_id))
        fields = self.index.fields
        low = track.min

        def where(v: list[Number], c: Context) -> Number:
            if hidden(track.hide_when, fields, c.build):
                return 0
            high = max(low, v[maximum])
            value = track_value(track, c.live, high)
            if read == "filled":
                return value - low
            if read == "remaining":
                return high - value
            return 0 if read == "penalty" else value

        return where, True

    def _wound_read(self, track: Track, read: str) -> tuple[Step, bool]:
        length_slot = self.slot(("trackMax", track.id)) if track.boxes is not None else None
        lists, fields = self.index.lists, self.index.fields

        def where(v: list[Number], c: Context) -> Number:
            levels = rungs(track, lists, fields, c.build) if track.levels else []
            length = len(levels) if length_slot is None else min(MAX_BOXES, max(0, v[length_slot]))
            wounds = c.live.wounds.get(track.id)
            marked = min(filled(wounds), length)
            if read == "penalty":
                return penalty(track, int(length), levels, wounds)
            return length - marked if read == "remaining" else marked

        return where, True


def track_value(track: Track, live: LiveState, high: Number) -> Number:
    default = track.default if track.default is not None else track.min
    stored = live.tracks.get(track.id)
    value = stored if stored is not None else default
    return min(max(value, track.min), high)


def state_value(state: Any, live: LiveState) -> str:
    """The value a state holds: the stored one while the state still offers it, else its
    default."""
    stored = live.states.get(state.id)
    return stored if stored is not None and stored in state.values else str(state.start)


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
