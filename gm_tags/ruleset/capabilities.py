"""Capability gates: which feature of the format needs which Capability API minor.

A packaged ruleset declares the minor it was built against (`capabilityApi.minor`); a feature
needing a newer minor is refused, naming the feature and the minor. A single file imported on its
own is not gated. `FEATURES` is the one table of what needs what.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

from ..errors import Problem, join_path
from . import capabilities_catalogs as catalog_keys
from .document import RulesetFile
from .effects import CHECK_LEANS
from .resolution import DicePool
from .sheet import EnumTableDerived, MultiplyDerived, NumberColumn, TextColumn, TextField

Path = tuple[str | int, ...]

# (from this minor, this many derived values are allowed) (SH-7).
DERIVED_LIMITS = ((0, 60), (84, 120), (88, 240), (111, 400), (729, 800))
MOST_DERIVED = 800


@dataclass(frozen=True)
class Feature:
    name: str
    minor: int
    used_at: Callable[[RulesetFile], Iterator[Path]]


def _if(condition: bool, path: Path) -> Iterator[Path]:
    if condition:
        yield path


def _refs(ruleset: RulesetFile, kinds: set[str]) -> Iterator[Path]:
    """Paths of every value reference of one of `kinds`, anywhere in the file."""
    yield from _walk_refs(ruleset.model_dump(by_alias=True, exclude_none=True), (), kinds)


def _walk_refs(node: Any, path: Path, kinds: set[str]) -> Iterator[Path]:
    if isinstance(node, dict):
        for key, value in node.items():
            if key in kinds and path and path[-1] != "items":
                yield (*path, key)
            yield from _walk_refs(value, (*path, key), kinds)
    elif isinstance(node, list):
        for position, item in enumerate(node):
            yield from _walk_refs(item, (*path, position), kinds)


def _sheet_entries(ruleset: RulesetFile) -> Iterator[tuple[Path, Any]]:
    sheet = ruleset.sheet
    for name in ("abilities", "skills", "saves"):
        for position, entry in enumerate(getattr(sheet, name)):
            yield ("sheet", name, position), entry


def _sections_on_checks(ruleset: RulesetFile) -> Iterator[Path]:
    for path, entry in _sheet_entries(ruleset):
        yield from _if(entry.section is not None, (*path, "section"))


def _untrained(ruleset: RulesetFile) -> Iterator[Path]:
    for path, entry in _sheet_entries(ruleset):
        yield from _if(getattr(entry, "untrained", None) is not None, (*path, "untrained"))
    for position, section in enumerate(ruleset.sheet.sections):
        yield from _if(section.untrained is not None, ("sheet", "sections", position, "untrained"))


def _caps(ruleset: RulesetFile) -> Iterator[Path]:
    for path, entry in _sheet_entries(ruleset):
        yield from _if(getattr(entry, "cap", None) is not None, (*path, "cap"))


def _hide_when_ways(ruleset: RulesetFile) -> Iterator[Path]:
    dumped = ruleset.model_dump(by_alias=True, exclude_none=True)
    for path in _walk_refs(dumped, (), {"hideWhen"}):
        node: Any = dumped
        for part in path:
            node = node[part]
        if "notEquals" in node or "in" in node:
            yield path


def _tracks(ruleset: RulesetFile) -> Iterator[tuple[Path, Any]]:
    for position, track in enumerate(ruleset.sheet.live.tracks):
        yield ("sheet", "live", "tracks", position), track


def _box_features(ruleset: RulesetFile) -> Iterator[Path]:
    for path, track in _tracks(ruleset):
        for key in ("boxes", "fill", "onFull", "extra"):
            name = {"onFull": "on_full"}.get(key, key)
            yield from _if(getattr(track, name) is not None, (*path, key))
    for position, rest in enumerate(ruleset.rests):
        for step_position, step in enumerate(rest.restore):
            yield from _if(
                step.kind is not None, ("rests", position, "restore", step_position, "kind")
            )


def _plain_track_extras(ruleset: RulesetFile) -> Iterator[Path]:
    for path, track in _tracks(ruleset):
        yield from _if(track.always_show is not None, (*path, "alwaysShow"))
        yield from _if(not track.is_wound and not isinstance(track.max, int), (*path, "max"))
        yield from _if(not track.is_wound and track.hide_when is not None, (*path, "hideWhen"))


def _wound_tracks(ruleset: RulesetFile) -> Iterator[Path]:
    for path, track in _tracks(ruleset):
        yield from _if(track.levels is not None, (*path, "levels"))


def _spend_extras(ruleset: RulesetFile) -> Iterator[Path]:
    resolution = ruleset.resolution
    spends = (resolution.spend if isinstance(resolution, DicePool) else None) or []
    for position, spend in enumerate(spends):
        path = ("resolution", "spend", position)
        yield from _if(spend.reroll is not None, (*path, "reroll"))
        yield from _if(not isinstance(spend.per_check, int), (*path, "perCheck"))
    yield from _if(len(spends) > 2, ("resolution", "spend", 2))


def _layers(ruleset: RulesetFile) -> Iterator[Path]:
    # An empty array declares no variant, so it asks nothing of the Engine.
    yield from _if(bool(ruleset.layers), ("layers",))


def _summary_columns(ruleset: RulesetFile) -> Iterator[Path]:
    summary = ruleset.gm.sheet_summary
    lists = {sheet_list.id: sheet_list for sheet_list in ruleset.sheet.lists}
    for position, entry in enumerate(summary.lists if summary else []):
        path = ("gm", "sheetSummary", "lists", position)
        yield from _if(entry.columns is not None, (*path, "columns"))
        columns = {c.id: c for c in lists[entry.list_].columns} if entry.list_ in lists else {}
        name_column = columns.get(entry.name_column)
        yield from _if(
            name_column is not None and not isinstance(name_column, TextColumn),
            (*path, "nameColumn"),
        )


def _live_states(ruleset: RulesetFile) -> Iterator[Path]:
    yield from _if(bool(ruleset.sheet.live.states), ("sheet", "live", "states"))
    for position, derived in enumerate(ruleset.sheet.derived):
        yield from _if(isinstance(derived, EnumTableDerived), ("sheet", "derived", position))
    for position, rest in enumerate(ruleset.rests):
        for step_position, step in enumerate(rest.restore):
            yield from _if(
                step.state is not None, ("rests", position, "restore", step_position, "state")
            )


def _text_extras(ruleset: RulesetFile, key: str) -> Iterator[Path]:
    for position, sheet_field in enumerate(ruleset.sheet.fields):
        if isinstance(sheet_field, TextField) and getattr(sheet_field, key) is not None:
            yield ("sheet", "fields", position, key)
    for list_position, sheet_list in enumerate(ruleset.sheet.lists):
        for position, column in enumerate(sheet_list.columns):
            if isinstance(column, TextColumn) and getattr(column, key) is not None:
                yield ("sheet", "lists", list_position, "columns", position, key)


def _roll_columns(ruleset: RulesetFile) -> Iterator[Path]:
    for list_position, sheet_list in enumerate(ruleset.sheet.lists):
        for position, column in enumerate(sheet_list.columns):
            if isinstance(column, NumberColumn) and column.roll is not None:
                yield ("sheet", "lists", list_position, "columns", position, "roll")


def _pool_extras(ruleset: RulesetFile) -> Iterator[Path]:
    resolution = ruleset.resolution
    if not isinstance(resolution, DicePool):
        return
    for name in ("explode", "double"):
        rule = getattr(resolution, name)
        yield from _if(rule is not None and rule.min is not None, ("resolution", name, "min"))
    yield from _if(
        resolution.pool.ability_plus_ability is not None,
        ("resolution", "pool", "abilityPlusAbility"),
    )
    yield from _if(
        resolution.botch is not None and "rule" in resolution.botch.model_fields_set,
        ("resolution", "botch", "rule"),
    )


def _shared_rests(ruleset: RulesetFile) -> Iterator[Path]:
    for position, rest in enumerate(ruleset.rests):
        for step_position, step in enumerate(rest.restore):
            yield from _if(
                step.shared is not None, ("rests", position, "restore", step_position, "shared")
            )


def _party_creation(ruleset: RulesetFile) -> Iterator[Path]:
    party = ruleset.party
    if party is None:
        return
    for key in ("lists", "builder", "from_members"):
        alias = {"from_members": "fromMembers"}.get(key, key)
        yield from _if(getattr(party, key) is not None, ("party", alias))
    yield from _if(
        party.summary is not None and bool(party.summary.lists), ("party", "summary", "lists")
    )


def _wide_lists(ruleset: RulesetFile) -> Iterator[Path]:
    for position, sheet_list in enumerate(ruleset.sheet.lists):
        yield from _if(len(sheet_list.columns) > 12, ("sheet", "lists", position, "columns"))


def _condition_numbers(ruleset: RulesetFile) -> Iterator[Path]:
    """Condition numbers and levels (1.45): a condition's `modifiers` or check leans, `levels`."""
    combat = ruleset.combat
    if combat is None:
        return
    for position, condition in enumerate(combat.conditions or []):
        leans = any(effect in CHECK_LEANS for effect in condition.effects)
        path = ("combat", "conditions", position)
        yield from _if(condition.modifiers is not None, (*path, "modifiers"))
        yield from _if(leans, (*path, "effects"))
    yield from _if(combat.levels is not None, ("combat", "levels"))


def _narrowed_effects(ruleset: RulesetFile) -> Iterator[Path]:
    """What changes checks outside a fight (1.53): a condition's or level's `skills`, and a
    modifier's own `skills`, `saves` and `mode`."""
    combat = ruleset.combat
    if combat is None:
        return
    for key in ("conditions", "levels"):
        for position, source in enumerate(getattr(combat, key) or []):
            path: Path = ("combat", key, position)
            yield from _if(source.skills is not None, (*path, "skills"))
            for at, modifier in enumerate(source.modifiers or ()):
                for name in ("skills", "saves", "mode"):
                    yield from _if(
                        getattr(modifier, name) is not None, (*path, "modifiers", at, name)
                    )


def _derived_levels(ruleset: RulesetFile) -> Iterator[Path]:
    combat = ruleset.combat
    for position, level in enumerate(combat.levels or [] if combat else []):
        yield from _if(level.derived is not None, ("combat", "levels", position, "derived"))


def _present(key: str) -> Callable[[RulesetFile], Iterator[Path]]:
    """The top-level block `key` (its JSON name), when the file has it."""
    name = next(n for n, info in RulesetFile.model_fields.items() if (info.alias or n) == key)
    return lambda ruleset: _if(getattr(ruleset, name) is not None, (key,))


def _item_catalogs(ruleset: RulesetFile) -> Iterator[Path]:
    """A catalog whose header says it holds items, or whose entries carry one inline."""
    for position, catalog in enumerate(ruleset.catalogs or []):
        if catalog.holds == "items":
            yield ("catalogs", position, "holds")
        else:
            for at, entry in enumerate(catalog.entries or []):
                if entry.item is not None:
                    yield ("catalogs", position, "entries", at, "item")


def _creatures(ruleset: RulesetFile) -> Iterator[Path]:
    for position, catalog in enumerate(ruleset.catalogs or ()):
        if catalog.holds == "creatures":
            yield ("catalogs", position, "holds")


FEATURES: tuple[Feature, ...] = (
    Feature("catalogs", 21, _present("catalogs")),
    Feature("battle", 22, _present("battle")),
    Feature("scaled catalog columns", 23, lambda r: _refs(r, {"scaled"})),
    Feature(
        "the dice-pool resolution",
        24,
        lambda r: _if(isinstance(r.resolution, DicePool), ("resolution", "kind")),
    ),
    Feature("layers", 25, _layers),
    Feature(
        "gm.worldGuidance",
        25,
        lambda r: _if(r.gm.world_guidance is not None, ("gm", "worldGuidance")),
    ),
    Feature("combat", 26, _present("combat")),
    Feature(
        "catalog mechanics a fight reads (targetCount, autoHit, applies, temporary, scales, "
        "budget)",
        26,
        catalog_keys.fight_mechanics,
    ),
    Feature("creatures (a catalog that holds them)", 27, _creatures),
    Feature(
        "what one turn can do (plus, free, gives, standard, a rider)",
        29,
        catalog_keys.turn_economy,
    ),
    Feature("wound tracks (levels and kinds)", 30, _wound_tracks),
    Feature(
        "catalog entries that change a check (mechanics.check)", 30, catalog_keys.check_effects
    ),
    Feature("a reaction naming the moment it waits for", 33, catalog_keys.reaction_moments),
    Feature("explode/double min, pool.abilityPlusAbility and botch.rule", 37, _pool_extras),
    Feature(
        "alwaysShow, a plain track's max as a value reference and a plain track's hideWhen",
        37,
        _plain_track_extras,
    ),
    Feature("sheetSummary columns and an enum nameColumn", 37, _summary_columns),
    Feature("an entry moving explode or double for its check", 37, catalog_keys.check_faces),
    Feature(
        "resolution.adjust",
        38,
        lambda r: _if(r.resolution.adjust is not None, ("resolution", "adjust")),
    ),
    Feature(
        "named rerolls",
        38,
        lambda r: _if(
            isinstance(r.resolution, DicePool) and r.resolution.reroll is not None,
            ("resolution", "reroll"),
        ),
    ),
    Feature(
        'a spend buying a re-throw, a perCheck of "pool" or a value reference, '
        "and more than two spends",
        38,
        _spend_extras,
    ),
    Feature(
        "listSum, livePool and liveTrack",
        39,
        lambda r: _refs(r, {"listSum", "livePool", "liveTrack"}),
    ),
    Feature("cap", 39, _caps),
    Feature("hideWhen notEquals and in", 39, _hide_when_ways),
    Feature("boxes, fill, onFull, extra and a rest step's kind", 40, _box_features),
    Feature("sections on abilities, skills and saves", 41, _sections_on_checks),
    Feature("untrained", 41, _untrained),
    Feature("live states, enumTable and a rest step naming a state", 42, _live_states),
    Feature(
        "a reaction answering something used, or only some catalogs' entries",
        44,
        catalog_keys.used_moments,
    ),
    Feature("condition numbers, check leans and levels", 45, _condition_numbers),
    Feature("items", 49, _present("items")),
    Feature("a catalog of items", 49, _item_catalogs),
    Feature("itemStat", 52, lambda r: _refs(r, {"itemStat"})),
    Feature(
        "effects that change checks while active, reached, worn or carried "
        "(skills, a modifier's skills, saves and mode)",
        53,
        _narrowed_effects,
    ),
    Feature(
        "items that change checks while worn or carried, and a rarity cap's bonus",
        53,
        catalog_keys.item_effects,
    ),
    Feature("a level off a derived value", 54, _derived_levels),
    Feature("an item changing an ability while held", 54, catalog_keys.item_abilities),
    Feature("a shared poolGroup rest step", 77, _shared_rests),
    Feature(
        "multiply",
        82,
        lambda r: (
            ("sheet", "derived", p)
            for p, d in enumerate(r.sheet.derived)
            if isinstance(d, MultiplyDerived)
        ),
    ),
    Feature("roll columns", 85, _roll_columns),
    Feature("clocks", 143, _present("clocks")),
    Feature("the party sheet", 144, _present("party")),
    Feature("gmReference", 145, _present("gmReference")),
    Feature("shared party creation (party lists, builder, fromMembers)", 163, _party_creation),
    Feature("lists of more than 12 columns", 165, _wide_lists),
    Feature("gm.opposition", 774, lambda r: _if(r.gm.opposition is not None, ("gm", "opposition"))),
    Feature("suggestions", 796, lambda r: _text_extras(r, "suggestions")),
    Feature("pick", 797, lambda r: _text_extras(r, "pick")),
)


def derived_limit(minor: int | None) -> int:
    """How many derived values a ruleset may have, given the minor its package declares."""
    if minor is None:
        return MOST_DERIVED
    return max(limit for since, limit in DERIVED_LIMITS if since <= minor)


def minor_for_derived(count: int) -> int:
    return min(since for since, limit in DERIVED_LIMITS if limit >= count)


def gate(ruleset: RulesetFile, minor: int, manifest_schema: int) -> list[Problem]:
    """Every feature `ruleset` uses that needs a newer minor than the package declares."""
    problems: list[Problem] = []
    for feature in FEATURES:
        if feature.minor <= minor:
            continue
        for path in feature.used_at(ruleset):
            problems.append(
                Problem(
                    join_path(path),
                    f"{feature.name} needs Capability API "
                    f"1.{feature.minor}; the manifest declares 1.{minor}",
                )
            )
    if ruleset.gm_reference is not None and manifest_schema < 2:
        problems.append(
            Problem(
                "gmReference",
                f"gmReference needs manifest schemaVersion 2, found {manifest_schema}",
            )
        )
    count, limit = len(ruleset.sheet.derived), derived_limit(minor)
    if count > limit:
        needs = minor_for_derived(count)
        problems.append(
            Problem(
                "sheet.derived",
                f"{count} derived values need Capability API "
                f"1.{needs}; the manifest declares 1.{minor}, which allows {limit}",
            )
        )
    return problems
