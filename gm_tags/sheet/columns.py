"""Roll columns (SH-11): a number column filled by the engine's dice.

    {"id": "hp_roll", "type": "number", "min": 1, "max": 12, "roll": {"count": 1, "sides": 8}}

`sides` is a number, another column of the same row (`{"column": "die"}`: a number, or an enum
value that reads as a die such as `d8`), or a value off the sheet. The total is held to the
column's `min` and `max`.
"""

from __future__ import annotations

import copy
import re
from dataclasses import dataclass, replace
from types import MappingProxyType
from typing import Any

from ..dice import Dice
from ..errors import GmTagsError
from ..ruleset.loader import Ruleset
from ..ruleset.refs import ValueRef
from ..ruleset.sheet import NumberColumn, SheetList, SidesFromColumn
from .build import cell
from .character import Character
from .live import LiveState

_DIE = re.compile(r"^\s*\d*\s*[dD]\s*(\d+)\s*$")


class ColumnRollError(GmTagsError, ValueError):
    """A roll column asked for that the sheet does not have, or that cannot be rolled."""


@dataclass(frozen=True)
class RolledCell:
    character: Character
    rolls: tuple[int, ...]
    total: int


def roll_cell(
    ruleset: Ruleset,
    character: Character,
    live: LiveState,
    list_id: str,
    row: int | str,
    column_id: str,
    dice: Dice,
) -> RolledCell:
    sheet_list = ruleset.index.lists.get(list_id)
    if sheet_list is None:
        raise ColumnRollError(f"the sheet has no list {list_id!r}")
    column = next((c for c in sheet_list.columns if c.id == column_id), None)
    if not isinstance(column, NumberColumn) or column.roll is None:
        raise ColumnRollError(f"{list_id}.{column_id} is not a number column with a roll")
    rows = [dict(entry) for entry in character.build.rows(list_id)]
    at = _row_index(sheet_list, rows, row)
    sides = _sides(ruleset, character, live, sheet_list, rows[at], column.roll.sides)
    rolls = tuple(dice.roll(column.roll.count, sides))
    total = int(min(max(sum(rolls), column.min), column.max))
    rows[at][column_id] = total
    data = copy.deepcopy(dict(character.build.data))
    data.setdefault("lists", {})[list_id] = rows
    build = replace(character.build, data=MappingProxyType(data))
    return RolledCell(replace(character, build=build), rolls, total)


def _row_index(sheet_list: SheetList, rows: list[dict[str, Any]], row: int | str) -> int:
    if isinstance(row, int):
        if not 0 <= row < len(rows):
            raise ColumnRollError(f"{sheet_list.id} has rows 0 to {len(rows) - 1}, not {row}")
        return row
    texts = [c for c in sheet_list.columns if c.type == "text"]
    for at, entry in enumerate(rows):
        if any(str(cell(c, entry)).casefold() == row.casefold() for c in texts[:1]):
            return at
    raise ColumnRollError(f"{sheet_list.id} has no row named {row!r}")


def _sides(
    ruleset: Ruleset,
    character: Character,
    live: LiveState,
    sheet_list: SheetList,
    row: dict[str, Any],
    sides: int | SidesFromColumn | ValueRef,
) -> int:
    if isinstance(sides, int):
        return sides
    if isinstance(sides, SidesFromColumn):
        source = next((c for c in sheet_list.columns if c.id == sides.column), None)
        value = cell(source, row) if source is not None else None
        if isinstance(value, str):
            die = _DIE.match(value)
            value = int(die.group(1)) if die else None
    else:
        value = character.view(ruleset, live).read(sides)
    if isinstance(value, bool) or not isinstance(value, int | float) or value < 2:
        raise ColumnRollError(f"the die for this roll has {value!r} sides; it needs 2 or more")
    return int(value)
