"""A packaged ruleset declares the Capability API minor it needs: every catalog key a minor
brought is gated at that minor, at the entry's own path, inline or in a catalog asset file (the
Engine's install gate, as its blocks game-ruleset-check-effects and game-ruleset-check-rules read
it)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.test_engine_layers import gated_paths, reference


def entry_at(data: dict[str, Any], entry_id: str) -> str:
    for position, catalog in enumerate(data["catalogs"]):
        for at, entry in enumerate(catalog.get("entries", ())):
            if entry["id"] == entry_id:
                return f"catalogs.{position}.entries.{at}"
    raise AssertionError(entry_id)


@pytest.mark.parametrize(
    ("ruleset", "entry", "key", "minor"),
    [
        ("gravewatch", "stern-word", "mechanics.applies", 26),
        ("gravewatch", "stern-word", "mechanics.budget", 26),
        ("ember-roads", "coldfire-toss", "mechanics.targetCount", 26),
        ("ember-roads", "second-breath", "mechanics.gives", 29),
        ("ember-roads", "second-breath", "mechanics.free", 29),
        ("gravewatch", "steady-hand", "mechanics.check", 30),
        ("gravewatch", "grave-sight", "mechanics.check.explode", 37),
        ("ember-roads", "smother", "mechanics.reaction", 44),
        ("ember-roads", "leather-coat", "item.worn", 53),
        ("ember-roads", "waystone", "item.carried", 53),
        ("ember-roads", "ox-hide-gauntlets", "item.worn.abilities", 54),
    ],
)
@pytest.mark.spec("engine:game-ruleset-check-effects", "engine:game-ruleset-check-rules")
def test_a_catalog_key_is_gated_at_the_minor_that_brought_it(
    tmp_path: Path, ruleset: str, entry: str, key: str, minor: int
) -> None:
    data = reference(ruleset)
    path = f"{entry_at(data, entry)}.{key}"
    assert path in gated_paths(tmp_path, data, minor - 1)
    assert path not in gated_paths(tmp_path, data, minor)


@pytest.mark.spec("engine:game-ruleset-check-effects")
def test_a_rarity_caps_bonus_is_1_53(tmp_path: Path) -> None:
    data = reference("ember-roads")
    assert "items.rarityCaps.0.bonus" in gated_paths(tmp_path, data, 52)
    assert "items.rarityCaps.0.bonus" not in gated_paths(tmp_path, data, 53)


@pytest.mark.spec("engine:game-ruleset-check-effects")
def test_a_moment_is_1_33_and_one_answering_a_use_1_44(tmp_path: Path) -> None:
    data = reference("ember-roads")
    path = f"{entry_at(data, 'smother')}.mechanics.reaction"
    assert path in gated_paths(tmp_path, data, 43)
    data["catalogs"][0]["entries"][7]["mechanics"]["reaction"] = {"on": "aimed", "cancels": True}
    assert path in gated_paths(tmp_path, data, 32)
    assert path not in gated_paths(tmp_path, data, 33)
    data["catalogs"][0]["entries"][7]["mechanics"]["reaction"] = True
    assert path not in gated_paths(tmp_path, data, 26)
