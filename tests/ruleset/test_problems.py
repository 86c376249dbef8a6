"""Problems are reported as a ruleset author needs them: every one, at its path, saying what was
found and what is allowed."""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest

from gm_tags import Problem, RulesetError, load_ruleset
from gm_tags.ruleset.capabilities import derived_limit
from tests.ruleset.corpus import RULESETS

STORYTELLER = json.loads((RULESETS / "storyteller.json").read_text(encoding="utf-8"))


def refused(data: dict[str, Any]) -> list[Problem]:
    with pytest.raises(RulesetError) as error:
        load_ruleset(data)
    return error.value.problems


def storyteller() -> dict[str, Any]:
    return copy.deepcopy(STORYTELLER)


@pytest.mark.spec("SH-13")
def test_every_shape_problem_is_reported_in_one_pass() -> None:
    data = storyteller()
    data["sheet"]["abilities"][0]["max"] = "five"
    data["sheet"]["live"]["tracks"][0]["levels"][0]["penalty"] = 2
    data["clocks"] = {"max": 0}
    assert refused(data) == [
        Problem("sheet.abilities.0.max", "found 'five'; input should be a valid integer"),
        Problem(
            "sheet.live.tracks.0.levels.0.penalty",
            "found 2; input should be less than or equal to 0",
        ),
        Problem("clocks.max", "found 0; input should be greater than or equal to 1"),
    ]


@pytest.mark.spec("SH-13")
def test_an_unknown_key_is_reported_on_its_object_with_the_keys_it_takes() -> None:
    data = storyteller()
    data["sheet"]["live"]["pools"][1]["maximum"] = 3
    (problem,) = refused(data)
    assert problem.path == "sheet.live.pools.1"
    assert problem.message.startswith("unknown key 'maximum'; this object takes: allowTemp, ")
    assert "max," in problem.message


def test_union_tags_never_appear_in_a_path() -> None:
    data = storyteller()
    data["resolution"]["die"] = {"sides": 1}
    data["sheet"]["live"]["tracks"][1]["max"] = "ten"
    assert refused(data) == [
        Problem("resolution.die.sides", "found 1; input should be greater than or equal to 2"),
        Problem(
            "sheet.live.tracks.1.max",
            "found 'ten'; expected a whole number or a value reference object",
        ),
    ]


def test_a_missing_key_is_named_on_its_object() -> None:
    data = storyteller()
    del data["coverage"]["summary"]
    assert refused(data) == [Problem("coverage", "missing required key 'summary'")]


@pytest.mark.spec("VR-1")
def test_cross_reference_problems_are_all_reported_together() -> None:
    data = storyteller()
    data["resolution"]["penaltyFrom"] = "humanity"
    data["sheet"]["skills"][0]["ability"] = "might"
    data["gm"]["sheetSummary"]["derived"] = ["soak", "speed"]
    assert refused(data) == [
        Problem(
            "sheet.skills.0.ability",
            "unknown ability 'might'; declared: strength, dexterity, stamina, charisma, wits",
        ),
        Problem(
            "resolution.penaltyFrom",
            "'humanity' is a plain track; penaltyFrom names a wound "
            "track (kinds with levels or boxes)",
        ),
        Problem(
            "gm.sheetSummary.derived.1", "unknown derived value 'speed'; declared: blood_max, soak"
        ),
    ]


@pytest.mark.spec("VR-8")
def test_the_live_read_refusal_names_the_value_that_reads_live_state() -> None:
    data = storyteller()
    data["sheet"]["derived"].append(
        {
            "id": "hurt",
            "label": "Hurt",
            "op": "sum",
            "of": [{"liveTrack": "health", "read": "filled"}],
        }
    )
    data["sheet"]["derived"].append(
        {"id": "will_cap", "label": "Will cap", "op": "sum", "of": [{"derived": "hurt"}]}
    )
    data["sheet"]["live"]["pools"][1]["max"] = {"derived": "will_cap"}
    # At the reference's own key, as the Engine reports it (issue #30).
    assert refused(data) == [
        Problem(
            "sheet.live.pools.1.max.derived",
            "pool 'willpower''s max is worked out before there is a live state, so it cannot "
            "read it; it reads derived value 'will_cap', which reads derived value 'hurt', which "
            "reads the live track 'health'",
        )
    ]
    data["sheet"]["live"]["pools"][1]["max"] = {"liveTrack": "health", "read": "remaining"}
    assert [problem.path for problem in refused(data)] == ["sheet.live.pools.1.max.liveTrack"]


@pytest.mark.spec("SH-7")
@pytest.mark.parametrize(
    ("minor", "allowed"),
    [(None, 800), (0, 60), (83, 60), (84, 120), (88, 240), (110, 240), (111, 400), (729, 800)],
)
def test_derived_values_allowed_by_the_declared_minor(minor: int | None, allowed: int) -> None:
    assert derived_limit(minor) == allowed


@pytest.mark.spec("CL-1", "PT-1", "RF-4")
def test_a_single_file_is_not_gated() -> None:
    data = storyteller()
    data["clocks"] = {}
    data["gmReference"] = "Blood heals one bashing level a turn."
    data["sheet"]["derived"] += [
        {"id": f"extra_{i}", "label": f"Extra {i}", "op": "sum", "of": [{"const": i}]}
        for i in range(700)
    ]
    assert len(load_ruleset(data).definition.sheet.derived) == 702


def test_comments_and_schema_are_accepted_and_dropped() -> None:
    data = storyteller()
    data["$schema"] = "https://example.invalid/ruleset.schema.json"
    data["sheet"]["abilities"][0]["$comment"] = "Strength is raw power."
    ruleset = load_ruleset(data)
    dumped = ruleset.definition.model_dump(by_alias=True)
    assert "$comment" not in json.dumps(dumped)


@pytest.mark.spec("WT-1")
@pytest.mark.parametrize(
    ("source", "track", "wound"),
    [
        ("storyteller.json", "health", True),
        ("storyteller.json", "humanity", False),
        ("strain-runners.json", "strain", True),
        ("strain-runners.json", "heat", False),
    ],
)
def test_a_track_with_kinds_and_levels_or_boxes_is_a_wound_track(
    source: str, track: str, wound: bool
) -> None:
    ruleset = load_ruleset(RULESETS / source)
    assert ruleset.index.tracks[track].is_wound is wound


def _strain_runners() -> dict[str, Any]:
    return json.loads((RULESETS / "strain-runners.json").read_text("utf-8"))


def test_every_problem_of_every_well_shaped_part_is_reported_in_one_pass() -> None:
    data = _strain_runners()
    data["name"] = 5  # a shape problem
    data["resolution"]["penaltyFrom"] = "nope"  # a cross-reference problem elsewhere
    with pytest.raises(RulesetError) as refused:
        load_ruleset(data)
    assert [(p.path, p.message) for p in refused.value.problems] == [
        ("name", "found 5; input should be a valid string"),
        ("resolution.penaltyFrom", "unknown live track 'nope'; declared: strain, heat"),
    ]


def test_a_part_set_aside_for_its_shape_is_not_reported_missing_elsewhere() -> None:
    data = _strain_runners()
    data["sheet"]["live"]["tracks"][0]["kinds"] = "stress"  # the strain track is ill shaped
    with pytest.raises(RulesetError) as refused:
        load_ruleset(data)
    paths = [p.path for p in refused.value.problems]
    assert paths == ["sheet.live.tracks.0.kinds"]  # penaltyFrom="strain" is not called unknown


def test_a_wrong_shape_names_the_keys_it_takes_not_a_library_class() -> None:
    data = storyteller()
    data["resolution"]["die"] = "d10"
    assert refused(data) == [
        Problem("resolution.die", "found 'd10'; must be an object with the keys sides")
    ]


def test_two_ladder_steps_with_one_label_are_refused_in_any_case() -> None:
    data = storyteller()
    data["resolution"]["difficultyLadder"][3]["label"] = "  STANDARD "
    assert refused(data) == [
        Problem(
            "resolution.difficultyLadder.3.label",
            "the label '  STANDARD ' is already step 1's (resolution.difficultyLadder.1); "
            "a difficulty= label names one step",
        )
    ]


def test_a_reference_with_nothing_declared_says_where_names_are_declared() -> None:
    data = storyteller()
    data["sheet"]["live"]["pools"] = []
    data.pop("rests", None)
    messages = {problem.message for problem in refused(data)}
    assert "unknown live pool 'willpower'; sheet.live.pools declares none" in messages
    assert not any("none declared" in message for message in messages)
