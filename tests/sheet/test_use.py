"""`[sheet: op="use"]` and `op="cast"`: an entry the character has pays its whole cost or nothing
(the Engine's `use` op, docs/commands.md; worked on the reference rulesets)."""

from __future__ import annotations

import json
from typing import Any

import pytest

from gm_tags import Game, load_ruleset
from tests.conftest import FIXTURES
from tests.sheet.conftest import tags

REFERENCE = FIXTURES / "rulesets" / "reference"
CHARMS = [
    {"name": "Steady Hand", "_catalog": "charms/steady-hand"},
    {"name": "Sight", "_catalog": "charms/grave-sight"},
]


def warden(charms: list[dict[str, Any]] = CHARMS) -> Game:
    """Wren on Gravewatch (Resolve 4/4) with the charms she picked."""
    ruleset = load_ruleset(REFERENCE / "gravewatch.json")
    return Game.new(ruleset, {"Wren": {"lists": {"charms": charms}}}, player="Wren")


@pytest.mark.spec("SH-10")
def test_a_charm_is_paid_from_resolve_and_refused_whole_when_resolve_is_short() -> None:
    """A charm paid from Resolve, and refused whole when Resolve is short (issue #30)."""
    game = warden()
    turn = game.apply_reply('[sheet: op="use" name="Steady Hand"]')
    assert turn.receipts[0].tag == (
        '[sheet: who="Wren" op="use" name="Steady Hand" result="ok" now="Steady Hand: Resolve 3/4"]'
    )
    drained = game.apply_reply('[sheet: op="spend" pool="resolve" amount="4"]').game
    refused = drained.apply_reply('[sheet: op="use" name="Steady Hand"]')
    assert refused.receipts[0].reason == "insufficient"
    assert refused.game.live_of(refused.game.character()) == drained.live_of(drained.character())


def test_cast_is_use_and_a_row_name_finds_its_entry_in_any_case() -> None:
    game = warden()
    receipt = game.apply_reply('[sheet: op="cast" spell="  SIGHT "]').receipts[0]
    assert (receipt.ok, receipt.now) == (True, "Grave Sight: Resolve 3/4")


@pytest.mark.parametrize(
    ("charms", "name", "reason"),
    [
        (CHARMS, "Lantern Flare", "unknown-entry"),  # in the catalog, never picked
        ([{"name": "Lantern Flare"}], "Lantern Flare", "unknown-entry"),  # a row with no mark
        (
            [
                {"name": "Trick", "_catalog": "charms/steady-hand"},
                {"name": "Trick", "_catalog": "charms/grave-sight"},
            ],
            "trick",
            "ambiguous-entry",
        ),
    ],
    ids=["not-picked", "hand-typed-row", "two-entries-one-name"],
)
def test_what_a_use_cannot_find(charms: list[dict[str, Any]], name: str, reason: str) -> None:
    receipt = warden(charms).apply_reply(f'[sheet: op="use" name="{name}"]').receipts[0]
    assert receipt.reason == reason


def test_an_entry_pays_one_use_of_every_counter_it_wrote_and_nothing_when_one_is_empty() -> None:
    """Ember Roads' Last Ember: 1 Grit and one of the uses its tricks row counts."""
    ruleset = load_ruleset(REFERENCE / "ember-roads.json")
    mark = "knacks/last-ember"
    build = {
        "lists": {
            "knacks": [{"name": "Last Ember", "_catalog": mark}],
            "tricks": [{"name": "Last Ember", "uses": 1, "recharge": "camp", "_catalog": mark}],
        }
    }
    game = Game.new(ruleset, {"Mira": build}, player="Mira")
    first, second = game.apply_reply(
        '[sheet: op="use" name="Last Ember"] [sheet: op="use" name="Last Ember"]'
    ).receipts
    assert first.now == "Last Ember: Grit 5/6, Last Ember 0/1"
    assert (second.reason, second.ok) == ("insufficient", False)


def grouped() -> Game:
    """Gravewatch with two slot pools in one group and a charm costing one slot of the group."""
    data = json.loads((REFERENCE / "gravewatch.json").read_text("utf-8"))
    data["sheet"]["live"]["pools"] += [
        {"id": "slot_1", "label": "First slots", "max": {"const": 1}, "group": "slots"},
        {"id": "slot_2", "label": "Second slots", "max": {"const": 2}, "group": "slots"},
    ]
    charm = data["catalogs"][0]["entries"][1]["mechanics"]
    charm["cost"] = [{"pool": "slots", "amount": 1}]
    return Game.new(load_ruleset(data), {"Wren": {"lists": {"charms": CHARMS}}}, player="Wren")


def test_a_group_cost_pays_from_its_first_pool_that_can_and_pool_upcasts_within_it() -> None:
    found = tags(
        grouped(),
        '[sheet: op="use" name="Sight"] [sheet: op="use" name="Sight"] '
        '[sheet: op="use" name="Sight" pool="Second slots"] [sheet: op="use" name="Sight"] '
        '[sheet: op="use" name="Sight" pool="resolve"] [sheet: op="use" name="Steady Hand" '
        'pool="slot_2"]',
    )
    assert [
        tag.split("now=")[-1] if "now=" in tag else tag.split("reason=")[-1] for tag in found
    ] == [
        '"Grave Sight: First slots 0/1"]',
        '"Grave Sight: Second slots 1/2"]',  # the first is empty: the next one of the group pays
        '"Grave Sight: Second slots 0/2"]',
        '"insufficient"]',
        '"bad-pool"]',  # resolve is not a pool of the slots group
        '"bad-pool"]',  # Steady Hand costs resolve, no group to choose in
    ]
    assert 'op="use" name="Sight" pool="Second slots"' in found[2]


def test_an_entry_without_a_cost_is_used_for_nothing() -> None:
    data = json.loads((REFERENCE / "gravewatch.json").read_text("utf-8"))
    del data["catalogs"][0]["entries"][1]["mechanics"]["cost"]
    game = Game.new(load_ruleset(data), {"Wren": {"lists": {"charms": CHARMS}}}, player="Wren")
    turn = game.apply_reply('[sheet: op="use" name="Sight"]')
    assert (turn.receipts[0].now, turn.game.live_of(turn.game.character()).empty) == (
        "Grave Sight",
        True,
    )


@pytest.mark.parametrize(
    ("step", "pool", "now"),
    [
        ({"dice": "1d10"}, "Third slots", "Grave Sight: Third slots 0/1; 2 steps up: +2d10"),
        (
            {"dice": "1d10+1", "flat": 1},
            "Second slots",
            "Grave Sight: Second slots 0/1; 1 step up: +1d10+2",
        ),
        ({"flat": 3}, "Third slots", "Grave Sight: Third slots 0/1; 2 steps up: +6"),
        ({"dice": "1d10"}, "First slots", "Grave Sight: First slots 0/1"),
    ],
    ids=["two-steps", "dice-and-flat", "flat", "no-climb"],
)
def test_an_upcast_says_what_each_step_up_the_group_adds(
    step: dict[str, Any], pool: str, now: str
) -> None:
    """perCostStep on a sheet use: the price is paid once out of the pool named, and a pool later in
    its group's declaration order is that many steps up (the Engine's rulesetCostSteps)."""
    data = json.loads((REFERENCE / "gravewatch.json").read_text("utf-8"))
    data["sheet"]["live"]["pools"] += [
        {
            "id": f"slot_{n}",
            "label": f"{label} slots",
            "max": {"const": 1},
            "group": "slots",
        }
        for n, label in ((1, "First"), (2, "Second"), (3, "Third"))
    ]
    charm = data["catalogs"][0]["entries"][1]["mechanics"]
    charm.update(cost=[{"pool": "slot_1", "amount": 1}], perCostStep=step)
    game = Game.new(load_ruleset(data), {"Wren": {"lists": {"charms": CHARMS}}}, player="Wren")
    (receipt,) = game.apply_reply(f'[sheet: op="use" name="Sight" pool="{pool}"]').receipts
    assert (receipt.ok, receipt.now) == (True, now)


def test_the_reminder_teaches_pool_only_where_an_upcast_can_happen() -> None:
    assert 'pool="Second slots"' in grouped().reminder()
    assert 'op="use"' in warden().reminder() and "upcast" not in warden().reminder()
