"""How turns pass in a fight: the next combatant who acts (a dying one's death save on the way),
what a round and a turn begin with (budgets refilled, initiative thrown again, conditions whose
rounds are up taken off, stances over), the opponents' turns the engine plays (its picker), and
every strike of an option. `run.py` calls these; the prompt reads whose turn it is.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from types import MappingProxyType

from ...dice import Dice
from ...ruleset.combat import Combat
from ...sheet.encounter import Combatant, Encounter
from ...state import StateReads, draft_of
from .abilities import spend_key
from .blows import Blow, shared_damage, strike
from .concentration import end
from .dying import death_save
from .health import standing
from .options import options_for
from .rolls import SIGNATURE, Option, recharge_key, recharge_of
from .roster import roll_initiative
from .save_ends import throw_off
from .standard import without_stance

# The most turns the engine plays in a row before the GM must speak (a fight of opponents that
# cannot hurt anyone must not loop).
MOST_ENGINE_TURNS = 60


def spent_on(combatant: Combatant, budget: str | None) -> Combatant:
    if budget is None:
        return combatant
    spent = dict(combatant.spent)
    spent[budget] = spent.get(budget, 0) + 1
    return replace(combatant, spent=MappingProxyType(spent))


def settled(game: StateReads, fight: Encounter) -> Encounter:
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
        fight = throw_off(game, fight, "turn-end", dice, lines)
        fight = settled(game, _window(game, fight, dice, lines))
        if fight.outcome is not None:
            return fight
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
    fight = _start_turn(game, combat, replace(fight, turn=at))
    fight = throw_off(game, fight, "turn-start", dice, lines)
    return _recharged(fight, dice, lines)


def spent_recharge(combatant: Combatant, option: Option) -> Combatant:
    """`combatant` after using `option`: an action that must recharge is spent until it does."""
    if option.recharge is None:
        return combatant
    spent = {**combatant.spent, recharge_key(option.id): 1}
    return replace(combatant, spent=MappingProxyType(spent))


def _recharged(fight: Encounter, dice: Dice, lines: list[str] | None) -> Encounter:
    """As an opponent's turn begins, each spent action of its that recharges is thrown for: back
    on its `from` or higher."""
    actor = fight.actor
    spent = dict(actor.spent)
    for action in (actor.block or {}).get("actions") or ():
        if not isinstance(action, Mapping) or recharge_key(str(action.get("id"))) not in spent:
            continue
        recharge = recharge_of(action)
        if recharge is None:
            continue
        faces = dice.roll(recharge[0], recharge[1])
        back = sum(faces) >= recharge[2]
        if back:
            del spent[recharge_key(str(action.get("id")))]
        thrown = " ".join(map(str, faces))
        line = f"{actor.name} {action.get('name')} recharge ({thrown}): " + (
            "back" if back else "not yet"
        )
        fight = fight.logged(line)
        if lines is not None:
            lines.append(line)
    return fight.with_combatant(replace(actor, spent=MappingProxyType(spent)))


def _window(game: StateReads, fight: Encounter, dice: Dice, lines: list[str] | None) -> Encounter:
    """Between a party member's turn and the next: each standing opponent the engine plays that
    has a signature action its points still pay for uses the first, at that party member."""
    ending = fight.actor
    for member_id in fight.order:
        member = fight.get(member_id)
        target = fight.get(ending.id)
        if ending.side != "party" or not standing(game, target):
            break
        if member.side != "enemy" or not standing(game, member) or gm_plays(game, member):
            continue
        options = options_for(game, member, member.spent, window=True)
        choice = next((o for o in options if o.left and o.signature), None)
        if choice is None:
            continue
        spent = {
            **member.spent,
            SIGNATURE: member.spent.get(SIGNATURE, 0) + (choice.signature or 1),
        }
        fight = fight.with_combatant(replace(member, spent=MappingProxyType(spent)))
        fight, blows = strikes(game, fight, fight.get(member_id), [target], choice, dice)
        fight = fight.logged(*(blow.line for blow in blows))
        if lines is not None:
            lines.extend(blow.short for blow in blows)
    return fight


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
    per_turn.add(SIGNATURE)  # an opponent's signature points come back on its own turn
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
        draft_of(game).set_live(character.key, live)
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


def engine_may_answer(game: StateReads, actor: Combatant) -> bool:
    """Whether the engine's picker acts for an actor the GM passed on without acting: a
    GM-played opponent (the picker decides when the GM does not)."""
    return actor.side == "enemy" and gm_plays(game, actor)


def engine_turns(
    game: StateReads, fight: Encounter, combat: Combat, dice: Dice, lines: list[str]
) -> Encounter:
    """Every opponent turn the engine plays, one after another, until a turn the GM plays."""
    for _ in range(MOST_ENGINE_TURNS):
        actor = fight.actor
        if fight.outcome is not None or actor.side != "enemy" or gm_plays(game, actor):
            break
        fight = advance(game, combat, picker(game, fight, dice, lines), dice, lines)
    return fight


def picker(game: StateReads, fight: Encounter, dice: Dice, lines: list[str]) -> Encounter:
    """The engine's choice for an opponent: an action that must recharge as soon as it is back,
    else its first attack with a budget left, at a standing party member the game's dice pick."""
    actor = fight.actor
    ready = [o for o in options_for(game, actor, actor.spent) if o.kind == "attack" and o.left]
    # An action that must recharge is used the moment it is back (a breath, a bloom).
    choice = next((o for o in ready if o.recharge), None) or next(iter(ready), None)
    targets = [c for c in fight.combatants if c.side != actor.side and standing(game, c)]
    if choice is None or not targets:
        lines.append(f"{actor.name} does nothing")
        return fight
    fight = fight.with_combatant(spent_recharge(spent_on(actor, choice.budget), choice))
    fight, blows = strikes(game, fight, fight.actor, targets, choice, dice, picks=True)
    fight = fight.logged(*(blow.line for blow in blows))
    lines.extend(blow.short for blow in blows)
    return settled(game, fight)


def strikes(
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
        standing_now = [t for t in targets if _reachable(game, fight.get(t.id), picks=picks)]
        chosen: list[Combatant] = []
        while standing_now and len(chosen) < (part.targets if picks else len(targets)):
            at = dice.roll(1, len(standing_now))[0] - 1 if picks and len(standing_now) > 1 else 0
            chosen.append(standing_now.pop(at))
        # An area (or a blow every target saves against) throws its damage once for them all.
        thrown = shared_damage(game, part, dice) if len(chosen) > 1 else None
        for target in chosen:
            blow = strike(
                game,
                fight.get(attacker.id),
                fight.get(target.id),
                part,
                dice,
                fight.round,
                thrown=thrown,
            )
            fight = fight.with_combatant(blow.target)
            if blow.broke:
                fight, ended = end(game, fight, blow.target.id, blow.broke)
                blow = replace(blow, line=f"{blow.line}; {ended}", short=f"{blow.short}; {ended}")
            # Help is spent by the attack it was given for.
            fight = fight.with_combatant(without_stance(fight.get(attacker.id), "helped"))
            blows.append(blow)
    return fight, blows


def _reachable(game: StateReads, target: Combatant, *, picks: bool) -> bool:
    """Whether a strike still goes at `target`: one standing, or, named by the GM, a party member
    dying or stable (a blow on somebody down counts against them)."""
    if standing(game, target):
        return True
    return not picks and target.fate in ("dying", "stable")


def whose_turn(game: StateReads, fight: Encounter) -> str:
    if fight.outcome is not None:
        return f"{fight.outcome}: end the fight with op=end"
    actor = fight.actor
    who = "the GM plays" if gm_plays(game, actor) else "to act"
    return f"round {fight.round}, {actor.name} {who}"
