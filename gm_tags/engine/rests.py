"""Rests: every restore step in order, then what `clear` names. A rest does exactly what it says:
no implied healing, temporary points untouched, and a step that would add wound marks (a positive
`by`, or a `to` above the marks there are) is skipped without a word.

Steps: a pool, a pool group (each pool by its own fraction, or with `shared` the fraction of the
group's total handed out in sheet order, each pool up to what it is missing), the pools of a
list's rows (only rows whose recharge column holds one of `recharge`, when given), a plain track,
a wound track (`to` clears down to that many marks, overflow and all; a negative `by` clears that
many, overflow first; `kind` clears only marks of that kind), a state (to its default or a value).
"""

from __future__ import annotations

from ..commands.sheet import RestCommand
from ..reasons import Reason
from ..ruleset.document import FractionStep, Rest, RestoreStep
from ..ruleset.loader import Ruleset
from ..sheet.arithmetic import rounded
from ..sheet.build import cell, hidden, list_rows
from ..sheet.character import Character
from ..sheet.live import LiveState, Wounds
from ..sheet.plan import plan_for
from ..sheet.plan_live import state_value, track_value
from ..sheet.pools import PoolSlot
from .naming import by_name
from .outcome import Outcome
from .pools import pools_of
from .wounds import heal, wound_track


def run_rest(
    command: RestCommand, ruleset: Ruleset, character: Character, live: LiveState
) -> tuple[LiveState, str] | Outcome:
    rests = ruleset.definition.rests
    rest = by_name(rests, command.rest)
    if rest is None:
        offered = ", ".join(r.label for r in rests) or "none"
        return Outcome.refused(
            Reason.UNKNOWN_REST, f"no rest is named {command.rest!r}; rests: {offered}"
        )
    return take_rest(rest, ruleset, character, live)


def take_rest(
    rest: Rest, ruleset: Ruleset, character: Character, live: LiveState
) -> tuple[LiveState, str]:
    changes: dict[str, str] = {}
    for step in rest.restore:
        live = _step(step, ruleset, character, live, changes)
    sheet = ruleset.definition.sheet.live
    for text_id in rest.clear.text:
        entry = by_name(sheet.text, text_id)
        if entry is not None and live.text.get(entry.id):
            live = live.with_text(entry.id, "")
            changes[f"text:{entry.id}"] = f"{entry.label} cleared"
    wanted = rest.clear.conditions
    for condition in sheet.conditions:
        if (wanted == "all" or condition.id in wanted) and condition.id in live.conditions:
            live = live.with_condition(condition.id, False)
            changes[f"condition:{condition.id}"] = f"{condition.label} off"
    return live, rest.label + (": " + ", ".join(changes.values()) if changes else "")


def _step(
    step: RestoreStep,
    ruleset: Ruleset,
    character: Character,
    live: LiveState,
    changes: dict[str, str],
) -> LiveState:
    kind, target = step.target_kind, step.target
    if kind in ("pool", "poolGroup", "listPools"):
        return _pools(step, _pools_named(step, ruleset, character), live, changes)
    if kind == "state":
        state = ruleset.index.states.get(target)
        if state is None or hidden(state.hide_when, ruleset.index.fields, character.build):
            return live
        value = state.start if step.to == "default" else str(step.to)
        if value not in state.values or value == state_value(state, live):
            return live
        changes[f"state:{state.id}"] = f"{state.label} {state.label_of(value)}"
        return live.with_state(state.id, value, state.start)
    track = ruleset.index.tracks.get(target)
    if track is None or hidden(track.hide_when, ruleset.index.fields, character.build):
        return live
    if track.is_wound:
        return _wound_step(step, ruleset, character, live, changes)
    plan = plan_for(ruleset)
    high = max(track.min, int(character.permanent_values(plan)[plan.slot(("trackMax", track.id))]))
    now = int(track_value(track, live, high))
    wanted: int = now
    if step.to == "max":
        wanted = high
    elif step.to == "min":
        wanted = track.min
    elif isinstance(step.to, int):
        wanted = step.to
    elif step.to is None:
        wanted = now + _change(step, high - track.min)
    moved = min(max(wanted, track.min), high)
    if moved == now:
        return live
    changes[f"track:{track.id}"] = f"{track.label} {moved}"
    default = min(max(track.default if track.default is not None else track.min, track.min), high)
    return live.with_track(track.id, moved, default)


def _pools_named(step: RestoreStep, ruleset: Ruleset, character: Character) -> list[PoolSlot]:
    pools = pools_of(ruleset, character)
    if step.pool is not None:
        return [pool for pool in pools if pool.key == step.pool and not pool.row]
    if step.pool_group is not None:
        grouped = {p.id for p in ruleset.definition.sheet.live.pools if p.group == step.pool_group}
        return [pool for pool in pools if pool.key in grouped and not pool.row]
    sheet_list = ruleset.index.lists.get(step.list_pools or "")
    if sheet_list is None or sheet_list.pools is None:
        return []
    rows = [pool for pool in pools if pool.row and pool.key.startswith(f"{sheet_list.id}:")]
    if step.recharge is None or sheet_list.pools.recharge_column is None:
        return rows
    columns = {column.id: column for column in sheet_list.columns}
    recharge_column, name_column = (
        columns.get(sheet_list.pools.recharge_column),
        columns.get(sheet_list.pools.name_column),
    )
    if recharge_column is None or name_column is None:
        return []
    recharging = {
        f"{sheet_list.id}:{str(cell(name_column, row)).strip().lower()}"
        for row in list_rows(sheet_list, character.build)
        if cell(recharge_column, row) in step.recharge
    }
    return [pool for pool in rows if pool.key in recharging]


def _pools(
    step: RestoreStep, pools: list[PoolSlot], live: LiveState, changes: dict[str, str]
) -> LiveState:
    if step.shared and step.by is not None and pools:
        total = _change(step, sum(pool.maximum for pool in pools))
        for pool in pools:
            value, temp = pool.now(live)
            given = max(0, min(total, pool.maximum - value))
            total -= given
            live = _set_pool(pool, value + given, value, temp, live, changes)
        return live
    for pool in pools:
        value, temp = pool.now(live)
        if step.to is not None:
            wanted = pool.maximum if step.to == "max" else 0 if step.to == "min" else step.to
            wanted = wanted if isinstance(wanted, int) else value
        else:
            wanted = value + _change(step, pool.maximum)
        live = _set_pool(pool, min(max(wanted, 0), pool.maximum), value, temp, live, changes)
    return live


def _set_pool(
    pool: PoolSlot, value: int, was: int, temp: int, live: LiveState, changes: dict[str, str]
) -> LiveState:
    if value == was:
        return live
    changes[f"pool:{pool.key}"] = f"{pool.label} {value}/{pool.maximum}"
    return live.with_pool(pool.key, value, temp, pool.default)


def _change(step: RestoreStep, maximum: int) -> int:
    """What a `by` adds: a constant, or max(min, the fraction of `maximum` rounded)."""
    by = step.by
    if isinstance(by, FractionStep):
        return max(by.min, rounded(maximum * by.fraction_of_max, by.round))
    return by.const if by is not None else 0


def _wound_step(
    step: RestoreStep,
    ruleset: Ruleset,
    character: Character,
    live: LiveState,
    changes: dict[str, str],
) -> LiveState:
    track = ruleset.index.tracks[step.target]
    shape = wound_track(ruleset, character, track)
    wounds = shape.settled(live.wounds.get(track.id) or Wounds())
    kind = step.kind
    held = sum(1 for mark in wounds.marks if mark and (kind is None or mark == kind))
    count = held + (0 if kind is not None else wounds.overflow)
    if step.to is not None:
        keep = 0 if step.to in ("min", "default") else count if step.to == "max" else step.to
        clear = count - keep if isinstance(keep, int) else 0
    else:
        clear = -_change(step, shape.capacity)
    # Marks that no longer fit are stored as overflow once a step touches the track.
    settled = live.with_wounds(track.id, wounds)
    if clear <= 0:
        return settled
    if kind is not None:
        healed = heal(shape, Wounds(wounds.marks, 0), kind, clear)
        healed = Wounds(healed.marks, wounds.overflow)
    else:
        healed = heal(shape, wounds, None, clear)
    if healed == wounds:
        return settled
    changes[f"wounds:{track.id}"] = shape.now(healed)
    return live.with_wounds(track.id, healed)
