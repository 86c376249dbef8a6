"""The items block and item catalogs at import, as the Engine's block game-ruleset-items pins them.
(Every refusal has an invalid fixture in fixtures/rulesets/invalid/items-*.json.)"""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest

from gm_tags import Ruleset
from gm_tags.ruleset.capabilities import gate
from gm_tags.ruleset.document import RulesetFile
from tests.ruleset.corpus import RULESETS


def _reference(name: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((RULESETS / "reference" / name).read_text("utf-8"))
    return data


def test_both_examples_carry_items_in_their_own_words(ember: Ruleset, gravewatch: Ruleset) -> None:
    """game-ruleset-items: "Both examples carry items, and neither is 5e-shaped"."""
    road, watch = ember.definition.items, gravewatch.definition.items
    assert road is not None and watch is not None
    assert (road.native, road.freeform) == (True, "plain")
    assert road.carry is not None and road.carry.stat == "bulk"
    assert [(f.id, [u.value for u in f.units]) for f in road.currencies or []] == [
        ("coin", [1, 10, 100]),
        ("salt", [1, 20]),
    ]
    assert watch.carry is None and watch.binding is not None
    assert watch.binding.max.ability_score == "nerve"
    assert [stat.id for stat in watch.stats if not stat.prompt_visible] == ["conceal"]


def _without_newer_keys(data: dict[str, Any]) -> dict[str, Any]:
    """The example less its rarity caps (1.51), item reads (1.52) and item effects (1.53)."""
    data = copy.deepcopy(data)
    data["items"].pop("rarityCaps", None)
    for derived in data["sheet"]["derived"]:
        if "of" in derived:
            derived["of"] = [ref for ref in derived["of"] if "itemStat" not in ref]
    data["sheet"]["derived"] = [d for d in data["sheet"]["derived"] if d.get("of") != []]
    return data


@pytest.mark.parametrize("where", ["block", "catalog header"])
def test_items_need_capability_api_1_49(where: str) -> None:
    """game-ruleset-items, "Install gate": the block and the catalog's header each need 1.49."""
    data = _without_newer_keys(_reference("ember-roads.json"))
    if where == "catalog header":
        del data["items"]
    definition = RulesetFile.model_validate(data)
    paths = {
        problem.path
        for problem in gate(definition, 48, 2)
        if "needs Capability API 1.49" in problem.message
    }
    expected = "items" if where == "block" else "catalogs.2.holds"
    assert expected in paths
    assert not [p for p in gate(definition, 49, 2) if "needs Capability API 1.49" in p.message]
