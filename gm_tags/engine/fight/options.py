"""The options of whoever acts: the only place a fight's legality lives. A party member's come from
the sheet (a row of each list `combat.attacks` names, a row of each list `combat.abilities` names,
a heal, ending the turn); an opponent's from its stat block's actions. Each attack carries what a
blow with it is built from, read off the sheet as it stands (FT-7: `resolution.adjust` for the
ability it rolls with, and the entries for every roll).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from ...ruleset.checks_combat import parse_dice
from ...ruleset.combat import AttackSource, Combat
from ...ruleset.loader import Ruleset
from ...sheet.build import cell, list_rows
from ...sheet.character import Character, SheetView
from ...sheet.encounter import AT, Combatant
from ...state import StateReads
from .abilities import ability_options
from .contests import offered
from .rolls import (
    SIGNATURE,
    Option,
    SaveAsk,
    Strike,
    adjust,
    held_modifiers,
    modifiers,
    penalty,
    recharge_key,
    recharge_of,
    rounds_of,
)


def options_for(
    game: StateReads, combatant: Combatant, spent: Mapping[str, int], *, window: bool = False
) -> list[Option]:
    """`combatant`'s options on its turn; with `window`, an opponent's signature actions, the
    only ones it takes between two turns (and never on its own)."""
    ruleset = game.ruleset
    assert ruleset is not None and ruleset.definition.combat is not None
    combat = ruleset.definition.combat
    budgets = {b.id: b.count for b in combat.economy.budgets}
    first = combat.economy.budgets[0].id

    def left(budget: str | None) -> bool:
        return budget is None or spent.get(budget, 0) < budgets.get(budget, 1)

    found: list[Option] = []
    if combatant.side == "enemy":
        combat_rules = combat.conditions or ()
        if any(
            r.condition in combatant.conditions and "cannot-act" in r.effects for r in combat_rules
        ):
            return [Option("end-turn", "End the turn", "end-turn", None)]
        suffered = held_modifiers(ruleset, combatant.conditions, "attacks")
        actions = [
            a for a in (combatant.block or {}).get("actions") or () if isinstance(a, Mapping)
        ]
        single: dict[str, Option] = {}
        for action in actions:
            strike = _creature_strike(action)
            budget = action.get("budget") or first
            name = str(action.get("name") or action.get("id"))
            count = _number(action.get("targetCount")) or 1
            if strike is not None:
                strike = replace(strike, to_hit=strike.to_hit + suffered)
                recharge = recharge_of(action)
                ready = left(budget) and not spent.get(recharge_key(str(action["id"])))
                option = Option(str(action["id"]), name, "attack", budget, ready, strike)
                single[option.id] = replace(option, targets=max(1, count), recharge=recharge)
        points = _number((combatant.block or {}).get("signaturePoints"))
        for action in actions:
            budget = action.get("budget") or first
            name = str(action.get("name") or action.get("id"))
            signature = action.get("signature")
            if isinstance(signature, Mapping) != window:
                continue
            if isinstance(signature, Mapping) and str(action.get("id")) in single:
                cost = max(1, _number(signature.get("cost")))
                affordable = spent.get(SIGNATURE, 0) + cost <= points
                found.append(
                    replace(single[str(action["id"])], budget=None, left=affordable, signature=cost)
                )
                continue
            if str(action.get("id")) in single:
                found.append(single[str(action["id"])])
                continue
            parts = _sequence(action, single)
            if parts:
                found.append(
                    Option(str(action["id"]), name, "attack", budget, left(budget), parts=parts)
                )
        if window:
            return found
    else:
        if window:
            return []
        character = next(c for c in game.characters if c.key == combatant.id)
        view = character.view(ruleset, game.live_of(character))
        if held_back(ruleset, view):
            return [Option("end-turn", "End the turn", "end-turn", None)]
        for position, source in enumerate(combat.attacks or ()):
            for row_at, row, label in _rows(ruleset, character, source.list_, source.name):
                strike = _sheet_strike(ruleset, combat, view, source, row)
                if strike is not None:
                    option_id = f"attack:{position}:{row_at}"
                    found.append(
                        Option(
                            option_id, label, "attack", source.budget, left(source.budget), strike
                        )
                    )
        found += ability_options(ruleset, character, view, left, spent)
        found += [
            Option(f"standard:{action}", action, "standard", first, left(first))
            for action in combat.standard or ()
        ]
        found += [
            Option(f"contest:{rule.id}", rule.label, "contest", rule.budget, left(rule.budget))
            for rule in combat.contests or ()
            if offered(ruleset, rule, view.live.conditions)
        ]
        found.append(Option("heal", "Heal", "heal", first, left(first)))
    found.append(Option("end-turn", "End the turn", "end-turn", None))
    return found


def _rows(
    ruleset: Ruleset, character: Character, list_id: str, name_column: str | None
) -> list[tuple[int, Mapping[str, Any], str]]:
    sheet_list = ruleset.index.lists.get(list_id)
    if sheet_list is None:
        return []
    columns = {column.id: column for column in sheet_list.columns}
    rows = []
    for at, row in enumerate(list_rows(sheet_list, character.build)):
        name = cell(columns[name_column], row) if name_column in columns else None
        if isinstance(name, str) and name.strip():
            rows.append((at, row, name.strip()))
    return rows


def _sheet_strike(
    ruleset: Ruleset, combat: Combat, view: SheetView, source: AttackSource, row: Mapping[str, Any]
) -> Strike | None:
    """A blow with one row of an attack list: None for a row whose dice are no dice (rope)."""
    dice = parse_dice(row.get(source.damage.dice.column))
    if dice is None:
        return None
    index = ruleset.index
    to_hit, abilities = 0, set()
    hit = source.to_hit
    if hit.ability is not None and (ability := row.get(hit.ability.column)) in index.abilities:
        to_hit += int(view[("abilityMod", ability)])
        abilities.add(str(ability))
    if hit.skill is not None and (skill := row.get(hit.skill.column)) in index.skills:
        # A skill beside an ability adds its own part: its number less its ability's.
        own = index.skills[skill].ability
        to_hit += int(view[("skillMod", skill)])
        if own is not None and own in index.abilities:
            to_hit -= int(view[("abilityMod", own)])
            abilities.add(own)
    if hit.proficiency is not None and row.get(hit.proficiency.column) is True:
        proficiency = ruleset.definition.resolution.proficiency
        if proficiency is not None:
            to_hit += int(view.read(proficiency.bonus))
    if hit.bonus is not None:
        to_hit += _number(row.get(hit.bonus.column))
    to_hit += penalty(ruleset, view) + adjust(ruleset, view, abilities)
    to_hit += modifiers(ruleset, view, "attacks")
    bonus = dice[2]
    damage = source.damage
    if (
        damage.ability is not None
        and (ability := row.get(damage.ability.column)) in index.abilities
    ):
        bonus += int(view[("abilityMod", ability)])
    if damage.bonus is not None:
        bonus += _number(row.get(damage.bonus.column))
    damage_type = row.get(damage.type.column) if damage.type is not None else None
    kind = str(damage_type) if isinstance(damage_type, str) and damage_type else None
    return Strike(to_hit, (dice[0], dice[1], 0), bonus, kind)


def _sequence(action: Mapping[str, Any], single: Mapping[str, Option]) -> tuple[Option, ...]:
    """A `sequence` action's strikes in order, each one of the block's own actions."""
    parts: list[Option] = []
    for step in action.get("sequence") or ():
        if isinstance(step, Mapping) and str(step.get("action")) in single:
            parts += [single[str(step["action"])]] * max(1, min(6, _number(step.get("times"))))
    return tuple(parts)


def _creature_strike(action: Mapping[str, Any]) -> Strike | None:
    """A blow with one of an opponent's actions: None for one with no damage of its own that
    asks no save (a `sequence`, or something the fight does not run)."""
    damage = action.get("damage")
    asks = _creature_save(action)
    if not isinstance(damage, Mapping):
        if asks is None:
            return None
        damage = {}
    dice = parse_dice(damage.get("dice")) if damage.get("dice") else (0, 0, 0)
    if dice is None:
        return None
    flat = dice[2] + _number(damage.get("flat"))
    for extra in damage.get("plus") or ():
        if isinstance(extra, Mapping):
            more = parse_dice(extra.get("dice")) if extra.get("dice") else (0, 0, 0)
            flat += _number(extra.get("flat")) + (more[2] if more else 0)
    applies = tuple(
        (str(a["condition"]), rounds_of(a.get("duration")))
        for a in action.get("applies") or ()
        if isinstance(a, Mapping) and isinstance(a.get("condition"), str)
    )
    kind = damage.get("type") if isinstance(damage.get("type"), str) else None
    to_hit = _number(action.get("toHit"))
    auto = action.get("autoHit") is True
    strike = Strike(to_hit, (dice[0], dice[1], 0), flat, kind, auto, applies, asks)
    return replace(strike, ends_on=_ends_on(action))


def _ends_on(action: Mapping[str, Any]) -> tuple[tuple[str, str, str, int], ...]:
    """The conditions an opponent's action puts on that a save ends (`saveEnds`), thrown
    against the action's own difficulty (`save.difficulty`, else `saveDifficulty`)."""
    save = action.get("save")
    difficulty = save.get("difficulty") if isinstance(save, Mapping) else None
    difficulty = _number(difficulty if difficulty is not None else action.get("saveDifficulty"))
    found = []
    for entry in action.get("applies") or ():
        ends = entry.get("saveEnds") if isinstance(entry, Mapping) else None
        if isinstance(ends, Mapping) and ends.get("at") in AT and isinstance(ends.get("save"), str):
            found.append((str(entry["condition"]), ends["save"], str(ends["at"]), difficulty))
    return tuple(found)


def _creature_save(action: Mapping[str, Any]) -> SaveAsk | None:
    """The save an opponent's action asks instead of a to-hit roll (`save`), against the
    difficulty its block writes (`save.difficulty`, else the action's `saveDifficulty`)."""
    save = action.get("save")
    if not isinstance(save, Mapping) or not isinstance(save.get("save"), str):
        return None
    difficulty = save.get("difficulty", action.get("saveDifficulty"))
    return SaveAsk(str(save["save"]), _number(difficulty), str(save.get("onSuccess", "negates")))


def held_back(ruleset: Ruleset, view: SheetView) -> bool:
    """Whether a condition on the sheet says its holder cannot act (`cannot-act`)."""
    on = set(view.live.conditions)
    combat = ruleset.definition.combat
    rules = combat.conditions or () if combat is not None else ()
    return any(rule.condition in on and "cannot-act" in rule.effects for rule in rules)


def _number(value: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, int | float):
        return 0
    return int(value)
