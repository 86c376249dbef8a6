"""Where gm-tags' checks differed from the Engine's (issue #30, item 5), each measured against the
Engine's regression cases (`game-ruleset-check-rules`, `game-ruleset-scaled-rows`)."""

from __future__ import annotations

import json

import pytest

from gm_tags import Game, load_ruleset
from gm_tags.checks.record import CheckRequest
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
