"""Contests (`combat.contests[]`): a party member's check against an opponent's, the Engine's
grab, break free and shove.

Both sides throw: on an attack-against-defense fight the attack dice plus the side's best check
(of those its side lists, `combat.checks[]`), on a dice-pool fight a pool of that many dice
against the check target, counting successes. A party member's check is read off the sheet, with
FT-7's adjust for the ability it reads; an opponent's off its own block (`abilities`, `skills`,
`saves` by id). The higher wins; a tie goes to the defender unless `ties: "attacker"`. Winning
puts on the `onWin.applies` conditions and takes off the `onWin.ends` ones (on the target, or on
the one who started it with `on: "actor"`); a `push` moves nobody, as a fight here has no board.
A contest with `from: {"holding": X}` is offered only while its starter has X.
"""

from __future__ import annotations

from collections.abc import Mapping

from ...dice import Dice
from ...ruleset.combat import Contest
from ...ruleset.loader import Ruleset
from ...ruleset.refs import ValueRef
from ...ruleset.resolution import DicePool
from ...sheet.encounter import Combatant, Encounter
from ...state import StateReads
from .abilities import put_on, take_off
from .rolls import Option, abilities_of, adjust

# Where an opponent's block keeps what a check's value reference reads.
_BLOCK_KEYS = {"abilityMod": "abilities", "abilityScore": "abilities", "skillMod": "skills"}


def contest_of(ruleset: Ruleset, option: Option) -> Contest:
    combat = ruleset.definition.combat
    assert combat is not None
    wanted = option.id.removeprefix("contest:")
    return next(c for c in combat.contests or () if c.id == wanted)


def contest(
    game: StateReads,
    fight: Encounter,
    actor: Combatant,
    target: Combatant,
    option: Option,
    dice: Dice,
) -> tuple[Encounter, str]:
    """`actor` starts `option`'s contest at `target` (its budget spent already)."""
    ruleset = game.ruleset
    assert ruleset is not None
    rule = contest_of(ruleset, option)
    ours = _thrown(game, ruleset, actor, rule.attacker.checks, dice)
    theirs = _thrown(game, ruleset, target, rule.defender.checks, dice)
    won = ours[0] > theirs[0] or (ours[0] == theirs[0] and rule.ties == "attacker")
    line = f"{actor.name} {option.label} at {target.name}: {ours[1]} vs {theirs[1]}: "
    if not won:
        return fight, line + "lost"
    done: list[str] = []
    for entry in rule.on_win.ends:
        whom = actor if entry.on == "actor" else target
        fight = fight.with_combatant(take_off(game, fight.get(whom.id), entry.condition))
        done.append(f"{_label(ruleset, entry.condition)} off {whom.name}")
    for entry in rule.on_win.applies:
        whom = actor if entry.on == "actor" else target
        fight = fight.with_combatant(put_on(game, fight.get(whom.id), entry.condition, None, 0))
        done.append(f"{whom.name} {_label(ruleset, entry.condition)}")
    if rule.on_win.push is not None:
        done.append("no board here, so nobody is pushed")
    return fight, line + "won" + (f"; {', '.join(done)}" if done else "")


def offered(ruleset: Ruleset, rule: Contest, conditions: tuple[str, ...] | frozenset[str]) -> bool:
    """Whether a party member with `conditions` may start `rule` (its `from.holding`)."""
    return rule.from_ is None or rule.from_.holding in conditions


def _thrown(
    game: StateReads, ruleset: Ruleset, side: Combatant, names: list[str], dice: Dice
) -> tuple[int, str]:
    """The side's best check thrown: the number compared, and the words for it."""
    combat = ruleset.definition.combat
    assert combat is not None
    checks = {check.id: check for check in combat.checks or ()}
    values = [
        (_value(game, ruleset, side, checks[name].value), checks[name].label) for name in names
    ]
    value, label = max(values, key=lambda pair: pair[0])
    resolution = ruleset.definition.resolution
    if combat.kind == "dice-pool" and isinstance(resolution, DicePool):
        size = min(resolution.pool.max, max(resolution.pool.min, value))
        faces = dice.roll(size, resolution.die.sides)
        successes = sum(1 for face in faces if face >= resolution.target.default)
        return successes, f"{label} ({' '.join(map(str, faces))}) = {successes}"
    assert combat.attack_roll is not None
    faces = dice.roll(combat.attack_roll.dice.count, combat.attack_roll.dice.sides)
    total = sum(faces) + value
    return total, f"{label} ({' '.join(map(str, faces))}) {value:+d} = {total}"


def _value(game: StateReads, ruleset: Ruleset, side: Combatant, ref: ValueRef) -> int:
    kind, target = ref.kind, str(ref.target)
    if side.side == "enemy":
        table = (side.block or {}).get(_BLOCK_KEYS.get(kind, "saves" if kind == "saveMod" else ""))
        number = table.get(target, 0) if isinstance(table, Mapping) else 0
        return number if isinstance(number, int) and not isinstance(number, bool) else 0
    character = next(c for c in game.characters if c.key == side.id)
    view = character.view(ruleset, game.live_of(character))
    return int(view.read(ref)) + adjust(ruleset, view, abilities_of(ruleset, kind, target))


def _label(ruleset: Ruleset, condition: str) -> str:
    found = ruleset.index.conditions.get(condition)
    return found.label if found is not None else condition
