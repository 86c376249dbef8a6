"""Import checks on a catalog entry's `mechanics`, at the Engine's paths and in its words: the
rules one key makes of another (a rider is passive, a heal carries no damage clauses, something
free names no budget), and every name the vocabulary reaches the sheet or the combat block by
(saves, conditions, pools, budgets, standard actions, attack lists, damage types, catalogs). A
name that only a fight reads is checked where the ruleset has a fight to read it.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any

from .checks import Path, Reporter
from .combat import Combat
from .mechanics import RIDER_FORBIDS, CheckEffect, Mechanics
from .resolution import DicePool

_SIDES = re.compile(r"d(\d+)")


class MechanicsChecks(Reporter):
    def entry(self, mechanics: Mechanics, lists: Iterable[str], path: Path) -> None:
        """`path` is the entry's `mechanics`; `lists` the lists the entry's rows land in."""
        self.rules(mechanics, path)
        self.names(mechanics, path)
        combat = self.ruleset.combat
        if combat is not None:
            self.fight_names(mechanics, combat, set(lists), path)
        if mechanics.check is not None:
            self.check_effect(mechanics.check, (*path, "check"))

    def rules(self, mechanics: Mechanics, path: Path) -> None:
        """What one key says of another."""
        if mechanics.rider is not None and mechanics.kind != "rider":
            self.report((*path, "kind"), 'An entry with a rider is of the kind "rider"')
        if mechanics.kind == "rider":
            if mechanics.rider is None:
                self.report((*path, "rider"), 'A "rider" entry says what its rider does')
            written = mechanics.model_dump(by_alias=True, exclude_none=True)
            for key in RIDER_FORBIDS:
                if key in written:
                    self.report(
                        (*path, key),
                        "A rider is passive: nobody takes it, so it carries nothing that "
                        "would be taken",
                    )
        if mechanics.plus is not None and mechanics.amount is None:
            self.report((*path, "plus"), "A clause needs an amount beside it")
        if mechanics.plus is not None and mechanics.kind == "heal":
            self.report((*path, "plus"), "A heal carries no damage clauses")
        if mechanics.free and mechanics.budget is not None:
            self.report((*path, "free"), "Something free spends no budget, so it names none")
        standard = mechanics.standard
        if standard is not None and len(set(standard.actions)) != len(standard.actions):
            self.report((*path, "standard", "actions"), "The same standard action is named twice")
        rider = mechanics.rider
        if rider is not None and rider.amount.dice is None and rider.amount.flat is None:
            self.report((*path, "rider", "amount"), "A rider names dice, a flat amount, or both")
        for at, applies in enumerate(mechanics.applies or ()):
            if applies.duration == "until-save" and applies.save_ends is None:
                self.report(
                    (*path, "applies", at, "saveEnds"),
                    '"until-save" needs the save that ends it',
                )

    def names(self, mechanics: Mechanics, path: Path) -> None:
        """What the entry names on the sheet and among the catalogs."""
        saves, conditions = self.index.saves, self.index.conditions
        if mechanics.save is not None:
            self.exists(saves, mechanics.save.save, (*path, "save", "save"), "save")
        for at, clause in enumerate(mechanics.plus or ()):
            if clause.save is not None:
                self.exists(saves, clause.save.save, (*path, "plus", at, "save", "save"), "save")
        for at, applies in enumerate(mechanics.applies or ()):
            where = (*path, "applies", at)
            self.exists(conditions, applies.condition, (*where, "condition"), "condition")
            if applies.save_ends is not None:
                self.exists(saves, applies.save_ends.save, (*where, "saveEnds", "save"), "save")
        groups = {pool.group for pool in self.index.pools.values() if pool.group}
        for at, cost in enumerate(mechanics.cost or ()):
            if cost.pool not in self.index.pools and cost.pool not in groups:
                self.report(
                    (*path, "cost", at, "pool"), f'Unknown pool or pool group "{cost.pool}"'
                )
        moment = mechanics.moment
        catalogs = {catalog.id for catalog in self.ruleset.catalogs or ()}
        for at, catalog in enumerate(moment.against.catalogs if moment and moment.against else ()):
            if catalog not in catalogs:
                self.report(
                    (*path, "reaction", "against", "catalogs", at), f'Unknown catalog "{catalog}"'
                )
        if mechanics.scales is not None:
            scaled_from = (*path, "scales", "from")
            self.ref(mechanics.scales.from_, scaled_from)
            self.no_live_read(mechanics.scales.from_, scaled_from, "a catalog entry's scaling")
            self.ascending(mechanics.scales.table, (*path, "scales", "table"))

    def fight_names(
        self, mechanics: Mechanics, combat: Combat, lists: set[str], path: Path
    ) -> None:
        """What only a fight reads, held to the combat block's own words."""
        budgets = {budget.id: budget for budget in combat.economy.budgets}
        self.exists(budgets, mechanics.budget, (*path, "budget"), "budget")
        for at, gift in enumerate(mechanics.gives or ()):
            self.exists(budgets, gift.budget, (*path, "gives", at, "budget"), "budget")
        self.damage_words(mechanics, combat, path)
        self.pool_dice(mechanics, combat, path)
        self.save_difficulty(mechanics, combat, lists, path)
        standard = mechanics.standard
        if standard is not None:
            permit = (*path, "standard")
            first = combat.economy.budgets[0].id
            known = self.exists(budgets, standard.budget, (*permit, "budget"), "budget")
            if known and standard.budget == first:
                self.report(
                    (*permit, "budget"),
                    f'Every standard action is already taken for "{first}", so this '
                    "permission grants nothing",
                )
            for position, action in enumerate(standard.actions):
                if action not in (combat.standard or ()):
                    self.report(
                        (*permit, "actions", position),
                        f'This ruleset does not have the standard action "{action}"',
                    )
        rider = mechanics.rider
        if rider is None:
            return
        attack_lists = [source.list_ for source in combat.attacks or ()]
        for at, name in enumerate(rider.sources or ()):
            if name not in attack_lists:
                self.report(
                    (*path, "rider", "sources", at),
                    f'"{name}" is not one of this ruleset\'s attack lists',
                )
        if rider.requires is not None:
            column = rider.requires.column
            read = rider.sources or attack_lists
            held = [name for name in read if column in self._columns(name)]
            if not held:
                self.report(
                    (*path, "rider", "requires", "column"),
                    f'No attack list this rider reads has a column "{column}"',
                )

    def damage_words(self, mechanics: Mechanics, combat: Combat, path: Path) -> None:
        """Damage types, where the ruleset says what its types are (without case or spaces)."""
        if combat.damage_types is None:
            return
        known = {str(name).strip().casefold() for name in combat.damage_types}
        named: list[tuple[Path, str | None]] = [
            ((*path, "damageType"), mechanics.damage_type),
            ((*path, "rider", "type"), mechanics.rider.type if mechanics.rider else None),
        ]
        named += [
            ((*path, "plus", at, "type"), c.type) for at, c in enumerate(mechanics.plus or ())
        ]
        for at, name in named:
            if name is not None and name.strip().casefold() not in known:
                self.report(at, f'Unknown damage type "{name}"')

    def pool_dice(self, mechanics: Mechanics, combat: Combat, path: Path) -> None:
        """A dice-pool fight throws harm with the ruleset's own die; a heal keeps its dice."""
        resolution = self.ruleset.resolution
        if combat.kind != "dice-pool" or not isinstance(resolution, DicePool):
            return
        if mechanics.kind == "heal":
            return
        sides = resolution.die.sides
        dice: list[tuple[Path, str | None]] = [
            ((*path, "amount", "dice"), mechanics.amount.dice if mechanics.amount else None),
            (
                (*path, "perCostStep", "dice"),
                mechanics.per_cost_step.dice if mechanics.per_cost_step else None,
            ),
            (
                (*path, "rider", "amount", "dice"),
                mechanics.rider.amount.dice if mechanics.rider else None,
            ),
        ]
        dice += [((*path, "plus", at, "dice"), c.dice) for at, c in enumerate(mechanics.plus or ())]
        for at, written in dice:
            found = _SIDES.search(written or "")
            if written is not None and (found is None or int(found.group(1)) != sides):
                self.report(
                    at, f'A "dice-pool" fight throws d{sides}s, so damage dice are d{sides}s'
                )

    def save_difficulty(
        self, mechanics: Mechanics, combat: Combat, lists: set[str], path: Path
    ) -> None:
        """A save asked in a fight is rolled against its list's `saveDifficulty`: an entry that
        asks for one, landing in a list whose source declares none, would always be saved."""
        asks_applies = any(a.save_ends is not None for a in mechanics.applies or ())
        asks_plus = any(
            c.save is not None and c.save.difficulty is None for c in mechanics.plus or ()
        )
        if mechanics.save is None and not asks_applies and not asks_plus:
            return
        key = "save" if mechanics.save else "applies" if asks_applies else "plus"
        for source in combat.abilities or ():
            if source.list_ in lists and source.save_difficulty is None:
                self.report(
                    (*path, key),
                    f'The combat abilities source for "{source.list_}" declares no '
                    "saveDifficulty for this save to be rolled against",
                )

    def check_effect(self, check: CheckEffect, path: Path) -> None:
        """What a use does to a check: only a pool can honour it, within the pool's own rules."""
        resolution = self.ruleset.resolution
        if not isinstance(resolution, DicePool):
            self.report(
                path, f"A {resolution.kind} ruleset has no pool for a check effect to change"
            )
            return
        sides = resolution.die.sides
        if check.reroll is not None and check.reroll.up_to >= sides:
            self.report(
                (*path, "reroll", "upTo"),
                f"This ruleset throws d{sides}, so a re-throw is on a face from 1 to {sides - 1}",
            )
        target = resolution.target
        if check.threshold is not None and not target.min <= check.threshold <= target.max:
            self.report(
                (*path, "threshold"), f"This ruleset counts on {target.min} to {target.max}"
            )
        for name in ("explode", "double"):
            face, rule = getattr(check, name), getattr(resolution, name)
            lowest = rule.min if rule is not None else None
            if face is None:
                continue
            if lowest is None:
                self.report(
                    (*path, name),
                    f"This ruleset gives resolution.{name} no min, so no check may move it",
                )
            elif not lowest <= face <= sides:
                self.report(
                    (*path, name),
                    f"This ruleset lets a check move {name} from {lowest} to {sides}",
                )

    def _columns(self, list_id: str) -> set[str]:
        found: Any = self.index.lists.get(list_id)
        return {column.id for column in found.columns} if found is not None else set()
