"""Import checks on the blocks beside the sheet: resolution, rests, gm, party, and the parts of
catalogs our rules read (combat: `checks_combat.py`; layers: `checks_layers.py`).
"""

from __future__ import annotations

from typing import Any

from .checks import Path, Reporter
from .document import Party, RestoreStep, SheetSummary
from .index import by_id
from .refs import ValueRef
from .resolution import DicePool, DiceSum, PoolStep, Reroll
from .sheet import (
    BooleanColumn,
    EnumColumn,
    LongTextField,
    NumberField,
    SheetList,
    TextColumn,
    TextField,
)


class BlockChecks(Reporter):
    def run(self) -> None:
        self.resolution()
        self.unique(self.ruleset.rests, ("rests",))
        for position, rest in enumerate(self.ruleset.rests):
            for step_position, step in enumerate(rest.restore):
                self.rest_step(step, ("rests", position, "restore", step_position))
            self.rest_clear(rest.clear, ("rests", position, "clear"))
        if self.ruleset.gm.sheet_summary is not None:
            self.summary(
                self.ruleset.gm.sheet_summary,
                ("gm", "sheetSummary"),
                self.index.fields,
                self.index.lists,
            )
        if self.ruleset.party is not None:
            self.party(self.ruleset.party)

    # resolution ---------------------------------------------------------------------------

    def resolution(self) -> None:
        resolution, index = self.ruleset.resolution, self.index
        path: Path = ("resolution",)
        if (
            resolution.penalty_from is not None
            and self.exists(
                index.tracks, resolution.penalty_from, (*path, "penaltyFrom"), "live track"
            )
            and not index.tracks[resolution.penalty_from].is_wound
        ):
            self.report(
                (*path, "penaltyFrom"),
                f"{resolution.penalty_from!r} is a plain track; "
                "penaltyFrom names a wound track (kinds with levels or boxes)",
            )
        if resolution.proficiency is not None:
            at = (*path, "proficiency", "bonus")
            self.ref(resolution.proficiency.bonus, at)
            self.no_live_read(resolution.proficiency.bonus, at, "the proficiency bonus")
            self.no_skill_read(resolution.proficiency.bonus, at, "the proficiency bonus")
        if resolution.ability_modifier.op == "stepTable":
            self.ascending(resolution.ability_modifier.table, (*path, "abilityModifier", "table"))
        for position, adjust in enumerate(resolution.adjust or []):
            self.ref(adjust.value, (*path, "adjust", position, "value"))
            for ability_position, ability in enumerate(adjust.abilities or []):
                self.exists(
                    index.abilities,
                    ability,
                    (*path, "adjust", position, "abilities", ability_position),
                    "ability",
                )
        if isinstance(resolution, DiceSum):
            self.dice_sum(resolution, path)
        else:
            self.dice_pool(resolution, path)

    def dice_sum(self, resolution: DiceSum, path: Path) -> None:
        if resolution.spend is not None:
            self.report(
                (*path, "spend"),
                "spend buys dice or successes on a pool; a dice-sum ruleset cannot use it",
            )
        naturals = resolution.naturals
        if resolution.dice.count > 1 and (naturals.check != "none" or naturals.save != "none"):
            self.report(
                (*path, "naturals"),
                f"naturals need a single die; this ruleset throws "
                f"{resolution.dice.count}d{resolution.dice.sides}",
            )
        for name in ("skills", "saves"):
            for position, entry in enumerate(getattr(self.ruleset.sheet, name)):
                if entry.untrained == "harder":
                    self.report(
                        ("sheet", name, position, "untrained"),
                        '"harder" moves a pool\'s '
                        "per-die target and could never change a dice-sum roll",
                    )
        for position, section in enumerate(self.ruleset.sheet.sections):
            if section.untrained == "harder":
                self.report(
                    ("sheet", "sections", position, "untrained"),
                    '"harder" moves a '
                    "pool's per-die target and could never change a dice-sum roll",
                )

    def dice_pool(self, resolution: DicePool, path: Path) -> None:
        sides, target = resolution.die.sides, resolution.target
        faces = {
            ("target", "default"): target.default,
            ("target", "min"): target.min,
            ("target", "max"): target.max,
        }
        for name in ("double", "explode"):
            rule = getattr(resolution, name)
            if rule is not None:
                faces[(name, "from")] = rule.from_
                faces[(name, "min")] = rule.min
                if rule.from_ is not None and rule.min is not None and rule.from_ < rule.min:
                    # At the face that is out of place, as the Engine reports it.
                    self.report((*path, name, "from"), f"from {rule.from_} is below min {rule.min}")
        for key, face in faces.items():
            if face is not None and face > sides:
                self.report((*path, *key), f"face {face} does not exist on a d{sides}")
        if target.min > target.max:
            self.report((*path, "target", "min"), f"min {target.min} is above max {target.max}")
        elif not target.min <= target.default <= target.max:
            self.report(
                (*path, "target", "default"),
                f"default {target.default} is outside min..max ({target.min}..{target.max})",
            )
        if resolution.pool.min > resolution.pool.max:
            self.report(
                (*path, "pool", "min"),
                f"min {resolution.pool.min} is above max {resolution.pool.max}",
            )
        most = resolution.most_successes
        if resolution.exceptional and resolution.exceptional.successes > most:
            self.report(
                (*path, "exceptional", "successes"),
                f"found {resolution.exceptional.successes}; one roll counts at most {most}",
            )
        pool_ladder(self, resolution, resolution.difficulty_ladder, (*path, "difficultyLadder"))
        # A re-throw, named or bought, reaching the top face would throw every die again (and an
        # `until` one would throw without end).
        rethrows: list[tuple[Path, Reroll]] = [
            ((*path, "reroll", at), named) for at, named in enumerate(resolution.reroll or [])
        ]
        rethrows += [
            ((*path, "spend", at, "reroll"), spend.reroll)
            for at, spend in enumerate(resolution.spend or [])
            if spend.reroll is not None
        ]
        reach = f"a re-throw reaches faces 1 to {sides - 1} on a d{sides}"
        for at, rethrow in rethrows:
            if rethrow.up_to >= sides:
                self.report((*at, "upTo"), f"found {rethrow.up_to}; {reach}")
        for name in ("cancel", "botch"):
            rule = getattr(resolution, name)
            if rule is not None and rule.up_to >= target.min:
                self.report(
                    (*path, name, "upTo"),
                    f"faces up to {rule.up_to} must be below the lowest target ({target.min})",
                )
        self.untrained_harder(target.min < target.max)
        for position, spend in enumerate(resolution.spend or []):
            at = (*path, "spend", position)
            if (
                self.exists(self.index.pools, spend.pool, (*at, "pool"), "live pool")
                and self.index.pools[spend.pool].start == "empty"
            ):
                self.report(
                    (*at, "pool"),
                    f"pool {spend.pool!r} starts empty; a standing spend "
                    "rule needs a pool that starts full",
                )
            if isinstance(spend.per_check, ValueRef):
                self.ref(spend.per_check, (*at, "perCheck"))
        self.unique(resolution.spend or [], (*path, "spend"), what="pool")
        self.unique(resolution.reroll or [], (*path, "reroll"))

    def untrained_harder(self, movable: bool) -> None:
        if movable:
            return
        sheet = self.ruleset.sheet
        entries = [("sections", p, e) for p, e in enumerate(sheet.sections)]
        entries += [
            (name, p, e) for name in ("skills", "saves") for p, e in enumerate(getattr(sheet, name))
        ]
        for name, position, entry in entries:
            if entry.untrained == "harder":
                self.report(
                    ("sheet", name, position, "untrained"),
                    '"harder" needs a pool target that can move (resolution.target min below max)',
                )

    # rests --------------------------------------------------------------------------------

    def rest_step(self, step: RestoreStep, path: Path) -> None:
        index, kind = self.index, step.target_kind
        at = (*path, kind)
        if kind == "pool":
            self.exists(index.pools, step.pool, at, "live pool")
        elif kind == "poolGroup":
            groups = {pool.group: pool for pool in index.pools.values() if pool.group}
            self.exists(groups, step.pool_group, at, "pool group")
        elif kind == "listPools":
            self.list_pools_step(step, path)
        elif kind == "track":
            self.track_step(step, path)
        elif kind == "state" and self.exists(index.states, step.state, at, "live state"):
            state = index.states[str(step.state)]
            if step.by is not None:
                self.report(
                    (*path, "by"),
                    "a step naming a live state only sets it: use "
                    '"to": "default" or one of its values',
                )
            elif step.to != "default" and step.to not in state.values:
                self.report(
                    (*path, "to"),
                    f'found {step.to!r}; a state step sets "default" or '
                    f"one of {', '.join(state.values)}",
                )
        if kind != "track" and step.kind is not None:
            self.report((*path, "kind"), "kind narrows a step naming a wound track")
        if kind != "poolGroup" and step.shared is not None:
            self.report((*path, "shared"), "shared belongs to a poolGroup step")
        if kind != "state" and isinstance(step.to, str) and step.to not in {"max", "min"}:
            self.report((*path, "to"), f'found {step.to!r}; allowed: "max", "min" or a number')

    def list_pools_step(self, step: RestoreStep, path: Path) -> None:
        at = (*path, "listPools")
        if not self.exists(self.index.lists, step.list_pools, at, "list"):
            return
        sheet_list = self.index.lists[str(step.list_pools)]
        if sheet_list.pools is None:
            self.report(at, f"list {sheet_list.id!r} has no pools")
            return
        recharge_column = sheet_list.pools.recharge_column
        columns = {c.id: c for c in sheet_list.columns}
        column = columns.get(recharge_column) if recharge_column else None
        for position, value in enumerate(step.recharge or []):
            if isinstance(column, EnumColumn) and value not in column.values:
                self.report(
                    (*path, "recharge", position),
                    f"{value!r} is not a value of column "
                    f"{column.id!r} ({', '.join(column.values)})",
                )

    def track_step(self, step: RestoreStep, path: Path) -> None:
        if not self.exists(self.index.tracks, step.track, (*path, "track"), "live track"):
            return
        track = self.index.tracks[str(step.track)]
        if step.kind is not None:
            if not track.is_wound:
                self.report((*path, "kind"), f"kind narrows a wound track; {track.id!r} is plain")
            else:
                kinds = {kind.id: kind for kind in track.kinds or []}
                self.exists(kinds, step.kind, (*path, "kind"), "kind")

    def rest_clear(self, clear: Any, path: Path) -> None:
        for position, text_id in enumerate(clear.text):
            self.exists(self.index.text, text_id, (*path, "text", position), "live text")
        if clear.conditions != "all":
            for position, condition in enumerate(clear.conditions):
                self.exists(
                    self.index.conditions, condition, (*path, "conditions", position), "condition"
                )

    # gm and party -------------------------------------------------------------------------

    def summary(
        self,
        summary: SheetSummary,
        path: Path,
        fields: dict[str, Any],
        lists: dict[str, SheetList],
        *,
        derived: bool = True,
    ) -> None:
        for position, field_id in enumerate(summary.fields):
            self.exists(fields, field_id, (*path, "fields", position), "field")
        for position, derived_id in enumerate(summary.derived):
            if derived:
                self.exists(
                    self.index.derived, derived_id, (*path, "derived", position), "derived value"
                )
            else:
                self.report((*path, "derived", position), "a party summary has no derived values")
        for position, entry in enumerate(summary.lists):
            at = (*path, "lists", position)
            if not self.exists(lists, entry.list_, (*at, "list"), "list"):
                continue
            columns = {c.id: c for c in lists[entry.list_].columns}
            if self.exists(
                columns, entry.name_column, (*at, "nameColumn"), "column"
            ) and not isinstance(columns[entry.name_column], TextColumn | EnumColumn):
                self.report((*at, "nameColumn"), "nameColumn must be a text or enum column")
            for column_position, column in enumerate(entry.columns or []):
                self.exists(columns, column, (*at, "columns", column_position), "column")
            self.exists(columns, entry.group_by, (*at, "groupBy"), "column")
            if (
                entry.only_when is not None
                and self.exists(columns, entry.only_when, (*at, "onlyWhen"), "column")
                and not isinstance(columns[entry.only_when], BooleanColumn)
            ):
                self.report((*at, "onlyWhen"), "onlyWhen names a boolean column")

    def party(self, party: Party) -> None:
        path: Path = ("party",)
        fields = by_id(party.fields)
        self.unique([*party.fields, *party.pools], path)
        for position, party_field in enumerate(party.fields):
            at = (*path, "fields", position)
            if getattr(party_field, "section", None) is not None:
                self.report((*at, "section"), "a party sheet has no sections")
            self.field_shape(party_field, at)
            self.hide_when(party_field.hide_when, at, fields)
        for position, pool in enumerate(party.pools):
            at = (*path, "pools", position)
            self.hide_when(pool.hide_when, at, fields)
            reads = pool.max.kind
            if reads == "field":
                target = fields.get(str(pool.max.target))
                if not isinstance(target, NumberField):
                    self.report(
                        (*at, "max", "field"),
                        f"{pool.max.target!r} is not a number field of the party sheet",
                    )
            elif reads != "const":
                self.report(
                    (*at, "max"),
                    f"a party pool's max reads a constant or a number party field, found {reads}",
                )
        party_lists = by_id(party.lists or [])
        self.unique(party.lists or [], (*path, "lists"))
        for position, party_list in enumerate(party.lists or []):
            at = (*path, "lists", position)
            if party_list.section is not None:
                self.report((*at, "section"), "a party sheet has no sections")
            self.hide_when(party_list.hide_when, at, fields)
            self.unique(party_list.columns, (*at, "columns"))
            for column_position, column in enumerate(party_list.columns):
                self.field_shape(column, (*at, "columns", column_position))
        if party.advancement is not None:
            for position, field_id in enumerate(party.advancement.fields):
                at = (*path, "advancement", "fields", position)
                if self.exists(fields, field_id, at, "party field") and not isinstance(
                    fields[field_id], NumberField | TextField | LongTextField
                ):
                    self.report(
                        at,
                        f"{field_id!r} is a {fields[field_id].type} field; "
                        "advancement names number, text or longtext fields",
                    )
        if party.summary is not None:
            self.summary(party.summary, (*path, "summary"), fields, party_lists, derived=False)
        if party.builder is not None:
            self.party_builder(party.builder, party_lists, fields)
        for position, member in enumerate(party.from_members or []):
            at = (*path, "fromMembers", position)
            if self.exists(fields, member.field, (*at, "field"), "party field") and not isinstance(
                fields[member.field], NumberField
            ):
                self.report((*at, "field"), f"{member.field!r} is not a number field")
            if (
                member.sum is not None
                and self.exists(self.index.fields, member.sum, (*at, "sum"), "character field")
                and not isinstance(self.index.fields[member.sum], NumberField)
            ):
                self.report((*at, "sum"), f"{member.sum!r} is not a number field")

    def party_builder(
        self, builder: dict[str, Any], party_lists: dict[str, Any], fields: dict[str, Any]
    ) -> None:
        """The party's builder is held to the character builder's rules against the party's own
        fields and lists: every step names party lists and fields, and a catalog it reads must
        feed a party list. The rest of a builder is carried as data (docs/ruleset-format.md)."""
        feeding = {
            catalog.id
            for catalog in self.ruleset.catalogs or []
            if any(feed in party_lists for feed in catalog.feeds)
        }
        steps = builder.get("steps")
        for position, step in enumerate(steps if isinstance(steps, list) else []):
            if not isinstance(step, dict):
                continue
            at: Path = ("party", "builder", "steps", position)
            if isinstance(step.get("list"), str):
                self.exists(party_lists, step["list"], (*at, "list"), "party list")
            if isinstance(step.get("field"), str):
                self.exists(fields, step["field"], (*at, "field"), "party field")
            for field_position, field_id in enumerate(step.get("fields") or []):
                if isinstance(field_id, str):
                    self.exists(fields, field_id, (*at, "fields", field_position), "party field")
            catalog = step.get("catalog")
            if isinstance(catalog, str) and catalog not in feeding:
                self.report(
                    (*at, "catalog"),
                    f"catalog {catalog!r} feeds no party list; a party builder reads catalogs "
                    "that feed the party's lists",
                )

    # sections carried as data -------------------------------------------------------------


def pool_ladder(
    reporter: Reporter, resolution: DicePool, steps: list[PoolStep], path: Path
) -> None:
    """A pool ladder's steps (the ruleset's own or a layer's): successes one roll can count, and a
    target only where the target can move, within its range."""
    most, target = resolution.most_successes, resolution.target
    movable = target.min < target.max
    for position, step in enumerate(steps):
        if step.successes > most:
            reporter.report(
                (*path, position, "successes"),
                f"found {step.successes}; one roll counts at most {most}",
            )
        if step.target is None:
            continue
        at = (*path, position, "target")
        if not movable:
            reporter.report(
                at,
                "a step may name a target only where the target can move "
                "(target.min below target.max)",
            )
        elif not target.min <= step.target <= target.max:
            reporter.report(at, f"target {step.target} is outside {target.min}..{target.max}")
