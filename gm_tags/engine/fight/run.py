"""The `[fight:]` commands against a game: begin, attack, heal, next, end. Each is a pure step on
the encounter (and, for a party member's health, on their sheet through its own operations); a
choice that is not on the actor's options changes nothing and is refused with a reason.
"""

from __future__ import annotations

from dataclasses import replace
from types import MappingProxyType

from ...commands.fight import FightCommand
from ...dice import Dice
from ...names import normalize_name
from ...reasons import Reason
from ...ruleset.combat import Combat
from ...state import StateReads
from ..outcome import Outcome
from .abilities import afflict, heal_amount, runs, spend_key, use
from .blows import Blow, strike
from .dying import death_save, fall, revive
from .encounter import LOG_LIMIT, Combatant, Encounter
from .health import health_of, mend, standing
from .options import options_for
from .rolls import Option
from .roster import opponents, party, roll_initiative
from .standard import take_standard, without_stance

# The most turns the engine plays in a row before the GM must speak (a fight of opponents that
# cannot hurt anyone must not loop).
MOST_ENGINE_TURNS = 60


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
        game.with_fight(None)
        ended = f"the fight ended in round {fight.round}"
        return Outcome(now=ended + (f" ({fight.outcome})" if fight.outcome else ""))
    if command.op == "next":
        lines: list[str] = []
        if not fight.actor.acted and _engine_may_answer(game, fight.actor):
            fight = _picker(game, fight, dice, lines)
        fight = advance(game, combat, fight, dice, lines)
        fight = _engine_turns(game, fight, combat, dice, lines)
        game.with_fight(fight)
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
    fight = _engine_turns(game, fight, combat, dice, lines)
    game.with_fight(fight)
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
        taken = take_standard(game, fight, _spent(actor, chosen.budget), chosen, command.target)
        if isinstance(taken, Outcome):
            return taken
        fight, line = taken
        game.with_fight(fight.logged(line))
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
    target = _target(game, fight, actor, command, heal=heals)
    if isinstance(target, Outcome):
        return target
    spent = _spent(actor, chosen.budget)
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
        target = fight.get(target.id)
    if _kind_of(chosen) == "debuff":
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
        fight, blows = _strikes(game, fight, spent, [target], chosen, dice)
        line = "; ".join(blow.line for blow in blows)
        line = line.replace(f" {chosen.label} at ", f" {chosen.label}{paid} at ", 1)
    fight = _settled(game, fight)
    game.with_fight(fight.logged(line))
    return Outcome(now=line + (f"; {fight.outcome}" if fight.outcome else ""))


def _kind_of(option: Option) -> str | None:
    owned = option.owned
    mechanics = owned.entry.mechanics if owned is not None else None
    return mechanics.kind if mechanics is not None else None


def _keys(combatant: Combatant) -> set[str]:
    return {normalize_name(combatant.name), normalize_name(combatant.id)}


def _chosen(command: FightCommand, options: list[Option]) -> Option | None:
    if command.op == "heal":
        return next((o for o in options if o.kind == "heal"), None)
    if command.with_ is None:
        return next((o for o in options if o.kind == "attack"), None)
    wanted = command.with_.strip().casefold()
    kinds = ("attack", "ability", "standard") if command.op == "act" else ("attack", "ability")
    return next(
        (o for o in options if o.kind in kinds and wanted in (o.id, o.label.casefold())), None
    )


def _target(
    game: StateReads, fight: Encounter, actor: Combatant, command: FightCommand, *, heal: bool
) -> Combatant | Outcome:
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
    if found.fate == "dead" or (not heal and health.value <= 0 and found.fate is None):
        return Outcome.refused(Reason.TARGET_DOWN, f"{found.name} is down already")
    if heal and health.value >= health.most and not found.down:
        return Outcome.refused(Reason.TARGET_DOWN, f"{found.name} has nothing to heal")
    return found


def _spent(combatant: Combatant, budget: str | None) -> Combatant:
    if budget is None:
        return combatant
    spent = dict(combatant.spent)
    spent[budget] = spent.get(budget, 0) + 1
    return replace(combatant, spent=MappingProxyType(spent))


def _spent_pools(combatant: Combatant, pools: tuple[tuple[str, int], ...]) -> Combatant:
    spent = dict(combatant.spent)
    for pool, amount in pools:
        spent[spend_key(pool)] = spent.get(spend_key(pool), 0) + amount
    return replace(combatant, spent=MappingProxyType(spent))


def _settled(game: StateReads, fight: Encounter) -> Encounter:
    """The fight with its outcome, once one side is all down."""
    sides = {"party": False, "enemy": False}
    for combatant in fight.combatants:
        sides[combatant.side] |= standing(game, combatant)
    if not sides["enemy"]:
        return replace(fight, outcome="victory")
    if not sides["party"]:
        return replace(fight, outcome="defeat")
    return fight


def advance(
    game: StateReads,
    combat: Combat,
    fight: Encounter,
    dice: Dice,
    lines: list[str] | None = None,
) -> Encounter:
    """The turn passed to the next combatant standing, a new round begun past the last (budgets
    per round refilled, initiative thrown again where the ruleset says so)."""
    if fight.outcome is not None:
        return fight
    if fight.turn >= 0:
        fight = fight.with_combatant(without_stance(fight.actor, "helped"))
    at, round_ = fight.turn, fight.round
    for _ in range(2 * len(fight.order)):
        at += 1
        if at >= len(fight.order):
            at, round_ = 0, round_ + 1
            fight, rolled = _new_round(game, combat, replace(fight, round=round_), dice)
            if lines is not None and rolled:
                lines.append(rolled)
        member = fight.get(fight.order[at])
        if standing(game, member):
            break
        if member.fate == "dying":
            # A dying party member's turn is their death save; the turn passes on unless it
            # brought them back.
            fight = _start_turn(game, combat, replace(fight, turn=at))
            thrown, line = death_save(game, fight.actor, dice)
            fight = fight.with_combatant(thrown).logged(line)
            if lines is not None:
                lines.append(line)
            if standing(game, thrown):
                return fight
    return _start_turn(game, combat, replace(fight, turn=at))


def _new_round(
    game: StateReads, combat: Combat, fight: Encounter, dice: Dice
) -> tuple[Encounter, str]:
    """The fight as a round begins: budgets per round refilled, and initiative thrown again where
    the ruleset says so (with the line saying how it fell, else "")."""
    per_round = {b.id for b in combat.economy.budgets if b.per == "round"}
    per_round |= {spend_key(s.pool) for s in combat.spend_limits or () if s.per == "round"}
    members = [
        replace(c, spent=MappingProxyType({k: v for k, v in c.spent.items() if k not in per_round}))
        for c in fight.combatants
    ]
    if combat.initiative.each != "round":
        return replace(fight, combatants=tuple(members)), ""
    ordered, order = roll_initiative(game, combat, members, dice)
    line = f"round {fight.round}: {order}"
    changed = replace(fight, combatants=tuple(ordered), order=tuple(m.id for m in ordered))
    return changed.logged(line), line


def _start_turn(game: StateReads, combat: Combat, fight: Encounter) -> Encounter:
    """The actor's turn begins: its budgets per turn refilled, and the conditions whose rounds
    are up taken off its sheet."""
    per_turn = {b.id for b in combat.economy.budgets if b.per == "turn"}
    per_turn |= {spend_key(s.pool) for s in combat.spend_limits or () if s.per == "turn"}
    actor = without_stance(fight.actor, "dodge")
    kept = {k: v for k, v in actor.spent.items() if k not in per_turn}
    timed = {c: until for c, until in actor.timed.items() if until > fight.round}
    over = set(actor.timed) - set(timed)
    if over and actor.side == "enemy":
        kept_on = tuple(c for c in actor.conditions if c not in over)
        started = replace(actor, spent=MappingProxyType(kept), timed=MappingProxyType(timed))
        return fight.with_combatant(replace(started, conditions=kept_on))
    if len(timed) < len(actor.timed):
        character = next(c for c in game.characters if c.key == actor.id)
        live = game.live_of(character)
        for condition in set(actor.timed) - set(timed):
            live = live.with_condition(condition, False)
        game.with_live(character.key, live)
    started = replace(actor, spent=MappingProxyType(kept), timed=MappingProxyType(timed))
    return fight.with_combatant(started)


def gm_plays(game: StateReads, combatant: Combatant) -> bool:
    """FT-8, FT-9: an opponent's turn is the GM's only in a game whose player let the GM play
    bosses, and then every opponent's under `gm.opposition: "game-master"`, a boss's otherwise."""
    if combatant.side != "enemy" or not game.gm_bosses:
        return False
    ruleset = game.ruleset
    opposition = ruleset.definition.gm.opposition if ruleset is not None else None
    return opposition == "game-master" or combatant.boss


def _engine_may_answer(game: StateReads, actor: Combatant) -> bool:
    """Whether the engine's picker acts for an actor the GM passed on without acting: a
    GM-played opponent (the picker decides when the GM does not)."""
    return actor.side == "enemy" and gm_plays(game, actor)


def _engine_turns(
    game: StateReads, fight: Encounter, combat: Combat, dice: Dice, lines: list[str]
) -> Encounter:
    """Every opponent turn the engine plays, one after another, until a turn the GM plays."""
    for _ in range(MOST_ENGINE_TURNS):
        actor = fight.actor
        if fight.outcome is not None or actor.side != "enemy" or gm_plays(game, actor):
            break
        fight = advance(game, combat, _picker(game, fight, dice, lines), dice, lines)
    return fight


def _picker(game: StateReads, fight: Encounter, dice: Dice, lines: list[str]) -> Encounter:
    """The engine's choice for an opponent: its first attack with a budget left, at a standing
    party member the game's dice pick."""
    actor = fight.actor
    choice = next(
        (o for o in options_for(game, actor, actor.spent) if o.kind == "attack" and o.left), None
    )
    targets = [c for c in fight.combatants if c.side != actor.side and standing(game, c)]
    if choice is None or not targets:
        lines.append(f"{actor.name} does nothing")
        return fight
    fight = fight.with_combatant(_spent(actor, choice.budget))
    fight, blows = _strikes(game, fight, fight.actor, targets, choice, dice, picks=True)
    fight = fight.logged(*(blow.line for blow in blows))
    lines.extend(blow.short for blow in blows)
    return _settled(game, fight)


def _strikes(
    game: StateReads,
    fight: Encounter,
    attacker: Combatant,
    targets: list[Combatant],
    option: Option,
    dice: Dice,
    *,
    picks: bool = False,
) -> tuple[Encounter, list[Blow]]:
    """Every strike of `option` (each part of a sequence, each at up to its `targets`): at the
    one target named, or, when the engine `picks`, at standing ones its dice choose."""
    blows: list[Blow] = []
    for part in option.parts or (option,):
        standing_now = [t for t in targets if standing(game, fight.get(t.id))]
        chosen: list[Combatant] = []
        while standing_now and len(chosen) < (part.targets if picks else 1):
            at = dice.roll(1, len(standing_now))[0] - 1 if picks and len(standing_now) > 1 else 0
            chosen.append(standing_now.pop(at))
        for target in chosen:
            blow = strike(
                game, fight.get(attacker.id), fight.get(target.id), part, dice, fight.round
            )
            fight = fight.with_combatant(blow.target)
            # Help is spent by the attack it was given for.
            fight = fight.with_combatant(without_stance(fight.get(attacker.id), "helped"))
            blows.append(blow)
    return fight, blows


def whose_turn(game: StateReads, fight: Encounter) -> str:
    if fight.outcome is not None:
        return f"{fight.outcome}: end the fight with op=end"
    actor = fight.actor
    who = "the GM plays" if gm_plays(game, actor) else "to act"
    return f"round {fight.round}, {actor.name} {who}"
