"""The lines that teach the check tag: its form, the ladder, who=, with=, advantage, the pool
extras the ruleset allows and the untrained rules, in the ruleset's own words."""

from __future__ import annotations

from typing import Any

from ..ruleset.loader import Ruleset
from ..ruleset.resolution import DicePool, DiceSum
from ..ruleset.sheet import UntrainedBy
from ..sheet.item_book import book_for
from .text import safe


def check_lines(ruleset: Ruleset) -> list[str]:
    resolution = ruleset.definition.resolution
    sheet = ruleset.definition.sheet
    example = safe(sheet.skills[0].label) if sheet.skills else "Ability"
    lines = [
        f'Checks: when an outcome is uncertain, write [skill_check: skill="{example}" dc="N"], '
        "naming a skill, a save or an ability."
    ]
    pool = isinstance(resolution, DicePool)
    named = f'or write difficulty="{safe(resolution.difficulty_ladder[0].label)}" instead of dc'
    if isinstance(resolution, DiceSum):
        steps = ", ".join(f"{safe(step.label)} {step.dc}" for step in resolution.difficulty_ladder)
        lines.append(f"Difficulty (dc): {steps}; {named}.")
    else:
        steps = ", ".join(_pool_step(step) for step in resolution.difficulty_ladder)
        lines.append(
            f"Difficulty: {steps}. On this system dc is the number of successes needed; {named}."
        )
    extras = ['who="Name" for another character']
    if len(sheet.abilities) >= 2:
        extras.append(
            f'with="{safe(sheet.abilities[1].label)}" to roll a skill with another ability'
        )
    if isinstance(resolution, DiceSum) and resolution.advantage:
        extras.append('mode="advantage" or mode="disadvantage"')
    lines.append("Add " + "; ".join(extras) + ".")
    if isinstance(resolution, DicePool):
        pool_extras = _pool_extras(resolution, ruleset)
        if pool_extras:
            lines.append("Pool extras: " + "; ".join(pool_extras) + ".")
    untrained = untrained_rules(ruleset, pool)
    if untrained:
        lines.append("Untrained: " + ", ".join(untrained) + ".")
    lines.append(
        "The engine rolls the dice and adds up the sheet: never write rolls, modifiers, totals or "
        "results yourself."
    )
    changers = _what_changes_checks(ruleset)
    if changers:
        lines.append(
            f"A character's own {changers} change their checks and saves by themselves: do not "
            'add them. A record\'s from="..." names what changed it; automatic="true" is a save '
            "failed without a roll."
        )
    return lines


def _what_changes_checks(ruleset: Ruleset) -> str | None:
    """What the engine applies to checks by itself in this ruleset, in words, or None."""
    combat = ruleset.definition.combat
    sources = [*(combat.conditions or ()), *(combat.levels or ())] if combat else []
    conditions = any(source.changes_checks for source in sources)
    book = book_for(ruleset)
    items = book is not None and any(
        item.while_worn is not None or item.while_carried is not None
        for item in book.by_id.values()
    )
    if conditions and items:
        return "conditions, reached levels and what they wear or carry"
    if conditions:
        return "conditions and the levels their tracks have reached"
    return "worn and carried items" if items else None


def _pool_step(step: Any) -> str:
    count = f"{step.successes} success" + ("" if step.successes == 1 else "es")
    return f"{safe(step.label)} {count}" + (f" at target {step.target}" if step.target else "")


def _pool_extras(resolution: DicePool, ruleset: Ruleset) -> list[str]:
    extras = []
    target = resolution.target
    if target.min != target.max:
        extras.append(f'threshold="{target.default}" ({target.min} to {target.max})')
    if resolution.situational_dice is not None:
        dice = resolution.situational_dice
        extras.append(f'bonus="+1" ({dice.min:+d} to {dice.max:+d} dice)')
    for name, rule in (("explode", resolution.explode), ("double", resolution.double)):
        if rule is not None and rule.min is not None:
            extras.append(f'{name}="{rule.min}" ({rule.min} to {resolution.die.sides})')
    for reroll in resolution.reroll or ():
        extras.append(f'reroll="{reroll.id}"')
    pools = ruleset.index.pools
    for spend in resolution.spend or ():
        label = safe(pools[spend.pool].label) if spend.pool in pools else spend.pool
        extras.append(f'spend="{spend.pool}:{spend.amount}" (pays {label})')
    changes_a_check = [
        entry.label
        for catalog in ruleset.definition.catalogs or ()
        for entry in catalog.entries or ()
        if entry.mechanics is not None and entry.mechanics.check is not None
    ]
    if changes_a_check:
        extras.append(
            f'use="{safe(changes_a_check[0])}" for something the character has that changes '
            "a check (the engine pays for it)"
        )
    return extras


def untrained_rules(ruleset: Ruleset, pool: bool) -> list[str]:
    """`Labour (-1 die), Dig (cannot be attempted)`: each section's rule, then each skill or save
    whose own rule differs from its section's."""
    index = ruleset.index
    found = []
    for section in ruleset.definition.sheet.sections:
        if section.untrained is not None and section.untrained != "normal":
            found.append(f"{safe(section.label)} ({_rule(section.untrained, pool)})")
    for entry in (*ruleset.definition.sheet.skills, *ruleset.definition.sheet.saves):
        if entry.untrained is None:
            continue
        home = index.sections.get(entry.section or "")
        inherited = home.untrained if home is not None and home.untrained else "normal"
        if entry.untrained != inherited:
            found.append(f"{safe(entry.label)} ({_rule(entry.untrained, pool)})")
    return found


def _rule(rule: Any, pool: bool) -> str:
    if isinstance(rule, UntrainedBy):
        if pool:
            return f"{rule.by:+d} {'die' if abs(rule.by) == 1 else 'dice'}"
        return f"{rule.by:+d}"
    return {"refuse": "cannot be attempted", "harder": "one step harder"}.get(rule, "as usual")
