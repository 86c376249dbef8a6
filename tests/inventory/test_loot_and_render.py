"""Loot tables rolled by the engine's dice, a market's prices, and the users' test renderer
showing what a reply changed in a bag (gm-tags' own: the Engine has no loot table or market)."""

from __future__ import annotations

import json
from typing import Any

from gm_tags import Game, load_ruleset
from gm_tags.testing.render import TestGame, render
from tests.inventory.conftest import receipts_of
from tests.ruleset.corpus import RULESETS


def _ember(**items: Any) -> Game:
    data = json.loads((RULESETS / "reference" / "ember-roads.json").read_text("utf-8"))
    data["items"].update(items)
    return Game.new(load_ruleset(data), characters={"Wren": {"abilities": {"brawn": 3}}})


PURSE = {
    "id": "purse",
    "label": "Dead man's purse",
    "rolls": 2,
    "rows": [{"item": "Road rations", "count": 2, "weight": 3}, {"item": "Brass button"}],
    "money": {"amount": 3, "unit": "mark"},
}


def test_a_loot_table_is_rolled_by_the_reply_s_dice() -> None:
    game = _ember(lootTables=[PURSE])
    turn = game.apply_reply('[loot: table="Dead man\'s purse"] [loot: table="chest"]', seed=4)
    found, unknown = turn.receipts
    assert found.ok and found.now is not None and found.now.endswith("3 marks")
    assert found.now.count(" x") == 2  # two rolls
    assert unknown.reason == "unknown-table"
    # The same seed, the same find; the document holds it.
    again = game.apply_reply('[loot: table="purse"]', seed=4)
    assert again.receipts[0].now == found.now
    assert turn.game.to_document()["gameMoney"] == {"wren": {"coin": 30}}


def test_a_market_marks_prices_up_and_may_not_take_a_family() -> None:
    game = _ember(market={"markup": 150, "accepts": ["coin"]})
    turn = game.apply_reply(
        '[inventory: earn amount="5" unit="mark"] [inventory: buy item="Hand axe"] '
        '[inventory: earn amount="1" unit="mark"] [inventory: buy item="Hand axe"] '
        '[inventory: earn amount="5" unit="cake"] [inventory: buy item="Waystone"]'
    )
    assert receipts_of(turn) == [
        "5 marks",
        "refused insufficient",
        "6 marks",
        "1",
        "5 cakes",
        "refused wrong-currency",
    ]
    assert "For sale: Hand axe 6 marks;" in turn.game.reminder()


def test_the_test_renderer_shows_what_a_reply_put_in_a_bag(ember: Any) -> None:
    played = TestGame.of(ember, characters=[{"name": "Wren"}]).play(
        'She buys a coat. [inventory: action="earn" amount="3" unit="sovereign"] '
        '[inventory: action="buy" item="Leather coat"] [inventory: equip item="Leather coat"]'
    )
    changed = render(played).split("=== changed ===")[1]
    assert (
        "  + Carries: Leather coat (1 worn) [Armor, Common; Bulk 3, Guard 1; costs 2 sovereigns]"
        in changed
    )
    assert "  + Money: Coin 1 sovereigns" in changed
    assert "  - About: Grit maximum 6, Guard 6" in changed
    assert "  + About: Grit maximum 6, Guard 7" in changed
