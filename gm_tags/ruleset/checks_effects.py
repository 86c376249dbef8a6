"""Import checks on what changes a check (`combat.conditions[]`, `combat.levels[]`, an item's
`worn` and `carried`): the conditions, tracks, derived values, skills and saves they name exist, a
condition is mapped once, a level is given once, stands on a plain track and can be reached; an
item's abilities exist (a `set` within the ability's range), its condition immunities are
conditions of the sheet and its damage types the combat block's, and in a dice-pool fight its
attack modifiers are flat. Messages follow the Engine's.
"""

from __future__ import annotations

from .checks import Path, Reporter
from .effects import EffectSource, WornEffect


class EffectChecks(Reporter):
    def run(self) -> None:
        self.items()
        combat = self.ruleset.combat
        if combat is None:
            return
        seen: dict[str, int] = {}
        for position, condition in enumerate(combat.conditions or []):
            path: Path = ("combat", "conditions", position)
            if condition.condition in seen:
                self.report(
                    (*path, "condition"),
                    f'Duplicate condition "{condition.condition}"; already mapped at '
                    f"combat.conditions.{seen[condition.condition]}",
                )
            seen.setdefault(condition.condition, position)
            self.exists(
                self.index.conditions, condition.condition, (*path, "condition"), "live condition"
            )
            self.names(condition, path)
        given: dict[tuple[str, int], int] = {}
        for position, level in enumerate(combat.levels or []):
            path = ("combat", "levels", position)
            self.level_source(level.track, level.derived, level.at, path)
            key = (level.reads, level.at)
            if key in given:
                self.report((*path, "at"), f'Level {level.at} of "{level.reads}" is given twice')
            given.setdefault(key, position)
            self.names(level, path)

    def level_source(self, track_id: str | None, derived: str | None, at: int, path: Path) -> None:
        if derived is not None:
            self.exists(self.index.derived, derived, (*path, "derived"), "derived value")
            return
        assert track_id is not None
        if not self.exists(self.index.tracks, track_id, (*path, "track"), "track"):
            return
        track = self.index.tracks[track_id]
        if track.is_wound:
            self.report(
                (*path, "track"),
                f'"{track_id}" is a wound track; a level reads a plain track\'s value',
            )
        elif isinstance(track.max, int) and at > track.max:
            self.report(
                (*path, "at"),
                f'"{track_id}" goes up to {track.max}, so level {at} is never reached',
            )

    def names(self, source: EffectSource, path: Path) -> None:
        """Every skill and save a source or its modifiers name exists."""
        for key, ids, table, what in (
            ("skills", source.skills, self.index.skills, "skill"),
            ("saves", source.saves, self.index.saves, "save"),
            ("failsSaves", source.fails_saves, self.index.saves, "save"),
        ):
            for at, found in enumerate(ids or ()):
                self.exists(table, found, (*path, key, at), what)
        for position, modifier in enumerate(source.modifiers or ()):
            for key, ids, table, what in (
                ("skills", modifier.skills, self.index.skills, "skill"),
                ("saves", modifier.saves, self.index.saves, "save"),
            ):
                for at, found in enumerate(ids or ()):
                    self.exists(table, found, (*path, "modifiers", position, key, at), what)

    def items(self) -> None:
        for position, catalog in enumerate(self.ruleset.catalogs or ()):
            for at, entry in enumerate(catalog.entries or ()):
                for key in ("worn", "carried"):
                    effect = getattr(entry.item, key, None) if entry.item else None
                    if effect is not None:
                        self.held(effect, ("catalogs", position, "entries", at, "item", key))

    def held(self, effect: WornEffect, path: Path) -> None:
        """What an item does while held names what the sheet and the combat block have."""
        self.names(effect, path)
        for ability, change in (effect.abilities or {}).items():
            if not self.exists(
                self.index.abilities, ability, (*path, "abilities", ability), "ability"
            ):
                continue
            low, high = self.index.abilities[ability].min, self.index.abilities[ability].max
            value = change.get("set")
            if "set" in change and (not isinstance(value, int | float) or not low <= value <= high):
                self.report(
                    (*path, "abilities", ability, "set"), f'"{ability}" runs from {low} to {high}'
                )
        for at, condition in enumerate(effect.condition_immunities or ()):
            self.exists(
                self.index.conditions, condition, (*path, "conditionImmunities", at), "condition"
            )
        combat = self.ruleset.combat
        declared = combat.damage_types if combat is not None else None
        known = {str(name).strip().casefold() for name in declared or ()}
        for key in ("resist", "vulnerable", "immune"):
            for at, name in enumerate(getattr(effect, key) or ()):
                if declared is not None and name.strip().casefold() not in known:
                    self.report((*path, key, at), f'Unknown damage type "{name}"')
        if combat is not None and combat.kind == "dice-pool":
            for at, modifier in enumerate(effect.modifiers or ()):
                if modifier.to == "attacks" and modifier.dice is not None:
                    self.report(
                        (*path, "modifiers", at, "dice"),
                        'A "dice-pool" fight adds dice to a pool, so a modifier gives a flat '
                        "number of dice",
                    )
