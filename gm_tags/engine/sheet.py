"""Running `[sheet:]` commands against one character, or against every character for
`who="party"`.

Every op returns the character's new live state and its `now=`, or a refusal that changes
nothing. For the party, each member's result is written into one `now` (`Mira 3/8; Tobin refused
(insufficient)`, cut at a `; ` to fit), and the command is ok when at least one member's was.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from ..commands.sheet import (
    ConditionCommand,
    NoteCommand,
    PoolCommand,
    RestCommand,
    SheetCommand,
    StateCommand,
    TrackCommand,
    UseCommand,
    WoundCommand,
)
from ..names import PARTY
from ..reasons import Reason
from ..ruleset.loader import Ruleset
from ..sheet.build import hidden
from ..sheet.character import Character
from ..sheet.live import LiveState
from ..sheet.plan import plan_for
from ..sheet.plan_live import track_value
from ..state import Draft
from ..text import NOW_LIMIT
from .bags import recharged
from .entries import climb, find_entry, pay
from .naming import by_name
from .outcome import Outcome
from .pools import find_pool, pools_of, run_pool
from .rests import run_rest
from .targets import targets
from .wounds import run_wound

Result = tuple[LiveState, str] | Outcome
Op = Callable[[Any, Ruleset, Character, LiveState], Result]


def run_sheet(command: SheetCommand, game: Draft[Any]) -> Outcome:
    """Run `command` on the draft, which it changes in place when it applies."""
    if game.ruleset is None:
        return Outcome.refused(Reason.NO_SHEET, "this game has no ruleset, so no sheets")
    found = targets(game, command.who)
    if isinstance(found, Outcome):
        return found
    members, who = found
    op = _op_for(command)
    results: list[tuple[Character, Result]] = []
    for character in members:
        results.append((character, op(command, game.ruleset, character, game.live_of(character))))
    request = command.request_for(who)
    for character, result in results:
        if not isinstance(result, Outcome):
            game.set_live(character.key, result[0])
    if isinstance(command, RestCommand):
        _recharge(game, command, [c for c, r in results if not isinstance(r, Outcome)])
    if who != PARTY:
        result = results[0][1]
        if isinstance(result, Outcome):
            return result._replace(request=request)
        return Outcome(now=result[1], request=request)
    return _party_outcome(results, request)


def _recharge(game: Draft[Any], command: RestCommand, resting: list[Character]) -> None:
    """Items whose charges recharge on the rest get them back (docs/inventory.md)."""
    assert game.ruleset is not None
    rest = by_name(game.ruleset.definition.rests, command.rest)
    inventory = recharged(game, resting, rest.id) if rest is not None and resting else None
    if inventory is not None:
        game.set_inventory(inventory)


def _party_outcome(results: Sequence[tuple[Character, Result]], request: Any) -> Outcome:
    parts = [
        f"{character.name} refused ({result.reason})"
        if isinstance(result, Outcome)
        else f"{character.name} {result[1]}"
        for character, result in results
    ]
    now = ""
    for part in parts:
        joined = f"{now}; {part}" if now else part
        if len(joined) > NOW_LIMIT:
            break
        now = joined
    refusals = [result for _, result in results if isinstance(result, Outcome)]
    if len(refusals) == len(results):
        first = refusals[0]
        return Outcome(None, first.reason, f"every member was refused: {now}", request)
    return Outcome(now=now, request=request)


def _op_for(command: SheetCommand) -> Op:
    return _OPS.get(type(command), _unsupported)


def _pool(command: PoolCommand, ruleset: Ruleset, character: Character, live: LiveState) -> Result:
    pool = find_pool(pools_of(ruleset, character), command.pool)
    return pool if isinstance(pool, Outcome) else run_pool(command, pool, live)


def _track(
    command: TrackCommand, ruleset: Ruleset, character: Character, live: LiveState
) -> Result:
    index = ruleset.index
    track = by_name(ruleset.definition.sheet.live.tracks, command.track)
    if track is None or hidden(track.hide_when, index.fields, character.build):
        return _unknown(
            Reason.UNKNOWN_TRACK, "track", command.track, ruleset.definition.sheet.live.tracks
        )
    if track.is_wound:
        return Outcome.refused(
            Reason.WRONG_TRACK,
            f"{track.label} is a wound track: mark it with op=damage kind= amount=",
        )
    plan = plan_for(ruleset)
    high = max(track.min, int(character.permanent_values(plan)[plan.slot(("trackMax", track.id))]))
    value = track_value(track, live, high)
    wanted = command.to if command.to is not None else value + (command.by or 0)
    value = min(max(wanted, track.min), high)
    default = min(max(track.default if track.default is not None else track.min, track.min), high)
    return live.with_track(track.id, value, default), f"{track.label} {value}"


def _condition(
    command: ConditionCommand, ruleset: Ruleset, character: Character, live: LiveState
) -> Result:
    conditions = ruleset.definition.sheet.live.conditions
    condition = by_name(conditions, command.condition)
    if condition is None:
        return _unknown(Reason.UNKNOWN_CONDITION, "condition", command.condition, conditions)
    state = "on" if command.on else "off"
    return live.with_condition(condition.id, command.on), f"{condition.label} {state}"


def _state(
    command: StateCommand, ruleset: Ruleset, character: Character, live: LiveState
) -> Result:
    states = ruleset.definition.sheet.live.states
    state = by_name(states, command.state)
    if state is None or hidden(state.hide_when, ruleset.index.fields, character.build):
        return _unknown(Reason.UNKNOWN_STATE, "state", command.state, states)
    folded = command.value.strip().casefold()
    value = next((v for v in state.values if v == command.value), None) or next(
        (v for v in state.values if folded in (v.casefold(), state.label_of(v).casefold())), None
    )
    if value is None:
        offered = ", ".join(state.label_of(v) for v in state.values)
        return Outcome.refused(
            Reason.UNKNOWN_VALUE,
            f"{state.label} has no value {command.value!r}; it takes: {offered}",
        )
    changed = live.with_state(state.id, value, state.start)
    return changed, f"{state.label} {state.label_of(value)}"


def _note(command: NoteCommand, ruleset: Ruleset, character: Character, live: LiveState) -> Result:
    entries = ruleset.definition.sheet.live.text
    entry = by_name(entries, command.field)
    if entry is None:
        return _unknown(Reason.UNKNOWN_FIELD, "note field", command.field, entries)
    text = " ".join((command.value or "").split())[: entry.max_length]
    if not text:
        return live.with_text(entry.id, ""), f"{entry.label} cleared"
    return live.with_text(entry.id, text), f"{entry.label}: {text}"


def _use(command: UseCommand, ruleset: Ruleset, character: Character, live: LiveState) -> Result:
    owned = find_entry(ruleset, character, command.name)
    if isinstance(owned, Outcome):
        return owned
    paid = pay(ruleset, character, live, owned, pool=command.pool)
    if isinstance(paid, Outcome):
        return paid
    changed, parts = paid
    spent = ", ".join(part.now for part in parts)
    climbed = climb(ruleset, owned, parts) if command.pool is not None else None
    spent += f"; {climbed}" if climbed else ""
    return changed, f"{owned.label}: {spent}" if spent else owned.label


def _unsupported(
    command: SheetCommand, ruleset: Ruleset, character: Character, live: LiveState
) -> Result:
    return Outcome.refused(Reason.UNSUPPORTED, f"op={command.op} is not run by gm-tags yet")


def _unknown(reason: Reason, what: str, name: str, entries: Sequence[Any]) -> Outcome:
    offered = ", ".join(entry.label for entry in entries) or "none"
    return Outcome.refused(reason, f"no {what} is named {name!r}; this sheet has: {offered}")


_OPS: dict[type[SheetCommand], Op] = {
    PoolCommand: _pool,
    WoundCommand: run_wound,
    TrackCommand: _track,
    ConditionCommand: _condition,
    StateCommand: _state,
    NoteCommand: _note,
    RestCommand: run_rest,
    UseCommand: _use,
}
