"""A combatant's health, read and written. A party member's is their sheet's, changed only through
the sheet's own operations (the pool `damage`/`restore` of `[sheet:]` and its wound marking), so a
fight and the sheet never disagree. An opponent's is a number in the encounter.

On a wound track health reads as the levels LEFT (capacity less marks, WT-17), so "down" is "no
health left" whatever health is.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from ...commands.sheet import PoolCommand, WoundCommand
from ...ruleset.combat import Combat
from ...ruleset.loader import Ruleset
from ...sheet.character import Character
from ...sheet.encounter import Combatant
from ...sheet.live import LiveState, Wounds
from ...sheet.wounds import filled
from ...state import StateReads, draft_of
from ..naming import by_name
from ..outcome import Outcome
from ..pools import find_pool, pools_of, run_pool
from ..wounds import heal, run_wound, wound_track


@dataclass(frozen=True)
class Health:
    value: int
    most: int

    @property
    def text(self) -> str:
        return f"{self.value}/{self.most}"


def health_of(game: StateReads, combatant: Combatant) -> Health:
    if combatant.side == "enemy":
        return Health(combatant.health, combatant.most)
    ruleset, character = _sheet_of(game, combatant)
    combat = _combat(ruleset)
    live = game.live_of(character)
    if combat.health.track is not None:
        track = by_name(ruleset.definition.sheet.live.tracks, combat.health.track)
        assert track is not None  # checked at import
        shape = wound_track(ruleset, character, track)
        wounds = shape.settled(live.wounds.get(track.id) or Wounds())
        left = 0 if combatant.down else max(0, shape.capacity - filled(wounds))
        return Health(left, shape.capacity)
    pool = find_pool(pools_of(ruleset, character), combat.health.pool or "")
    if isinstance(pool, Outcome):
        return Health(0, 0)
    return Health(0 if combatant.down else pool.now(live)[0], pool.maximum)


def standing(game: StateReads, combatant: Combatant) -> bool:
    return health_of(game, combatant).value > 0


@dataclass(frozen=True)
class Hurt:
    """What a blow did: the combatant as it now stands in the encounter, and a line saying what
    is left (`Harm 2/4 Winded`, `Grit 3/9`, `2/6`)."""

    combatant: Combatant
    now: str
    down: bool


def hurt(game: StateReads, combatant: Combatant, amount: int, kind: str | None) -> Hurt:
    """`amount` points of harm of `kind` (a track's kind, when health is a track) landed on
    `combatant`; the sheet's live state is changed in `game`, the encounter's record returned."""
    if combatant.side == "enemy":
        left = max(0, combatant.health - amount)
        changed = replace(combatant, health=left)
        return Hurt(changed, f"{combatant.name} {left}/{combatant.most}", left == 0)
    ruleset, character = _sheet_of(game, combatant)
    combat = _combat(ruleset)
    live = game.live_of(character)
    if amount <= 0:
        health = health_of(game, combatant)
        return Hurt(combatant, f"{combatant.name} {health.text} left", health.value <= 0)
    if combat.health.track is not None:
        track = by_name(ruleset.definition.sheet.live.tracks, combat.health.track)
        indexed = track is not None and track.fill == "indexed"
        result = run_wound(_marks(combat, kind, amount, indexed), ruleset, character, live)
        if isinstance(result, Outcome):
            # FT-3: a blow no box can take puts the character down.
            taken = replace(combatant, down=True)
            return Hurt(taken, f"{combatant.name} taken out (no box takes the blow)", True)
        draft_of(game).set_live(character.key, result[0])
        return Hurt(combatant, f"{combatant.name} {result[1]}", not standing(game, combatant))
    command = PoolCommand(None, "damage", (), pool=combat.health.pool or "", amount=amount)
    return _on_pool(game, combatant, ruleset, character, live, command)


def mend(game: StateReads, combatant: Combatant, amount: int) -> Hurt:
    """A heal in a fight: on a wound track one mark, the lightest, of any kind (FT-4; overflow
    stays); on a pool `amount` points; an opponent `amount` up to its most. Whoever it leaves
    with health is standing again."""
    if combatant.side == "enemy":
        left = min(combatant.most, combatant.health + amount)
        return Hurt(
            replace(combatant, health=left), f"{combatant.name} {left}/{combatant.most}", False
        )
    ruleset, character = _sheet_of(game, combatant)
    combat = _combat(ruleset)
    live = game.live_of(character)
    revived = replace(combatant, down=False)
    if combat.health.track is not None:
        track = by_name(ruleset.definition.sheet.live.tracks, combat.health.track)
        assert track is not None
        shape = wound_track(ruleset, character, track)
        wounds = shape.settled(live.wounds.get(track.id) or Wounds())
        healed = heal(shape, Wounds(wounds.marks, 0), None, 1)
        after = Wounds(healed.marks, wounds.overflow)
        draft_of(game).set_live(character.key, live.with_wounds(track.id, after))
        return Hurt(revived, f"{combatant.name} {shape.now(after)}", not standing(game, revived))
    command = PoolCommand(None, "restore", (), pool=combat.health.pool or "", amount=amount)
    return _on_pool(game, revived, ruleset, character, live, command)


def _on_pool(
    game: StateReads,
    combatant: Combatant,
    ruleset: Ruleset,
    character: Character,
    live: LiveState,
    command: PoolCommand,
) -> Hurt:
    pool = find_pool(pools_of(ruleset, character), command.pool)
    if isinstance(pool, Outcome):
        return Hurt(combatant, f"{combatant.name} has no {command.pool}", True)
    result = run_pool(command, pool, live)
    if isinstance(result, Outcome):
        return Hurt(combatant, f"{combatant.name} {pool.label} unchanged", False)
    draft_of(game).set_live(character.key, result[0])
    line = f"{combatant.name} {pool.label} {result[1]}"
    return Hurt(combatant, line, not standing(game, combatant))


def _marks(combat: Combat, kind: str | None, amount: int, indexed: bool) -> WoundCommand:
    """The sheet's own `op="damage"` on the health track for one landing blow (FT-1, FT-3):
    per-blow one mark (on box 1, or the next free above); per-point `amount` marks, or on an
    indexed box track one mark on the box `amount` names."""
    track = combat.health.track or ""
    kinds = combat.damage_kinds
    assert kinds is not None  # required at import where health is a track
    per_point = kinds.marks == "per-point"
    marks = amount if per_point and not indexed else 1
    box = amount if per_point and indexed else None
    kind = kind or kinds.default
    return WoundCommand(None, "damage", (), track=track, kind=kind, amount=marks, box=box)


def damage_kind(combat: Combat, damage_type: str | None) -> str | None:
    """The kind of mark a blow of `damage_type` leaves (matched without case), or None where
    health is a pool."""
    kinds = combat.damage_kinds
    if kinds is None:
        return None
    folded = (damage_type or "").casefold()
    mapped = {key.casefold(): kind for key, kind in kinds.by_type.items()}
    return mapped.get(folded, kinds.default)


def _sheet_of(game: StateReads, combatant: Combatant) -> tuple[Ruleset, Character]:
    ruleset = game.ruleset
    assert ruleset is not None
    character = next(c for c in game.characters if c.key == combatant.id)
    return ruleset, character


def _combat(ruleset: Ruleset) -> Combat:
    combat = ruleset.definition.combat
    assert combat is not None
    return combat
