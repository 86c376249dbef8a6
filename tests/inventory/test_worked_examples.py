"""Worked examples of items in play on both reference rulesets; each names the Engine block whose
facts it plays (or says the rule is gm-tags' own)."""

from __future__ import annotations

import json
from collections.abc import Callable

from gm_tags import Game, load_ruleset
from tests.inventory.conftest import receipts_of
from tests.ruleset.corpus import RULESETS

BELLS = (
    '[inventory: action="add" item="Dawn bell" count="2"] '
    '[inventory: action="add" item="Widow\'s ring"] '
)


def test_a_warden_binds_tokens_up_to_nerve_and_is_refused_the_next(
    warden: Callable[[int], Game],
) -> None:
    """game-ruleset-items, slice I2b-3: "Gravewatch binds up to the bearer's Nerve"."""
    binds = (
        '[inventory: action="bind" item="Dawn bell"] '
        '[inventory: action="bind" item="widow\'s ring"] '
        '[inventory: bind item="Dawn bell"]'
    )
    turn = warden(2).apply_reply(BELLS + binds)
    assert receipts_of(turn) == ["2", "1", "1", "1", "refused binding-full"]
    assert "Bound 2 of 2" in turn.game.sheet_block("Agnes")
    # Nerve 3 binds the third.
    assert receipts_of(warden(3).apply_reply(BELLS + binds))[-1] == "2"


def test_a_cursed_ring_once_bound_stays_on(warden: Callable[[int], Game]) -> None:
    """game-ruleset-items: the Widow's ring `binds: {cursed: true}`."""
    turn = warden(2).apply_reply(
        BELLS
        + '[inventory: action="bind" item="Widow\'s ring"] '
        + '[inventory: action="unbind" item="Widow\'s ring"] '
        + '[inventory: action="remove" item="Widow\'s ring"]'
    )
    assert receipts_of(turn)[2:] == ["1", "refused cursed", "refused cursed"]


def test_two_shillings_paid_from_pennies_leave_the_change_in_pennies(
    warden: Callable[[int], Game],
) -> None:
    """game-ruleset-items: one coin, twelve pennies to the shilling and five shillings (60
    pennies) to the crown; a purse counts pennies, so change needs no coins to swap."""
    turn = warden(2).apply_reply(
        '[inventory: action="earn" amount="30" unit="penny"] '
        '[inventory: action="pay" amount="2" unit="shilling"] '
        '[inventory: action="pay" amount="1" unit="shilling"]'
    )
    assert receipts_of(turn) == ["2 shillings, 6 pennies", "6 pennies", "refused insufficient"]
    assert turn.game.to_document()["gameMoney"] == {"agnes": {"coin": 6}}
    crown = warden(2).apply_reply(
        '[inventory: action="earn" amount="1" unit="crown"] '
        '[inventory: action="pay" amount="2" unit="shilling"]'
    )
    assert receipts_of(crown) == ["1 crowns", "3 shillings"]


def test_a_traveller_past_load_is_encumbered_and_past_the_limit_refused(traveller: Game) -> None:
    """game-ruleset-items, slice I2b-3: "A traveller carries 6 + Brawn before the road slows
    them, and 12 at most, each off their sheet"."""
    turn = traveller.apply_reply(
        '[inventory: action="add" item="Leather coat"] '
        '[inventory: action="add" item="boar spear" count="2"] '
        '[inventory: action="add" item="Arrows" count="5"] '
        '[inventory: action="add" item="Arrows"]'
    )
    assert receipts_of(turn) == ["1", "2", "5", "refused over-limit"]
    assert "Load 12 of 6, most 12, encumbered" in turn.game.sheet_block("Wren")
    assert "Load 7 of 6" in traveller.apply_reply(
        '[inventory: add item="Leather coat"] [inventory: add item="Boar spear" count="2"]'
    ).game.sheet_block("Wren")
    assert "encumbered" not in traveller.apply_reply(
        '[inventory: add item="Leather coat"]'
    ).game.sheet_block("Wren")


def test_salt_is_heavy_and_coin_weighs_a_hundredth(traveller: Game) -> None:
    """game-ruleset-items: coin `perWeight` 100, salt `perWeight` 10."""
    turn = traveller.apply_reply(
        '[inventory: action="earn" amount="3" unit="sovereign"] '
        '[inventory: action="earn" amount="2" unit="cake"]'
    )
    assert "Load 7 of 6, most 12, encumbered" in turn.game.sheet_block("Wren")


def test_coin_cannot_pay_a_salt_price(traveller: Game) -> None:
    """game-ruleset-items: "Coin and salt are two families: a caravan will not take coin"; the
    Waystone costs 2 cakes of salt."""
    turn = traveller.apply_reply(
        '[inventory: action="earn" amount="5" unit="sovereign"] '
        '[inventory: action="buy" item="Waystone"] '
        '[inventory: action="buy" item="Waystone" unit="mark"] '
        '[inventory: action="earn" amount="2" unit="cake"] '
        '[inventory: action="buy" item="waystone"]'
    )
    assert receipts_of(turn) == [
        "5 sovereigns",
        "refused insufficient",
        "refused wrong-currency",
        "2 cakes",
        "1",
    ]
    assert "coin does not pay Salt" in turn.receipts[1].detail
    assert turn.game.to_document()["gameMoney"] == {"wren": {"coin": 500}}


def test_worn_armour_counts_on_guard_and_packed_armour_does_not(traveller: Game) -> None:
    """game-ruleset-items (1.52): Guard reads `itemStat {stat: guard, from: worn, pick: sum}`."""
    packed = traveller.apply_reply('[inventory: action="add" item="Leather coat"]').game
    assert packed.read("Wren", {"derived": "guard"}) == 6
    worn = packed.apply_reply('[inventory: action="equip" item="Leather coat"]').game
    assert worn.read("Wren", {"derived": "guard"}) == 7
    assert (
        "Leather coat (1 worn) [Armor, Common; Bulk 3, Guard 1; costs 2 sovereigns]"
        in worn.sheet_block("Wren")
    )
    assert "Body 1 of 1, Hands 0 of 2" in worn.sheet_block("Wren")


def test_slots_hold_what_a_character_has(traveller: Game) -> None:
    """game-ruleset-items, slice I2b-3: the Engine checks the slots; a bow takes both hands."""
    turn = traveller.apply_reply(
        '[inventory: action="add" item="Hunting bow"] [inventory: add item="Hand axe"] '
        '[inventory: action="equip" item="Hunting bow"] '
        '[inventory: action="equip" item="Hand axe"] '
        '[inventory: action="unequip" item="Hunting bow"] '
        '[inventory: action="equip" item="Hand axe"] '
        '[inventory: action="equip" item="Hand axe"] '
        '[inventory: action="add" item="Rope"] [inventory: action="equip" item="Rope"]'
    )
    assert receipts_of(turn) == [
        "1",
        "1",
        "1",
        "refused slot-full",
        "0",
        "1",
        "refused none-held",
        "1",
        "refused not-wearable",
    ]


def test_a_reply_s_tags_are_applied_and_answered_as_the_engine_answers_them(
    traveller: Game,
) -> None:
    """game-inventory-bags, "A reply's tags, applied and answered": who and to matched like a
    sheet command's who, a forged result never believed, each tag answered on its own."""
    turn = traveller.apply_reply(
        'Wren pockets a map. [inventory: action="add" item="Map" count="2"]\n'
        'She hands Bram the rope. [inventory: add item="Rope"] '
        '[inventory: action="give" item="rope" count="1" to="Bram"]\n'
        '[inventory: action="remove" item="Torch" who="Bram"]\n'
        '[inventory: action="add" item="Gold" who="Dmitri"]\n'
        '[inventory: action="give" item="Map"]\n'
        '[inventory: action="add" item="Crown" result="ok" now="99"]\n'
        "[inventory: gibberish]"
    )
    assert receipts_of(turn) == [
        "2",
        "1",
        "1",
        "refused none-held",
        "refused unknown-character",
        "refused no-recipient",
        "1",
        "refused malformed",
    ]
    assert turn.receipts[2].tag == (
        '[inventory: action="give" item="rope" count="1" to="Bram" result="ok" now="1"]'
    )
    stacks = turn.game.to_document()["gameInventory"]
    assert [(s["name"], s["quantity"], s.get("holder")) for s in stacks] == [
        ("Map", 2, None),
        ("Rope", 1, "Bram"),
        ("Crown", 1, None),
    ]


def test_counts_are_read_as_the_engine_reads_them(traveller: Game) -> None:
    """game-inventory-bags, "The grammar": a count past 9999 is 9999, one below 1 is 1."""
    turn = traveller.apply_reply(
        '[inventory: action="add" item="Gold" quantity="50000"] '
        '[inventory: action="add" item="Pebble" count="-3"] [inventory: remove item="Gold" qty=9]'
    )
    assert receipts_of(turn) == ["9999", "1", "9990"]


def test_a_ruleset_item_fills_its_stack_then_starts_another(warden: Callable[[int], Game]) -> None:
    """game-inventory-stacks: "a stack of one holds up to its `stack`" (shot and powder: 20)."""
    turn = warden(2).apply_reply('[inventory: action="add" item="SHOT AND POWDER" count="45"]')
    stacks = turn.game.to_document()["gameInventory"]
    assert [(s["id"], s["quantity"], s["item"]) for s in stacks] == [
        ("st-shot-and-powder-0", 20, "kit/shot-and-powder"),
        ("st-shot-and-powder-1", 20, "kit/shot-and-powder"),
        ("st-shot-and-powder-2", 5, "kit/shot-and-powder"),
    ]
    assert receipts_of(turn) == ["45"]


def test_freeform_refuse_adds_only_the_ruleset_s_items() -> None:
    """game-ruleset-items, slice I2b-2: `freeform: "refuse"` refuses plain items."""
    data = json.loads((RULESETS / "reference" / "ember-roads.json").read_text("utf-8"))
    data["items"]["freeform"] = "refuse"
    game = Game.new(load_ruleset(data), characters={"Wren": None})
    turn = game.apply_reply('[inventory: add item="Rope"] [inventory: add item="road rations"]')
    assert receipts_of(turn) == ["refused unknown-item", "1"]


def test_an_invented_item_is_held_to_its_rarity_s_caps(traveller: Game) -> None:
    """game-ruleset-items (rarityCaps, 1.51): "An item the Game Master invents guards at most 1
    when common, 2 when uncommon and 3 when storied"."""
    turn = traveller.apply_reply(
        '[inventory: add item="Old shield" category="armor" rarity="common" guard="2"] '
        '[inventory: add item="Old shield" category="armor" rarity="uncommon" guard="2"] '
        '[inventory: add item="Odd thing" category="relic"]'
    )
    assert receipts_of(turn) == ["refused over-cap", "1", "refused bad-value"]
    assert "Old shield [Armor, Uncommon; Guard 2]" in turn.game.sheet_block("Wren")


def test_the_dawn_bell_spends_its_charges(warden: Callable[[int], Game]) -> None:
    """game-ruleset-items: the Dawn bell's `charges: {max: 3, recharge: {rests: ["vigil"]}}`."""
    turn = warden(2).apply_reply(
        '[inventory: add item="Dawn bell"] '
        + '[inventory: action="use" item="Dawn bell"] ' * 4
        + '[inventory: action="use" item="Warming tonic"] [inventory: add item="Warming tonic"] '
        '[inventory: action="use" item="Warming tonic"]'
    )
    assert receipts_of(turn) == [
        "1",
        "2",
        "1",
        "0",
        "refused no-charges",
        "refused none-held",
        "1",
        "0",
    ]


def test_standing_down_from_the_vigil_rings_the_bell_full_again(
    warden: Callable[[int], Game],
) -> None:
    """game-ruleset-items: the Dawn bell's charges recharge on the `vigil` rest, to `max`; a
    breather is not the vigil."""
    rung = warden(2).apply_reply(
        '[inventory: add item="Dawn bell"] ' + '[inventory: action="use" item="Dawn bell"] ' * 2
    )
    assert "1 charges left" in rung.game.sheet_block("Agnes")
    breather = rung.game.apply_reply('[sheet: op="rest" rest="breather"]').game
    assert "1 charges left" in breather.sheet_block("Agnes")
    vigil = breather.apply_reply('[sheet: op="rest" rest="vigil"]').game
    assert "charges left" not in vigil.sheet_block("Agnes")
    assert receipts_of(vigil.apply_reply('[inventory: use item="Dawn bell"]')) == ["2"]


def test_a_worn_coat_and_a_carried_waystone_change_the_checks_they_name(traveller: Game) -> None:
    """game-ruleset-items (1.53, with the check effects): the Leather coat, worn, is -1 on Sneak;
    the Waystone, only carried, is +1 on Sway; a coat in the pack changes nothing."""
    turn = traveller.apply_reply(
        '[inventory: add item="Leather coat"] [skill_check: skill="Sneak" dc="8"] '
        '[inventory: equip item="Leather coat"] [skill_check: skill="Sneak" dc="8"] '
        '[inventory: add item="Waystone"] [skill_check: skill="Sway" dc="8"]',
        seed=1,
    )
    packed, worn, carried = (r.tag for r in turn.receipts if r.family == "skill_check")
    assert "effects=" not in packed
    assert 'effects="-1" from="Leather coat"' in worn
    assert 'effects="+1" from="Waystone"' in carried


def test_who_party_is_the_player_s_own_bag(traveller: Game) -> None:
    """game-inventory-bags, "Who and to": `who="party"` reads as no holder, the player's bag."""
    player_first = Game.new(
        traveller.ruleset, characters={"Bram": None, "Wren": None}, player="Wren"
    )
    turn = player_first.apply_reply('[inventory: add item="Rope" who="party"]')
    assert receipts_of(turn) == ["1"]
    assert turn.game.to_document()["gameInventory"] == [
        {"id": "st-rope-0", "name": "Rope", "quantity": 1}
    ]


def test_a_layer_that_hides_an_item_takes_it_out_of_names_not_out_of_bags() -> None:
    """game-ruleset-items, slice I2b-2: "A layer that hides an entry takes it out of what a name
    finds and what the picker offers, and an item of it already held still reads as itself"."""
    data = json.loads((RULESETS / "reference" / "ember-roads.json").read_text("utf-8"))
    outfitter = next(c for c in data["catalogs"] if c.get("holds") == "items")
    outfitter["filters"] = [{"id": "rarity", "label": "Rarity", "type": "text"}]
    for entry in outfitter["entries"]:
        entry["filters"] = {"rarity": entry["item"]["rarity"]}
    data["layers"].append(
        {
            "id": "plain_roads",
            "label": "Plain roads",
            "catalogs": [{"id": "outfitter", "hide": {"filter": "rarity", "equals": "storied"}}],
        }
    )
    ruleset = load_ruleset(data)
    before = Game.new(ruleset, characters={"Wren": None}).apply_reply(
        '[inventory: add item="Waystone"]'
    )
    document = before.game.to_document()
    plain = Game.from_document(ruleset, {**document, "rulesetLayers": ["plain_roads"]})
    turn = plain.apply_reply(
        '[inventory: earn amount="2" unit="cake"] [inventory: buy item="Waystone"] '
        '[inventory: add item="Waystone"] [inventory: add item="Hand axe"]'
    )
    assert receipts_of(turn) == ["2 cakes", "refused unknown-item", "1", "1"]
    stacks = turn.game.to_document()["gameInventory"]
    assert [(s["name"], s.get("item")) for s in stacks] == [
        ("Waystone", "outfitter/waystone"),  # held before the layer: still the ruleset's item
        ("Waystone", None),  # a name the layer hides adds a plain item
        ("Hand axe", "outfitter/hand-axe"),
    ]
    assert "Waystone [Gear, Storied; costs 2 cakes]" in turn.game.sheet_block("Wren")


def test_past_forty_tags_the_rest_are_refused_even_one_that_claims_it_happened(
    traveller: Game,
) -> None:
    """game-inventory-bags: "Past the cap, tags are answered as refused rather than read at any
    cost, even one that claims it already happened" (40 Pebbles, then too-many)."""
    flood = '[inventory: action="add" item="Pebble"] ' * 44
    turn = traveller.apply_reply(
        flood + '[inventory: action="add" item="Crown" result="ok" now="1"]'
    )
    assert receipts_of(turn)[39:41] == ["40", "refused too-many"]
    assert receipts_of(turn).count("refused too-many") == 5


def test_the_next_reminder_says_how_much_money_there_was(warden: Callable[[int], Game]) -> None:
    """A refused payment is heard next turn with the purse and the price, so the Game Master can
    narrate it and write the next tag right."""
    turn = warden(2).apply_reply(
        '[inventory: action="earn" amount="1" unit="crown"] '
        '[inventory: action="pay" amount="9" unit="crown"]'
    )
    assert turn.game.recent == (
        "pay crown refused (insufficient: Agnes has 1 crowns of Coin, and this costs 9 crowns)",
    )
