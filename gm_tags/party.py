"""The party sheet: one shared sheet per game (a crew, a ship, shared Story Points).

Its permanent values (`gamePartySheet`: `{"fields": {...}, "lists": {...}}`, the shape of a
character's build) live once in the game, with `gamePartySheetRevision`; its live pools are the
reserved `$party` entry of `rulesetLive`. `fromMembers` fields are worked out from the characters
whenever the sheet is read, so a character joining or leaving changes them at once.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from types import MappingProxyType
from typing import Any

from .errors import Problem
from .ruleset.document import Party
from .ruleset.loader import Ruleset
from .sheet.build import Build, field_value, hidden
from .sheet.character import Character
from .sheet.pools import PoolSlot
from .text import lone_surrogate_at

Scalar = int | float | str | bool | None


def party_of(ruleset: Ruleset | None) -> Party | None:
    return ruleset.definition.party if ruleset is not None else None


def party_fields(party: Party) -> dict[str, Any]:
    return {field.id: field for field in party.fields}


def with_members(party: Party, sheet: Build, characters: Sequence[Character]) -> Build:
    """The party's values as the sheet reads them: the stored ones, with every `fromMembers`
    field worked out from the characters as they stand."""
    if not party.from_members:
        return sheet
    fields = dict(sheet.part("fields"))
    for member in party.from_members:
        if member.count:
            fields[member.field] = len(characters)
        elif member.sum is not None:
            total: float = 0
            for character in characters:
                value = character.build.part("fields").get(member.sum)
                if isinstance(value, int | float) and not isinstance(value, bool):
                    total += value
            fields[member.field] = int(total) if float(total).is_integer() else total
    return Build(MappingProxyType({**sheet.data, "fields": fields}))


def party_value(party: Party, sheet: Build, field_id: str) -> Scalar:
    return field_value(party_fields(party), sheet, field_id)


def party_pools(party: Party, sheet: Build) -> list[PoolSlot]:
    """The party's pools that are not hidden and whose maximum (a constant or a number party
    field) is above 0: the same arithmetic and defaults as a character's pools."""
    fields = party_fields(party)
    found = []
    for pool in party.pools:
        if hidden(pool.hide_when, fields, sheet):
            continue
        if pool.max.kind == "const":
            most = pool.max.target
        else:
            most = field_value(fields, sheet, str(pool.max.target))
        if isinstance(most, bool) or not isinstance(most, int | float):
            continue
        if most > 0:
            full = pool.start == "full"
            found.append(PoolSlot(pool.id, pool.label, math.floor(most), full, pool.allow_temp))
    return found


def party_problems(party: Party, draft: Any) -> tuple[Problem, ...]:
    """Everything wrong with a draft of the party sheet, each at its dotted path: fields and list
    cells the sheet does not have, and values their field or column cannot hold. Fields worked
    out from the members are not the draft's to set and are left out of the check."""
    if not isinstance(draft, Mapping):
        return (Problem("(root)", "a party sheet draft is an object with fields and lists"),)
    unstorable = lone_surrogate_at(draft)
    if unstorable:
        return (Problem(*unstorable),)
    for part in ("fields", "lists"):
        if not isinstance(draft.get(part) or {}, Mapping):
            return (Problem(part, f"{part} is an object keyed by id"),)
    problems: list[Problem] = []
    computed = {member.field for member in party.from_members or ()}
    fields = party_fields(party)
    for field_id, value in (draft.get("fields") or {}).items():
        if field_id in computed:
            continue
        definition = fields.get(field_id)
        if definition is None:
            problems.append(Problem(f"fields.{field_id}", "the party sheet has no such field"))
            continue
        problem = value_problem(definition, value)
        if problem:
            problems.append(Problem(f"fields.{field_id}", problem))
    lists = {sheet_list.id: sheet_list for sheet_list in party.lists or ()}
    for list_id, rows in (draft.get("lists") or {}).items():
        sheet_list = lists.get(list_id)
        if sheet_list is None or not isinstance(rows, list):
            problems.append(Problem(f"lists.{list_id}", "the party sheet has no such list"))
            continue
        if len(rows) > sheet_list.max_items:
            problems.append(Problem(f"lists.{list_id}", f"at most {sheet_list.max_items} rows"))
        columns = {column.id: column for column in sheet_list.columns}
        for at, row in enumerate(rows):
            if not isinstance(row, Mapping):
                problems.append(Problem(f"lists.{list_id}.{at}", "a row is an object"))
                continue
            for column in sheet_list.columns:
                if column.required and row.get(column.id) in (None, ""):
                    problems.append(Problem(f"lists.{list_id}.{at}.{column.id}", "required"))
            for column_id, value in row.items():
                found = columns.get(column_id)
                if found is None:
                    if not column_id.startswith("_"):
                        problems.append(
                            Problem(f"lists.{list_id}.{at}.{column_id}", "no such column")
                        )
                    continue
                problem = value_problem(found, value) if value is not None else ""
                if problem:
                    problems.append(Problem(f"lists.{list_id}.{at}.{column_id}", problem))
    return tuple(problems)


def value_problem(definition: Any, value: Any) -> str:
    """Why `value` is not one a field or column of this type can hold ("" when it is)."""
    kind = definition.type
    if kind == "number":
        if isinstance(value, bool) or not isinstance(value, int | float):
            return f"expected a number, found {value!r}"
        if definition.integer and not float(value).is_integer():
            return f"expected a whole number, found {value!r}"
        if not definition.min <= value <= definition.max:
            return f"expected {definition.min} to {definition.max}, found {value!r}"
        return ""
    if kind == "boolean":
        return "" if isinstance(value, bool) else f"expected true or false, found {value!r}"
    if kind == "enum":
        return "" if value in definition.values else f"expected one of {definition.values}"
    if not isinstance(value, str):
        return f"expected text, found {value!r}"
    limit = getattr(definition, "max_length", None)
    if limit is not None and len(value) > limit:
        return f"at most {limit} characters"
    return ""
