"""A save in a fight: whoever a blow or an ability asks one of throws it with the engine's dice,
never the model's.

A party member throws their sheet's own save through the check code (`checks/run.py`): the save's
number, the wound penalty, FT-7's adjust, and what their conditions, levels and items do to saves
(`checks/effects.py`: leans, modifiers, `failsSaves`), so a save in a fight and a `[skill_check:]`
save never differ. An opponent throws its stat block's `saves` number as a check of the ruleset's
kind (a pool of that many dice against the check target, or the attack dice plus the number) and
fails unrolled where a condition it holds says so (`failsSaves`).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from ...checks.record import CheckRecord, CheckRequest
from ...checks.run import roll_check
from ...dice import Dice
from ...ruleset.loader import Ruleset
from ...ruleset.resolution import DicePool
from ...sheet.encounter import Combatant
from ...state import StateReads


@dataclass(frozen=True)
class Saved:
    """How a save came out: whether it held, and the arithmetic as a receipt says it
    (`Wisdom save (5) +0 = 5 vs 13: failed`)."""

    held: bool
    words: str


def saving_throw(
    game: StateReads, target: Combatant, save: str, difficulty: int, dice: Dice
) -> Saved:
    ruleset = game.ruleset
    assert ruleset is not None
    label = save_label(ruleset, save)
    if target.side == "party":
        character = next(c for c in game.characters if c.key == target.id)
        request = CheckRequest(skill=save, dc=difficulty)
        record, _ = roll_check(ruleset, character, game.live_of(character), request, dice)
        assert isinstance(record, CheckRecord)  # a save is never refused untrained
        held = record.result in ("success", "critical_success")
        return Saved(held, f"{label} {_record_words(record)}: {'saved' if held else 'failed'}")
    held, words = _opponent_save(ruleset, target, save, difficulty, dice)
    return Saved(held, f"{label} {words}: {'saved' if held else 'failed'}")


def save_label(ruleset: Ruleset, save: str) -> str:
    named = ruleset.index.saves.get(save)
    label = named.label if named is not None else save
    return label if "save" in label.casefold() else label + " save"


def _record_words(record: CheckRecord) -> str:
    if record.automatic:
        return f"fails unrolled ({', '.join(record.from_)}) vs {record.dc}"
    faces = "(" + " ".join(map(str, record.rolls)) + ")"
    lean = f" {record.mode}" if record.mode != "normal" else ""
    if record.resolution == "successes":
        return f"{faces}{lean} = {record.used} vs {record.dc}"
    return f"{faces}{lean} {record.modifier:+d} = {record.total} vs {record.dc}"


def _opponent_save(
    ruleset: Ruleset, target: Combatant, save: str, difficulty: int, dice: Dice
) -> tuple[bool, str]:
    combat = ruleset.definition.combat
    assert combat is not None
    failing = [
        ruleset.index.conditions[rule.condition].label
        for rule in combat.conditions or ()
        if rule.condition in target.conditions and save in (rule.fails_saves or ())
    ]
    if failing:
        return False, f"fails unrolled ({', '.join(failing)}) vs {difficulty}"
    saves = (target.block or {}).get("saves") or {}
    bonus = saves.get(save, 0) if isinstance(saves, Mapping) else 0
    bonus = bonus if isinstance(bonus, int) and not isinstance(bonus, bool) else 0
    resolution = ruleset.definition.resolution
    if isinstance(resolution, DicePool):
        size = min(resolution.pool.max, max(resolution.pool.min, bonus))
        faces = dice.roll(size, resolution.die.sides)
        successes = sum(1 for face in faces if face >= resolution.target.default)
        return (
            successes >= difficulty,
            f"({' '.join(map(str, faces))}) = {successes} vs {difficulty}",
        )
    thrown = combat.attack_roll.dice if combat.attack_roll is not None else None
    faces = dice.roll(thrown.count, thrown.sides) if thrown is not None else []
    total = sum(faces) + bonus
    return (
        total >= difficulty,
        f"({' '.join(map(str, faces))}) {bonus:+d} = {total} vs {difficulty}",
    )


def after_save(points: int, held: bool, on_success: str) -> tuple[int, str]:
    """The damage a blow deals once its save is thrown: all of it on a failed save, and on one
    that held half (rounded down) or none as `on_success` says."""
    if not held or on_success == "none":
        return points, ""
    if on_success == "half":
        return points // 2, f" = {points}, halved"
    return 0, ""
