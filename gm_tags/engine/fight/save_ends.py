"""Conditions a save ends (`applies[].saveEnds: {"save", "at"}`): their holder throws the save at
the end (`turn-end`) or the start (`turn-start`) of each of their turns, against the difficulty
of whatever put them on (the abilities list's `saveDifficulty` read off its user's sheet, an
opponent action's own), and a save that holds takes the condition off. Rounds a condition also
has still run out on their own.
"""

from __future__ import annotations

from ...dice import Dice
from ...sheet.encounter import Encounter
from ...state import StateReads
from .abilities import take_off
from .health import standing
from .saves import saving_throw


def throw_off(
    game: StateReads, fight: Encounter, at: str, dice: Dice, lines: list[str] | None
) -> Encounter:
    """The actor's throws against what a save ends, `at` this point of their turn."""
    ruleset = game.ruleset
    assert ruleset is not None
    actor = fight.actor
    if not standing(game, actor):
        return fight
    for condition, (save, when, against) in actor.ends_on.items():
        if when != at:
            continue
        thrown = saving_throw(game, fight.get(actor.id), save, against, dice)
        named = ruleset.index.conditions.get(condition)
        label = named.label if named is not None else condition
        line = f"{actor.name} against {label}: {thrown.words}"
        if thrown.held:
            fight = fight.with_combatant(take_off(game, fight.get(actor.id), condition))
            line += f"; {label} off"
        fight = fight.logged(line)
        if lines is not None:
            lines.append(line)
    return fight
