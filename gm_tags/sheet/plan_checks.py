"""The plan's skill and save values: a skill's or save's number before and after its cap (the
ability modifier, the proficiency tier's share of the bonus, a flat bonus, the untrained `by`),
and the tier a build holds.
"""

from __future__ import annotations

from typing import Any

from ..ruleset.sheet import UntrainedBy
from .arithmetic import Number, rounded
from .build import Build
from .plan_slots import Context, Key, SlotTable, Step, ref_key


class CheckSlots(SlotTable):
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
