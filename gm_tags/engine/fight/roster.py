"""Who is in a fight as it begins: every character with a sheet, and the opponents the GM names,
each a bestiary entry or a threat tier; then initiative, rolled by the engine's dice."""

from __future__ import annotations

import re
from dataclasses import replace
from types import MappingProxyType
from typing import Any

from ...commands.common import integer
from ...dice import Dice
from ...ruleset.checks_combat import parse_dice
from ...ruleset.combat import Combat, Creature, ThreatTier
from ...ruleset.loader import Ruleset
from ...sheet.encounter import Combatant
from ...state import StateReads
from ...text import unsafe_reason
from .rolls import abilities_of, adjust

# A GM's stat block: a name, then its tier and numbers in parentheses.
_STAT_BLOCK = re.compile(r"(?P<name>[^()]+)\((?P<inside>[^()]*)\)")


def opponents(
    ruleset: Ruleset, combat: Combat, names: tuple[str, ...], bosses: tuple[str, ...], dice: Dice
) -> list[Combatant] | str:
    """The opponents `names` call for, or the first name that is neither an entry nor a tier."""
    found: list[Combatant] = []
    taken: dict[str, int] = {}
    boss_keys = {name.casefold() for name in bosses}
    for name in names:
        made = _creature(ruleset, combat, name)
        if made is None:
            return name
        key, label, creature = made
        taken[key] = taken.get(key, 0) + 1
        suffix = taken[key]
        block = creature.model_dump(
            by_alias=True, exclude_none=True, exclude_defaults=True, mode="json"
        )
        block.pop("sheet", None)
        health = _health(combat, creature, dice)
        found.append(
            Combatant(
                id=key if suffix == 1 else f"{key}-{suffix}",
                name=label if suffix == 1 else f"{label} {suffix}",
                side="enemy",
                boss=bool({name.casefold(), key, label.casefold()} & boss_keys),
                health=health,
                most=health,
                block=MappingProxyType(block),
            )
        )
    return found


def _creature(ruleset: Ruleset, combat: Combat, name: str) -> tuple[str, str, Creature] | None:
    block = _STAT_BLOCK.fullmatch(name.strip())
    if block is not None:
        return _stat_block(combat, block["name"].strip(), block["inside"])
    folded = name.strip().casefold()
    for catalog in ruleset.definition.catalogs or ():
        if catalog.holds != "creatures":
            continue
        for entry in catalog.entries or ():
            if entry.creature is not None and folded in (entry.id, entry.label.casefold()):
                return entry.id, entry.label, _numbered(combat, entry.creature)
    for tier in combat.threat.tiers if combat.threat else ():
        if folded in (tier.id, tier.label.casefold()):
            return tier.id, tier.label, _from_tier(combat, tier)
    return None


def _stat_block(combat: Combat, name: str, inside: str) -> tuple[str, str, Creature] | None:
    """`Bandit captain (dread, health 12, damage 5)`: an opponent the GM names and numbers,
    pulled onto the threat scale: its tier's defense and to-hit, and its health and damage held
    within the tier's ranges."""
    parts = [part.strip() for part in inside.split(",") if part.strip()]
    tiers = {t.id: t for t in combat.threat.tiers} if combat.threat else {}
    labels = {t.label.casefold(): t for t in tiers.values()}
    tier = tiers.get(parts[0].casefold()) or labels.get(parts[0].casefold()) if parts else None
    if tier is None or not name or len(name) > 80 or unsafe_reason(name):
        return None
    asked: dict[str, int] = {}
    for part in parts[1:]:
        words = part.split()
        if len(words) != 2 or words[0].casefold() not in ("health", "damage"):
            return None
        number = integer(words[1])
        if number is None:
            return None
        asked[words[0].casefold()] = number
    creature = _from_tier(combat, tier)
    health = _within(asked.get("health", sum(tier.health) // 2), tier.health)
    damage = _within(asked.get("damage", sum(tier.damage_per_round) // 2), tier.damage_per_round)
    block = creature.model_dump(by_alias=True, exclude_none=True)
    block["health"] = health
    block["actions"][0]["damage"] = {"flat": damage}
    key = "-".join(name.casefold().split())
    return key, name, Creature.model_validate(block)


def _within(value: int, bounds: list[int]) -> int:
    return max(bounds[0], min(bounds[1], value))


def _numbered(combat: Combat, creature: Creature) -> Creature:
    """A creature written as a sheet of its own (no health, no actions) fights on its tier's
    numbers, as a threat tier does."""
    tiers = {t.id: t for t in combat.threat.tiers} if combat.threat else {}
    tier = tiers.get(creature.tier or "")
    if creature.health is not None or creature.actions or tier is None:
        return creature
    return _from_tier(combat, tier)


def _from_tier(combat: Combat, tier: ThreatTier) -> Creature:
    """An opponent built from the middle of a threat tier's numbers: one strike a turn for the
    middle of its damage per round."""
    strike: dict[str, Any] = {
        "id": "strike",
        "name": "Strike",
        "budget": combat.economy.budgets[0].id,
        "toHit": tier.to_hit,
        "damage": {"flat": sum(tier.damage_per_round) // 2},
    }
    return Creature.model_validate(
        {
            "tier": tier.id,
            "health": sum(tier.health) // 2,
            "defense": tier.defense,
            "actions": [strike],
        }
    )


def _health(combat: Combat, creature: Creature, dice: Dice) -> int:
    health = creature.health
    if isinstance(health, int):
        return health
    if health is not None:
        count, sides, flat = parse_dice(health.dice) or (0, 0, 1)
        return max(1, sum(dice.roll(count, sides)) + flat + health.flat)
    tiers = {t.id: t for t in combat.threat.tiers} if combat.threat else {}
    tier = tiers.get(creature.tier or "")
    return sum(tier.health) // 2 if tier is not None else 1


def party(game: StateReads) -> list[Combatant]:
    return [Combatant(c.key, c.name, "party") for c in game.characters if c.has_sheet]


def roll_initiative(
    game: StateReads, combat: Combat, combatants: list[Combatant], dice: Dice
) -> tuple[list[Combatant], str]:
    """Each combatant's initiative (its dice plus its modifier), the order it gives (higher total,
    then higher modifier, then the party, then the order named), and a line saying so."""
    rolled: list[Combatant] = []
    for member in combatants:
        modifier = _modifier(game, combat, member)
        faces = dice.roll(combat.initiative.dice.count, combat.initiative.dice.sides)
        rolled.append(replace(member, initiative=sum(faces) + modifier, modifier=modifier))
    ordered = sorted(
        enumerate(rolled),
        key=lambda pair: (
            -pair[1].initiative,
            -pair[1].modifier,
            pair[1].side != "party",
            pair[0],
        ),
    )
    members = [member for _, member in ordered]
    return members, ", ".join(f"{m.name} {m.initiative}" for m in members)


def _modifier(game: StateReads, combat: Combat, member: Combatant) -> int:
    if member.side == "enemy":
        value = (member.block or {}).get("initiativeModifier", 0)
        return value if isinstance(value, int) and not isinstance(value, bool) else 0
    ruleset, ref = game.ruleset, combat.initiative.modifier
    assert ruleset is not None
    character = next(c for c in game.characters if c.key == member.id)
    view = character.view(ruleset, game.live_of(character))
    base = int(view.read(ref)) if ref is not None else 0
    return base + adjust(
        ruleset, view, abilities_of(ruleset, ref.kind, ref.target) if ref else set()
    )
