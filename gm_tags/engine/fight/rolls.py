"""What a fight's choices and rolls are built from: an option of whoever acts, the blow it would
strike, and the numbers a roll built from a sheet takes (the wound penalty, FT-7's adjust, the
modifiers of what the character suffers)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Literal

from ...checks.effects import check_sources
from ...checks.run import adjust_for
from ...ruleset.loader import Ruleset
from ...sheet.character import SheetView

Kind = Literal["attack", "ability", "standard", "contest", "heal", "end-turn"]


@dataclass(frozen=True)
class SaveAsk:
    """A save a blow asks of its target instead of a to-hit roll: the save's id, the number to
    meet, and what a save that holds does (`half` the damage, `negates` it all, `none`: only
    the conditions are kept off)."""

    save: str
    difficulty: int
    on_success: str


@dataclass(frozen=True)
class Strike:
    """What one blow is built from. `to_hit` is a modifier on a sum, or the dice of a pool."""

    to_hit: int
    dice: tuple[int, int, int]
    damage_bonus: int = 0
    damage_type: str | None = None
    auto_hit: bool = False
    # The conditions a landed blow puts on, each with the rounds it lasts (None: until cleared).
    applies: tuple[tuple[str, int | None], ...] = ()
    save: SaveAsk | None = None
    # Of those conditions, the ones a save ends: (condition, save, when, against what).
    ends_on: tuple[tuple[str, str, str, int], ...] = ()
    # Whether one damage throw serves every target (an area, or a blow each target saves
    # against or that lands unrolled), or each hit throws its own.
    shared: bool = False


@dataclass(frozen=True)
class Option:
    id: str
    label: str
    kind: Kind
    budget: str | None
    left: bool = True
    strike: Strike | None = None
    # An ability's catalog entry (`engine.entries.Owned`), which pays for it.
    owned: Any = None
    # An opponent's action that strikes more than once: the strikes in order (a `sequence` of its
    # other actions), and how many targets each strike may take (`targetCount`).
    parts: tuple[Option, ...] = ()
    targets: int = 1
    # An opponent's action that must recharge once used: the dice thrown as its holder's turn
    # begins, and the least total that brings it back (`recharge: {dice, from}`).
    recharge: tuple[int, int, int] | None = None
    # An opponent's signature action: the points of its block's `signaturePoints` it costs.
    signature: int | None = None


# How the signature points an opponent has spent since its own turn are kept beside its budgets.
SIGNATURE = "signature"


def recharge_key(action: str) -> str:
    """How an opponent's spent recharge action is kept beside its budgets."""
    return f"recharge:{action}"


def recharge_of(action: Mapping[str, Any]) -> tuple[int, int, int] | None:
    """`recharge: {"dice": {"count", "sides"}, "from": N}` as (count, sides, from)."""
    recharge = action.get("recharge")
    if not isinstance(recharge, Mapping) or not isinstance(recharge.get("dice"), Mapping):
        return None
    count, sides = _whole(recharge["dice"].get("count")), _whole(recharge["dice"].get("sides"))
    if not 1 <= count <= 10 or not 2 <= sides <= 100:
        return None
    return count, sides, _whole(recharge.get("from"))


def _whole(value: Any) -> int:
    return value if isinstance(value, int) and not isinstance(value, bool) else 0


def penalty(ruleset: Ruleset, view: SheetView) -> int:
    """The wound penalty in force, as a check takes it (`resolution.penaltyFrom`)."""
    track = ruleset.definition.resolution.penalty_from
    return 0 if track is None else int(view[("liveTrack", track, "penalty")])


def adjust(ruleset: Ruleset, view: SheetView, abilities: set[str]) -> int:
    """FT-7: `resolution.adjust` on a roll the fight builds from a sheet, as a check takes it:
    the entries for the abilities it rolls with, and the entries for every roll."""
    return adjust_for(ruleset, view, view.character, frozenset(abilities))


def modifiers(ruleset: Ruleset, view: SheetView, to: str) -> int:
    """The flat modifiers `to` attacks or defense of what the character suffers now: the
    conditions on the sheet and the levels reached, the same sources a check reads."""
    return sum(
        int(modifier.flat or 0)
        for source in check_sources(ruleset, view, view.live)
        for modifier in source.parts.modifiers or ()
        if modifier.to == to
    )


def abilities_of(ruleset: Ruleset, kind: str, target: Any) -> set[str]:
    """FT-7: the ability a roll read off an ability, a skill or a save rolls with."""
    index = ruleset.index
    if kind in ("abilityMod", "abilityScore"):
        return {str(target)}
    entries: Mapping[str, Any] = {"skillMod": index.skills, "saveMod": index.saves}.get(kind, {})
    entry = entries.get(str(target))
    return {entry.ability} if entry is not None and entry.ability else set()


def held_modifiers(ruleset: Ruleset, conditions: tuple[str, ...], to: str) -> int:
    """The flat modifiers `to` attacks or defense of the conditions an opponent holds (its own,
    kept in the encounter: it has no sheet)."""
    combat = ruleset.definition.combat
    rules = combat.conditions or () if combat is not None else ()
    return sum(
        int(modifier.flat or 0)
        for rule in rules
        if rule.condition in conditions
        for modifier in rule.modifiers or ()
        if modifier.to == to
    )


def rounds_of(duration: Any) -> int | None:
    """The rounds a condition lasts (`{"rounds": N}`), or None for one that stays."""
    rounds = duration.get("rounds") if isinstance(duration, Mapping) else None
    if isinstance(rounds, bool) or not isinstance(rounds, int) or rounds <= 0:
        return None
    return rounds
