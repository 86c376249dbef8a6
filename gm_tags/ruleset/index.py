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
    # For each derived value: every leaf it reads, with the chain of names that leads there.
    derived_reads: dict[str, dict[Leaf, str]] = field(default_factory=dict)

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

    def _reads_of_derived(self, derived: Any) -> dict[Leaf, str]:
        reads: dict[Leaf, str] = {}
        if isinstance(derived, EnumTableDerived) and derived.from_.live_state is not None:
            reads[("liveState", derived.from_.live_state)] = (
                f"the live state {derived.from_.live_state!r}"
            )
        for ref in derived_refs(derived):
            for leaf, chain in self.reads(ref).items():
                reads.setdefault(leaf, chain)
        return reads

    def reads(self, ref: ValueRef, *, through_skills: bool = True) -> dict[Leaf, str]:
        """Every leaf `ref` reads, through derived values (and skill caps), with how."""
        kind, target = ref.kind, ref.target
        if kind == "derived":
            inner = self.derived_reads.get(target, {})
            return {
                leaf: f"derived value {target!r}, which reads {chain}"
                for leaf, chain in inner.items()
            }
        if kind == "listSum":
            return {("listSum", target.list_): f"the list sum of {target.list_!r}"}
        if kind == "itemStat":
            return {("itemStat", target.stat or ""): "the items a character holds"}
        if kind == "const":
            return {}
        leaf: Leaf = (kind, str(target))
        found = {leaf: f"{_describe(kind)} {target!r}"}
        if kind in SKILL_LEAVES and through_skills:
            entry = (self.skills if kind == "skillMod" else self.saves).get(target)
            if entry is not None and entry.cap is not None:
                for inner_leaf, chain in self.reads(entry.cap, through_skills=False).items():
                    found.setdefault(inner_leaf, f"{kind} {target!r}, whose cap reads {chain}")
        return found


def _describe(kind: str) -> str:
    return {
        "livePool": "the live pool",
        "liveTrack": "the live track",
        "field": "field",
        "abilityScore": "ability score",
        "abilityMod": "ability modifier",
        "abilityModFromField": "the ability named by field",
        "skillMod": "skill modifier",
        "saveMod": "save modifier",
    }.get(kind, kind)
