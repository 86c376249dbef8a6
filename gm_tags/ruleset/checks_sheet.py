"""Import checks pydantic cannot express, on the sheet itself: unique ids, difficulty ladder
labels and tier multipliers, what abilities, skills, fields, derived values and lists read, and
the live part's tracks and states (what each kind of track may hold). The reads they share with
every other section are the Reporter's (checks.py).
"""

from __future__ import annotations

from typing import Any

from ..errors import join_path
from ..text import unsafe_reason
from .checks import Path, Reporter
from .refs import ValueRef
from .resolution import PoolStep, SumStep
from .sheet import (
    EnumColumn,
    EnumField,
    EnumTableDerived,
    NumberColumn,
    SheetList,
    StepTableDerived,
    TextColumn,
    Track,
    derived_refs,
)


class SheetChecks(Reporter):
    def run(self) -> None:
        sheet = self.ruleset.sheet
        for name in ("sections", "abilities", "skills", "saves", "fields", "derived", "lists"):
            self.unique(getattr(sheet, name), ("sheet", name))
        for name in ("pools", "tracks", "text", "conditions", "states"):
            self.unique(getattr(sheet.live, name), ("sheet", "live", name))
        self.unique(self.ruleset.resolution.proficiency_tiers, ("resolution", "proficiencyTiers"))
        self.ladder_labels()
        self.tier_multipliers()
        self.abilities_and_skills()
        self.fields(sheet.fields, ("sheet", "fields"), self.index.fields)
        self.derived_values()
        for position, sheet_list in enumerate(sheet.lists):
            self.sheet_list(sheet_list, ("sheet", "lists", position), self.index.fields)
        self.live()

    def ladder_labels(self) -> None:
        """A `difficulty=` label names one step, matched in any case: two steps with one label
        would leave the label naming neither."""
        first: dict[str, int] = {}
        path = ("resolution", "difficultyLadder")
        steps: list[SumStep | PoolStep] = list(self.ruleset.resolution.difficulty_ladder)
        for position, step in enumerate(steps):
            key = step.label.strip().casefold()
            if key in first:
                self.report(
                    (*path, position, "label"),
                    f"the label {step.label!r} is already step {first[key]}'s "
                    f"({join_path((*path, first[key]))}); a difficulty= label names one step",
                )
            else:
                first[key] = position

    def tier_multipliers(self) -> None:
        """A tier that multiplies needs a proficiency bonus to multiply, as the Engine refuses."""
        resolution = self.ruleset.resolution
        if resolution.proficiency is not None:
            return
        for position, tier in enumerate(resolution.proficiency_tiers):
            if tier.multiplier:
                self.report(
                    ("resolution", "proficiencyTiers", position, "multiplier"),
                    f"tier {tier.id!r} multiplies the proficiency bonus, but "
                    "resolution.proficiency.bonus is not set: set it, or give the tier a flat "
                    "bonus instead",
                )

    def abilities_and_skills(self) -> None:
        sheet, index = self.ruleset.sheet, self.index
        for position, ability in enumerate(sheet.abilities):
            path = ("sheet", "abilities", position)
            self.exists(index.sections, ability.section, (*path, "section"), "section")
            if not ability.min <= ability.default <= ability.max:
                self.report(
                    (*path, "default"),
                    f"default {ability.default} is outside min..max ({ability.min}..{ability.max})",
                )
        for name in ("skills", "saves"):
            for position, entry in enumerate(getattr(sheet, name)):
                path = ("sheet", name, position)
                self.exists(index.abilities, entry.ability, (*path, "ability"), "ability")
                self.exists(index.sections, entry.section, (*path, "section"), "section")
                if entry.cap is not None:
                    self.ref(entry.cap, (*path, "cap"))
                    self.no_skill_read(entry.cap, (*path, "cap"), "a cap")
        for name in ("skillTiers", "saveTiers"):
            tiers = sheet.skill_tiers if name == "skillTiers" else sheet.save_tiers
            for position, tier in enumerate(tiers or []):
                self.exists(index.tiers, tier, ("sheet", name, position), "proficiency tier")
        if sheet.bonus_range.min > sheet.bonus_range.max:
            self.report(("sheet", "bonusRange"), "min is above max")

    def fields(self, fields: list[Any], path: Path, scope: dict[str, Any]) -> None:
        for position, sheet_field in enumerate(fields):
            at = (*path, position)
            self.exists(
                self.index.sections,
                getattr(sheet_field, "section", None),
                (*at, "section"),
                "section",
            )
            self.field_shape(sheet_field, at)
            self.hide_when(getattr(sheet_field, "hide_when", None), at, scope)

    def derived_values(self) -> None:
        for position, derived in enumerate(self.ruleset.sheet.derived):
            path = ("sheet", "derived", position)
            self.exists(self.index.sections, derived.section, (*path, "section"), "section")
            self.hide_when(derived.hide_when, path, self.index.fields)
            if isinstance(derived, EnumTableDerived):
                self.enum_table(derived, path)
                continue
            if isinstance(derived, StepTableDerived):
                self.ascending(derived.table, (*path, "table"))
                self.ref(derived.from_, (*path, "from"), above=position)
                continue
            refs = derived_refs(derived)
            if len(refs) == 1 and not isinstance(derived.of, list):
                self.ref(refs[0], (*path, "of"), above=position)
            else:
                for ref_position, ref in enumerate(refs):
                    self.ref(ref, (*path, "of", ref_position), above=position)

    def enum_table(self, derived: EnumTableDerived, path: Path) -> None:
        source = derived.from_
        values: list[str] = []
        if source.field is not None:
            at = (*path, "from", "field")
            if self.exists(self.index.fields, source.field, at, "field"):
                target = self.index.fields[source.field]
                if isinstance(target, EnumField):
                    values = target.values
                else:
                    self.report(
                        at,
                        f"field {source.field!r} is a {target.type} field; an "
                        "enumTable is keyed on an enum field",
                    )
                    return
        elif self.exists(
            self.index.states, source.live_state, (*path, "from", "liveState"), "live state"
        ):
            values = self.index.states[str(source.live_state)].values
        offered = set(values)
        for key in derived.table:
            if offered and key not in offered:
                self.report(
                    (*path, "table", key),
                    f"{key!r} is not a value the source can hold ({', '.join(values)})",
                )

    def sheet_list(self, sheet_list: SheetList, path: Path, scope: dict[str, Any]) -> None:
        self.exists(self.index.sections, sheet_list.section, (*path, "section"), "section")
        self.hide_when(sheet_list.hide_when, path, scope)
        self.unique(sheet_list.columns, (*path, "columns"))
        columns = {c.id: c for c in sheet_list.columns}
        for position, column in enumerate(sheet_list.columns):
            self.field_shape(column, (*path, "columns", position))
            if isinstance(column, NumberColumn) and column.roll is not None:
                self.roll(column, columns, (*path, "columns", position, "roll", "sides"))
        if sheet_list.pools is not None:
            at = (*path, "pools")
            pools = sheet_list.pools
            if self.exists(
                columns, pools.name_column, (*at, "nameColumn"), "column"
            ) and not isinstance(columns[pools.name_column], TextColumn | EnumColumn):
                self.report((*at, "nameColumn"), "the name column must be a text or enum column")
            if self.exists(
                columns, pools.max_column, (*at, "maxColumn"), "column"
            ) and not isinstance(columns[pools.max_column], NumberColumn):
                self.report((*at, "maxColumn"), "the max column must be a number column")
            self.exists(columns, pools.recharge_column, (*at, "rechargeColumn"), "column")

    def live(self) -> None:
        live, index = self.ruleset.sheet.live, self.index
        for position, pool in enumerate(live.pools):
            path = ("sheet", "live", "pools", position)
            self.ref(pool.max, (*path, "max"))
            self.no_live_read(pool.max, (*path, "max"), f"pool {pool.id!r}'s max")
            self.hide_when(pool.hide_when, path, index.fields)
        for position, track in enumerate(live.tracks):
            self.track(track, ("sheet", "live", "tracks", position))
        for position, state in enumerate(live.states):
            path = ("sheet", "live", "states", position)
            self.hide_when(state.hide_when, path, index.fields)
            self.state(state, path)

    def state(self, state: Any, path: Path) -> None:
        if len(set(state.values)) != len(state.values):
            self.report((*path, "values"), "values must be unique")
        for position, value in enumerate(state.values):
            reason = unsafe_reason(value)
            if reason or '"' in value:
                self.report(
                    (*path, "values", position),
                    f"value {value!r} "
                    f"{reason or 'cannot hold a double quote (the sheet command quotes it)'}",
                )
        self.choices(state.values, state.default, state.value_labels, path)

    def track(self, track: Track, path: Path) -> None:
        wound_parts = track.levels is not None or track.boxes is not None
        if track.kinds is not None and not wound_parts:
            self.report(
                (*path, "kinds"),
                "kinds without levels or boxes: there would be nothing "
                "to mark; add levels or boxes",
            )
        if wound_parts and track.kinds is None:
            self.report(
                path, "levels or boxes without kinds: a mark has to be of something; add kinds"
            )
        if track.levels is not None and track.boxes is not None:
            self.report(path, "a track has levels or boxes, never both")
        if not track.is_wound:
            self.plain_track(track, path)
            return
        if track.hide_when is not None:
            self.report(
                (*path, "hideWhen"),
                "a wound track cannot be hidden: rolls and fights read it whatever the sheet shows",
            )
        if track.min != 0:
            self.report(
                (*path, "min"), f"found {track.min}; a wound track starts unmarked, so its min is 0"
            )
        assert track.kinds is not None
        self.unique(track.kinds, (*path, "kinds"))
        severities = [kind.severity for kind in track.kinds]
        if len(set(severities)) != len(severities):
            self.report((*path, "kinds"), f"severities must be distinct, found {severities}")
        if track.levels is not None:
            self.level_track(track, path)
        else:
            self.box_track(track, path)
        if track.fill == "indexed" and track.on_full != "refuse":
            self.report(
                (*path, "onFull"),
                'an indexed track always refuses when full; say so with "onFull": "refuse"',
            )

    def level_track(self, track: Track, path: Path) -> None:
        assert track.levels is not None
        if track.max != len(track.levels):
            self.report(
                (*path, "max"),
                f"max must equal the number of levels "
                f"({len(track.levels)}), found {_shown(track.max)}",
            )
        if track.extra is not None:
            at = (*path, "extra")
            extra = track.extra
            if self.exists(self.index.lists, extra.list_, (*at, "list"), "list"):
                columns = {c.id: c for c in self.index.lists[extra.list_].columns}
                for key, column in (
                    ("countColumn", extra.count_column),
                    ("penaltyColumn", extra.penalty_column),
                ):
                    if self.exists(columns, column, (*at, key), "column") and not isinstance(
                        columns[column], NumberColumn
                    ):
                        self.report((*at, key), f"column {column!r} must be a number column")

    def box_track(self, track: Track, path: Path) -> None:
        if track.extra is not None:
            self.report(
                (*path, "extra"), "extra lengthens a track with named levels; this track has boxes"
            )
        constant = track.max.const if isinstance(track.max, ValueRef) else track.max
        if isinstance(track.max, ValueRef):
            self.ref(track.max, (*path, "max"))
            self.no_live_read(track.max, (*path, "max"), f"track {track.id!r}'s max")
        if constant is not None and not 1 <= constant <= 64:
            at = (*path, "max") if not isinstance(track.max, ValueRef) else (*path, "max", "const")
            self.report(at, f"found {constant}; a track of boxes has 1 to 64")
        if track.boxes is not None and track.boxes.penalty is not None:
            at = (*path, "boxes", "penalty", "table")
            self.ascending(track.boxes.penalty.table, at, at_cell=True)
            for row, (_, penalty) in enumerate(track.boxes.penalty.table):
                if penalty > 0:
                    self.report((*at, row, 1), f"found {penalty}; a penalty is at or below 0")

    def plain_track(self, track: Track, path: Path) -> None:
        for key in ("fill", "on_full", "extra", "boxes"):
            if getattr(track, key) is not None:
                alias = Track.model_fields[key].alias or key
                self.report(
                    (*path, alias),
                    f"{alias} belongs to a wound track (kinds with "
                    "levels or boxes); this is a plain track",
                )
        if isinstance(track.max, ValueRef):
            self.ref(track.max, (*path, "max"))
            self.no_live_read(track.max, (*path, "max"), f"track {track.id!r}'s max")
            bound = None
        else:
            bound = track.max
            if track.min > track.max:
                self.report(path, f"min {track.min} is above max {track.max}")
        if track.default is not None and (
            track.default < track.min or (bound is not None and track.default > bound)
        ):
            self.report((*path, "default"), f"default {track.default} is outside min..max")
        self.hide_when(track.hide_when, path, self.index.fields)


def _shown(value: Any) -> str:
    return "a value reference" if isinstance(value, ValueRef) else str(value)
