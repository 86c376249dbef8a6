"""Every bundled ruleset loads; every invalid one is refused at the path its fixture names."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from gm_tags import RulesetError, load_ruleset
from tests.ruleset.corpus import RULESETS, InvalidCase, invalid_cases, valid_sources

INVALID = invalid_cases()


@pytest.mark.parametrize("source", valid_sources(), ids=lambda path: path.name)
def test_valid_fixture_loads(source: Path) -> None:
    file = source / "ruleset.json" if source.is_dir() else source
    ruleset = load_ruleset(source)
    assert ruleset.id == json.loads(file.read_text(encoding="utf-8"))["id"]


@pytest.mark.parametrize("case", INVALID, ids=lambda case: case.name)
# The import-time rules the invalid corpus pins; `test_every_pinned_rule_has_a_fixture` keeps this
# list and the fixtures' own rule ids in step.
@pytest.mark.spec(
    "SH-1",
    "SH-2",
    "SH-3",
    "SH-4",
    "SH-5",
    "SH-6",
    "SH-7",
    "SH-8",
    "SH-9",
    "SH-10",
    "SH-11",
    "SH-12",
    "SH-13",
    "TG-9",
    "VR-1",
    "VR-2",
    "VR-3",
    "VR-5",
    "VR-8",
    "VR-9",
    "VR-10",
    "UT-1",
    "UT-3",
    "UT-4",
    "UT-8",
    "CP-1",
    "CP-3",
    "CP-4",
    "HW-1",
    "HW-2",
    "HW-4",
    "HW-5",
    "HW-6",
    "TR-1",
    "TR-2",
    "ST-1",
    "ST-2",
    "ST-7",
    "ST-8",
    "ET-1",
    "ET-3",
    "WT-2",
    "WT-3",
    "WT-4",
    "WT-5",
    "WT-6",
    "WT-16",
    "WT-18",
    "WT-19",
    "WT-20",
    "WB-1",
    "WB-2",
    "WB-5",
    "WB-6",
    "WB-7",
    "WB-11",
    "PN-1",
    "PN-4",
    "AD-1",
    "AD-2",
    "AD-6",
    "GM-4",
    "GM-6",
    "GM-8",
    "RF-1",
    "RF-2",
    "RF-4",
    "RS-1",
    "RS-2",
    "RS-3",
    "CL-1",
    "CL-2",
    "CL-3",
    "CL-4",
    "CL-5",
    "PT-1",
    "PT-2",
    "PT-3",
    "PT-4",
    "PT-5",
    "PT-6",
    "PT-7",
    "PT-13",
    "PT-17",
    # The items block and item catalogs, refused as the Engine's block game-ruleset-items pins.
    "engine:game-ruleset-items",
    # A catalog entry's mechanics, refused as the Engine's block game-ruleset-catalogs and its
    # schema's catalog entry checks do.
    "engine:game-ruleset-catalogs",
    # An item's worn and carried effects and a rarity cap's bonus (1.53), as its block
    # game-ruleset-check-effects refuses them.
    "engine:game-ruleset-check-effects",
)
def test_invalid_fixture_is_refused_at_its_path(case: InvalidCase) -> None:
    with pytest.raises(RulesetError) as refused:
        load_ruleset(case.source)
    paths = [problem.path for problem in refused.value.problems]
    at_or_under = [path for path in paths if path == case.path or path.startswith(case.path + ".")]
    assert at_or_under, f"{case.why}: expected a problem at {case.path}, got {paths}"


def test_every_pinned_rule_has_a_fixture() -> None:
    markers = test_invalid_fixture_is_refused_at_its_path.pytestmark  # type: ignore[attr-defined]
    pinned = {rule for marker in markers if marker.name == "spec" for rule in marker.args}
    covered = {rule for case in INVALID for rule in case.rules}
    assert pinned == covered


@pytest.mark.spec("SH-13")
def test_each_invalid_fixture_has_one_thing_wrong() -> None:
    """A fixture that is refused for an unrelated reason would pass for the wrong reason."""
    for case in INVALID:
        with pytest.raises(RulesetError) as refused:
            load_ruleset(case.source)
        unrelated = [
            p
            for p in refused.value.problems
            if not p.path.startswith(case.path) and not case.path.startswith(p.path)
        ]
        assert not unrelated, f"{case.name}: unrelated problems {unrelated}"


@pytest.mark.parametrize("name", ["ember-roads.json", "gravewatch.json"])
def test_reference_ruleset_loads_unchanged(reference_rulesets: Path, name: str) -> None:
    ruleset = load_ruleset(reference_rulesets / name)
    assert ruleset.id == name.removesuffix(".json")


@pytest.mark.parametrize("name", ["ember-roads.json", "gravewatch.json"])
def test_the_bundled_copies_of_the_reference_rulesets_match_the_published_ones(
    reference_rulesets: Path, name: str
) -> None:
    bundled = RULESETS / "reference" / name
    assert bundled.read_bytes() == (reference_rulesets / name).read_bytes()
    assert load_ruleset(bundled).id == name.removesuffix(".json")
