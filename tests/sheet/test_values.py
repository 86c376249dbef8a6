"""Values on the sheet, checked against numbers worked out by hand from the page and the
fixture rulesets, never against the code's own output."""

from __future__ import annotations

import json

import pytest

from gm_tags import (
    ColumnRollError,
    Dice,
    Game,
    GameDocumentError,
    Ruleset,
    StateChoice,
    load_ruleset,
)
from tests.sheet.conftest import RULESETS, one

GEAR = [
    {"name": "Rope", "bulk": 1, "packed": True},
    {"name": "Lamp", "bulk": 2},  # an empty cell reads its column's default: packed
    {"name": "Crowbar", "bulk": 3, "packed": False},  # not packed: does not count
    {"name": "Bedroll", "bulk": 2, "packed": True},
]


@pytest.mark.spec("VR-2", "SH-8")
def test_ember_roads_burden_counts_only_packed_gear_and_its_step_table_costs_brawn(
    ember: Ruleset,
) -> None:
    game = one(ember, {"abilities": {"brawn": 2}, "lists": {"gear": GEAR}})
    # Rope 1 + Lamp 2 + Bedroll 2 = 5 packed; the table [[0,0],[3,-1],[6,-2],[9,-3]] reads -1.
    assert game.read(None, {"derived": "burden"}) == 5
    assert game.read(None, {"derived": "burdened"}) == -1


@pytest.mark.spec("SH-8")
@pytest.mark.parametrize(
    ("bulks", "burdened"), [([], 0), ([2], 0), ([3], -1), ([3, 3], -2), ([3, 3, 3], -3)]
)
def test_the_burden_table_steps_at_every_three_bulk(
    ember: Ruleset, bulks: list[int], burdened: int
) -> None:
    gear = [{"name": f"Sack {n}", "bulk": bulk} for n, bulk in enumerate(bulks)]
    assert one(ember, {"lists": {"gear": gear}}).read(None, {"derived": "burdened"}) == burdened


@pytest.mark.spec("ET-3", "SH-8")
@pytest.mark.parametrize(("watch", "resolve"), [("dawn", 6), ("night", 5), ("dusk", 5)])
def test_gravewatch_resolve_gains_one_on_the_dawn_watch(
    gravewatch: Ruleset, watch: str, resolve: int
) -> None:
    # resolve_max = 2 + Nerve's modifier (identity: 3) + "Seen the night through" (dawn: 1).
    game = one(gravewatch, {"abilities": {"nerve": 3}, "fields": {"watch": watch}})
    assert game.read(None, {"derived": "resolve_max"}) == resolve
    assert game.read(None, {"livePool": "resolve"}) == resolve  # a pool starts full


@pytest.mark.spec("ET-1", "ET-2", "VR-7")
@pytest.mark.parametrize(
    ("light", "on_nerve"), [(None, 0), ("lit", 0), ("shuttered", -1), ("out", -2)]
)
def test_gravewatch_light_state_feeds_its_table_on_nerve(
    gravewatch: Ruleset, light: str | None, on_nerve: int
) -> None:
    game = one(gravewatch)
    if light is not None:
        game = game.apply_reply(f'[sheet: op="state" state="light" value="{light}"]').game
    assert game.read(None, {"derived": "light_nerve"}) == on_nerve


@pytest.mark.spec("VR-5")
def test_gravewatch_harm_still_to_take_reads_the_track_remaining(gravewatch: Ruleset) -> None:
    game = one(gravewatch)
    assert game.read(None, {"derived": "harm_left"}) == 4
    hurt = game.apply_reply('[sheet: op="damage" track="harm" kind="knock" amount="3"]').game
    assert hurt.read(None, {"derived": "harm_left"}) == 1
    assert hurt.read(None, {"liveTrack": "harm", "read": "filled"}) == 3
    assert hurt.read(None, {"liveTrack": "harm", "read": "penalty"}) == -3  # Bleeding


@pytest.mark.spec("SH-8")
@pytest.mark.parametrize(
    ("level", "bonus", "half"),
    [(1, 2, 0), (4, 2, 2), (5, 3, 2), (9, 4, 4), (13, 5, 6), (17, 6, 8), (20, 6, 10)],
)
def test_a_5e_proficiency_bonus_by_level(fifth: Ruleset, level: int, bonus: int, half: int) -> None:
    game = one(fifth, {"fields": {"level": level}})
    assert game.read(None, {"derived": "proficiency_bonus"}) == bonus
    assert game.read(None, {"derived": "half_level"}) == half


def test_5e_skill_and_save_numbers_add_modifier_tier_and_bonus(fifth: Ruleset) -> None:
    build = {
        "abilities": {"dex": 15, "wis": 12, "con": 14},
        "fields": {"level": 5},
        "skills": {"stealth": "expertise", "perception": "half"},
        "saves": {"dex_save": "proficient", "con_save": "expertise"},
        "bonuses": {"perception": 1},
    }
    game = one(fifth, build)
    # Dex 15 is +2; expertise doubles the +3 proficiency bonus at level 5: 2 + 6 = 8.
    assert game.read(None, {"skillMod": "stealth"}) == 8
    # Wis 12 is +1; half proficiency rounds 1.5 down to 1; a bonus of 1: 3. Passive is 10 + 3.
    assert game.read(None, {"skillMod": "perception"}) == 3
    assert game.read(None, {"derived": "passive_perception"}) == 13
    assert game.read(None, {"saveMod": "dex_save"}) == 5
    # Saves offer only none and proficient: an expertise stored there reads as the first tier.
    assert game.read(None, {"saveMod": "con_save"}) == 2
    # Con 14 is +2, times level 5 = 10; hit points 8 + 10.
    assert game.read(None, {"derived": "hp_max"}) == 18


@pytest.mark.spec("TR-1", "VR-7")
def test_a_storyteller_track_takes_its_max_from_a_field(storyteller: Ruleset) -> None:
    game = one(storyteller, {"fields": {"willpower_rating": 4}})
    assert game.read(None, {"liveTrack": "temper", "read": "remaining"}) == 4
    moved = game.apply_reply('[sheet: op="track" track="temper" by="+9"]')
    assert moved.receipts[0].now == "Temper 4"
    assert moved.game.read(None, {"liveTrack": "temper", "read": "remaining"}) == 0


@pytest.mark.spec("VR-6", "HW-1", "HW-3")
def test_a_hidden_pool_reads_zero_and_a_hidden_list_adds_nothing(storyteller: Ruleset) -> None:
    mortal = one(storyteller, {"fields": {"generation": 8}})  # clan defaults to mortal
    assert mortal.read(None, {"livePool": "blood"}) == 0
    vampire = one(storyteller, {"fields": {"clan": "brujah", "generation": 8}})
    assert vampire.read(None, {"livePool": "blood"}) == 15
    gone = one(storyteller, {"fields": {"clan": "ventrue", "generation": 8}})  # not offered
    assert gone.read(None, {"livePool": "blood"}) == 0  # reads the default: mortal, hidden


@pytest.mark.spec("VR-7")
def test_with_no_live_state_a_pool_reads_its_start_and_a_track_its_default(
    storyteller: Ruleset,
) -> None:
    game = one(storyteller)
    assert game.read(None, {"livePool": "willpower"}) == 3  # willpower_rating's default
    assert game.read(None, {"liveTrack": "humanity"}) == 7
    assert game.read(None, {"liveTrack": "health", "read": "remaining"}) == 7


@pytest.mark.spec("VR-10")
def test_item_stat_reads_the_guard_of_worn_items_only(ember: Ruleset) -> None:
    document = {
        "gameCharacterCards": [
            {
                "name": "Mira",
                "rulesetSheet": {"v": 1, "build": {"abilities": {"wits": 1}}},
                "items": [
                    {
                        "name": "Leather coat",
                        "worn": True,
                        "category": "armor",
                        "stats": {"guard": 1, "bulk": 2},
                    },
                    {
                        "name": "Spare coat",
                        "worn": False,
                        "category": "armor",
                        "stats": {"guard": 1, "bulk": 2},
                    },
                ],
            }
        ]
    }
    game = Game.from_document(ember, document)
    assert game.read(None, {"derived": "guard"}) == 6 + 1 + 1
    assert game.read(None, {"derived": "bulk_carried"}) == 4


def test_blank_build_is_what_a_character_without_a_sheet_plays_on(fifth: Ruleset) -> None:
    game = Game.new(fifth, {"Stranger": None})
    assert game.read("Stranger", {"abilityScore": "dex"}) == 10
    assert game.read("Stranger", {"derived": "proficiency_bonus"}) == 2
    assert game.read("Stranger", {"skillMod": "stealth"}) == 0
    assert game.to_document()["gameCharacterCards"] == [{"name": "Stranger"}]


def test_untrained_by_applies_on_the_first_tier_only_and_the_skills_rule_beats_its_sections(
    ember: Ruleset, gravewatch: Ruleset
) -> None:
    # Tinker rolls with Wits (1) and costs 2 untrained; trained adds 1 (flat) and no cost.
    assert one(ember, {"abilities": {"wits": 1}}).read(None, {"skillMod": "tinker"}) == -1
    trained = one(ember, {"abilities": {"wits": 1}, "skills": {"tinker": "trained"}})
    assert trained.read(None, {"skillMod": "tinker"}) == 2
    # Wrestle sits in Labour (untrained: -1 die): Sinew 3 untrained is a pool of 2.
    assert one(gravewatch, {"abilities": {"sinew": 3}}).read(None, {"skillMod": "wrestle"}) == 2


def test_a_character_nobody_made_a_sheet_for_has_no_untrained_rule(ember: Ruleset) -> None:
    game = Game.new(ember, {"Stranger": None})
    assert game.read("Stranger", {"skillMod": "tinker"}) == game.read(
        "Stranger", {"abilityMod": "wits"}
    )


@pytest.mark.spec("VR-7")
def test_a_cap_on_a_live_pool_holds_the_skill_as_the_pool_drains(gravewatch: Ruleset) -> None:
    build = {"abilities": {"warmth": 4, "nerve": 1}, "skills": {"soothe": "rating_2"}}
    game = one(gravewatch, build)
    # Soothe: Warmth 4 + Steady 2 = 6, capped at the Resolve left: 2 + Nerve 1 = 3.
    assert game.read(None, {"skillMod": "soothe"}) == 3
    spent = game.apply_reply('[sheet: op="spend" pool="resolve" amount="2"]').game
    assert spent.read(None, {"skillMod": "soothe"}) == 1


@pytest.mark.spec("ET-4", "HW-3")
def test_a_layer_taking_a_value_out_means_its_table_row_is_never_read() -> None:
    data = json.loads((RULESETS / "reference" / "gravewatch.json").read_text("utf-8"))
    data["layers"] = [
        {
            "id": "no_dawn",
            "label": "No dawn watch",
            "fields": [{"id": "watch", "removeValues": ["dawn"]}],
        }
    ]
    ruleset = load_ruleset(data)
    build = {"abilities": {"nerve": 3}, "fields": {"watch": "dawn"}}
    assert Game.new(ruleset, {"Wren": build}).read(None, {"derived": "resolve_max"}) == 6
    layered = Game.new(ruleset, {"Wren": build}, layers=["no_dawn"])
    # The watch reads as its default (night): the dawn row is never read while the layer is on.
    assert layered.read(None, {"derived": "resolve_max"}) == 5
    document = layered.to_document()
    assert document["rulesetLayers"] == ["no_dawn"]
    assert document["gameCharacterCards"][0]["rulesetSheet"]["build"]["fields"]["watch"] == "dawn"
    assert Game.from_document(ruleset, document).read(None, {"derived": "resolve_max"}) == 5
    with pytest.raises(GameDocumentError):
        Game.from_document(ruleset, {**document, "rulesetLayers": ["midsummer"]})


@pytest.mark.spec("VR-4")
def test_live_pool_reads_what_is_left(gravewatch: Ruleset) -> None:
    game = one(gravewatch, {"abilities": {"nerve": 2}})
    spent = game.apply_reply('[sheet: op="spend" pool="resolve" amount="3"]').game
    assert (
        game.read(None, {"livePool": "resolve"}),
        spent.read(None, {"livePool": "resolve"}),
    ) == (4, 1)


def rolls_of(seed: int, count: int, sides: int) -> list[int]:
    return Dice(seed).roll(count, sides)


@pytest.mark.spec("SH-11")
def test_a_roll_column_throws_the_engines_dice_with_sides_from_a_number_a_column_or_the_sheet(
    fifth: Ruleset,
) -> None:
    rows = [{"name": "2nd", "die": "d10"}, {"name": "3rd"}]
    game = one(fifth, {"fields": {"hit_die_size": "d6"}, "lists": {"hp_rolls": rows}})
    by_column = game.roll_column(None, "hp_rolls", "2nd", "rolled", seed=7)
    assert list(by_column.rolls) == rolls_of(7, 1, 10)  # the row's die: d10
    assert by_column.total == by_column.rolls[0]
    stored = by_column.game.to_document()["gameCharacterCards"][0]["rulesetSheet"]["build"]
    assert stored["lists"]["hp_rolls"][0]["rolled"] == by_column.total
    default_die = game.roll_column(None, "hp_rolls", 1, "rolled", seed=7)
    assert list(default_die.rolls) == rolls_of(7, 1, 8)  # an empty die cell reads its default
    by_sheet = game.roll_column(None, "hp_rolls", 0, "by_class", seed=3)
    assert list(by_sheet.rolls) == rolls_of(3, 1, 6)  # hit_die_sides off the sheet: d6
    held = game.roll_column(None, "hp_rolls", 0, "luck", seed=11)
    assert held.total == min(max(sum(held.rolls), 2), 3)  # 2d4 held to 2..3
    assert (
        game.to_document()
        == one(fifth, {"fields": {"hit_die_size": "d6"}, "lists": {"hp_rolls": rows}}).to_document()
    )


def test_rolling_what_the_sheet_does_not_have_is_an_error(fifth: Ruleset) -> None:
    game = one(fifth, {"lists": {"hp_rolls": [{"name": "2nd"}]}})
    for args in (
        ("nope", 0, "rolled"),
        ("hp_rolls", 5, "rolled"),
        ("hp_rolls", 0, "die"),
        ("hp_rolls", "9th", "rolled"),
    ):
        with pytest.raises(ColumnRollError):
            game.roll_column(None, *args)


@pytest.mark.spec("ST-9")
def test_the_state_pickers_list_values_labels_and_the_current_value(ember: Ruleset) -> None:
    game = one(ember).apply_reply('[sheet: op="state" state="stance" value="reckless"]').game
    (stance,) = game.states()
    assert stance == StateChoice(
        "stance",
        "Stance",
        (("guarded", "Guarded"), ("steady", "Steady"), ("reckless", "Reckless")),
        "reckless",
    )
    assert one(ember).states()[0].current == "steady"
