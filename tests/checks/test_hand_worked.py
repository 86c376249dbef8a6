"""Checks worked out by hand from the fixtures: the number from the sheet, what each modifier
adds, and the dice (scripted here, so every face is known)."""

from __future__ import annotations

import json
from typing import Any

import pytest

from gm_tags import CheckRefused, Game, Ruleset, load_ruleset
from gm_tags.checks.record import CheckRequest
from gm_tags.checks.run import Untrained, roll_check
from tests.checks.conftest import ScriptedDice
from tests.sheet.conftest import RULESETS, one, ruleset_named


def check(game: Game, request: CheckRequest, faces: list[int]) -> Any:
    try:
        character = game.character(request.who)
    except LookupError:
        character = None
    live = game.live_of(character) if character is not None else game.live_of(game.character())
    record, _ = roll_check(game.ruleset, character, live, request, ScriptedDice(faces))  # type: ignore[arg-type]
    return record


@pytest.mark.spec("PN-1", "PN-2", "EN-1")
def test_a_storyteller_on_the_last_rung_with_pool_min_0_throws_nothing_and_fails() -> None:
    storyteller = ruleset_named("storyteller")
    game = one(storyteller, {"abilities": {"dexterity": 3}})
    dying = game.apply_reply('[sheet: op="damage" track="health" kind="lethal" amount="7"]').game
    record = check(dying, CheckRequest("Dexterity", dc=1), [])
    assert (record.pool, record.rolls, record.result, record.penalty) == (0, (), "failure", -99)
    hurt = game.apply_reply('[sheet: op="damage" track="health" kind="bashing" amount="4"]').game
    record = check(hurt, CheckRequest("Dexterity", dc=1), [7])  # Wounded: -2 dice off 3
    assert (record.pool, record.penalty, record.total, record.result) == (1, -2, 1, "success")


@pytest.mark.spec("AD-1", "AD-2", "AD-3", "EN-1")
def test_ember_burden_takes_one_off_every_brawn_roll_and_nothing_else(ember: Ruleset) -> None:
    game = one(
        ember,
        {"abilities": {"brawn": 2, "wits": 1}, "lists": {"gear": [{"name": "Anvil", "bulk": 3}]}},
    )
    # Burden 3 reads -1 on the table; Brawn 2, untrained Scrap 2, Wits 1.
    brawn = check(game, CheckRequest("Brawn", dc=8), [3, 4])
    assert (brawn.modifier, brawn.total, brawn.adjust, brawn.result) == (1, 8, -1, "success")
    scrap = check(game, CheckRequest("Scrap", dc=8), [3, 4])
    assert (scrap.modifier, scrap.adjust) == (1, -1)
    wits = check(game, CheckRequest("wits check", dc=8), [3, 4])
    assert (wits.modifier, wits.adjust) == (1, None)
    sneak_with_brawn = check(game, CheckRequest("Sneak", dc=8, with_="Brawn"), [3, 4])
    assert (sneak_with_brawn.modifier, sneak_with_brawn.adjust, sneak_with_brawn.with_) == (
        1,
        -1,
        "Brawn",
    )
    assert 'adjust="-1"' in brawn.tag and "adjust" not in wits.tag


@pytest.mark.spec("AD-1", "ET-3")
def test_gravewatch_shuttered_light_takes_a_die_off_nerve(gravewatch: Ruleset) -> None:
    game = one(gravewatch, {"abilities": {"nerve": 3, "sinew": 3}})
    lit = check(game, CheckRequest("Ward", dc=1), [7, 2, 9])
    assert (lit.pool, lit.used, lit.adjust) == (3, 2, None)
    dark = game.apply_reply('[sheet: op="state" state="light" value="shuttered"]').game
    shuttered = check(dark, CheckRequest("Ward", dc=1), [7, 2])
    assert (shuttered.pool, shuttered.adjust) == (2, -1)
    sinew = check(dark, CheckRequest("Sinew", dc=1), [7, 2, 9])
    assert (sinew.pool, sinew.adjust) == (3, None)


@pytest.mark.spec("UT-1", "UT-3", "UT-4")
def test_labour_untrained_costs_a_die_and_listen_untrained_is_one_step_harder(
    gravewatch: Ruleset,
) -> None:
    game = one(gravewatch, {"abilities": {"sinew": 3, "nerve": 3}, "skills": {"ward": "rating_1"}})
    wrestle = check(game, CheckRequest("Wrestle", dc=1), [7, 7])
    assert wrestle.pool == 2  # Sinew 3, untrained in Labour: -1 die
    listen = check(game, CheckRequest("Listen", dc=1), [8, 8, 8])
    assert listen.threshold == 7  # dc 1 is Plain work, target 6, which goes up one
    trained = one(gravewatch, {"abilities": {"sinew": 3}, "skills": {"wrestle": "rating_1"}})
    assert check(trained, CheckRequest("Wrestle", dc=1), [7, 7, 7, 7]).pool == 4


@pytest.mark.spec("CP-1", "CP-2")
def test_soothe_is_capped_at_the_resolve_left_after_a_with_swap(gravewatch: Ruleset) -> None:
    build = {"abilities": {"warmth": 4, "nerve": 3}, "skills": {"soothe": "rating_2"}}
    game = one(gravewatch, build).apply_reply('[sheet: op="spend" pool="resolve" amount="1"]').game
    # Resolve 2 + Nerve 3 = 5, 4 left. Soothe 4 + 2 = 6, capped at 4.
    assert check(game, CheckRequest("Soothe", dc=1), [7] * 4).pool == 4
    # With Nerve: 6 - 4 + 3 = 5 before the cap, capped again at 4; Nerve also takes the light.
    swapped = game.apply_reply('[sheet: op="spend" pool="resolve" amount="2"]').game
    record = check(swapped, CheckRequest("Soothe", dc=1, with_="Nerve"), [7, 7])
    assert (record.pool, record.with_) == (2, "Nerve")  # capped at the 2 left


@pytest.mark.spec("UT-5", "UT-9", "UT-10", "UT-6")
def test_an_untrained_refuse_check_is_not_rolled(gravewatch: Ruleset) -> None:
    game = one(gravewatch, {"abilities": {"sinew": 3}})
    record = check(game, CheckRequest("Dig", dc=1), [])
    assert isinstance(record, Untrained)
    assert record.tag == '[skill_check: skill="Dig" dc="1" reason="untrained"]'
    with pytest.raises(CheckRefused) as raised:
        game.check(None, "Dig", dc=1, seed=1)
    assert raised.value.code == "skill_check_untrained"
    no_sheet = Game.new(gravewatch, {"Stranger": None})
    sinew = no_sheet.read(None, {"abilityMod": "sinew"})
    assert no_sheet.check(None, "Dig", dc=1, seed=1).pool == sinew  # no training to read


def test_a_name_nobody_has_rolls_plain_dice_with_no_modifier(ember: Ruleset) -> None:
    game = one(ember, {"abilities": {"brawn": 3}})
    unknown_skill = check(game, CheckRequest("Juggling", dc=8), [4, 4])
    assert (unknown_skill.modifier, unknown_skill.total) == (0, 8)
    unknown_who = check(game, CheckRequest("Brawn", dc=8, who="Ghost"), [4, 4])
    assert unknown_who.modifier == 0


@pytest.mark.parametrize(
    ("name", "kind"),
    [
        ("Dexterity save", "save"),
        ("dex_save", "save"),
        ("DEX saving throw", "save"),
        ("Stealth", "skill"),
        ("dex", "ability"),
        ("Dexterity check", "ability"),
    ],
)
def test_check_names_resolve_as_the_engine_resolves_them(
    fifth: Ruleset, name: str, kind: str
) -> None:
    from gm_tags.checks.target import resolve_target

    assert resolve_target(fifth, name).kind == kind


def test_advantage_keeps_the_better_throw_and_a_natural_twenty_on_a_save_is_critical(
    fifth: Ruleset,
) -> None:
    game = one(fifth, {"abilities": {"dex": 14}, "saves": {"dex_save": "proficient"}})
    advantage = check(game, CheckRequest("Stealth", dc=15, mode="advantage"), [4, 17])
    assert (advantage.rolls, advantage.used, advantage.total, advantage.mode) == (
        (4, 17),
        17,
        19,
        "advantage",
    )
    worse = check(game, CheckRequest("Stealth", dc=15, mode="disadvantage"), [4, 17])
    assert (worse.used, worse.result) == (4, "failure")
    natural = check(game, CheckRequest("Dexterity save", dc=30), [20])
    assert natural.result == "critical_success"  # saves: naturals both
    plain = check(game, CheckRequest("Stealth", dc=30), [20])
    assert plain.result == "failure"  # checks: no naturals


def test_the_ladder_names_a_dc_and_on_a_pool_a_target(ember: Ruleset, gravewatch: Ruleset) -> None:
    assert check(one(ember), CheckRequest("Brawn", difficulty="hard"), [5, 5]).dc == 10
    record = check(one(gravewatch), CheckRequest("Nerve", difficulty="Grim"), [9, 9])
    assert (record.dc, record.threshold, record.difficulty) == (3, 8, "Grim")
    both = check(one(ember), CheckRequest("Brawn", dc=7, difficulty="Hard"), [5, 5])
    assert both.dc == 7  # dc wins


def test_pool_mechanics_by_hand() -> None:
    data = json.loads((RULESETS / "storyteller.json").read_text("utf-8"))
    resolution = data["resolution"]
    resolution.update(
        {
            "double": {"from": 10},
            "explode": {"from": 10, "min": 9},
            "cancel": {"upTo": 1},
            "botch": {"upTo": 1, "rule": "noSuccesses"},
            "exceptional": {"successes": 5},
        }
    )
    game = one(load_ruleset(data), {"abilities": {"dexterity": 3}})
    # 10 counts two and explodes (a 6 follows); 1 cancels one success; target 6.
    record = check(game, CheckRequest("Dexterity", dc=2, threshold=6), [10, 1, 7, 6])
    assert (record.rolls, record.used, record.result) == ((10, 1, 7, 6), 3, "success")
    botched = check(game, CheckRequest("Dexterity", dc=1), [1, 3, 4])
    assert botched.result == "critical_failure"
    exceptional = check(game, CheckRequest("Dexterity", dc=1), [10, 10, 8, 3, 2])
    assert exceptional.result == "critical_success" and exceptional.used >= 5
    lower = check(game, CheckRequest("Dexterity", dc=1, explode=9), [9, 2, 2, 3])
    assert lower.rolls == (9, 2, 2, 3) and lower.explode == 9


@pytest.mark.spec("UT-2")
def test_normal_rolls_as_usual_untrained(ember: Ruleset) -> None:
    game = one(ember, {"abilities": {"heart": 2}})  # Sway has no untrained rule: normal
    assert check(game, CheckRequest("Sway", dc=8), [3, 3]).modifier == 2


@pytest.mark.spec("UT-12")
def test_the_sheet_shows_no_number_for_a_skill_that_refuses_untrained(gravewatch: Ruleset) -> None:
    block = one(gravewatch, {"abilities": {"sinew": 3}}).sheet_block()
    assert "Cannot attempt untrained: Dig" in block and "Dig 3" not in block


@pytest.mark.spec("PN-3", "PN-5")
def test_on_a_sum_the_wound_penalty_is_folded_into_the_modifier() -> None:
    data = json.loads((RULESETS / "reference" / "gravewatch.json").read_text("utf-8"))
    ember = json.loads((RULESETS / "reference" / "ember-roads.json").read_text("utf-8"))
    # Ember Roads with Gravewatch's Harm track as its penaltyFrom: a sum with a wound penalty.
    harm = data["sheet"]["live"]["tracks"][0]
    ember["sheet"]["live"]["tracks"].append({k: v for k, v in harm.items() if k != "extra"})
    ember["resolution"]["penaltyFrom"] = "harm"
    game = one(load_ruleset(ember), {"abilities": {"wits": 2}})
    hurt = game.apply_reply('[sheet: op="damage" track="harm" kind="knock" amount="3"]').game
    record = check(hurt, CheckRequest("Wits", dc=8), [4, 4])
    assert (record.modifier, record.penalty, record.total) == (2 - 3, -3, 8 - 1)
    assert 'penalty="-3"' in record.tag


@pytest.mark.spec("AD-4")
def test_a_character_nobody_made_a_sheet_for_gets_nothing_from_adjust(ember: Ruleset) -> None:
    game = Game.new(ember, {"Stranger": None})
    stance = game.apply_reply('[sheet: op="state" state="stance" value="guarded"]').game
    record = check(stance, CheckRequest("Brawn", dc=8), [3, 3])
    assert (record.adjust, record.modifier) == (None, stance.read(None, {"abilityMod": "brawn"}))
