"""Concentration, as the ruleset's `combat.concentration` block describes it.

A party member who uses an ability with `mechanics.concentration` holds it: its name goes into
the block's live text on their sheet, and the conditions it put on are kept on them as `holds`.
They hold one at a time: a second ends the first ("replaced"). A blow that deals them damage makes
them throw the block's `save` against the higher of `floor` and `fromDamage` times the damage (a
save in a fight, `saves.py`); a failed one ends it ("damage"), and a blow that puts them down ends
it without a throw ("down"). Ending it clears the text and takes off every condition it held,
wherever it is still on.
"""

from __future__ import annotations

from dataclasses import replace

from ...dice import Dice
from ...ruleset.combat import Concentration
from ...sheet.encounter import Combatant, Encounter
from ...state import StateReads, draft_of
from .abilities import take_off
from .rolls import Option
from .saves import saving_throw


def needs(option: Option) -> bool:
    owned = option.owned
    mechanics = owned.entry.mechanics if owned is not None else None
    return bool(mechanics is not None and mechanics.concentration)


def holding(game: StateReads, combatant: Combatant) -> str:
    """What `combatant` concentrates on (the live text), "" for nothing."""
    rule = _rule(game)
    if rule is None or combatant.side != "party":
        return ""
    character = next(c for c in game.characters if c.key == combatant.id)
    return game.live_of(character).text.get(rule.text, "")


def let_go(game: StateReads, fight: Encounter, caster_id: str) -> tuple[Encounter, str]:
    """Before a second concentration ability takes effect: the first one ended ("replaced")."""
    caster = fight.get(caster_id)
    if _rule(game) is None or not (holding(game, caster) or caster.holds):
        return fight, ""
    fight, said = end(game, fight, caster_id, "replaced")
    return fight, f"; {said}"


def start(
    game: StateReads, fight: Encounter, caster: Combatant, option: Option, target: Combatant
) -> tuple[Encounter, str]:
    """`caster` holds `option` (used at `target`): the text written, and the conditions it put
    on `target` kept as held. What changed, for the receipt."""
    rule = _rule(game)
    if rule is None or caster.side != "party" or not needs(option):
        return fight, ""
    assert option.owned is not None
    mechanics = option.owned.entry.mechanics
    assert mechanics is not None
    now = fight.get(target.id)
    applied = [entry.condition for entry in mechanics.applies or ()]
    held = tuple((now.id, condition) for condition in applied if _on(game, now, condition))
    character = next(c for c in game.characters if c.key == caster.id)
    draft_of(game).set_live(
        character.key, game.live_of(character).with_text(rule.text, option.label)
    )
    fight = fight.with_combatant(replace(fight.get(caster.id), holds=held))
    return fight, f"; {caster.name} concentrates on {option.label}"


def shaken(
    game: StateReads, target: Combatant, dealt: int, down: bool, dice: Dice
) -> tuple[str, str]:
    """A blow dealt `dealt` to `target`: why their concentration ends ("damage", "down"; "" if
    it holds or there is none), and the save's words."""
    rule = _rule(game)
    if rule is None or dealt <= 0 or not (holding(game, target) or target.holds):
        return "", ""
    if down:
        return "down", ""
    difficulty = max(rule.floor, int(dealt * rule.from_damage))
    thrown = saving_throw(game, target, rule.save, difficulty, dice)
    return ("" if thrown.held else "damage"), f"concentration: {thrown.words}"


def end(game: StateReads, fight: Encounter, caster_id: str, reason: str) -> tuple[Encounter, str]:
    """The caster's concentration over: the text cleared and what it held taken off."""
    rule = _rule(game)
    caster = fight.get(caster_id)
    held = holding(game, caster)
    if rule is not None and caster.side == "party":
        character = next(c for c in game.characters if c.key == caster.id)
        draft_of(game).set_live(character.key, game.live_of(character).with_text(rule.text, ""))
    for member_id, condition in caster.holds:
        fight = fight.with_combatant(take_off(game, fight.get(member_id), condition))
    fight = fight.with_combatant(replace(fight.get(caster_id), holds=()))
    return fight, f"{caster.name}'s concentration on {held or 'it'} ends ({reason})"


def _on(game: StateReads, member: Combatant, condition: str) -> bool:
    if member.side == "enemy":
        return condition in member.conditions
    character = next(c for c in game.characters if c.key == member.id)
    return condition in game.live_of(character).conditions


def _rule(game: StateReads) -> Concentration | None:
    ruleset = game.ruleset
    combat = ruleset.definition.combat if ruleset is not None else None
    return combat.concentration if combat is not None else None
