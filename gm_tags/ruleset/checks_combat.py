"""Import checks on the `combat` block and the bestiary: every name it uses points at something the
sheet declares, and at the right sort of thing (a pool, a wound track, a column of the list it
names, a budget, a condition, a kind of harm). `docs/fights.md` says what each key does in a fight.
"""

from __future__ import annotations

import re
from typing import Any

from .checks import Path, Reporter
from .combat import AttackSource, Combat, Creature
from .sheet import BooleanColumn, DiceColumn, EnumColumn, NumberColumn, TextColumn, Track

# Dice as a sheet's dice column or a creature writes them: "2d6", "1d8+3", "1d8-1", or a number.
DICE_TEXT = re.compile(r"^\s*(?:(\d{1,3})[dD](\d{1,4}))?\s*(?:([+-]?)\s*(\d{1,6}))?\s*$")


def parse_dice(text: Any) -> tuple[int, int, int] | None:
    """`(count, sides, flat)` of a dice text, or None when it is not dice (`"rope"`, `"d6"`)."""
    if not isinstance(text, str) or len(text) > 40 or not text.strip():
        return None
    found = DICE_TEXT.match(text)
    if found is None:
        return None
    count, sides, sign, flat = found.groups()
    if count is None and flat is None:
        return None
    if count is not None and flat is not None and not sign:
        return None  # "2d6 3"
    if count is not None and (int(count) < 1 or int(sides) < 2):
        return None
    amount = int(flat or 0) * (-1 if sign == "-" else 1)
    return (int(count), int(sides), amount) if count is not None else (0, 0, amount)


class CombatChecks(Reporter):
    def run(self) -> None:
        combat = self.ruleset.combat
        if combat is not None:
            self.combat(combat)
        self.bestiary(combat)
        self.temporary_on_track(combat)

    def combat(self, combat: Combat) -> None:
        index, at = self.index, ("combat",)
        path: Path
        track = self.health(combat)
        if combat.kind == "dice-pool" and self.ruleset.resolution.kind != "dice-pool":
            self.report(
                (*at, "kind"), "a dice-pool fight needs a dice-pool resolution to throw its pools"
            )
        self.ref(combat.defense, (*at, "defense"))
        if combat.initiative.modifier is not None:
            self.ref(combat.initiative.modifier, (*at, "initiative", "modifier"))
        roll = combat.attack_roll
        if roll is not None and roll.dice.count > 1 and roll.naturals != type(roll.naturals)():
            self.report(
                (*at, "attackRoll", "naturals"),
                f"naturals need a single die; this fight throws "
                f"{roll.dice.count}d{roll.dice.sides}",
            )
        self.unique(combat.economy.budgets, (*at, "economy", "budgets"))
        if combat.economy.movement is not None:
            self.ref(combat.economy.movement, (*at, "economy", "movement"))
        types = self.damage_types(combat)
        self.damage_kinds(combat, track, types)
        if combat.pool is not None and combat.pool.soak is not None:
            for kind, ref in combat.pool.soak.by_kind.items():
                path = (*at, "pool", "soak", "byKind", kind)
                self.kind_of(track, kind, path)
                self.ref(ref, path)
        for position, source in enumerate(combat.attacks or []):
            self.attack(combat, source, (*at, "attacks", position))
        for position, ability in enumerate(combat.abilities or []):
            path = (*at, "abilities", position)
            self.budget(combat, ability.budget, (*path, "budget"))
            if self.exists(index.lists, ability.list_, (*path, "list"), "list"):
                self.column(ability.list_, ability.only_when, (*path, "onlyWhen"), BooleanColumn)
            for key, read in (
                ("toHit", ability.to_hit),
                ("saveDifficulty", ability.save_difficulty),
            ):
                if read is not None:
                    self.ref(read, (*path, key))
        if combat.dying is not None:
            self.dying(combat)
        self.contests(combat)
        if combat.concentration is not None:
            held = combat.concentration
            self.exists(index.text, held.text, (*at, "concentration", "text"), "live text")
            self.exists(index.saves, held.save, (*at, "concentration", "save"), "save")
        seen: set[str] = set()
        for position, action in enumerate(combat.standard or []):
            if action in seen:
                self.report((*at, "standard", position), f"duplicate standard action {action!r}")
            seen.add(action)
        # conditions and levels: checks_effects.py
        for position, limit in enumerate(combat.spend_limits or []):
            path = (*at, "spendLimits", position)
            self.exists(index.pools, limit.pool, (*path, "pool"), "live pool")
            self.ref(limit.max, (*path, "max"))
        if combat.threat is not None:
            self.unique(combat.threat.tiers, (*at, "threat", "tiers"))
            for position, tier in enumerate(combat.threat.tiers):
                for key, pair in (
                    ("health", tier.health),
                    ("damagePerRound", tier.damage_per_round),
                ):
                    if pair[0] > pair[1]:
                        self.report(
                            (*at, "threat", "tiers", position, key),
                            f"the lowest is above the highest: {pair}",
                        )

    def contests(self, combat: Combat) -> None:
        at = ("combat",)
        checks = {check.id: check for check in combat.checks or []}
        self.unique(combat.checks or [], (*at, "checks"))
        for position, check in enumerate(combat.checks or []):
            self.ref(check.value, (*at, "checks", position, "value"))
        self.unique(combat.contests or [], (*at, "contests"))
        conditions = self.index.conditions
        for position, contest in enumerate(combat.contests or []):
            path: Path = (*at, "contests", position)
            self.budget(combat, contest.budget, (*path, "budget"))
            for side in ("attacker", "defender"):
                for n, check in enumerate(getattr(contest, side).checks):
                    self.exists(checks, check, (*path, side, "checks", n), "fight check")
            if contest.from_ is not None:
                self.exists(
                    conditions, contest.from_.holding, (*path, "from", "holding"), "condition"
                )
            for key in ("applies", "ends"):
                for n, entry in enumerate(getattr(contest.on_win, key)):
                    self.exists(
                        conditions,
                        entry.condition,
                        (*path, "onWin", key, n, "condition"),
                        "condition",
                    )

    def dying(self, combat: Combat) -> None:
        dying, at = combat.dying, ("combat", "dying")
        assert dying is not None
        tracks = {t.id: t for t in self.ruleset.sheet.live.tracks if not t.is_wound}
        for key, track in (("successes", dying.successes), ("failures", dying.failures)):
            self.exists(tracks, track, (*at, key), "live track")
        if dying.successes == dying.failures:
            self.report((*at, "failures"), "successes and failures count on two different tracks")
        self.exists(self.index.conditions, dying.condition, (*at, "condition"), "condition")

    def health(self, combat: Combat) -> Track | None:
        """The health track (None on pool health), after checking what health names."""
        health, at = combat.health, ("combat", "health")
        if health.track is not None:
            track = self.index.tracks.get(health.track)
            if not self.exists(self.index.tracks, health.track, (*at, "track"), "live track"):
                return None
            assert track is not None
            if not track.is_wound:
                self.report(
                    (*at, "track"),
                    f"{health.track!r} is a plain track; combat health names a pool or a wound "
                    "track",
                )
                return None
            if combat.damage_kinds is None:
                self.report(
                    ("combat", "damageKinds"),
                    "health on a wound track needs damageKinds: which kind a blow marks, and how "
                    "many (per-blow or per-point)",
                )
            return track
        if health.pool is not None and self.exists(
            self.index.pools, health.pool, (*at, "pool"), "live pool"
        ):
            pool = self.index.pools[health.pool]
            if pool.start == "empty":
                self.report(
                    (*at, "pool"), f"{health.pool!r} starts empty, so it cannot be the health pool"
                )
        if combat.damage_kinds is not None:
            self.report(
                ("combat", "damageKinds"),
                "damageKinds needs health on a wound "
                "track; a pool of points cannot remember which points were which",
            )
        return None

    def damage_types(self, combat: Combat) -> set[str] | None:
        if combat.damage_types is None:
            return None
        seen: set[str] = set()
        for position, name in enumerate(combat.damage_types):
            folded = name.casefold()
            if folded in seen:
                self.report(("combat", "damageTypes", position), f"duplicate damage type {name!r}")
            seen.add(folded)
        return seen

    def damage_kinds(self, combat: Combat, track: Track | None, types: set[str] | None) -> None:
        kinds = combat.damage_kinds
        if kinds is None or track is None:
            return
        at = ("combat", "damageKinds")
        self.kind_of(track, kinds.default, (*at, "default"))
        for damage_type, kind in kinds.by_type.items():
            if types is not None and damage_type.casefold() not in types:
                self.report(
                    (*at, "byType", damage_type),
                    f"{damage_type!r} is not one of combat.damageTypes",
                )
            self.kind_of(track, kind, (*at, "byType", damage_type))

    def kind_of(self, track: Track | None, kind: str, path: Path) -> None:
        if track is None:
            return
        kinds = {k.id for k in track.kinds or ()}
        if kind not in kinds:
            self.report(
                path, f"{track.id!r} takes no kind {kind!r}; its kinds: {', '.join(sorted(kinds))}"
            )

    def budget(self, combat: Combat, budget: str | None, path: Path) -> None:
        budgets = {b.id: b for b in combat.economy.budgets}
        self.exists(budgets, budget, path, "budget")

    def attack(self, combat: Combat, source: AttackSource, path: Path) -> None:
        self.budget(combat, source.budget, (*path, "budget"))
        if not self.exists(self.index.lists, source.list_, (*path, "list"), "list"):
            return
        columns = (
            (("name",), source.name, (TextColumn,)),
            (("toHit", "ability"), _column(source.to_hit.ability), (EnumColumn,)),
            (("toHit", "skill"), _column(source.to_hit.skill), (EnumColumn,)),
            (("toHit", "proficiency"), _column(source.to_hit.proficiency), (BooleanColumn,)),
            (("toHit", "bonus"), _column(source.to_hit.bonus), (NumberColumn,)),
            (("damage", "dice"), source.damage.dice.column, (DiceColumn,)),
            (("damage", "ability"), _column(source.damage.ability), (EnumColumn,)),
            (("damage", "bonus"), _column(source.damage.bonus), (NumberColumn,)),
            (("damage", "type"), _column(source.damage.type), (TextColumn, EnumColumn)),
        )
        for keys, column, shapes in columns:
            where = (*path, *keys) if keys == ("name",) else (*path, *keys, "column")
            self.column(source.list_, column, where, *shapes)

    def column(self, list_id: str, column: str | None, path: Path, *shapes: type) -> None:
        if column is None:
            return
        sheet_list = self.index.lists[list_id]
        found = {c.id: c for c in sheet_list.columns}
        if self.exists(found, column, path, f"column of {list_id!r}") and not isinstance(
            found[column], shapes
        ):
            wanted = " or ".join(shape.__name__.removesuffix("Column").lower() for shape in shapes)
            self.report(path, f"must name a {wanted} column; {column!r} is not one")

    # The bestiary ---------------------------------------------------------------------------

    def bestiary(self, combat: Combat | None) -> None:
        for position, catalog in enumerate(self.ruleset.catalogs or []):
            if catalog.holds != "creatures":
                continue
            path: Path = ("catalogs", position)
            if combat is None:
                self.report(
                    (*path, "holds"), "a catalog of creatures needs a combat block to fight in"
                )
                continue
            for at, entry in enumerate(catalog.entries or []):
                where = (*path, "entries", at, "creature")
                if entry.creature is None:
                    self.report(where, "an entry of a catalog that holds creatures has a creature")
                else:
                    self.creature(combat, entry.creature, where)

    def creature(self, combat: Combat, creature: Creature, path: Path) -> None:
        tiers = {tier.id: tier for tier in combat.threat.tiers} if combat.threat else {}
        if creature.tier is not None:
            self.exists(tiers, creature.tier, (*path, "tier"), "threat tier")
        health = creature.health
        if health is not None and not isinstance(health, int) and parse_dice(health.dice) is None:
            self.report((*path, "health", "dice"), f"{health.dice!r} is not dice (2d6, 1d8+1)")
        if health is None and "sheet" not in (creature.model_extra or {}):
            self.report(path, "a creature needs health (or a sheet of its own)")
        for at, action in enumerate(creature.actions):
            where = (*path, "actions", at)
            self.budget(combat, action.budget, (*where, "budget"))
            damage = action.damage
            if damage is not None and damage.dice is not None and parse_dice(damage.dice) is None:
                self.report((*where, "damage", "dice"), f"{damage.dice!r} is not dice")
            if action.save is not None:
                self.exists(self.index.saves, action.save.save, (*where, "save", "save"), "save")
                if action.save.difficulty is None and action.save_difficulty is None:
                    self.report(
                        (*where, "save"),
                        "a save is thrown against something: give save.difficulty "
                        "(or the action's saveDifficulty)",
                    )

    def temporary_on_track(self, combat: Combat | None) -> None:
        """FT-5: a track has no buffer for temporary points, so an entry that grants them is
        refused where health is a wound track."""
        if combat is None or combat.health.track is None:
            return
        for position, catalog in enumerate(self.ruleset.catalogs or []):
            for at, entry in enumerate(catalog.entries or []):
                mechanics = getattr(entry, "mechanics", None) or (entry.model_extra or {}).get(
                    "mechanics"
                )
                if isinstance(mechanics, dict):
                    temporary = mechanics.get("temporary")
                else:
                    temporary = getattr(mechanics, "temporary", None)
                if temporary is not None:
                    self.report(
                        ("catalogs", position, "entries", at, "mechanics", "temporary"),
                        "temporary points mean nothing where health is a wound track "
                        f"({combat.health.track!r}): a track has no buffer for them",
                    )


def _column(column: Any) -> str | None:
    return None if column is None else str(column.column)
