"""Conditions, reached levels and held items change checks (Capability API 1.53), worked from the
Engine's regression blocks in `game-ruleset-check-effects` on the reference rulesets and a 5e
fragment shaped like the Engine's 5e example."""

from __future__ import annotations

import json
from typing import Any

import pytest

from gm_tags import Game, load_ruleset
from gm_tags.checks.effects import (
    HeldEffect,
    Source,
    effects_for,
    item_sources,
    roll_mode,
)
from gm_tags.checks.record import CheckRecord, CheckRequest, read_record
from gm_tags.checks.target import resolve_target
from gm_tags.parse import parse
from gm_tags.ruleset.effects import ItemEffect, Modifier
from gm_tags.scan import scan
from tests.checks.conftest import rolled
from tests.conftest import FIXTURES

# The least a fight needs, so a combat block can carry conditions and levels.
FIGHT: dict[str, Any] = {
    "kind": "attack-vs-defense",
    "health": {"pool": "hp"},
    "defense": {"const": 10},
    "initiative": {"dice": {"count": 1, "sides": 20}},
    "attackRoll": {"dice": {"count": 1, "sides": 20}},
    "economy": {"budgets": [{"id": "action", "label": "Action", "per": "turn"}]},
}
# The 5e example's conditions and exhaustion, as the Engine's 5e ruleset maps them.
FIVE_E_COMBAT: dict[str, Any] = {
    **FIGHT,
    "conditions": [
        {"condition": "charmed", "effects": ["cannot-target-source"]},
        {
            "condition": "poisoned",
            "effects": ["own-attacks-disadvantage", "own-checks-disadvantage"],
        },
        {
            "condition": "paralyzed",
            "effects": ["cannot-act", "attacks-against-advantage"],
            "failsSaves": ["str_save", "dex_save"],
        },
        {
            "condition": "restrained",
            "effects": ["speed-zero", "own-attacks-disadvantage", "own-saves-disadvantage"],
            "saves": ["dex_save"],
        },
    ],
    "levels": [
        {"track": "exhaustion", "at": 1, "effects": ["own-checks-disadvantage"]},
        {"track": "exhaustion", "at": 2, "modifiers": [{"to": "speed", "times": 0.5}]},
        {"track": "exhaustion", "at": 3, "effects": ["own-saves-disadvantage"]},
        {"track": "exhaustion", "at": 5, "effects": ["speed-zero"]},
    ],
}


def fifth_e() -> Game:
    data = json.loads((FIXTURES / "rulesets" / "fifth-age.json").read_text("utf-8"))
    data["sheet"]["live"]["conditions"] += [
        {"id": "charmed", "label": "Charmed"},
        {"id": "paralyzed", "label": "Paralyzed"},
        {"id": "restrained", "label": "Restrained"},
    ]
    data["combat"] = FIVE_E_COMBAT
    return Game.new(load_ruleset(data), {"Mira": {}, "Bram": {}}, player="Mira")


def reference(name: str) -> Game:
    path = FIXTURES / "rulesets" / "reference" / f"{name}.json"
    return Game.new(load_ruleset(path), {"Wren": {"abilities": {"wits": 3}}}, player="Wren")


def with_conditions(game: Game, *conditions: str) -> Game:
    reply = " ".join(f'[sheet: op="condition" condition="{c}"]' for c in conditions)
    return game.apply_reply(reply).game


def record_of(game: Game, reply: str) -> CheckRecord:
    receipt = game.apply_reply(reply).receipts[-1]
    tag = parse(scan(receipt.tag)[0])
    record = read_record(dict(tag.attributes))
    assert record is not None, receipt.tag
    return record


@pytest.mark.spec("EN-1")
def test_rattled_takes_a_die_off_soothe_and_barter_but_not_ward() -> None:
    """game-ruleset-check-effects: "Gravewatch, a pool: ... Rattled takes one off Soothe"."""
    rattled = with_conditions(reference("gravewatch"), "rattled")
    plain = rolled(reference("gravewatch"), CheckRequest("Soothe", dc=1), [6, 6])
    soothe = rolled(rattled, CheckRequest("Soothe", dc=1), [6])
    assert (plain.pool, soothe.pool) == (2, 1)
    assert (soothe.effects, soothe.from_) == (-1, ("Rattled",))
    assert 'effects="-1" from="Rattled"' in soothe.tag
    barter = rolled(rattled, CheckRequest("Barter", dc=1), [6])
    assert (barter.pool, barter.from_) == (1, ("Rattled",))
    ward = rolled(rattled, CheckRequest("Ward", dc=1), [6, 6])
    assert (ward.effects, ward.from_, ward.pool) == (None, (), 2)
    assert "from=" not in ward.tag


@pytest.mark.spec("EN-1")
def test_poisoned_and_exhaustion_1_roll_stealth_with_disadvantage() -> None:
    """game-ruleset-check-effects: "What changes a check: sources and their parts" (Stealth) and
    "5e: poisoned leans a check, the Game Master's advantage cancels it"."""
    game = with_conditions(fifth_e(), "poisoned")
    game = game.apply_reply('[sheet: op="track" track="exhaustion" to="1"]').game
    stealth = rolled(game, CheckRequest("Stealth", dc=10), [15, 4])
    assert (stealth.mode, stealth.rolls, stealth.used) == ("disadvantage", (15, 4), 4)
    assert stealth.from_ == ("Poisoned", "Exhaustion 1")
    assert stealth.effects is None, "a lean adds no number"
    helped = rolled(game, CheckRequest("Stealth", dc=10, mode="advantage"), [15])
    assert (helped.mode, helped.rolls) == ("normal", (15,)), "advantage and disadvantage cancel"
    both = rolled(game, CheckRequest("Stealth", dc=10, mode="disadvantage"), [15, 4])
    assert both.mode == "disadvantage", "two disadvantages are one"
    bram = rolled(game, CheckRequest("Stealth", dc=10, who="Bram"), [15])
    assert (bram.mode, bram.from_) == ("normal", ()), "Bram is not poisoned"


@pytest.mark.spec("EN-1")
def test_paralyzed_fails_a_dexterity_save_without_a_roll_and_the_record_reads_back() -> None:
    """game-ruleset-check-effects: "a paralyzed character fails a Dexterity save without a
    roll", its record `rolls="" ... dice="0d20" ... from="Paralyzed" automatic="true"`."""
    game = with_conditions(fifth_e(), "paralyzed")
    record = record_of(game, '[skill_check: skill="Dexterity save" dc="12"]')
    assert (record.result, record.automatic, record.rolls, record.total) == (
        "failure",
        True,
        (),
        0,
    )
    assert (record.dice, record.from_) == ("0d20", ("Paralyzed",))
    assert 'rolls="" used="0"' in record.tag and 'from="Paralyzed" automatic="true"' in record.tag
    assert "failed without a roll" in record.summary
    wisdom = rolled(game, CheckRequest("Wisdom save", dc=12), [9])
    assert (wisdom.automatic, wisdom.rolls) == (False, (9,)), "a save it does not fail is rolled"


@pytest.mark.spec("EN-1", "TG-4")
def test_a_claimed_automatic_failure_is_never_taken_from_the_game_master() -> None:
    """game-ruleset-check-effects: "A record claiming such a failure is never taken from the
    Game Master: a ruleset game decides the save again from the sheet"."""
    claimed = (
        '[skill_check: skill="Dexterity save" dc="12" rolls="" used="0" modifier="0" total="0" '
        'result="failure" mode="normal" resolution="sum" dice="0d20" from="Paralyzed" '
        'automatic="true"]'
    )
    record = record_of(fifth_e(), claimed)
    assert (record.automatic, len(record.rolls), record.from_) == (False, 1, ())


@pytest.mark.spec("EN-1")
def test_a_wisdom_save_is_untouched_by_a_dexterity_only_narrowing() -> None:
    """game-ruleset-check-effects: "a save effect narrowed to other saves" (Restrained)."""
    game = with_conditions(fifth_e(), "restrained")
    wisdom = rolled(game, CheckRequest("Wisdom save", dc=12), [9])
    assert (wisdom.mode, wisdom.from_) == ("normal", ())
    dex = rolled(game, CheckRequest("Dex save", dc=12), [9, 3])
    assert (dex.mode, dex.used, dex.from_) == ("disadvantage", 3, ("Restrained",))


@pytest.mark.spec("EN-1")
def test_levels_count_while_reached_and_name_themselves_by_track_label() -> None:
    game = with_conditions(fifth_e(), "poisoned", "charmed")
    game = game.apply_reply('[sheet: op="track" track="exhaustion" to="3"]').game
    dex = rolled(game, CheckRequest("Dexterity save", dc=12), [9, 3])
    assert (dex.mode, dex.from_) == ("disadvantage", ("Exhaustion 3",))
    lower = game.apply_reply('[sheet: op="track" track="exhaustion" to="2"]').game
    assert rolled(lower, CheckRequest("Dexterity save", dc=12), [9]).mode == "normal"


def test_a_narrowed_source_changes_only_what_it_names() -> None:
    """game-ruleset-check-effects: "Narrowing: a modifier's own skills, else its source's; an
    ability check or an unknown one reads only what is narrowed to nothing"."""
    ruleset = fifth_e().ruleset
    assert ruleset is not None
    kit = ItemEffect(
        skills=["stealth"],
        effects=["own-checks-advantage"],
        modifiers=[
            Modifier(to="checks", flat=1),
            Modifier(to="checks", skills=["perception"], flat=2),
            Modifier(to="checks", skills=["perception"], mode="disadvantage"),
        ],
    )
    charm = ItemEffect(modifiers=[Modifier(to="checks", flat=5)])
    sources = [Source("Kit", kit), Source("Charm", charm)]

    def flats(name: str) -> list[str]:
        found = effects_for(sources, resolve_target(ruleset, name))
        return [f"{source} {modifier.flat}" for source, modifier in found.modifiers]

    assert flats("Stealth") == ["Kit 1", "Charm 5"]
    assert effects_for(sources, resolve_target(ruleset, "Stealth")).advantage == ("Kit",)
    assert effects_for(sources, resolve_target(ruleset, "Athletics")).advantage == ()
    assert flats("Perception") == ["Kit 2", "Charm 5"]
    assert effects_for(sources, resolve_target(ruleset, "Perception")).disadvantage == ("Kit",)
    assert flats("Strength") == ["Charm 5"], "an ability check"
    assert flats("Juggling") == ["Charm 5"], "a check the ruleset cannot name"
    assert flats("Strength save") == [], "checks are not saves"


@pytest.mark.parametrize(
    ("asked", "advantage", "disadvantage", "mode"),
    [
        (None, ("a",), (), "advantage"),
        (None, ("a", "b"), ("c",), "normal"),
        ("advantage", (), ("c",), "normal"),
        ("disadvantage", (), ("c",), "disadvantage"),
        ("advantage", (), (), "advantage"),
    ],
)
def test_leans_cancel_with_the_game_masters_mode(
    asked: str | None, advantage: tuple[str, ...], disadvantage: tuple[str, ...], mode: str
) -> None:
    from gm_tags.checks.effects import Effects

    assert roll_mode(asked, Effects(advantage=advantage, disadvantage=disadvantage)) == mode


def test_one_item_counts_once_however_many_stacks_and_worn_only_while_worn() -> None:
    """game-ruleset-check-effects: "Worn while worn, carried while only carried; one item's effect
    once, however many stacks"."""
    coat = ItemEffect(modifiers=[Modifier(to="checks", skills=["sneak"], flat=-1)])
    stone = ItemEffect(modifiers=[Modifier(to="checks", skills=["sway"], flat=1)])

    def names(*held: HeldEffect) -> list[str]:
        return [source.name for source in item_sources(held)]

    assert names(HeldEffect("Old coat", "outfitter/leather-coat", True, coat)) == ["Old coat"]
    assert names(HeldEffect("Old coat", "outfitter/leather-coat", False, coat)) == []
    two = [HeldEffect("Waystone", "outfitter/waystone", False, None, stone)] * 2
    assert names(*two) == ["Waystone"], "two stacks of one item count once"


def test_numbers_from_sources_add_up_on_a_sum() -> None:
    data = json.loads((FIXTURES / "rulesets" / "fifth-age.json").read_text("utf-8"))
    data["combat"] = {
        **FIGHT,
        "conditions": [
            {"condition": "prone", "modifiers": [{"to": "checks", "flat": 2}]},
            {
                "condition": "frightened",
                "modifiers": [{"to": "checks", "dice": "1d4", "minus": True}],
            },
        ],
    }
    game = Game.new(load_ruleset(data), {"Mira": {}}, player="Mira")
    game = with_conditions(game, "prone", "frightened")
    plain = rolled(fifth_e(), CheckRequest("Athletics", dc=10), [10])
    record = rolled(game, CheckRequest("Athletics", dc=10), [3, 10])  # the 1d4 first, then the d20
    assert (record.effects, record.modifier, record.from_) == (
        -1,
        plain.modifier - 1,
        ("Prone", "Frightened"),
    )
    assert 'effects="-1" from="Prone; Frightened"' in record.tag


def test_a_record_reads_back_as_it_was_written() -> None:
    game = with_conditions(reference("gravewatch"), "rattled")
    record = rolled(game, CheckRequest("Soothe", dc=1), [6, 2])
    back = read_record(dict(parse(scan(record.tag)[0]).attributes))
    assert back is not None
    assert back.tag == record.tag
    assert (back.effects, back.from_) == (-1, ("Rattled",))


@pytest.mark.spec("EN-1")
def test_a_worn_coat_costs_sneak_one_and_a_carried_waystone_helps_sway_once() -> None:
    """game-ruleset-check-effects: "Ember Roads: the coat worn costs Sneak 1, the waystone carried
    helps Sway, and neither touches the other skills" (two waystones count once)."""
    ember = Game.new(
        load_ruleset(FIXTURES / "rulesets" / "reference" / "ember-roads.json"), {"Mira": {}}
    )
    game = ember.apply_reply(
        '[inventory: action="add" item="Leather coat"] [inventory: action="equip" '
        'item="Leather coat"] [inventory: action="add" item="Waystone" count="2"]'
    ).game
    plain = {skill: rolled(ember, CheckRequest(skill, dc=8), [3, 4]) for skill in ("Sneak", "Sway")}
    sneak = rolled(game, CheckRequest("Sneak", dc=8), [3, 4])
    assert (sneak.modifier, sneak.effects, sneak.from_) == (
        plain["Sneak"].modifier - 1,
        -1,
        ("Leather coat",),
    )
    assert 'effects="-1" from="Leather coat"' in sneak.tag
    sway = rolled(game, CheckRequest("Sway", dc=8), [3, 4])
    assert (sway.modifier, sway.from_) == (plain["Sway"].modifier + 1, ("Waystone",))
    tinker = rolled(game, CheckRequest("Tinker", dc=8), [3, 4])
    assert (tinker.effects, tinker.from_) == (None, ())
    unworn = ember.apply_reply('[inventory: action="add" item="Leather coat"]').game
    assert rolled(unworn, CheckRequest("Sneak", dc=8), [3, 4]).from_ == (), "a coat in the pack"
