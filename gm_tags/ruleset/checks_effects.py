"""Import checks on what changes a check (`combat.conditions[]`, `combat.levels[]`): the
conditions, tracks, derived values, skills and saves they name exist, a condition is mapped once,
a level is given once, stands on a plain track and can be reached. Messages follow the Engine's.
"""

from __future__ import annotations

from .checks import Path, Reporter
from .effects import EffectSource


class EffectChecks(Reporter):
    def run(self) -> None:
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
