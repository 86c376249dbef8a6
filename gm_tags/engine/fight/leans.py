"""Advantage and disadvantage on a blow: what leans the to-hit roll one way or the other.

A lean comes from what the attacker suffers (`own-attacks-advantage`, `own-attacks-disadvantage`)
and from what the target suffers (`attacks-against-advantage`, `attacks-against-disadvantage`):
a party member's conditions and reached levels, read through the same sources a check reads
(`checks/effects.py`), an opponent's conditions held in the encounter; and from the standard
actions still in force (a target's dodge, a helper's help). Any advantage and any disadvantage
cancel, as they do on a check. Only a ruleset whose attack roll (or pool) says `advantage` leans
at all; the effects that need a board (adjacent, far) are not read, as a fight here has none.
"""

from __future__ import annotations

from dataclasses import dataclass

from ...checks.effects import check_sources
from ...ruleset.combat import Combat
from ...ruleset.loader import Ruleset
from ...sheet.encounter import Combatant
from ...state import StateReads

OWN = {"own-attacks-advantage": "advantage", "own-attacks-disadvantage": "disadvantage"}
AGAINST = {"attacks-against-advantage": "advantage", "attacks-against-disadvantage": "disadvantage"}
# What a standard action in force does to a blow: the target's dodge, the attacker's help.
STANDING_AGAINST = {"dodge": "disadvantage"}
STANDING_OWN = {"helped": "advantage"}


@dataclass(frozen=True)
class Lean:
    """How a to-hit roll is thrown (`normal`, `advantage`, `disadvantage`) and what leaned it."""

    mode: str
    because: tuple[str, ...] = ()

    @property
    def words(self) -> str:
        if self.mode == "normal":
            return ""
        return f" {self.mode} ({', '.join(self.because)})"


def lean_of(game: StateReads, attacker: Combatant, target: Combatant) -> Lean:
    ruleset = game.ruleset
    assert ruleset is not None and ruleset.definition.combat is not None
    if not rolls_lean(ruleset.definition.combat):
        return Lean("normal")
    found: dict[str, list[str]] = {"advantage": [], "disadvantage": []}
    for name, effects in _effects(game, ruleset, attacker):
        for effect in effects:
            if effect in OWN:
                found[OWN[effect]].append(name)
    for name, effects in _effects(game, ruleset, target):
        for effect in effects:
            if effect in AGAINST:
                found[AGAINST[effect]].append(name)
    for flag, side in STANDING_OWN.items():
        if flag in attacker.stances:
            found[side].append(f"{attacker.name} helped")
    for flag, side in STANDING_AGAINST.items():
        if flag in target.stances:
            found[side].append(f"{target.name} dodging")
    advantage, disadvantage = bool(found["advantage"]), bool(found["disadvantage"])
    if advantage == disadvantage:
        return Lean("normal")
    mode = "advantage" if advantage else "disadvantage"
    return Lean(mode, tuple(dict.fromkeys(found[mode])))


def rolls_lean(combat: Combat) -> bool:
    """Whether this fight's to-hit rolls can lean at all (`advantage` on its attack roll, or on
    its pool in a dice-pool fight)."""
    if combat.attack_roll is not None:
        return combat.attack_roll.advantage
    return combat.pool is not None and combat.pool.advantage


def _effects(
    game: StateReads, ruleset: Ruleset, combatant: Combatant
) -> list[tuple[str, list[str]]]:
    """Each source of what `combatant` suffers, by name, with its effects."""
    combat = ruleset.definition.combat
    assert combat is not None
    if combatant.side == "enemy":
        return [
            (ruleset.index.conditions[rule.condition].label, list(rule.effects))
            for rule in combat.conditions or ()
            if rule.condition in combatant.conditions and rule.condition in ruleset.index.conditions
        ]
    character = next(c for c in game.characters if c.key == combatant.id)
    live = game.live_of(character)
    view = character.view(ruleset, live)
    return [
        (source.name, list(source.parts.effects)) for source in check_sources(ruleset, view, live)
    ]
