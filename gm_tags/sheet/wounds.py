"""Reading a wound track: how long it is for a character, and the penalty its marks put in
force. (Marking and healing are the engine's: `gm_tags.engine.wounds`.)

A track with named levels is as long as its levels plus the levels its `extra` list adds; a track
of numbered boxes is as long as its own maximum, up to 64.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from ..ruleset.sheet import Track
from .arithmetic import step_lookup
from .build import Build, cell, hidden, list_rows
from .live import Wounds

MAX_BOXES = 64
# The most overflow a track holds: the bound the Engine (and our game document) puts on a stored
# live value. Marks beyond it change nothing a player could see.
OVERFLOW_LIMIT = 1_000_000
MAX_EXTRA_PER_ROW = 16


@dataclass(frozen=True, slots=True)
class Rung:
    label: str
    penalty: int


def rungs(
    track: Track, sheet_lists: Mapping[str, Any], fields: Mapping[str, Any], build: Build
) -> list[Rung]:
    """The levels of a track with named levels, the ones its `extra` list adds included: each row
    adds its count of levels at its penalty after the last level whose penalty is at least as good,
    named after that level when the penalties match and by the penalty otherwise."""
    levels = [Rung(level.label, level.penalty) for level in track.levels or ()]
    extra = track.extra
    sheet_list = sheet_lists.get(extra.list_) if extra else None
    if extra is None or sheet_list is None or hidden(sheet_list.hide_when, fields, build):
        return levels
    columns = {column.id: column for column in sheet_list.columns}
    count_column, penalty_column = (
        columns.get(extra.count_column),
        columns.get(extra.penalty_column),
    )
    if count_column is None or penalty_column is None:
        return levels
    for row in list_rows(sheet_list, build):
        count, penalty = cell(count_column, row), cell(penalty_column, row)
        if not isinstance(count, int | float) or not isinstance(penalty, int | float):
            continue
        count, penalty = max(0, min(MAX_EXTRA_PER_ROW, int(count))), min(0, int(penalty))
        after = max((at for at, rung in enumerate(levels) if rung.penalty >= penalty), default=-1)
        label = next(
            (rung.label for rung in levels if rung.penalty == penalty),
            f"{penalty:+d}" if penalty else "0",
        )
        levels[after + 1 : after + 1] = [Rung(label, penalty) for _ in range(count)]
    return levels


def filled(wounds: Wounds | None) -> int:
    return 0 if wounds is None else sum(1 for mark in wounds.marks if mark)


def penalty(track: Track, length: int, levels: list[Rung], wounds: Wounds | None) -> int:
    """The penalty in force: the lowest marked level's (never a sum; 0 when clear), or on boxes
    the step table read at the boxes filled or remaining (which may cost something with nothing
    marked)."""
    marked = filled(wounds)
    if track.boxes is not None:
        rule = track.boxes.penalty
        if rule is None:
            return 0
        count = marked if rule.by == "filled" else max(0, length - marked)
        return int(step_lookup(rule.table, count))
    if marked == 0 or not levels:
        return 0
    return levels[min(marked, len(levels)) - 1].penalty
