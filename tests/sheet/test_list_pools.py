"""Which rows of a list with pools are pools: a row needs a name and a maximum above none, and rows
whose names differ only by case or surrounding space are one pool, the first row's."""

from __future__ import annotations

from gm_tags import Game, Reason
from gm_tags.engine.pools import pools_of
from tests.conftest import ruleset_named

ABILITIES = {"brawn": 1, "wits": 2, "heart": 3}


def test_rows_without_a_name_or_a_maximum_are_no_pools_and_the_rows_after_them_are() -> None:
    rows = [
        {"name": "", "uses": 2},
        {"name": "   ", "uses": 2},
        {"name": "Zero", "uses": 0},
        {"name": "Ember", "uses": 2},
        {"name": "ember ", "uses": 3},
        {"name": "Spark", "uses": 1},
    ]
    ember_roads = ruleset_named("ember-roads")
    game = Game.new(ember_roads, {"Ash": {"abilities": ABILITIES, "lists": {"tricks": rows}}})
    rows_found = [
        (slot.key, slot.label, slot.maximum)
        for slot in pools_of(ember_roads, game.character("Ash"))
        if slot.row
    ]
    assert rows_found == [("tricks:ember", "Ember", 2), ("tricks:spark", "Spark", 1)]
    assert "Ember 2/2, Spark 1/1" in game.sheet_block("Ash")


def test_a_rows_pool_takes_no_temporary_points() -> None:
    ember_roads = ruleset_named("ember-roads")
    rows = [{"name": "Ember", "uses": 2}]
    game = Game.new(ember_roads, {"Ash": {"abilities": ABILITIES, "lists": {"tricks": rows}}})
    (receipt,) = game.apply_reply('[sheet: op="temp" pool="Ember" amount="2"]').receipts
    assert (receipt.reason, receipt.detail) == (Reason.NO_TEMP, "Ember takes no temporary points")
