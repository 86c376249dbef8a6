"""The published JSON Schema explains every key: editors show it on hover and while completing."""

from __future__ import annotations

import io
import json
from collections.abc import Iterator
from typing import Any

from gm_tags.cli import main
from gm_tags.ruleset.descriptions import BY_KEY, BY_OBJECT


def _published_schema() -> dict[str, Any]:
    out = io.StringIO()
    assert main(["schema"], out=out) == 0
    schema: dict[str, Any] = json.loads(out.getvalue())
    return schema


def _objects(schema: dict[str, Any]) -> Iterator[tuple[str, dict[str, Any]]]:
    yield "RulesetFile", schema
    yield from schema["$defs"].items()


def test_every_key_of_the_published_schema_has_a_description() -> None:
    undescribed = [
        f"{name}.{key}"
        for name, node in _objects(_published_schema())
        for key, prop in node.get("properties", {}).items()
        if not prop.get("description")
    ]
    assert undescribed == [], "describe them in gm_tags/ruleset/descriptions/"


def test_a_key_is_described_for_the_object_it_sits_in() -> None:
    defs = _published_schema()["$defs"]
    sum_step = defs["SumStep"]["properties"]["dc"]["description"]
    pool_step = defs["PoolStep"]["properties"]["successes"]["description"]
    assert "must reach" in sum_step and "successes a check" in pool_step
    # A key that means one thing in the pool block and another in a spend is told apart.
    pool_size, spent_pool = (defs[name]["properties"]["pool"] for name in ("DicePool", "Spend"))
    assert pool_size["description"] != spent_pool["description"]
    # The two objects that share a model name (`Cost`) each keep their own text.
    costs = [name for name in defs if name.endswith("Cost")]
    assert {defs[name]["properties"]["amount"]["description"] for name in costs} == {
        "How much of it one use costs.",
        "The price, in `unit`.",
    }


def test_no_description_is_written_for_a_key_or_object_the_format_does_not_have() -> None:
    schema = _published_schema()
    objects = dict(_objects(schema))
    every_key = {key for _, node in objects.items() for key in node.get("properties", {})}
    stale_objects = sorted(set(BY_OBJECT) - set(objects))
    stale_keys = sorted(
        f"{name}.{key}"
        for name, keys in BY_OBJECT.items()
        for key in keys
        if key not in objects.get(name, {}).get("properties", {})
    )
    assert (stale_objects, stale_keys) == ([], [])
    assert sorted(set(BY_KEY) - every_key) == []
