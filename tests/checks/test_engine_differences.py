"""Where gm-tags' checks differed from the Engine's (issue #30, item 5), each measured against the
Engine's regression cases (`game-ruleset-check-rules`, `game-ruleset-scaled-rows`)."""

from __future__ import annotations

import json
import re
from dataclasses import replace

import pytest

from gm_tags import Game, load_ruleset
from gm_tags.checks.record import CheckRecord, CheckRequest, read_record
from tests.checks.conftest import gravewatch_with, rolled
from tests.conftest import FIXTURES


@pytest.mark.spec("EN-1")
@pytest.mark.parametrize(
    ("difficulty", "dc", "threshold"),
    [("Grim", 2, 8), ("Awkward", 3, 7)],
    ids=["grim-at-its-target", "awkward-at-the-default"],
)
def test_a_written_dc_wins_and_the_named_steps_target_still_applies(
    difficulty: str, dc: int, threshold: int
) -> None:
    """Grim with dc="2" rolls at 8; Awkward (no target of its own) with dc="3" at the default 7."""
    request = CheckRequest("Sinew", dc=dc, difficulty=difficulty)
    record = rolled(gravewatch_with(), request, [9, 9, 9])
    assert (record.dc, record.threshold) == (dc, threshold)
    assert "difficulty=" not in record.tag, "the record writes the numbers, not the step's name"


@pytest.mark.parametrize("written", ["grim", "GRIM!", "  Grim ", "plain   WORK", "Plain-work"])
def test_step_names_match_without_case_punctuation_or_inner_runs_of_space(written: str) -> None:
    record = rolled(gravewatch_with(), CheckRequest("Sinew", difficulty=written), [9, 9, 9])
    assert record.difficulty in ("Grim", "Plain work")


def test_a_record_never_claims_an_explode_the_ruleset_cannot_move() -> None:
    data = json.loads((FIXTURES / "rulesets" / "reference" / "gravewatch.json").read_text("utf-8"))
    data["resolution"]["explode"] = {"from": 10}  # no min: a check cannot move it
    del data["catalogs"][0]["entries"][1]["mechanics"]["check"]  # Grave Sight would move it
    data["catalogs"][0]["entries"][1]["mechanics"]["kind"] = "utility"
    fixed = Game.new(load_ruleset(data), {"Wren": {"abilities": {"sinew": 3}}})
    record = rolled(fixed, CheckRequest("Sinew", dc=1, explode=8), [8, 2, 3])
    assert (record.explode, record.rolls) == (None, (8, 2, 3))
    assert "explode=" not in record.tag


def test_a_record_never_claims_a_with_that_changed_nothing() -> None:
    pair = gravewatch_with()  # abilityPlusAbility: a second ability joins an ability check
    assert rolled(pair, CheckRequest("Sinew", dc=1, with_="Nerve"), [9] * 6).with_ == "Nerve"
    single = gravewatch_with(pool={"min": 1, "max": 15})  # no pairs
    alone = rolled(single, CheckRequest("Sinew", dc=1, with_="Nerve"), [9, 9, 9])
    assert (alone.with_, "with=" in alone.tag) == (None, False)
    own = rolled(pair, CheckRequest("Wrestle", dc=1, with_="Sinew"), [9] * 3)
    assert own.with_ is None, "Wrestle already rolls with Sinew"
    other = rolled(pair, CheckRequest("Wrestle", dc=1, with_="Nerve"), [9] * 3)
    assert other.with_ == "Nerve"


def _record(**fields: object) -> CheckRecord:
    base: dict[str, object] = {
        "skill": "Sneak",
        "dc": 8,
        "rolls": (3, 5),
        "used": 8,
        "modifier": 1,
        "total": 9,
        "result": "success",
        "mode": "normal",
        "resolution": "sum",
        "dice": "2d6",
    }
    return CheckRecord(**{**base, **fields})  # type: ignore[arg-type]


@pytest.mark.spec("engine:game-ruleset-check-rules")
@pytest.mark.parametrize(
    ("fields", "line"),
    [
        ({}, "Sneak check (DC 8): [3, 5] +1 = 9. Success."),
        ({"modifier": 0, "total": 8}, "Sneak check (DC 8): [3, 5] = 8. Success."),
        (
            {"modifier": -1, "total": 7, "result": "failure"},
            "Sneak check (DC 8): [3, 5] -1 = 7. Failure.",
        ),
        (
            {"rolls": (3, 5, 6, 6), "mode": "advantage", "used": 12, "total": 13},
            "Sneak check (DC 8): [3, 5, 6, 6] +1 (advantage) → 13. Success.",
        ),
        (
            {"resolution": "successes", "rolls": (7, 9, 2), "modifier": 0, "total": 1},
            "Sneak check (DC 8): [7, 9, 2] → 1 success. Success.",
        ),
        (
            {
                "resolution": "successes",
                "rolls": (9, 1, 1),
                "modifier": 0,
                "total": 1,
                "complication": True,
            },
            "Sneak check (DC 8): [9, 1, 1] → 1 success. Success. Something went wrong on the side.",
        ),
        (
            {
                "rolls": (),
                "modifier": 0,
                "total": 0,
                "used": 0,
                "result": "failure",
                "automatic": True,
            },
            "Sneak check (DC 8): [] = 0. Failure. It failed without a roll.",
        ),
        (
            {"who": "Tobin Vell", "from_": ("Rattled",)},
            "Sneak check (DC 8): [3, 5] +1 = 9. Success."
            " Rolled for Tobin Vell. Changed by Rattled.",
        ),
    ],
    ids=[
        "plain",
        "no-modifier",
        "minus",
        "advantage",
        "pool",
        "complication",
        "automatic",
        "extras",
    ],
)
def test_the_summary_line_is_the_engines_then_what_gm_tags_adds(
    fields: dict[str, object], line: str
) -> None:
    """The Engine's `formatSkillCheckResultSummary`, word for word, then gm-tags' own sentences."""
    assert _record(**fields).summary == line


def test_from_joins_names_as_the_engine_does_and_reads_back() -> None:
    record = _record(effects=-2, from_=("Poisoned", "Coat [old]; torn"))
    assert 'effects="-2" from="Poisoned; Coat old torn"' in record.tag
    attributes = dict(re.findall(r'(\w+)="([^"]*)"', record.tag))
    assert read_record(attributes) == replace(record, from_=("Poisoned", "Coat old torn"))
    assert read_record({**attributes, "from": "Rattled|Poisoned"}).from_ == ("Rattled", "Poisoned")  # type: ignore[union-attr]


def test_who_and_the_skill_are_written_as_the_engine_writes_them() -> None:
    """serializeSkillCheckAttribute: a double quote and a line break become ', then trimmed."""
    record = _record(skill='Sneak "quietly"', who='Mira "the Fox"\n')
    assert "skill=\"Sneak 'quietly'\"" in record.tag
    assert "who=\"Mira 'the Fox''\"" in record.tag
