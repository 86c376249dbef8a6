"""Lookups by id over a validated sheet, and what each value reference reads, transitively.

Built once when a ruleset loads; the import checks and the engine both read it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from .document import RulesetFile
from .refs import ValueRef
from .sheet import (
    Ability,
    Condition,
    EnumTableDerived,
    LiveText,
    Pool,
    Section,
    SheetList,
    Skill,
    State,
    Track,
    derived_refs,
)

# A leaf read is (kind, target), such as ("livePool", "resolve") or ("listSum", "gear").
Leaf = tuple[str, str]
LIVE_LEAVES = frozenset({"livePool", "liveTrack", "liveState", "itemStat"})
SKILL_LEAVES = frozenset({"skillMod", "saveMod"})


def by_id(items: list[Any]) -> dict[str, Any]:
    """First item per id (duplicates are reported by the checks, not silently merged)."""
    found: dict[str, Any] = {}
    for item in items:
        found.setdefault(item.id, item)
    return found


@dataclass(frozen=True)
class SheetIndex:
    sections: dict[str, Section]
    abilities: dict[str, Ability]
    skills: dict[str, Skill]
    saves: dict[str, Skill]
    fields: dict[str, Any]
    derived: dict[str, Any]
    derived_position: dict[str, int]
    lists: dict[str, SheetList]
    pools: dict[str, Pool]
    tracks: dict[str, Track]
    text: dict[str, LiveText]
    conditions: dict[str, Condition]
    states: dict[str, State]
    tiers: dict[str, Any]
    # For each derived value: every leaf it reads, and the reference of its own that leads there
    # (None where the derived value itself is keyed on the live state).
    derived_reads: dict[str, dict[Leaf, ValueRef | None]] = field(default_factory=dict)

    @classmethod
    def build(cls, ruleset: RulesetFile) -> SheetIndex:
        sheet = ruleset.sheet
        index = cls(
            sections=by_id(sheet.sections),
            abilities=by_id(sheet.abilities),
            skills=by_id(sheet.skills),
            saves=by_id(sheet.saves),
            fields=by_id(sheet.fields),
            derived=by_id(sheet.derived),
            derived_position={d.id: i for i, d in reversed(list(enumerate(sheet.derived)))},
            lists=by_id(sheet.lists),
            pools=by_id(sheet.live.pools),
            tracks=by_id(sheet.live.tracks),
            text=by_id(sheet.live.text),
            conditions=by_id(sheet.live.conditions),
            states=by_id(sheet.live.states),
            tiers=by_id(ruleset.resolution.proficiency_tiers),
        )
        for derived in sheet.derived:
            if derived.id not in index.derived_reads:
                index.derived_reads[derived.id] = index._reads_of_derived(derived)
        return index

    def _reads_of_derived(self, derived: Any) -> dict[Leaf, ValueRef | None]:
        reads: dict[Leaf, ValueRef | None] = {}
        if isinstance(derived, EnumTableDerived) and derived.from_.live_state is not None:
            reads[("liveState", derived.from_.live_state)] = None
        for ref in derived_refs(derived):
            for leaf in self.leaves(ref):
                reads.setdefault(leaf, ref)
        return reads

    def leaves(self, ref: ValueRef, *, through_skills: bool = True) -> list[Leaf]:
        """Every leaf `ref` reads, through derived values and the caps of skills it reads."""
        kind, target = ref.kind, ref.target
        if kind == "derived":
            return list(self.derived_reads.get(target, {}))
        if kind == "listSum":
            return [("listSum", target.list_)]
        if kind == "itemStat":
            return [("itemStat", target.stat or "")]
        if kind == "const":
            return []
        found: list[Leaf] = [(kind, str(target))]
        if kind in SKILL_LEAVES and through_skills:
            cap = self._cap_of(kind, target)
            if cap is not None:
                found += self.leaves(cap, through_skills=False)
        return found

    def explain(self, ref: ValueRef, leaf: Leaf) -> str:
        """How `ref` comes to read `leaf`, for a message: the chain of names that leads there."""
        kind, target = ref.kind, ref.target
        if kind == "derived":
            via = self.derived_reads.get(target, {}).get(leaf)
            then = _describe(*leaf) if via is None else self.explain(via, leaf)
            return f"derived value {target!r}, which reads {then}"
        cap = self._cap_of(kind, target) if kind in SKILL_LEAVES else None
        if cap is not None and leaf != (kind, target):
            return f"{kind} {target!r}, whose cap reads {self.explain(cap, leaf)}"
        if kind == "listSum":
            return f"the list sum of {target.list_!r}"
        return _describe(kind, target if isinstance(target, str) else "")

    def _cap_of(self, kind: str, target: str) -> ValueRef | None:
        entry = (self.skills if kind == "skillMod" else self.saves).get(target)
        return entry.cap if entry is not None else None


def _describe(kind: str, target: str) -> str:
    if kind == "itemStat":
        return "the items a character holds"
    words = {
        "livePool": "the live pool",
        "liveTrack": "the live track",
        "liveState": "the live state",
        "listSum": "the list sum of",
        "field": "field",
        "abilityScore": "ability score",
        "abilityMod": "ability modifier",
        "abilityModFromField": "the ability named by field",
        "skillMod": "skill modifier",
        "saveMod": "save modifier",
    }.get(kind, kind)
    return f"{words} {target!r}"
