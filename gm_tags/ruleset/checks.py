"""The Reporter every import check builds on (checks_sheet, checks_blocks, checks_catalogs, ...):
checks pydantic cannot express, which every section asks the same way: ids unique and existing,
tables ascending, reads in order and not of live or skill values where they cannot be, hideWhen
values a field can hold. Every problem is collected; nothing stops at the first.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from itertools import pairwise
from typing import Any

from ..errors import Problem, join_path
from .document import RulesetFile
from .index import LIVE_LEAVES, SKILL_LEAVES, SheetIndex
from .refs import ValueRef
from .sheet import (
    BooleanColumn,
    BooleanField,
    EnumColumn,
    EnumField,
    HideWhen,
    LongTextField,
    NumberColumn,
    NumberField,
    TextColumn,
    TextField,
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
