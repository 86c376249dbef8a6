"""Wound tracks at their edges: a track of levels that refuses when full, and marks on boxes a
shrinking track no longer has."""

from __future__ import annotations

import copy
import json

import pytest

from gm_tags import Game, Reason, load_ruleset
from tests.conftest import FIXTURES, ruleset_named

FOUR_MARKS = (
    '[sheet: op="damage" track="harm" kind="moderate" amount="1"] '
    '[sheet: op="damage" track="harm" kind="lesser" amount="3"] '
    '[sheet: op="damage" track="harm" kind="lesser" amount="2"] '
    '[sheet: op="damage" track="harm" kind="severe" amount="1"]'
)


def crew(on_full: str | None) -> Game:
    data = json.loads((FIXTURES / "rulesets" / "crew-of-shadows.json").read_text("utf-8"))
    if on_full is not None:
        data["sheet"]["live"]["tracks"][0]["onFull"] = on_full
    return Game.new(load_ruleset(data), {"Mira": {}})


@pytest.mark.spec("WB-5")
def test_a_track_of_levels_that_refuses_when_full_lands_all_marks_or_none() -> None:
    turn = crew("refuse").apply_reply(FOUR_MARKS)
    assert [(r.reason, r.now) for r in turn.receipts] == [
        (None, "Harm 1/3 Lesser"),
        (Reason.NO_BOX, None),  # three marks, two levels free: none lands
        (None, "Harm 3/3 Severe"),
        (Reason.NO_BOX, None),  # full: a severe mark upgrades nothing here
    ]
    marks = turn.game.to_document()["rulesetLive"]["mira"]["wounds"]["harm"]["marks"]
    assert marks == ["moderate", "lesser", "lesser"]


def test_a_track_of_levels_that_upgrades_when_full_takes_every_mark() -> None:
    turn = crew(None).apply_reply(FOUR_MARKS)
    assert all(receipt.ok for receipt in turn.receipts)
    marks = turn.game.to_document()["rulesetLive"]["mira"]["wounds"]["harm"]["marks"]
    assert marks == ["severe", "severe", "moderate"]


@pytest.mark.parametrize(
    ("stored", "grit", "now", "kept"),
    [
        # Capacity 3 (Grit 5) marks at boxes 2 and 3; at Grit 1 one box is left: both are lost
        # to overflow, and the empty box 1 is no mark.
        (["", "stress", "trauma"], 1, "Strain 0/1 +2 over", {"marks": [], "overflow": 2}),
        # Box 2 empty, box 3 marked: at capacity 2 the mark on box 3 is lost, the gap is not.
        (["stress", "", "trauma"], 3, "Strain 1/2 +1 over", {"marks": ["stress"], "overflow": 1}),
    ],
)
def test_marks_on_boxes_a_track_no_longer_has_are_kept_as_overflow(
    stored: list[str], grit: int, now: str, kept: dict[str, object]
) -> None:
    strain = ruleset_named("strain-runners")
    game = Game.new(strain, {"Vox": {"abilities": {"grit": 5}}})
    document = copy.deepcopy(game.to_document())
    document["rulesetLive"] = {"vox": {"wounds": {"strain": {"marks": stored}}}}
    document["gameCharacterCards"][0]["rulesetSheet"]["build"]["abilities"]["grit"] = grit
    shrunk = Game.from_document(strain, document)
    assert shrunk.sheet_block("Vox").splitlines()[-1].startswith(now)
    # The next command settles it: what was lost is stored as overflow, and a heal takes it first.
    healed = shrunk.apply_reply('[sheet: op="damage" track="Strain" amount="-1"]')
    assert healed.receipts[0].ok
    wounds = healed.game.to_document()["rulesetLive"]["vox"]["wounds"]["strain"]
    expected_overflow = int(kept["overflow"]) - 1  # type: ignore[call-overload]
    assert wounds.get("overflow", 0) == expected_overflow
    assert wounds.get("marks", []) == kept["marks"]


@pytest.mark.parametrize("boxes", [0, -2])
def test_a_box_track_whose_maximum_reads_none_or_less_has_no_box(boxes: int) -> None:
    data = json.loads((FIXTURES / "rulesets" / "strain-runners.json").read_text("utf-8"))
    (derived,) = [d for d in data["sheet"]["derived"] if d["id"] == "strain_boxes"]
    derived["of"] = [{"const": boxes}]
    game = Game.new(load_ruleset(data), {"Vox": {}})
    turn = game.apply_reply('[sheet: op="damage" track="Strain" kind="stress" amount="1"]')
    (receipt,) = turn.receipts
    assert (receipt.reason, receipt.detail) == (
        Reason.NO_BOX,
        "Strain has no free box from box 1 up for 1 marks",
    )


def test_refusals_name_what_the_track_offers() -> None:
    game = Game.new(ruleset_named("crew-of-shadows"), {"Mira": {}})
    track, kind = game.apply_reply(
        '[sheet: op="damage" track="Nerve" kind="lesser" amount="1"] '
        '[sheet: op="damage" track="harm" kind="bruise" amount="1"]'
    ).receipts
    assert (track.reason, track.detail) == (
        Reason.UNKNOWN_TRACK,
        "no track is named 'Nerve'; wound tracks: Harm",
    )
    assert (kind.reason, kind.detail) == (
        Reason.UNKNOWN_KIND,
        "Harm takes no kind 'bruise'; kinds: lesser (1), moderate (2), severe (3)",
    )


def test_a_full_track_of_levels_that_refuses_says_none_is_free() -> None:
    turn = crew("refuse").apply_reply(
        '[sheet: op="damage" track="harm" kind="lesser" amount="3"] '
        '[sheet: op="damage" track="harm" kind="lesser" amount="1"]'
    )
    assert turn.receipts[1].detail == "Harm has 0 free, too few for 1 marks"


def test_a_stored_mark_of_a_kind_the_ruleset_lacks_counts_as_its_lightest() -> None:
    crew_rules = ruleset_named("crew-of-shadows")
    document = copy.deepcopy(Game.new(crew_rules, {"Mira": {}}).to_document())
    document["rulesetLive"] = {"mira": {"wounds": {"harm": {"marks": ["ghost"]}}}}
    game = Game.from_document(crew_rules, document)

    def marks(reply: str) -> list[str]:
        live = game.apply_reply(reply).game.to_document()["rulesetLive"]
        return list(live["mira"]["wounds"]["harm"]["marks"])

    # As light as "lesser", the lightest kind: a lesser mark goes after it, a heavier one before.
    assert marks('[sheet: op="damage" track="harm" kind="lesser" amount="1"]') == [
        "ghost",
        "lesser",
    ]
    assert marks('[sheet: op="damage" track="harm" kind="moderate" amount="1"]') == [
        "moderate",
        "ghost",
    ]
