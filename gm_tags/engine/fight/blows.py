"""One blow's arithmetic, written out as it is done: the dice as they fell, the modifier, the total
and the defense met (or the successes against it), the damage thrown, what a resistance and a
soak took off, and what is left. `docs/fights.md` says how each combat kind reads its numbers.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from types import MappingProxyType
from typing import Any

from ...dice import Dice
from ...ruleset.combat import Combat
from ...ruleset.loader import Ruleset
from ...ruleset.resolution import DicePool
from ...sheet.encounter import Combatant
from ...state import StateReads, draft_of
from .abilities import put_on
from .concentration import shaken
from .dying import fall, hurt_while_down
from .health import damage_kind, hurt, standing
from .leans import Lean, lean_of
from .rolls import Option, Strike, held_modifiers, modifiers
from .saves import after_save, saving_throw


@dataclass(frozen=True)
class Blow:
    """What a blow did to `target`: `line` with all its arithmetic, `short` in a few words (for a
    receipt that tells of several)."""

    target: Combatant
    line: str
    down: bool
    short: str = ""
    # Why the target's concentration ends with this blow ("damage", "down"), "" if it does not.
    broke: str = ""


def strike(
    game: StateReads,
    attacker: Combatant,
    target: Combatant,
    option: Option,
    dice: Dice,
    round_: int = 1,
    *,
    thrown: tuple[int, str] | None = None,
) -> Blow:
    """One blow of `option` at `target`; `thrown` is damage thrown already for several targets
    (see `shared_damage`)."""
    ruleset = game.ruleset
    assert ruleset is not None and ruleset.definition.combat is not None and option.strike
    combat, blow = ruleset.definition.combat, option.strike
    head = f"{attacker.name} {option.label} at {target.name}: "
    if blow.save is not None:
        return _saved_against(game, target, blow, dice, round_, head, shared=thrown)
    defense = defense_of(game, target)
    lean = lean_of(game, attacker, target)
    if combat.kind == "dice-pool":
        resolution = ruleset.definition.resolution
        assert isinstance(resolution, DicePool)
        landed, extra, words = _pool_to_hit(resolution, blow, defense, dice, lean)
        if not landed:
            return Blow(target, head + words + ": miss", False, head + words + ": miss")
        points, damage_words = thrown or _pool_damage(combat, blow, extra, dice)
    else:
        landed, critical, words = _sum_to_hit(combat, blow, defense, dice, lean)
        if not landed:
            return Blow(target, head + words + ": miss", False, head + words + ": miss")
        points, damage_words = thrown or _sum_damage(combat, blow, critical, dice)
    critical = combat.kind != "dice-pool" and critical
    words += ": critical" if critical else ": hit"
    damage = (points, damage_words)
    return _landed(game, target, blow, dice, round_, head + words, damage, critical=critical)


def shared_damage(game: StateReads, option: Option, dice: Dice) -> tuple[int, str] | None:
    """The one damage throw an area (or a blow every target saves against or that lands
    unrolled) shares among its targets; None where each hit throws its own."""
    ruleset = game.ruleset
    assert ruleset is not None and ruleset.definition.combat is not None
    blow = option.strike
    if blow is None or not blow.shared:
        return None
    combat = ruleset.definition.combat
    if combat.kind == "dice-pool":
        return _pool_damage(combat, blow, 0, dice)
    return _sum_damage(combat, blow, False, dice)


def _saved_against(
    game: StateReads,
    target: Combatant,
    blow: Strike,
    dice: Dice,
    round_: int,
    head: str,
    *,
    shared: tuple[int, str] | None = None,
) -> Blow:
    """A blow that asks a save instead of a to-hit roll: the target throws it (`saves.py`), then
    the damage is thrown and a save that held halves it or takes it all (`onSuccess`); the
    conditions it puts on come only with a failed save."""
    assert blow.save is not None
    thrown = saving_throw(game, target, blow.save.save, blow.save.difficulty, dice)
    if thrown.held and blow.save.on_success == "negates":
        line = head + thrown.words
        return Blow(target, line, False, line)
    ruleset = game.ruleset
    assert ruleset is not None and ruleset.definition.combat is not None
    combat = ruleset.definition.combat
    if not blow.dice[0] and not blow.damage_bonus:
        changed = (
            target
            if thrown.held
            else _conditions_after(game, target, blow.applies, round_, ends_on=blow.ends_on)
        )
        line = head + thrown.words
        return Blow(changed, line, False, line)
    if shared is not None:
        points, damage_words = shared
    elif combat.kind == "dice-pool":
        points, damage_words = _pool_damage(combat, blow, 0, dice)
    else:
        points, damage_words = _sum_damage(combat, blow, False, dice)
    points, halved = after_save(points, thrown.held, blow.save.on_success)
    damage = (points, damage_words + halved)
    applies = () if thrown.held else blow.applies
    return _landed(
        game, target, replace(blow, applies=applies), dice, round_, head + thrown.words, damage
    )


def _landed(
    game: StateReads,
    target: Combatant,
    blow: Strike,
    dice: Dice,
    round_: int,
    said: str,
    damage: tuple[int, str],
    *,
    critical: bool = False,
) -> Blow:
    """A blow that landed: its damage through resistance and soak onto the target's health, and
    the conditions it puts on (and takes off, where any of it was dealt)."""
    ruleset = game.ruleset
    assert ruleset is not None and ruleset.definition.combat is not None
    combat = ruleset.definition.combat
    points, damage_words = damage
    kind = damage_kind(combat, blow.damage_type)
    points, resisted = _resisted(target, blow.damage_type, points)
    soaked, soak_words = _soak(ruleset, combat, game, target, kind, dice)
    dealt = max(0, points - soaked)
    parts = [said, f"{damage_words} = {points}{resisted}{soak_words}, dealt {dealt}"]
    was_standing = standing(game, target)
    hurt_by = hurt(game, target, dealt, kind)
    changed, counted = hurt_by.combatant, ""
    if was_standing and hurt_by.down:
        changed = fall(game, changed)
    elif not was_standing and dealt > 0:
        changed, counted = hurt_while_down(game, changed, critical)
    if dealt > 0 or (blow.save is not None and blow.applies):
        changed = _conditions_after(
            game, changed, blow.applies, round_, ends=dealt > 0, ends_on=blow.ends_on
        )
    left = hurt_by.now + (f" ({changed.fate or 'down'})" if hurt_by.down else "")
    left += f", {counted}" if counted else ""
    parts.append(left)
    broke, kept = shaken(game, changed, dealt, hurt_by.down, dice)
    if kept:
        parts.append(kept)
    short = f"{said}, dealt {dealt}; {left}" + (f"; {kept}" if kept else "")
    return Blow(changed, "; ".join(parts), hurt_by.down, short, broke)


def defense_of(game: StateReads, target: Combatant) -> int:
    ruleset = game.ruleset
    assert ruleset is not None and ruleset.definition.combat is not None
    if target.side == "enemy":
        defense = _number((target.block or {}).get("defense"))
        return defense + held_modifiers(ruleset, target.conditions, "defense")
    character = next(c for c in game.characters if c.key == target.id)
    view = character.view(ruleset, game.live_of(character))
    return int(view.read(ruleset.definition.combat.defense)) + modifiers(ruleset, view, "defense")


def _pool_to_hit(
    resolution: DicePool, blow: Strike, defense: int, dice: Dice, lean: Lean
) -> tuple[bool, int, str]:
    """A pool of `to_hit` dice (at least the pool's minimum) against the check target: it lands
    with `defense` successes, each one past those a damage die more. Leaned, the pool is thrown
    twice and the throw with more successes (or fewer) kept."""
    if blow.auto_hit:
        return True, 0, "lands unrolled"
    size = min(resolution.pool.max, max(resolution.pool.min, blow.to_hit))
    target = resolution.target.default
    throws = [dice.roll(size, resolution.die.sides)]
    if lean.mode != "normal":
        throws.append(dice.roll(size, resolution.die.sides))
    counted = [sum(1 for face in faces if face >= target) for faces in throws]
    pick = max if lean.mode == "advantage" else min
    successes = pick(counted)
    faces = throws[counted.index(successes)]
    extra = max(0, successes - defense)
    thrown = " ".join(_faces(t) for t in throws)
    kept = f"{lean.words}, kept {_faces(faces)}" if lean.mode != "normal" else ""
    words = f"{thrown}{kept} vs {target} = {successes} vs defense {defense}"
    return successes >= defense, extra, words + (f" (+{extra} dice)" if extra else "")


def _pool_damage(combat: Combat, blow: Strike, extra: int, dice: Dice) -> tuple[int, str]:
    assert combat.pool is not None
    count, sides, _ = blow.dice
    faces = dice.roll(count + extra, sides or 10) if count + extra else []
    points = sum(1 for face in faces if face >= combat.pool.damage_target) + blow.damage_bonus
    bonus = f" {blow.damage_bonus:+d}" if blow.damage_bonus else ""
    return points, f"damage {_faces(faces)} vs {combat.pool.damage_target}{bonus}"


def _sum_to_hit(
    combat: Combat, blow: Strike, defense: int, dice: Dice, lean: Lean
) -> tuple[bool, bool, str]:
    """The attack dice plus the blow's modifier against the defense; leaned, thrown twice and
    the higher (or lower) throw kept. A single die's natural faces decide on the kept throw."""
    roll = combat.attack_roll
    assert roll is not None
    if blow.auto_hit:
        return True, False, "lands unrolled"
    first = dice.roll(roll.dice.count, roll.dice.sides)
    faces, thrown = first, _faces(first)
    if lean.mode != "normal":
        second = dice.roll(roll.dice.count, roll.dice.sides)
        higher, lower = (first, second) if sum(first) >= sum(second) else (second, first)
        faces = higher if lean.mode == "advantage" else lower
        thrown = f"{_faces(first + second)}{lean.words}, kept {_faces(faces)}"
    total = sum(faces) + blow.to_hit
    landed, critical = total >= defense, False
    if roll.dice.count == 1:
        if faces[0] == roll.dice.sides and roll.naturals.max != "none":
            landed, critical = True, roll.naturals.max == "critical"
        elif faces[0] == 1 and roll.naturals.min == "miss":
            landed = False
    words = f"{thrown} {blow.to_hit:+d} = {total} vs defense {defense}"
    return landed, critical, words


def _sum_damage(combat: Combat, blow: Strike, critical: bool, dice: Dice) -> tuple[int, str]:
    roll = combat.attack_roll
    assert roll is not None
    count, sides, _ = blow.dice
    thrown = count * 2 if critical and roll.critical == "double-dice" else count
    faces = dice.roll(thrown, sides) if thrown else []
    most = count * sides if critical and roll.critical == "max-dice" else 0
    points = max(0, sum(faces) + most + blow.damage_bonus)
    extra = f" +{most}" if most else ""
    return points, f"damage {_faces(faces)}{extra} {blow.damage_bonus:+d}"


def _resisted(target: Combatant, damage_type: str | None, points: int) -> tuple[int, str]:
    """FT-6: an opponent's immunity, resistance and vulnerability to the blow's damage type,
    matched without case."""
    if target.side != "enemy" or not damage_type:
        return points, ""
    block, folded = target.block or {}, damage_type.casefold()

    def names(key: str) -> set[str]:
        found = set()
        for entry in block.get(key) or ():
            name = entry.get("type") if isinstance(entry, Mapping) else entry
            if isinstance(name, str):
                found.add(name.casefold())
        return found

    if folded in names("immune"):
        return 0, f", immune to {damage_type}: 0"
    if folded in names("resist"):
        return points // 2, f", resists {damage_type}: {points // 2}"
    if folded in names("vulnerable"):
        return points * 2, f", vulnerable to {damage_type}: {points * 2}"
    return points, ""


def _soak(
    ruleset: Ruleset,
    combat: Combat,
    game: StateReads,
    target: Combatant,
    kind: str | None,
    dice: Dice,
) -> tuple[int, str]:
    """A dice-pool fight's soak: the target's dice for the blow's kind of harm (read off its sheet,
    or its stat block's `all` plus `byKind`), thrown against the damage target."""
    pool = combat.pool
    if combat.kind != "dice-pool" or pool is None:
        return 0, ""
    if target.side == "enemy":
        soak = (target.block or {}).get("soak") or {}
        size = _number(soak.get("all")) + _number((soak.get("byKind") or {}).get(kind or ""))
        rolled = True if pool.soak is None else pool.soak.roll
    else:
        ref = pool.soak.by_kind.get(kind or "") if pool.soak is not None else None
        if ref is None:
            return 0, ""
        character = next(c for c in game.characters if c.key == target.id)
        size = int(character.view(ruleset, game.live_of(character)).read(ref))
        rolled = pool.soak is None or pool.soak.roll
    if size <= 0:
        return 0, ""
    if not rolled:
        return size, f", soak {size}"
    faces = dice.roll(size, _die_sides(ruleset))
    soaked = sum(1 for face in faces if face >= pool.damage_target)
    return soaked, f", soak {_faces(faces)} = {soaked}"


def _die_sides(ruleset: Ruleset) -> int:
    resolution = ruleset.definition.resolution
    return resolution.die.sides if isinstance(resolution, DicePool) else 6


def _conditions_after(
    game: StateReads,
    target: Combatant,
    applies: tuple[tuple[str, int | None], ...],
    round_: int,
    *,
    ends: bool = False,
    ends_on: tuple[tuple[str, str, str, int], ...] = (),
) -> Combatant:
    """A blow's conditions onto its target (a party member's sheet, an opponent's own list; one
    lasting N rounds comes off as the holder's turn begins N rounds on), and, where it dealt
    damage (`ends`), the party member's conditions that end on damage taken off."""
    ruleset = game.ruleset
    assert ruleset is not None and ruleset.definition.combat is not None
    if target.side == "party" and ends:
        character = next(c for c in game.characters if c.key == target.id)
        live = game.live_of(character)
        timed = dict(target.timed)
        combat = ruleset.definition.combat
        ending = {r.condition for r in combat.conditions or () if "ends-on-damage" in r.effects}
        for condition in live.conditions:
            if condition in ending:
                live = live.with_condition(condition, False)
                timed.pop(condition, None)
        if live is not game.live_of(character):
            draft_of(game).set_live(character.key, live)
        target = replace(target, timed=MappingProxyType(timed))
    until = {condition: (save, at, against) for condition, save, at, against in ends_on}
    for condition, rounds in applies:
        if condition in ruleset.index.conditions:
            target = put_on(game, target, condition, rounds, round_, until.get(condition))
    return target


def _faces(faces: list[int]) -> str:
    """Dice as they fell, in parentheses (a receipt's value holds no square brackets)."""
    return "(" + " ".join(map(str, faces)) + ")"


def _number(value: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, int | float):
        return 0
    return int(value)
