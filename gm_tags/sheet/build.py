"""A character's permanent sheet values (the Engine's `build`), read as the sheet editor shows
them: an unset field is what a blank sheet starts with, an enum value the ruleset no longer offers
is the field's default, a tier the ruleset no longer offers is the first tier.

The build is kept exactly as stored (so nothing is lost on a round trip); these functions only
read it.
"""

from __future__ import annotations

import copy
from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any

from ..ruleset.sheet import (
    BooleanField,
    EnumField,
    HideWhen,
    NumberColumn,
    NumberField,
    SheetList,
)

Scalar = int | float | str | bool | None
Row = Mapping[str, Scalar]


@dataclass(frozen=True)
class Item:
    """Something a character holds. `worn` items are on the body (armor worn, a blade in hand);
    the rest are carried (packed)."""

    name: str
    worn: bool = False
    category: str | None = None
    slot: str | None = None
    tags: tuple[str, ...] = ()
    stats: Mapping[str, float] = field(default_factory=lambda: MappingProxyType({}))
    # The ruleset item it is (`<catalog>/<entry>`), for one held in the game's inventory.
    item: str | None = None


@dataclass(frozen=True)
class Build:
    """The stored build: `abilities`, `skills`, `saves`, `bonuses`, `fields`, `lists`.

    An enum value the game's ruleset does not offer (one a layer takes out, say) reads as the
    field's default, so a table's row for it is never read while the layer is on; the stored value
    is kept, for the day the layer is turned off."""

    data: Mapping[str, Any] = field(default_factory=lambda: MappingProxyType({}))

    def part(self, name: str) -> Mapping[str, Any]:
        value = self.data.get(name)
        return value if isinstance(value, Mapping) else {}

    def rows(self, list_id: str) -> list[Row]:
        rows = self.part("lists").get(list_id)
        return [row for row in rows if isinstance(row, Mapping)] if isinstance(rows, list) else []

    def to_json(self) -> dict[str, Any]:
        return copy.deepcopy(dict(self.data))


def blank_field(definition: Any) -> Scalar:
    """What a blank sheet holds in a field or column: its `default`, else a number clamped into
    its range from 0, `false`, the first enum value, or empty text."""
    if definition.default is not None:
        return definition.default  # type: ignore[no-any-return]
    if isinstance(definition, NumberField | NumberColumn):
        return min(max(0, definition.min), definition.max)
    if isinstance(definition, BooleanField) or definition.type == "boolean":
        return False
    if isinstance(definition, EnumField) or definition.type == "enum":
        return definition.values[0]  # type: ignore[no-any-return]
    return ""


def shown(definition: Any, stored: Scalar) -> Scalar:
    """The value the editor shows for a field or cell holding `stored`."""
    kind = definition.type
    if stored is None or (stored == "" and kind not in ("text", "longtext", "dice")):
        return blank_field(definition)
    if kind == "enum" and stored not in definition.values:
        return blank_field(definition)
    if kind == "number" and (isinstance(stored, bool) or not isinstance(stored, int | float)):
        return blank_field(definition)
    if kind == "boolean" and not isinstance(stored, bool):
        return blank_field(definition)
    return stored


def field_value(sheet_fields: Mapping[str, Any], build: Build, field_id: str) -> Scalar:
    definition = sheet_fields.get(field_id)
    stored = build.part("fields").get(field_id)
    if definition is None:
        return stored
    return shown(definition, stored)


def cell(column: Any, row: Row) -> Scalar:
    return shown(column, row.get(column.id))


def holds(value: Scalar, wanted: Scalar) -> bool:
    """`value == wanted` as a sheet means it: true is not 1, and 2.0 is 2."""
    if isinstance(value, bool) or isinstance(wanted, bool):
        return isinstance(value, bool) and isinstance(wanted, bool) and value == wanted
    return value == wanted


def hidden(rule: HideWhen | None, sheet_fields: Mapping[str, Any], build: Build) -> bool:
    """Whether `rule` hides its thing for this build, reading the field as the editor shows it."""
    if rule is None:
        return False
    value = field_value(sheet_fields, build, rule.field)
    if rule.way == "equals":
        return holds(value, rule.equals)
    if rule.way == "notEquals":
        return not holds(value, rule.not_equals)
    return any(holds(value, wanted) for wanted in rule.values)


def list_rows(sheet_list: SheetList, build: Build) -> list[Row]:
    return build.rows(sheet_list.id)[: sheet_list.max_items]
