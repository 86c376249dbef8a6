"""One character's sheet block, written from the live state as it stands, in the Engine's line
order: name; abilities; trained skills and saves; summary fields and derived values; pools;
tracks; live text; states; conditions; summary lists. Lines with nothing to say are left out;
hidden things stay out; every value is made prompt-safe."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from ..engine.pools import pools_of
from ..engine.wounds import wound_track
from ..ruleset.loader import Ruleset
from ..ruleset.sheet import SheetList
from ..sheet.build import cell, field_value, hidden, list_rows
from ..sheet.character import Character, SheetView
from ..sheet.live import LiveState, Wounds
from ..sheet.plan import plan_for
from ..sheet.plan_live import state_value, track_value
from .text import check_value, number, safe

MAX_ROWS = 40


def sheet_block(
    ruleset: Ruleset, character: Character, live: LiveState, carried: Iterable[str] = ()
) -> str:
    """The block; `carried` are its lines about what the character carries (`inventory.py`)."""
    view = character.view(ruleset, live)
    lines = [
        safe(character.name),
        _abilities(ruleset, view),
        _trained(ruleset, character, view),
        *_summary(ruleset, character, view),
        _joined(_pools(ruleset, character, live)),
        _joined(_tracks(ruleset, character, live)),
        "; ".join(_texts(ruleset, live)),
        _joined(_states(ruleset, character, live)),
        _labelled("Conditions", _conditions(ruleset, live)),
        *carried,
        *_lists(ruleset, character),
    ]
    return "\n".join(line for line in lines if line)


def is_pool(ruleset: Ruleset) -> bool:
    return ruleset.definition.resolution.kind == "dice-pool"


def _joined(parts: Iterable[str]) -> str:
    return ", ".join(parts)


def _labelled(label: str, parts: list[str]) -> str:
    return f"{label}: {', '.join(parts)}" if parts else ""


def _by_section(ruleset: Ruleset, entries: list[tuple[str | None, str]]) -> str:
    """`A +1, B +2`, or `Section: A +1; Other: B +2` when sections are named."""
    if not any(section for section, _ in entries):
        return ", ".join(text for _, text in entries)
    groups: dict[str | None, list[str]] = {}
    for section, text in entries:
        groups.setdefault(section, []).append(text)
    sections = ruleset.index.sections
    return "; ".join(
        (f"{safe(sections[key].label)}: " if key in sections else "") + ", ".join(texts)
        for key, texts in groups.items()
    )


def _abilities(ruleset: Ruleset, view: SheetView) -> str:
    pool = is_pool(ruleset)
    entries = [
        (
            ability.section,
            f"{safe(ability.short or ability.label)} "
            f"{check_value(view[('abilityMod', ability.id)], pool)}",
        )
        for ability in ruleset.definition.sheet.abilities
    ]
    return _by_section(ruleset, entries)


def _trained(ruleset: Ruleset, character: Character, view: SheetView) -> str:
    plan, pool = plan_for(ruleset), is_pool(ruleset)
    trained: list[tuple[str | None, str]] = []
    refused: list[str] = []
    sheet = ruleset.definition.sheet
    for part, kind, entries in (
        ("skills", "skillMod", sheet.skills),
        ("saves", "saveMod", sheet.saves),
    ):
        offered = plan.tiers_for(part)
        for entry in entries:
            stored = character.build.part(part).get(entry.id)
            if isinstance(stored, str) and stored in offered and stored != offered[0]:
                value = check_value(view[(kind, entry.id)], pool)
                trained.append((entry.section, f"{safe(entry.label)} {value}"))
            elif character.has_sheet and plan.untrained(entry) == "refuse":
                refused.append(safe(entry.label))
    line = f"Trained: {_by_section(ruleset, trained)}" if trained else ""
    if refused:
        line += ("; " if line else "") + f"Cannot attempt untrained: {', '.join(refused)}"
    return line


def _summary(ruleset: Ruleset, character: Character, view: SheetView) -> list[str]:
    summary = ruleset.definition.gm.sheet_summary
    if summary is None:
        return []
    index, build = ruleset.index, character.build
    entries: list[tuple[str | None, str]] = []
    for field_id in summary.fields:
        field = index.fields.get(field_id)
        if field is None or hidden(field.hide_when, index.fields, build):
            continue
        value = field_value(index.fields, build, field_id)
        if value in ("", None):
            continue
        entries.append((field.section, f"{safe(field.label)} {_field_text(field, value)}"))
    for derived_id in summary.derived:
        derived = index.derived.get(derived_id)
        if derived is None or hidden(derived.hide_when, index.fields, build):
            continue
        entries.append(
            (derived.section, f"{safe(derived.label)} {number(view[('derived', derived_id)])}")
        )
    return [_by_section(ruleset, entries)] if entries else []


def _field_text(field: Any, value: Any) -> str:
    if field.type == "enum":
        return safe(field.label_of(value))
    if field.type == "boolean":
        return "yes" if value else "no"
    if isinstance(value, int | float):
        return number(value)
    return safe(value)


def _pools(ruleset: Ruleset, character: Character, live: LiveState) -> list[str]:
    shown = []
    for pool in pools_of(ruleset, character):  # list rows' pools too: live values always show
        value, temp = pool.now(live)
        text = f"{safe(pool.label)} {value}/{pool.maximum}"
        shown.append(text + (f" +{temp} temp" if temp else ""))
    return shown


def _tracks(ruleset: Ruleset, character: Character, live: LiveState) -> list[str]:
    index, plan = ruleset.index, plan_for(ruleset)
    permanent = character.permanent_values(plan)
    shown = []
    for track in ruleset.definition.sheet.live.tracks:
        if track.is_wound:
            shape = wound_track(ruleset, character, track)
            wounds = shape.settled(live.wounds.get(track.id) or Wounds())
            if wounds.clear and not track.always_show:
                continue
            text = shape.now(wounds)
            cost = shape.penalty(wounds)
            if cost:
                text = (
                    text.replace(f" +{wounds.overflow} over", "")
                    + f" {cost} to rolls"
                    + (f" +{wounds.overflow} over" if wounds.overflow else "")
                )
            shown.append(safe(text, 120))
            continue
        if hidden(track.hide_when, index.fields, character.build):
            continue
        high = max(track.min, int(permanent[plan.slot(("trackMax", track.id))]))
        value = track_value(track, live, high)
        default = min(
            max(track.default if track.default is not None else track.min, track.min), high
        )
        if value != default or track.always_show:
            shown.append(f"{safe(track.label)} {number(value)}")
    return shown


def _texts(ruleset: Ruleset, live: LiveState) -> list[str]:
    return [
        f"{safe(entry.label)}: {safe(live.text[entry.id])}"
        for entry in ruleset.definition.sheet.live.text
        if live.text.get(entry.id)
    ]


def _states(ruleset: Ruleset, character: Character, live: LiveState) -> list[str]:
    fields = ruleset.index.fields
    return [
        f"{safe(state.label)} {safe(state.label_of(state_value(state, live)))}"
        for state in ruleset.definition.sheet.live.states
        if not hidden(state.hide_when, fields, character.build)
    ]


def _conditions(ruleset: Ruleset, live: LiveState) -> list[str]:
    return [
        safe(condition.label)
        for condition in ruleset.definition.sheet.live.conditions
        if condition.id in live.conditions
    ]


def _lists(ruleset: Ruleset, character: Character) -> list[str]:
    summary = ruleset.definition.gm.sheet_summary
    if summary is None:
        return []
    index, lines = ruleset.index, []
    for chosen in summary.lists:
        sheet_list = index.lists.get(chosen.list_)
        if sheet_list is None or hidden(sheet_list.hide_when, index.fields, character.build):
            continue
        line = summary_list(sheet_list, list_rows(sheet_list, character.build), chosen)
        if line:
            lines.append(line)
    return lines


def summary_list(sheet_list: SheetList, rows: list[Any], chosen: Any) -> str:
    """`Gear: Crowbar 1d6, Rope` or, grouped, `Spells (1): Bless, Shield; (2): Hold Person`."""
    columns = {column.id: column for column in sheet_list.columns}
    name_column = columns.get(chosen.name_column)
    if name_column is None:
        return ""
    extra = [columns[c] for c in chosen.columns or () if c in columns]
    gate = columns.get(chosen.only_when) if chosen.only_when else None
    group_column = columns.get(chosen.group_by) if chosen.group_by else None
    groups: dict[str, list[str]] = {}
    for row in rows[:MAX_ROWS]:
        if gate is not None and cell(gate, row) is not True:
            continue
        name = _cell_text(name_column, cell(name_column, row))
        if not name:
            continue
        parts = [name] + [text for c in extra if (text := _cell_text(c, cell(c, row), flag=True))]
        key = _cell_text(group_column, cell(group_column, row)) if group_column else ""
        groups.setdefault(key or "-", []).append(" ".join(parts))
    if not groups:
        return ""
    label = safe(sheet_list.label)
    if group_column is None:
        return f"{label}: {', '.join(groups['-'])}"
    parts = [f"({key}): {', '.join(names)}" for key, names in groups.items()]
    return f"{label} {'; '.join(parts)}"


def _cell_text(column: Any, value: Any, flag: bool = False) -> str:
    if value is None or value == "":
        return ""
    if column.type == "boolean":
        return safe(column.label) if flag and value is True else ""
    if column.type == "enum":
        return safe(column.label_of(value))
    if isinstance(value, int | float):
        return number(value)
    return safe(value)
