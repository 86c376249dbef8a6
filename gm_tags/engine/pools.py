"""Pools in play: which pools a character has, which one a command names, and the four pool ops.

A character's pools are the sheet's `live.pools` that are not hidden and whose computed maximum
is above 0, then one pool per row of every list with `pools` (stored under
`<list id>:<row name in lower case>`). A name is matched as the Engine matches it: the stored key
exactly, then a declared pool's id or label in any case, then a row pool's key or row name, which
must be unique (`ambiguous-pool`); nothing is `unknown-pool`. Rows of one list whose names differ
only by case or surrounding space are one pool (one stored key), the first row's.
"""

from __future__ import annotations

from ..commands.sheet import PoolCommand
from ..reasons import Reason
from ..ruleset.loader import Ruleset
from ..sheet.build import cell, hidden, list_rows
from ..sheet.character import Character
from ..sheet.live import LiveState
from ..sheet.plan import plan_for
from ..sheet.pools import PoolSlot
from .outcome import Outcome


def pools_of(ruleset: Ruleset, character: Character) -> list[PoolSlot]:
    plan = plan_for(ruleset)
    permanent = character.permanent_values(plan)
    index, build = ruleset.index, character.build
    found: list[PoolSlot] = []
    for pool in ruleset.definition.sheet.live.pools:
        if hidden(pool.hide_when, index.fields, build):
            continue
        maximum = int(permanent[plan.slot(("poolMax", pool.id))])
        if maximum > 0:
            found.append(
                PoolSlot(pool.id, pool.label, maximum, pool.start == "full", pool.allow_temp)
            )
    keys: set[str] = set()
    for sheet_list in ruleset.definition.sheet.lists:
        rule = sheet_list.pools
        if rule is None or hidden(sheet_list.hide_when, index.fields, build):
            continue
        columns = {column.id: column for column in sheet_list.columns}
        name_column, max_column = columns.get(rule.name_column), columns.get(rule.max_column)
        if name_column is None or max_column is None:
            continue
        for row in list_rows(sheet_list, build):
            name, most = cell(name_column, row), cell(max_column, row)
            if not isinstance(name, str) or not name.strip() or isinstance(most, bool):
                continue
            key = f"{sheet_list.id}:{name.strip().lower()}"
            # Rows whose names differ only by case or surrounding space are one pool (they are
            # stored under one key): the first row's.
            if isinstance(most, int | float) and most > 0 and key not in keys:
                keys.add(key)
                found.append(PoolSlot(key, name.strip(), int(most), row=True))
    return found


def find_pool(pools: list[PoolSlot], name: str) -> PoolSlot | Outcome:
    exact = next((pool for pool in pools if pool.key == name), None)
    if exact is not None:
        return exact
    folded = name.strip().casefold()
    declared = [p for p in pools if not p.row and folded in (p.key.casefold(), p.label.casefold())]
    if declared:
        return declared[0]
    rows = [p for p in pools if p.row and folded in (p.key.casefold(), p.label.casefold())]
    if len(rows) == 1:
        return rows[0]
    if rows:
        keys = ", ".join(pool.key for pool in rows)
        return Outcome.refused(Reason.AMBIGUOUS_POOL, f"{name!r} could be any of: {keys}")
    offered = ", ".join(pool.label for pool in pools) or "none"
    return Outcome.refused(Reason.UNKNOWN_POOL, f"no pool is named {name!r}; pools: {offered}")


def run_pool(
    command: PoolCommand, pool: PoolSlot, live: LiveState
) -> tuple[LiveState, str] | Outcome:
    value, temp = pool.now(live)
    amount = command.amount
    if command.op == "spend":
        if value < amount:
            return Outcome.refused(
                Reason.INSUFFICIENT, f"{pool.label} has {value}, not enough to spend {amount}"
            )
        value -= amount
    elif command.op == "restore":
        value = min(pool.maximum, value + amount)
    elif command.op == "damage":
        absorbed = min(temp, amount)
        temp, value = temp - absorbed, max(0, value - (amount - absorbed))
    else:
        if not pool.allow_temp:
            return Outcome.refused(Reason.NO_TEMP, f"{pool.label} takes no temporary points")
        temp = amount
    changed = live.with_pool(pool.key, value, temp, pool.default)
    return changed, f"{value}/{pool.maximum}" + (f" +{temp} temp" if temp else "")
