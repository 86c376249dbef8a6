"""Import checks pydantic cannot express, on the sheet: ids that exist, reads in order, hideWhen
values a field can hold, wound-track shapes, and the live-read rule. Every problem is collected;
nothing stops at the first.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from itertools import pairwise
from typing import Any

from ..errors import Problem, join_path
from ..text import unsafe_reason
from .document import RulesetFile
from .index import LIVE_LEAVES, SKILL_LEAVES, SheetIndex
from .refs import ValueRef
from .resolution import PoolStep, SumStep
from .sheet import (
    BooleanColumn,
    BooleanField,
    EnumColumn,
    EnumField,
    EnumTableDerived,
    HideWhen,
    LongTextField,
    NumberColumn,
    NumberField,
    SheetList,
    StepTableDerived,
    TextColumn,
    TextField,
    Track,
    derived_refs,
)

Path = tuple[str | int, ...]
DICE_VALUE = r"^d\d+$"


# Where the names a reference can take are declared, for a message when there are none.
DECLARED_IN = {
    "live pool": "sheet.live.pools",
    "live track": "sheet.live.tracks",
    "field": "sheet.fields",
    "derived value": "sheet.derived",
    "ability": "sheet.abilities",
    "skill": "sheet.skills",
    "save": "sheet.saves",
    "list": "sheet.lists",
    "section": "sheet.sections",
    "proficiency tier": "resolution.proficiencyTiers",
}


@dataclass
class Reporter:
    ruleset: RulesetFile
    index: SheetIndex
    problems: list[Problem] = field(default_factory=list)

    def report(self, path: Path, message: str) -> None:
        self.problems.append(Problem(join_path(path), message))

    def unique(self, items: list[Any], path: Path, what: str = "id") -> None:
        first: dict[str, int] = {}
        for position, item in enumerate(items):
            key = getattr(item, what)
            if key in first:
                self.report(
                    (*path, position, what),
                    f"duplicate {what} {key!r}; already used at {join_path((*path, first[key]))}",
                )
            else:
                first[key] = position

    def exists(self, table: dict[str, Any], key: str | None, path: Path, what: str) -> bool:
        if key is None or key in table:
            return True
        if not table:
            # Say where such a name is declared: "none declared" read as false beside a pool a
            # list declares (a list's pool is not a live pool).
            where = DECLARED_IN.get(what)
            self.report(path, f"unknown {what} {key!r}; {where or 'the ruleset'} declares none")
            return False
        known = ", ".join(list(table)[:12])
        if len(table) > 12:
            known += f" and {len(table) - 12} more"
        self.report(path, f"unknown {what} {key!r}; declared: {known}")
        return False

    def ascending(self, table: list[list[Any]], path: Path, *, at_cell: bool = False) -> None:
        """Thresholds strictly ascending; `at_cell` reports at the first threshold out of order
        (`table.1.0`), as the Engine does for a box penalty table."""
        thresholds = [row[0] for row in table]
        wrong = next((at for at, (a, b) in enumerate(pairwise(thresholds), 1) if b <= a), None)
        if wrong is not None:
            self.report(
                (*path, wrong, 0) if at_cell else path,
                f"Step table thresholds must be strictly ascending, found {thresholds}",
            )

    def field_shape(self, shape: Any, path: Path) -> None:
        if isinstance(shape, NumberField | NumberColumn):
            if shape.min > shape.max:
                self.report(path, f"min {shape.min} is above max {shape.max}")
            elif shape.default is not None and not shape.min <= shape.default <= shape.max:
                self.report(
                    (*path, "default"),
                    f"default {shape.default} is outside {shape.min}..{shape.max}",
                )
        elif isinstance(shape, EnumField | EnumColumn):
            if len(set(shape.values)) != len(shape.values):
                self.report((*path, "values"), "values must be unique")
            self.choices(shape.values, shape.default, shape.value_labels, path)
        elif isinstance(shape, TextField | TextColumn) and shape.pick is not None:
            if isinstance(shape.pick, ValueRef):
                self.ref(shape.pick, (*path, "pick"))
            elif shape.pick < 0:
                self.report((*path, "pick"), f"found {shape.pick}; pick is at least 0")

    def roll(self, column: NumberColumn, columns: dict[str, Any], path: Path) -> None:
        assert column.roll is not None
        sides = column.roll.sides
        if isinstance(sides, ValueRef):
            self.ref(sides, path)
        elif not isinstance(sides, int) and self.exists(
            columns, sides.column, (*path, "column"), "column"
        ):
            source = columns[sides.column]
            dice_like = isinstance(source, EnumColumn) and all(
                re.match(DICE_VALUE, value) for value in source.values
            )
            if not isinstance(source, NumberColumn) and not dice_like:
                self.report(
                    (*path, "column"),
                    f"column {sides.column!r} must be a number column "
                    "or an enum whose values read as dice (d8)",
                )

    def choices(
        self, values: list[str], default: str | None, labels: dict[str, str] | None, path: Path
    ) -> None:
        """An enum's or a state's default and value labels name values it has."""
        if default is not None and default not in values:
            self.report(
                (*path, "default"),
                f"default {default!r} is not one of the values ({', '.join(values)})",
            )
        for value in labels or {}:
            if value not in values:
                self.report(
                    (*path, "valueLabels", value),
                    f"labels {value!r}, which is not one of the values",
                )

    # Value references ---------------------------------------------------------------------

    def ref(self, ref: ValueRef, path: Path, *, above: int | None = None) -> None:
        """Check that what `ref` names exists; `above` limits derived reads to earlier ones."""
        kind, target, index = ref.kind, ref.target, self.index
        at = (*path, kind)
        if kind == "field":
            if self.exists(index.fields, target, at, "field"):
                self._numeric_field(index.fields[target], at)
        elif kind == "derived":
            if self.exists(index.derived, target, at, "derived value") and above is not None:
                position = index.derived_position[target]
                if position >= above:
                    self.report(
                        at,
                        f"derived value {target!r} is declared at derived.{position}; a derived "
                        "value reads only values declared above it",
                    )
        elif kind in {"abilityScore", "abilityMod"}:
            self.exists(index.abilities, target, at, "ability")
        elif kind == "abilityModFromField":
            if self.exists(index.fields, target, at, "field") and not isinstance(
                index.fields[target], EnumField
            ):
                self.report(
                    at, f"field {target!r} must be an enum field whose values are ability ids"
                )
        elif kind == "skillMod":
            self.exists(index.skills, target, at, "skill")
        elif kind == "saveMod":
            self.exists(index.saves, target, at, "save")
        elif kind == "livePool":
            self.exists(index.pools, target, at, "live pool")
        elif kind == "liveTrack":
            known = self.exists(index.tracks, target, at, "live track")
            if known and ref.read == "penalty" and not index.tracks[target].is_wound:
                self.report(
                    (*path, "read"),
                    f'read "penalty" needs a wound track; {target!r} is a plain track',
                )
        elif kind == "listSum":
            self.list_sum(target, at)
        elif kind == "itemStat":
            self.item_stat(target, at)

    def _numeric_field(self, sheet_field: Any, path: Path) -> None:
        if not isinstance(sheet_field, NumberField | BooleanField):
            self.report(
                path,
                f"field {sheet_field.id!r} is a {sheet_field.type} field; a value "
                "reference reads a number or boolean field",
            )

    def list_sum(self, target: Any, path: Path) -> None:
        if not self.exists(self.index.lists, target.list_, (*path, "list"), "list"):
            return
        columns = {c.id: c for c in self.index.lists[target.list_].columns}
        if self.exists(columns, target.column, (*path, "column"), "column") and not isinstance(
            columns[target.column], NumberColumn
        ):
            self.report((*path, "column"), f"column {target.column!r} is not a number column")
        if (
            target.only_when is not None
            and self.exists(columns, target.only_when, (*path, "onlyWhen"), "column")
            and not isinstance(columns[target.only_when], BooleanColumn)
        ):
            self.report(
                (*path, "onlyWhen"),
                f"onlyWhen names {target.only_when!r}, which is not a boolean column",
            )

    def item_stat(self, target: Any, path: Path) -> None:
        items = self.ruleset.items
        if items is None:
            self.report(path, "itemStat reads the items block, and this ruleset has none")
        elif target.stat is not None:
            self.exists({s.id: s for s in items.stats}, target.stat, (*path, "stat"), "item stat")

    def no_live_read(self, ref: ValueRef, path: Path, what: str) -> None:
        """VR-8: values worked out before there is a live state may not read one."""
        for leaf in self.index.leaves(ref):
            if leaf[0] in LIVE_LEAVES:
                self.report(
                    # At the reference's own key (`max.liveTrack`, `max.derived`), as the
                    # Engine reports it.
                    (*path, ref.kind),
                    f"{what} is worked out before there is a live state, so it "
                    f"cannot read it; it reads {self.index.explain(ref, leaf)}",
                )
                return

    def no_skill_read(self, ref: ValueRef, path: Path, what: str) -> None:
        """CP-3: caps and the proficiency bonus may not read a skill or save modifier, nor may
        the derived value they read or any derived value declared above that one."""
        if ref.kind in SKILL_LEAVES:
            self.report(
                path,
                f"{what} cannot read a skill or save modifier ({ref.kind} "
                f"{ref.target!r}): the sheet is worked out once, top to bottom",
            )
            return
        if ref.kind != "derived" or ref.target not in self.index.derived_position:
            return
        last = self.index.derived_position[ref.target]
        for position, derived in enumerate(self.ruleset.sheet.derived[: last + 1]):
            for inner in derived_refs(derived):
                if inner.kind in SKILL_LEAVES:
                    self.report(
                        path,
                        f"{what} reads derived value {ref.target!r}, and derived "
                        f"value {derived.id!r} (derived.{position}, at or above it) reads "
                        f"{inner.kind} {inner.target!r}; the sheet is worked out once, "
                        "top to bottom",
                    )
                    return

    # hideWhen -----------------------------------------------------------------------------

    def hide_when(self, rule: HideWhen | None, path: Path, fields: dict[str, Any]) -> None:
        if rule is None:
            return
        at = (*path, "hideWhen")
        if not self.exists(fields, rule.field, (*at, "field"), "field"):
            return
        target = fields[rule.field]
        way = rule.way
        for position, value in enumerate(rule.values):
            where = (*at, way, position) if way == "in" else (*at, way)
            problem = holdable(target, value)
            if problem:
                self.report(where, f"{problem}, so the rule could never match")


def holdable(sheet_field: Any, value: Any) -> str | None:
    """Why `sheet_field` can never hold `value` (None when it can)."""
    name = f"field {sheet_field.id!r}"
    if isinstance(sheet_field, EnumField):
        if value not in sheet_field.values:
            return f"{value!r} is not a value of {name} (values: {', '.join(sheet_field.values)})"
    elif isinstance(sheet_field, BooleanField):
        if not isinstance(value, bool):
            return f"{name} is boolean and cannot hold {value!r}"
    elif isinstance(sheet_field, NumberField):
        if isinstance(value, bool) or not isinstance(value, int | float):
            return f"{name} is a number field and cannot hold {value!r}"
        if not sheet_field.min <= value <= sheet_field.max:
            return f"{value!r} is outside {name}'s range {sheet_field.min}..{sheet_field.max}"
        if sheet_field.integer and value != int(value):
            return f"{name} holds whole numbers, not {value!r}"
    elif isinstance(sheet_field, TextField | LongTextField):
        if not isinstance(value, str):
            return f"{name} is a text field and cannot hold {value!r}"
        if len(value) > sheet_field.max_length:
            return f"{value!r} is longer than {name}'s {sheet_field.max_length} characters"
    elif not isinstance(value, str):
        return f"{name} holds dice text and cannot hold {value!r}"
    return None


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
