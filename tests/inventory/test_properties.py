"""Invariants of the inventory under any sequence of inventory tags, on both reference rulesets:
money never below 0, slots and binding within their limits, worn and bound counts within each
stack, and the game document reading back to the same game."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from gm_tags import Game, Ruleset
from gm_tags.commands.inventory import ACTIONS
from gm_tags.engine.bags import Bag
from gm_tags.sheet.item_book import book_for

NAMES = {
    "gravewatch": ["Dawn bell", "Widow's ring", "Grave spade", "Shot and powder", "Warming tonic"],
    "ember-roads": [
        "Leather coat",
        "Hunting bow",
        "Hand axe",
        "Arrows",
        "Waystone",
        "Road rations",
    ],
}
UNITS = {
    "gravewatch": ["penny", "shilling", "crown", "florin"],
    "ember-roads": ["bit", "mark", "sovereign", "pinch", "cake"],
}
WHO = ["", "Wren", "Bram", "Nobody"]


def _tag(data: st.DataObject, ruleset_id: str) -> str:
    action = data.draw(st.sampled_from(ACTIONS))
    names = [*NAMES[ruleset_id], "Rope", "Lantern"]
    who = data.draw(st.sampled_from(WHO))
    parts = [f'action="{action}"']
    if action in ("pay", "earn"):
        parts.append(f'amount="{data.draw(st.integers(-1, 400))}"')
        parts.append(f'unit="{data.draw(st.sampled_from(UNITS[ruleset_id]))}"')
    else:
        parts.append(f'item="{data.draw(st.sampled_from(names))}"')
        parts.append(f'count="{data.draw(st.integers(-2, 30))}"')
    if who:
        parts.append(f'who="{who}"')
    if action == "give":
        parts.append(f'to="{data.draw(st.sampled_from(WHO[1:]))}"')
    return f"[inventory: {' '.join(parts)}]"


def _holds_its_limits(game: Game) -> None:
    for money in game.inventory.money.values():
        assert all(amount >= 0 for amount in money.values())
    for stack in game.inventory.stacks:
        assert 0 < stack.quantity <= 9999
        assert 0 <= stack.equipped <= stack.quantity and 0 <= stack.bound <= stack.quantity
    book = book_for(game.ruleset)
    assert book is not None
    for character in game.characters:
        bag = Bag.of(game, character)
        for slot in book.items.slots or ():
            assert bag.slots_used().get(slot.id, 0) <= slot.count
        most = bag.limit("binding")
        if most is not None:
            assert bag.bound() <= most


def _games(gravewatch: Ruleset, ember: Ruleset) -> list[tuple[str, Game]]:
    return [
        (
            ruleset.id,
            Game.new(
                ruleset,
                characters={"Wren": {"abilities": {"nerve": 2, "brawn": 1}}, "Bram": None},
            ),
        )
        for ruleset in (gravewatch, ember)
    ]


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_any_sequence_of_inventory_tags_keeps_money_slots_and_binding_in_bounds(
    data: st.DataObject, gravewatch: Ruleset, ember: Ruleset
) -> None:
    ruleset_id, game = data.draw(st.sampled_from(_games(gravewatch, ember)))
    for _ in range(data.draw(st.integers(1, 4))):
        tags = [_tag(data, ruleset_id) for _ in range(data.draw(st.integers(1, 12)))]
        turn = game.apply_reply(" ".join(tags))
        game = turn.game
        _holds_its_limits(game)
        document = game.to_document()
        assert Game.from_document(game.ruleset, document).to_document() == document
        # The state a reply leaves reads its held items back as the reply left them.
        again = Game.from_document(game.ruleset, document)
        for character in game.characters:
            assert again.sheet_block(character.name) == game.sheet_block(character.name)


def test_a_purse_and_the_stacks_stay_within_what_a_document_stores(gravewatch: Ruleset) -> None:
    """A reply cannot leave more money or more stacks than a game document reads back."""
    game = Game.new(gravewatch, characters={"Wren": None})
    turn = game.apply_reply('[inventory: earn amount="999999999" unit="crown"] ' * 20)
    reasons = [receipt.reason for receipt in turn.receipts]
    assert reasons[:16] == [None] * 16 and reasons[16:] == ["live-state-full"] * 4
    many = game.apply_reply(
        " ".join(f'[inventory: add item="Pebble {n}" count="9999"]' for n in range(40))
    )
    document = many.game.to_document()
    assert Game.from_document(gravewatch, document).to_document() == document
