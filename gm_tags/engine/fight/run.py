"""The `[fight:]` commands against a game: begin, attack, act, heal, next, end. Each is a pure
step on the encounter (and, for a party member's health, on their sheet through its own
operations); a choice that is not on the actor's options changes nothing and is refused with a
reason. How turns pass is `turns.py`.
"""

from __future__ import annotations

from dataclasses import replace
from types import MappingProxyType

from ...commands.fight import FightCommand
from ...dice import Dice
from ...names import normalize_name
from ...reasons import Reason
from ...ruleset.combat import Combat
from ...sheet.encounter import LOG_LIMIT, Combatant, Encounter
from ...state import StateReads, draft_of
from ..outcome import Outcome
from .abilities import afflict, heal_amount, runs, spend_key, use
from .buffs import bolster
from .concentration import let_go, needs, start
from .contests import contest
from .dying import fall, revive
from .health import health_of, mend, standing
from .options import options_for
from .rolls import Option
from .roster import opponents, party, roll_initiative
from .standard import take_standard
from .turns import (
    advance,
    engine_may_answer,
    engine_turns,
    picker,
    settled,
    spent_on,
    spent_recharge,
    strikes,
    whose_turn,
)


def run_fight(command: FightCommand, game: StateReads, dice: Dice) -> Outcome:
    ruleset = game.ruleset
    combat = ruleset.definition.combat if ruleset is not None else None
    if ruleset is None or combat is None:
        return Outcome.refused(Reason.NO_COMBAT, "this ruleset has no combat block to fight by")
    fight = game.fight
    if command.op == "begin":
        if fight is not None:
            return Outcome.refused(Reason.FIGHT_RUNNING, "a fight runs already; end it first")
        return _begin(command, game, combat, dice)
    if fight is None:
        return Outcome.refused(Reason.NO_FIGHT, "no fight runs; begin one with op=begin")
    if command.op == "end":
        draft_of(game).set_fight(None)
        ended = f"the fight ended in round {fight.round}"
        return Outcome(now=ended + (f" ({fight.outcome})" if fight.outcome else ""))
    if command.op == "next":
        lines: list[str] = []
        if not fight.actor.acted and engine_may_answer(game, fight.actor):
            fight = picker(game, fight, dice, lines)
        fight = advance(game, combat, fight, dice, lines)
        fight = engine_turns(game, fight, combat, dice, lines)
        draft_of(game).set_fight(fight)
        return _told(game, fight, lines)
    if fight.outcome is not None:
        return Outcome.refused(Reason.FIGHT_OVER, f"the fight is over ({fight.outcome}); end it")
    return _act(command, game, fight, dice)


def _begin(command: FightCommand, game: StateReads, combat: Combat, dice: Dice) -> Outcome:
    ruleset = game.ruleset
    assert ruleset is not None
    members = party(game)
    if not members:
        return Outcome.refused(Reason.NO_SHEET, "no character has a sheet to fight with")
    foes = opponents(ruleset, combat, command.against, command.boss, dice)
    if isinstance(foes, str):
        return Outcome.refused(
            Reason.UNKNOWN_OPPONENT,
            f"{foes!r} is neither a creature of the bestiary nor a threat tier",
        )
    ordered, line = roll_initiative(game, combat, [*members, *foes], dice)
    order = tuple(m.id for m in ordered)
    fallen = [fall(game, m) if not standing(game, m) else m for m in ordered]
    lines = [f"round 1: {line}"]
    # The turn passes to the first in the order (a throw of theirs first, where they are dying).
    fight = replace(Encounter(tuple(fallen), order).logged(*lines), turn=-1)
    fight = advance(game, combat, fight, dice, lines)
    fight = engine_turns(game, fight, combat, dice, lines)
    draft_of(game).set_fight(fight)
    return _told(game, fight, lines)


def _told(game: StateReads, fight: Encounter, lines: list[str]) -> Outcome:
    """A begin's or a next's outcome: whose turn it is and the engine's turns in a few words, and
    in `detail` the same turns with all their arithmetic (the log's lines for them)."""
    full = fight.log[-min(len(lines), LOG_LIMIT) :] if lines else ()
    return Outcome(now="; ".join([whose_turn(game, fight), *lines]), detail="; ".join(full))


def _act(command: FightCommand, game: StateReads, fight: Encounter, dice: Dice) -> Outcome:
    actor = fight.actor
    if command.who is not None and normalize_name(command.who) not in _keys(actor):
        return Outcome.refused(
            Reason.NOT_YOUR_TURN, f"it is {actor.name}'s turn, not {command.who!r}'s"
        )
    options = options_for(game, actor, actor.spent)
    chosen = _chosen(command, options)
    if chosen is None:
        offered = ", ".join(o.label for o in options if o.kind not in ("heal", "end-turn"))
        return Outcome.refused(
            Reason.UNKNOWN_OPTION,
            f"{actor.name} has no option {command.with_ or command.op!r}; options: {offered}",
        )
    if chosen.kind == "standard":
        if not chosen.left:
            return Outcome.refused(
                Reason.NO_BUDGET, f"{actor.name} has spent {chosen.budget} this turn"
            )
        taken = take_standard(game, fight, spent_on(actor, chosen.budget), chosen, command.target)
        if isinstance(taken, Outcome):
            return taken
        fight, line = taken
        draft_of(game).set_fight(fight.logged(line))
        return Outcome(now=line)
    if chosen.kind == "ability" and not runs(chosen):
        return Outcome.refused(
            Reason.UNSUPPORTED, f"{chosen.label} does what a fight here does not run yet"
        )
    if not chosen.left:
        return Outcome.refused(
            Reason.NO_BUDGET, f"{actor.name} has spent {chosen.budget} this turn"
        )
    heals = chosen.kind == "heal" or _kind_of(chosen) == "heal"
    aids = _kind_of(chosen) in ("buff", "utility")
    detail = ""
    named = _targets(game, fight, actor, command, chosen)
    if isinstance(named, Outcome):
        return named
    others: list[Combatant] = named[1:]
    target = (
        named[0]
        if named
        else _target(game, fight, actor, command, heal=heals or aids, aid=_aid(chosen))
    )
    if isinstance(target, Outcome):
        return target
    spent = spent_recharge(spent_on(actor, chosen.budget), chosen)
    fight = fight.with_combatant(spent)
    target = fight.get(target.id)  # the actor itself, when it heals itself
    paid = ""
    if chosen.kind == "ability":
        character = next(c for c in game.characters if c.key == actor.id)
        used = use(game, character, chosen)
        if isinstance(used, Outcome):
            return used
        paid = f" ({used.paid})" if used.paid else ""
        spent = _spent_pools(spent, used.pools)
        fight = fight.with_combatant(spent)
    released = ""
    if needs(chosen):
        fight, released = let_go(game, fight, actor.id)
        spent = fight.get(actor.id)
    target = fight.get(target.id)
    if chosen.kind == "contest":
        fight, line = contest(game, fight, spent, target, chosen, dice)
    elif aids:
        fight, line = bolster(game, fight, spent, target, chosen, dice.roll)
        line = line.replace(f" {chosen.label}", f" {chosen.label}{paid}", 1)
    elif _kind_of(chosen) == "debuff":
        afflicted, line = afflict(game, spent, target, chosen, dice, fight.round)
        fight = fight.with_combatant(afflicted)
        line = line.replace(f" {chosen.label}", f" {chosen.label}{paid}", 1)
    elif heals:
        amount = heal_amount(chosen, dice.roll) if chosen.kind == "ability" else command.amount
        healed = mend(game, target, amount or 1)
        back = healed.combatant
        fight = fight.with_combatant(revive(game, back) if standing(game, back) else back)
        line = f"{spent.name} heals {target.name}{paid}: {healed.now}"
    else:
        fight, blows = strikes(game, fight, spent, [target, *others], chosen, dice)
        line = "; ".join(blow.line for blow in blows)
        line = line.replace(f" {chosen.label} at ", f" {chosen.label}{paid} at ", 1)
        if len(blows) > 1:
            # Several targets: each in a few words here, all the arithmetic in the detail.
            detail = line
            line = "; ".join(blow.short for blow in blows)
            line = line.replace(f" {chosen.label} at ", f" {chosen.label}{paid} at ", 1)
    if needs(chosen):
        fight, held = start(game, fight, fight.get(actor.id), chosen, fight.get(target.id))
        line += released + held
    fight = settled(game, fight)
    draft_of(game).set_fight(fight.logged(detail or line))
    return Outcome(now=line + (f"; {fight.outcome}" if fight.outcome else ""), detail=detail)


def _kind_of(option: Option) -> str | None:
    owned = option.owned
    mechanics = owned.entry.mechanics if owned is not None else None
    return mechanics.kind if mechanics is not None else None


def _aid(option: Option) -> str | None:
    """Who a buff or utility may go to: "self" (only its user), "ally", or None (not one)."""
    owned = option.owned
    mechanics = owned.entry.mechanics if owned is not None else None
    if mechanics is None or mechanics.kind not in ("buff", "utility"):
        return None
    return "self" if mechanics.targets == "self" else "ally"


def _keys(combatant: Combatant) -> set[str]:
    return {normalize_name(combatant.name), normalize_name(combatant.id)}


def _chosen(command: FightCommand, options: list[Option]) -> Option | None:
    if command.op == "heal":
        return next((o for o in options if o.kind == "heal"), None)
    if command.with_ is None:
        return next((o for o in options if o.kind == "attack"), None)
    wanted = command.with_.strip().casefold()
    acts = ("attack", "ability", "standard", "contest")
    kinds = acts if command.op == "act" else ("attack", "ability")
    return next(
        (o for o in options if o.kind in kinds and wanted in (o.id, o.label.casefold())), None
    )


def _target(
    game: StateReads,
    fight: Encounter,
    actor: Combatant,
    command: FightCommand,
    *,
    heal: bool,
    aid: str | None = None,
) -> Combatant | Outcome:
    """Whom the chosen option goes to: `target=` (an opponent for a blow; oneself when a heal or
    a buff names nobody; only the only standing opponent when a blow names nobody)."""
    if command.target is None:
        if heal:
            return actor
        others = [c for c in fight.combatants if c.side != actor.side and standing(game, c)]
        if len(others) == 1:
            return others[0]
        return Outcome.refused(
            Reason.NO_SUCH_TARGET, "name the target with target= (more than one stands)"
        )
    key = normalize_name(command.target)
    found = next((c for c in fight.combatants if key in _keys(c)), None)
    if found is None:
        names = ", ".join(c.name for c in fight.combatants)
        return Outcome.refused(
            Reason.NO_SUCH_TARGET, f"nobody in the fight is named {command.target!r}: {names}"
        )
    health = health_of(game, found)
    if aid is not None:
        if found.side != actor.side or (aid == "self" and found.id != actor.id):
            whom = "its user" if aid == "self" else f"{actor.name}'s side"
            return Outcome.refused(Reason.NO_SUCH_TARGET, f"this goes to {whom}, not {found.name}")
        if health.value <= 0:
            return Outcome.refused(Reason.TARGET_DOWN, f"{found.name} is down")
        return found
    if found.fate == "dead" or (not heal and health.value <= 0 and found.fate is None):
        return Outcome.refused(Reason.TARGET_DOWN, f"{found.name} is down already")
    if heal and health.value >= health.most and not found.down:
        return Outcome.refused(Reason.TARGET_DOWN, f"{found.name} has nothing to heal")
    return found


def _targets(
    game: StateReads, fight: Encounter, actor: Combatant, command: FightCommand, chosen: Option
) -> list[Combatant] | Outcome:
    """The targets a blow that may take several names in `target=` (comma-separated, up to its
    `targetCount`), each as one target would be; [] when it names one or none."""
    names = list(dict.fromkeys(n.strip() for n in (command.target or "").split(",") if n.strip()))
    if len(names) < 2 or chosen.kind not in ("attack", "ability") or chosen.strike is None:
        return []
    if len(names) > chosen.targets:
        return Outcome.refused(
            Reason.NO_SUCH_TARGET, f"{chosen.label} takes at most {chosen.targets} target(s)"
        )
    found: list[Combatant] = []
    for name in names:
        one = _target(game, fight, actor, replace(command, target=name), heal=False)
        if isinstance(one, Outcome):
            return one
        if one.id not in {f.id for f in found}:
            found.append(one)
    return found


def _spent_pools(combatant: Combatant, pools: tuple[tuple[str, int], ...]) -> Combatant:
    spent = dict(combatant.spent)
    for pool, amount in pools:
        spent[spend_key(pool)] = spent.get(spend_key(pool), 0) + amount
    return replace(combatant, spent=MappingProxyType(spent))
