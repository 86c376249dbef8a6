"""Buff and utility abilities: what they give the one they are used on (the user, or an ally named
with `target=`; `targets: "self"` only the user).

- `applies`: each condition goes on the target for its rounds (`duration: {"rounds": N}`, off as
  the holder's turn begins N rounds on; `"instant"` and `"until-save"` stay until cleared). What
  a condition does is the ruleset's `combat.conditions` entry, read where every check and blow
  reads it (`checks/effects.py`): its modifiers to attacks, defense, checks and saves, its leans.
- `temporary`: temporary points on the health pool, through the sheet's own `temp` operation
  (the higher of what is there and what is given, as `[sheet: op="temp"]` does). FT-5 refuses
  them at import where health is a wound track.
- `gives`: more of a budget this turn (`{"budget", "count"}`).

An entry that does none of these is still refused `unsupported`.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from types import MappingProxyType

from ...commands.sheet import PoolCommand
from ...sheet.encounter import Combatant, Encounter
from ...state import StateReads, draft_of
from ..outcome import Outcome
from ..pools import find_pool, pools_of, run_pool
from .abilities import put_on, rolled
from .rolls import Option


def bolster(
    game: StateReads,
    fight: Encounter,
    actor: Combatant,
    target: Combatant,
    option: Option,
    roll: Callable[[int, int], list[int]],
) -> tuple[Encounter, str]:
    """`option` (paid for already) used by `actor` on `target`: the fight after, and what it
    gave."""
    ruleset = game.ruleset
    assert ruleset is not None and option.owned is not None
    mechanics = option.owned.entry.mechanics
    assert mechanics is not None
    given: list[str] = []
    for entry in mechanics.applies or ():
        if entry.condition in ruleset.index.conditions:
            target = put_on(game, target, entry.condition, entry.rounds, fight.round)
            rounds = entry.rounds
            label = ruleset.index.conditions[entry.condition].label
            given.append(label + (f" for {rounds} round{'s' * (rounds != 1)}" if rounds else ""))
    if mechanics.temporary is not None:
        given.append(_temporary(game, target, rolled(mechanics.temporary, roll)))
    fight = fight.with_combatant(target)
    for gift in mechanics.gives or ():
        holder = fight.get(target.id)
        spent = dict(holder.spent)
        spent[gift.budget] = spent.get(gift.budget, 0) - gift.count
        fight = fight.with_combatant(replace(holder, spent=MappingProxyType(spent)))
        given.append(f"{gift.count} more {_budget_label(game, gift.budget)} this turn")
    return fight, f"{actor.name} {option.label} on {target.name}: " + ", ".join(given)


def _temporary(game: StateReads, target: Combatant, amount: int) -> str:
    ruleset = game.ruleset
    assert ruleset is not None and ruleset.definition.combat is not None
    pool_id = ruleset.definition.combat.health.pool
    if target.side != "party" or pool_id is None:
        return f"{amount} temporary points, and nothing to hold them"
    character = next(c for c in game.characters if c.key == target.id)
    pool = find_pool(pools_of(ruleset, character), pool_id)
    if isinstance(pool, Outcome):
        return f"{amount} temporary points, and nothing to hold them"
    command = PoolCommand(None, "temp", (), pool=pool_id, amount=amount)
    result = run_pool(command, pool, game.live_of(character))
    if isinstance(result, Outcome):
        return f"{amount} temporary points, refused: {result.detail}"
    draft_of(game).set_live(character.key, result[0])
    return f"{amount} temporary points ({result[1]})"


def _budget_label(game: StateReads, budget: str) -> str:
    ruleset = game.ruleset
    assert ruleset is not None and ruleset.definition.combat is not None
    budgets = {b.id: b.label for b in ruleset.definition.combat.economy.budgets}
    return budgets.get(budget, budget)
