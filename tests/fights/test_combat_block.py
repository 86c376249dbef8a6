"""The combat block at import: both reference rulesets' blocks read as the Engine reads them, and
every name the block uses is refused at its own path when it points at nothing, or at the wrong
sort of thing."""

from __future__ import annotations

import copy
import json
from collections.abc import Callable
from typing import Any

import pytest

from gm_tags import RulesetError
from gm_tags.ruleset.checks_combat import parse_dice
from gm_tags.ruleset.loader import validate
from tests.conftest import FIXTURES

REFERENCE = FIXTURES / "rulesets" / "reference"
_DOCUMENTS = {
    name: json.loads((REFERENCE / f"{name}.json").read_text(encoding="utf-8"))
    for name in ("gravewatch", "ember-roads")
}

Edit = Callable[[dict[str, Any]], None]


def _edited(name: str, edit: Edit) -> dict[str, Any]:
    document = copy.deepcopy(_DOCUMENTS[name])
    edit(document)
    return document


def _refused_at(name: str, edit: Edit) -> list[str]:
    with pytest.raises(RulesetError) as refused:
        validate(_edited(name, edit))
    return [problem.path for problem in refused.value.problems]


def test_both_reference_blocks_read_as_written() -> None:
    grave = validate(_edited("gravewatch", lambda d: None)).definition.combat
    ember = validate(_edited("ember-roads", lambda d: None)).definition.combat
    assert grave is not None and ember is not None
    assert (grave.kind, grave.health.track, grave.initiative.each) == ("dice-pool", "harm", "round")
    assert grave.damage_kinds is not None and grave.damage_kinds.by_type["tearing"] == "tear"
    assert [b.id for b in grave.economy.budgets] == ["act", "quick"]
    assert grave.pool is not None and grave.pool.damage_target == 6
    assert (ember.kind, ember.health.pool) == ("attack-vs-defense", "grit")
    assert ember.attack_roll is not None and ember.attack_roll.dice.count == 2
    assert ember.attack_roll.naturals.max == "none" and ember.attack_roll.critical == "none"
    assert ember.threat is not None and ember.threat.tiers[0].id == "stray"


def _combat(edit: Callable[[dict[str, Any]], None]) -> Edit:
    return lambda document: edit(document["combat"])


def _set(path: str, value: Any) -> Edit:
    def edit(document: dict[str, Any]) -> None:
        *head, last = path.split(".")
        node: Any = document
        for key in head:
            node = node[int(key)] if key.isdigit() else node[key]
        node[int(last) if last.isdigit() else last] = value

    return edit


REFUSALS = [
    ("ember-roads", _set("combat.health", {"pool": "vigour"}), "combat.health.pool"),
    ("ember-roads", _set("combat.health", {"pool": "grit", "track": "heat"}), "combat.health"),
    ("ember-roads", _set("combat.defense", {"derived": "armour"}), "combat.defense.derived"),
    (
        "ember-roads",
        _set("combat.initiative.modifier", {"abilityMod": "luck"}),
        "combat.initiative",
    ),
    ("ember-roads", _set("combat.attackRoll.naturals", {"max": "critical"}), "combat.attackRoll"),
    ("ember-roads", _set("combat.kind", "grid-tactics"), "combat.kind"),
    ("ember-roads", _set("combat.reach", 5), "combat"),
    ("ember-roads", _set("combat.attacks.0.budget", "swing"), "combat.attacks.0.budget"),
    ("ember-roads", _set("combat.attacks.0.name", "title"), "combat.attacks.0.name"),
    ("ember-roads", _set("combat.attacks.0.name", "bulk"), "combat.attacks.0.name"),
    ("ember-roads", _set("combat.attacks.0.list", "weapons"), "combat.attacks.0.list"),
    (
        "ember-roads",
        _set("combat.attacks.0.damage.dice", {"column": "name"}),
        "combat.attacks.0.damage.dice.column",
    ),
    (
        "ember-roads",
        _set("combat.attacks.0.toHit.ability", {"column": "damage"}),
        "combat.attacks.0.toHit.ability.column",
    ),
    ("ember-roads", _set("combat.abilities.0.budget", "move"), "combat.abilities.0.budget"),
    ("ember-roads", _set("combat.conditions.0.condition", "hexed"), "combat.conditions.0"),
    ("ember-roads", _set("combat.conditions.1.condition", "shaken"), "combat.conditions.1"),
    ("ember-roads", _set("combat.conditions.0.effects", ["hard-to-see"]), "combat.conditions.0"),
    ("ember-roads", _set("combat.levels.0.track", "fatigue"), "combat.levels.0.track"),
    (
        "ember-roads",
        _set("combat.contests.0.attacker.checks", ["grip"]),
        "combat.contests.0.attacker.checks.0",
    ),
    (
        "ember-roads",
        _set("combat.contests.0.onWin.applies", [{"condition": "hexed"}]),
        "combat.contests.0.onWin.applies.0.condition",
    ),
    ("ember-roads", _set("combat.contests.1.budget", "move"), "combat.contests.1.budget"),
    ("ember-roads", _set("combat.standard", ["dodge", "dodge"]), "combat.standard.1"),
    ("ember-roads", _set("combat.threat.tiers.0.health", [12, 3]), "combat.threat.tiers.0.health"),
    ("ember-roads", _set("combat.threat.tiers.1.id", "stray"), "combat.threat.tiers.1.id"),
    ("ember-roads", _set("combat.damageTypes", ["fire", "Fire"]), "combat.damageTypes.1"),
    (
        "ember-roads",
        _set("combat.economy.budgets", [{"id": "act", "label": "A", "per": "turn"}] * 2),
        "combat.economy.budgets.1.id",
    ),
    ("gravewatch", _set("combat.health", {"track": "lantern"}), "combat.health.track"),
    ("gravewatch", _set("combat.damageKinds.default", "bruise"), "combat.damageKinds.default"),
    (
        "gravewatch",
        _set("combat.damageKinds.byType", {"tearing": "gash"}),
        "combat.damageKinds.byType.tearing",
    ),
    (
        "gravewatch",
        _set("combat.damageKinds.byType", {"freezing": "tear"}),
        "combat.damageKinds.byType.freezing",
    ),
    ("gravewatch", _set("combat.damageKinds.marks", "per-hit"), "combat.damageKinds.marks"),
    ("gravewatch", _set("combat.pool.soak.byKind", {"scar": {"const": 1}}), "combat.pool.soak"),
    ("gravewatch", _set("combat.spendLimits.0.pool", "oil"), "combat.spendLimits.0.pool"),
    ("gravewatch", _set("combat.pool", None), "combat"),
    ("gravewatch", _set("catalogs.1.entries.0.creature.tier", "legend"), "catalogs.1.entries.0"),
    (
        "gravewatch",
        _set("catalogs.1.entries.0.creature.actions.0.budget", "swift"),
        "catalogs.1.entries.0.creature.actions.0.budget",
    ),
    (
        "gravewatch",
        _set("catalogs.1.entries.0.creature.actions.0.damage.dice", "rope"),
        "catalogs.1.entries.0.creature.actions.0.damage.dice",
    ),
    (
        "gravewatch",
        _set(
            "catalogs.1.entries.0.creature.actions.0.save",
            {"save": "grit", "difficulty": 2, "onSuccess": "half"},
        ),
        "catalogs.1.entries.0.creature.actions.0.save.save",
    ),
    (
        "gravewatch",
        _set(
            "catalogs.1.entries.0.creature.actions.0.save",
            {"save": "steel", "onSuccess": "half"},
        ),
        "catalogs.1.entries.0.creature.actions.0.save",
    ),
]


@pytest.mark.parametrize(
    ("name", "edit", "path"), REFUSALS, ids=[f"{case[0]}:{case[2]}" for case in REFUSALS]
)
def test_a_name_the_block_uses_is_refused_at_its_path(name: str, edit: Edit, path: str) -> None:
    paths = _refused_at(name, edit)
    assert any(found == path or found.startswith(path + ".") for found in paths), paths


def test_health_on_a_wound_track_needs_damage_kinds() -> None:
    paths = _refused_at("gravewatch", _combat(lambda combat: combat.pop("damageKinds")))
    assert paths == ["combat.damageKinds"]


def test_a_pool_that_starts_empty_cannot_be_health() -> None:
    def edit(document: dict[str, Any]) -> None:
        document["sheet"]["live"]["pools"][1]["start"] = "empty"
        document["combat"]["health"] = {"pool": "luck"}

    assert _refused_at("ember-roads", edit) == ["combat.health.pool"]


def test_a_creature_catalog_needs_a_combat_block() -> None:
    def edit(document: dict[str, Any]) -> None:
        del document["combat"]
        document.pop("battle", None)

    assert "catalogs.1.holds" in _refused_at("ember-roads", edit)


@pytest.mark.spec("FT-5")
def test_temporary_points_are_refused_where_health_is_a_wound_track() -> None:
    def edit(document: dict[str, Any]) -> None:
        entry = document["catalogs"][0]["entries"][0]
        entry.setdefault("mechanics", {})["temporary"] = {"flat": 2}

    assert _refused_at("gravewatch", edit) == ["catalogs.0.entries.0.mechanics.temporary"]


@pytest.mark.spec("FT-6", "WT-6")
def test_pool_health_keeps_damage_types_and_refuses_only_damage_kinds() -> None:
    with_types = _edited(
        "ember-roads", _set("combat.damageTypes", ["cut", "burn", "crush", "coldfire"])
    )
    assert validate(with_types).definition.combat is not None
    kinds = {"default": "strain", "marks": "per-blow"}
    assert _refused_at("ember-roads", _set("combat.damageKinds", kinds)) == ["combat.damageKinds"]


@pytest.mark.parametrize(
    ("text", "read"),
    [
        ("2d6", (2, 6, 0)),
        (" 1D8 + 3 ", (1, 8, 3)),
        ("1d8-1", (1, 8, -1)),
        ("7", (0, 0, 7)),
        ("", None),
        ("rope", None),
        ("d6", None),
        ("2d", None),
        ("2d6+", None),
        ("2d6 3", None),
        ("1234d6", None),
        ("2d6+3+1", None),
        ("2d6" + " " * 100 + "+3", None),
    ],
)
def test_a_dice_column_reads_only_real_dice(text: str, read: tuple[int, int, int] | None) -> None:
    assert parse_dice(text) == read
