"""Rests: every step kind, and the page's examples."""

from __future__ import annotations

import json

import pytest

from gm_tags import Game, Reason, Ruleset, load_ruleset
from tests.sheet.conftest import RULESETS, one


def spent(game: Game, reply: str) -> Game:
    turn = game.apply_reply(reply)
    assert all(receipt.ok for receipt in turn.receipts), turn.receipts
    return turn.game


@pytest.mark.spec("RS-1", "RS-2", "ST-7")
def test_ember_roads_make_camp(ember: Ruleset) -> None:
    tricks = [
        {"name": "Last Ember", "uses": 2, "recharge": "camp"},
        {"name": "Far Sight", "uses": 1, "recharge": "scene"},
    ]
    game = one(ember, {"lists": {"tricks": tricks}})
    game = spent(
        game,
        '[sheet: op="spend" pool="grit" amount="5"][sheet: op="spend" pool="luck" amount="2"]'
        '[sheet: op="track" track="heat" to="3"][sheet: op="spend" pool="Last Ember" amount="2"]'
        '[sheet: op="spend" pool="Far Sight" amount="1"]'
        '[sheet: op="state" state="stance" value="reckless"]'
        '[sheet: op="condition" condition="shaken"][sheet: op="condition" condition="pinned"]',
    )
    turn = game.apply_reply('[sheet: op="rest" rest="Make camp"]')
    assert turn.receipts[0].tag == (
        '[sheet: who="Mira" op="rest" rest="Make camp" result="ok" now="Make camp: Grit 6/6, '
        'Luck 2/3, Heat 2, Last Ember 2/2, Stance Steady, Shaken off"]'
    )
    after = turn.game
    assert after.read(None, {"livePool": "luck"}) == 2  # by 1, not to max
    assert after.to_document()["rulesetLive"]["mira"] == {
        "pools": {"luck": {"value": 2}, "tricks:far sight": {"value": 0}},  # comes back each scene
        "tracks": {"heat": 2},
        "conditions": ["pinned"],  # only shaken is cleared
    }


def test_a_rest_that_changes_nothing_says_only_its_name(ember: Ruleset) -> None:
    (receipt,) = one(ember).apply_reply('[sheet: op="rest" rest="camp"]').receipts
    assert receipt.now == "Make camp"


@pytest.mark.spec("RS-3")
def test_the_5e_long_rest_hands_out_half_the_hit_dice_in_sheet_order(fifth: Ruleset) -> None:
    # Level 6: hit dice d6 0 (no pool), d8 6, d10 1; total 7, half rounded down is 3.
    game = one(fifth, {"fields": {"level": 6}, "abilities": {"con": 12}})
    game = spent(
        game,
        '[sheet: op="spend" pool="hit_dice_d8" amount="5"]'
        '[sheet: op="spend" pool="hit_dice_d10" amount="1"]',
    )
    edit = game.rest("long")
    assert edit.ok
    assert edit.game.read(None, {"livePool": "hit_dice_d8"}) == 1 + 3  # d8 first, up to 3
    assert edit.game.read(None, {"livePool": "hit_dice_d10"}) == 0
    second = edit.game.rest("long").game
    assert second.read(None, {"livePool": "hit_dice_d8"}) == 6  # missing only 2
    assert second.read(None, {"livePool": "hit_dice_d10"}) == 1


def test_shared_hit_dice_give_at_least_one(fifth: Ruleset) -> None:
    game = spent(
        one(fifth),
        '[sheet: op="spend" pool="hit_dice_d8" amount="1"]'
        '[sheet: op="spend" pool="hit_dice_d10" amount="1"]',
    )
    # Level 1: d8 1 and d10 1, total 2, half is 1: the d8 (first in the sheet) gets it.
    after = game.rest("Long rest").game
    assert after.read(None, {"livePool": "hit_dice_d8"}) == 1
    assert after.read(None, {"livePool": "hit_dice_d10"}) == 0


@pytest.mark.spec("RS-1")
def test_a_long_rest_sets_and_moves_tracks_clears_text_and_every_condition(fifth: Ruleset) -> None:
    game = spent(
        one(fifth),
        '[sheet: op="track" track="exhaustion" to="3"]'
        '[sheet: op="track" track="death_failures" to="2"]'
        '[sheet: op="note" field="concentration" value="Bless"]'
        '[sheet: op="condition" condition="prone"]'
        '[sheet: op="condition" condition="poisoned"][sheet: op="damage" pool="hp" amount="4"]',
    )
    after = game.rest("long").game
    assert after.read(None, {"liveTrack": "death_failures"}) == 0
    # Exhaustion goes down one; everything else is back at its default and no longer stored.
    assert after.to_document()["rulesetLive"] == {"mira": {"tracks": {"exhaustion": 2}}}


@pytest.mark.spec("WT-16", "RS-4")
def test_catch_your_breath_mends_the_knocks_and_leaves_the_tears(gravewatch: Ruleset) -> None:
    rests = {rest.id: rest for rest in gravewatch.definition.rests}
    breath = next(r for r in rests.values() if any(s.kind == "knock" for s in r.restore))
    game = spent(
        one(gravewatch),
        '[sheet: op="damage" track="harm" kind="knock" amount="2"]'
        '[sheet: op="damage" track="harm" kind="tear" amount="1"]',
    )
    after = game.rest(breath.id).game
    wounds = after.live_of(after.character()).wounds["harm"]
    assert wounds.marks == ("tear",)


@pytest.mark.spec("WT-16", "WT-24")
def test_wound_steps_clear_down_overflow_first_and_never_add(storyteller: Ruleset) -> None:
    game = spent(
        one(storyteller),
        '[sheet: op="damage" track="health" kind="lethal" amount="2"]'
        '[sheet: op="damage" track="health" kind="bashing" amount="2"]',
    )
    # Sleep through the day clears bashing to min: two bashing go, the lethal stay.
    after = game.rest("day").game
    assert after.live_of(after.character()).wounds["health"].marks == ("lethal", "lethal")
    again = after.rest("day")
    assert again.ok and again.now == "Sleep through the day"


def test_an_unknown_rest_is_refused(ember: Ruleset) -> None:
    edit = one(ember).rest("siesta")
    assert edit.reason is Reason.UNKNOWN_REST and edit.game == one(ember)


@pytest.mark.spec("WT-15", "WB-10")
def test_boxes_are_marked_and_cleared_by_hand_under_the_commands_rules(ember: Ruleset) -> None:
    game = one(ember, {"abilities": {"heart": 2}})  # four boxes
    edit = game.set_box(None, "strain", 3, "strain")
    assert edit.ok and edit.now == "Strain 1/4"
    assert edit.game.set_box(None, "strain", 3, "strain").reason is Reason.NO_BOX
    assert edit.game.set_box(None, "strain", 9, "strain").reason is Reason.NO_BOX
    cleared = edit.game.set_box(None, "strain", 3, None)
    assert cleared.ok and "rulesetLive" not in cleared.game.to_document()


@pytest.mark.spec("WT-24")
def test_a_rest_step_that_would_add_marks_is_skipped_without_a_word() -> None:
    data = json.loads((RULESETS / "reference" / "gravewatch.json").read_text("utf-8"))
    data["rests"].append(
        {
            "id": "bad_dream",
            "label": "Bad dream",
            "restore": [{"track": "harm", "by": {"const": 2}}, {"track": "harm", "to": 3}],
        }
    )
    ruleset = load_ruleset(data)
    game = spent(one(ruleset), '[sheet: op="damage" track="harm" kind="knock" amount="1"]')
    edit = game.rest("bad_dream")
    assert (edit.ok, edit.now) == (True, "Bad dream")
    assert edit.game.live_of(edit.game.character()).wounds["harm"].marks == ("knock",)
