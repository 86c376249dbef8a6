"""Where the page is silent, gm-tags does what the Engine does: worked examples, each an input and
the receipt, block line or refusal the Engine's own behaviour gives."""

from __future__ import annotations

import copy
import json
from collections.abc import Callable
from typing import Any

import pytest

from gm_tags import Game, GameDocumentError, Reason, RulesetError, load_ruleset
from gm_tags.checks.record import CheckRequest
from tests.checks.conftest import gravewatch_with, rolled
from tests.conftest import FIXTURES, ruleset_named
from tests.fuzzing import fixture_game


def ember_with_rows(*rows: dict[str, Any]) -> Game:
    """Mira on Ember Roads with these rows in her tricks list (each row a pool)."""
    game = fixture_game("reference/ember-roads.json", "ember-roads.json")
    document = copy.deepcopy(game.to_document())
    document["gameCharacterCards"][0]["rulesetSheet"]["build"]["lists"]["tricks"] = list(rows)
    return Game.from_document(game.ruleset, document)


@pytest.mark.spec("GM-5")
def test_list_row_pools_show_in_the_sheet_block() -> None:
    game = ember_with_rows({"name": "Last Ember", "uses": 2, "recharge": "camp"})
    assert game.character().name == "Mira Ashdown"
    spent = game.apply_reply('[sheet: op="spend" pool="Last Ember" amount="1"]').game
    assert "Last Ember 1/2" in spent.sheet_block("Mira Ashdown").splitlines()[4]


def test_rows_differing_only_by_case_or_space_are_one_pool_the_first_rows() -> None:
    game = ember_with_rows(
        {"name": "Focus", "uses": 2, "recharge": "camp"},
        {"name": "focus ", "uses": 5, "recharge": "camp"},
    )
    receipt = game.apply_reply('[sheet: op="spend" pool="focus" amount="1"]').receipts[0]
    assert (receipt.reason, receipt.now) == (None, "1/2")


@pytest.mark.spec("GM-9", "PN-5")
def test_a_box_tracks_line_says_its_penalty_whether_or_not_checks_take_it() -> None:
    data = json.loads((FIXTURES / "rulesets" / "strain-runners.json").read_text("utf-8"))
    data["resolution"].pop("penaltyFrom")
    ruleset = load_ruleset(data)
    game = Game.new(ruleset, {"Vox": {"abilities": {"grit": 5}}})
    hurt = game.apply_reply('[sheet: op="damage" track="Strain" kind="stress" amount="2"]').game
    assert hurt.sheet_block("Vox").splitlines()[-1] == "Strain 2/3 -1 to rolls"


@pytest.mark.spec("SH-1")
def test_trained_skills_are_grouped_by_section() -> None:
    game = fixture_game("reference/gravewatch.json", "gravewatch.json")
    trained = next(line for line in game.reminder().splitlines() if line.startswith("Trained: "))
    assert trained == "Trained: Labour: Dig 4 dice; Company: Soothe 5 dice"


@pytest.mark.spec("UT-5")
def test_an_untrained_refusal_is_written_back_with_reason_only() -> None:
    game = fixture_game("reference/gravewatch.json", "gravewatch.json")
    turn = game.apply_reply('[skill_check: who="蒼" skill="Dig" dc="2"]')
    assert turn.receipts[0].tag == '[skill_check: skill="Dig" dc="2" who="蒼" reason="untrained"]'


def test_a_player_who_names_no_character_means_nobody_not_the_first() -> None:
    game = fixture_game("crew-of-shadows.json", "crew-mid-heist.json")
    document = {**game.to_document(), "gamePlayer": "Nobody"}
    lost = Game.from_document(game.ruleset, document)
    receipt = lost.apply_reply('[sheet: op="spend" pool="Stress" amount="1"]').receipts[0]
    assert receipt.reason is Reason.UNKNOWN_CHARACTER
    assert "'Nobody' is no character" in receipt.detail
    named = lost.apply_reply('[sheet: who="Mira" op="spend" pool="Stress" amount="1"]')
    assert named.receipts[0].ok


def test_a_box_that_is_not_a_number_is_malformed() -> None:
    game = fixture_game("strain-runners.json", "strain-runners.json")
    receipt = game.apply_reply(
        '[sheet: op="damage" track="Strain" kind="stress" amount="1" box="high"]'
    ).receipts[0]
    assert receipt.reason is Reason.MALFORMED
    out_of_range = game.apply_reply(
        '[sheet: op="damage" track="Strain" kind="stress" amount="1" box="65"]'
    ).receipts[0]
    assert out_of_range.reason is Reason.BAD_AMOUNT


def test_a_named_rethrow_is_matched_in_any_case() -> None:
    gravewatch = ruleset_named("gravewatch")
    game = Game.new(gravewatch, {"Wren": {}})
    upper = game.apply_reply('[skill_check: skill="Ward" dc="1" reroll="CAREFUL"]', seed=3)
    lower = game.apply_reply('[skill_check: skill="Ward" dc="1" reroll="careful"]', seed=3)
    assert upper.receipts[0].tag == lower.receipts[0].tag
    assert 'reroll="careful"' in upper.receipts[0].tag


def test_a_success_a_one_cancelled_is_a_plain_failure_not_a_botch() -> None:
    game = gravewatch_with()
    # 3 dice of Sinew at target 7: one success (8), cancelled by the 1: no raw zero.
    record = rolled(game, CheckRequest("Sinew", dc=1), [8, 1, 4])
    assert (record.total, record.result) == (0, "failure")
    botched = rolled(game, CheckRequest("Sinew", dc=1), [3, 1, 4])
    assert botched.result == "critical_failure"


def test_half_or_more_low_dice_with_a_success_is_a_complication() -> None:
    game = gravewatch_with(botch={"upTo": 1, "rule": "halfOrMore"})
    record = rolled(game, CheckRequest("Sinew", dc=1), [9, 1, 1])
    assert record.result == "failure"  # one success, two cancels
    assert 'complication="true"' in record.tag
    assert record.summary.endswith("Something went wrong on the side.")
    assert rolled(game, CheckRequest("Sinew", dc=1), [2, 1, 1]).result == "critical_failure"
    assert "complication" not in rolled(game, CheckRequest("Sinew", dc=1), [9, 9, 1]).tag


def test_dice_names_the_dice_thrown_and_pool_is_not_written() -> None:
    game = gravewatch_with()
    # 3 dice at explode 10: one 10 explodes into one more die.
    record = rolled(game, CheckRequest("Sinew", dc=1), [10, 4, 5, 3])
    assert 'dice="4d10"' in record.tag and " pool=" not in record.tag
    fifth = fixture_game("fifth-age.json", "fifth-age.json")
    advantage = rolled(
        fifth, CheckRequest("Stealth", dc=10, who="Sable", mode="advantage"), [4, 15]
    )
    assert 'dice="2d20"' in advantage.tag


def test_a_bare_dc_on_a_pool_takes_the_target_of_the_step_it_names() -> None:
    game = gravewatch_with()
    plain_work = rolled(game, CheckRequest("Sinew", dc=1), [6, 2, 3])
    assert (plain_work.threshold, plain_work.result) == (6, "success")
    awkward = rolled(game, CheckRequest("Sinew", dc=2), [6, 7, 3])  # no target of its own
    assert (awkward.threshold, awkward.total) == (7, 1)
    grim = rolled(game, CheckRequest("Sinew", dc=3), [7, 8, 8])
    assert (grim.threshold, grim.total, grim.result) == (8, 2, "failure")


@pytest.mark.parametrize("score", [float("nan"), float("inf"), float("-inf")])
def test_a_score_that_is_no_number_reads_as_the_default_and_rolls(score: float) -> None:
    game = fixture_game("fifth-age.json", "fifth-age.json")
    document = copy.deepcopy(game.to_document())
    document["gameCharacterCards"][0]["rulesetSheet"]["build"]["abilities"]["dex"] = score
    broken = Game.from_document(game.ruleset, document)
    plain = Game.from_document(
        game.ruleset,
        {
            **document,
            "gameCharacterCards": [
                {**document["gameCharacterCards"][0], "rulesetSheet": {"v": 2, "build": {}}}
            ],
        },
    )
    assert broken.read("Sable", {"abilityMod": "dex"}) == plain.read("Sable", {"abilityMod": "dex"})
    receipt = broken.apply_reply('[skill_check: skill="Dexterity" dc="10"]', seed=1).receipts[0]
    assert receipt.ok and "nan" not in receipt.tag.lower() and "inf" not in receipt.tag.lower()


def gravewatch_changed(change: Callable[[dict[str, Any]], None]) -> dict[str, Any]:
    data = json.loads((FIXTURES / "rulesets" / "reference" / "gravewatch.json").read_text("utf-8"))
    change(data["resolution"])
    return data


@pytest.mark.parametrize(
    ("change", "path", "message"),
    [
        (
            lambda r: r["target"].update({"default": 4}),
            "resolution.target.default",
            "default 4 is outside min..max (5..9)",
        ),
        (
            lambda r: r["target"].update({"min": 10, "default": 10, "max": 9}),
            "resolution.target.min",
            "min 10 is above max 9",
        ),
        (lambda r: r["pool"].update({"min": 16}), "resolution.pool.min", "min 16 is above max 15"),
        (
            lambda r: r["difficultyLadder"][3].update({"successes": 31}),
            "resolution.difficultyLadder.3.successes",
            "found 31; one roll counts at most 30",
        ),
        (
            lambda r: r["exceptional"].update({"successes": 31}),
            "resolution.exceptional.successes",
            "found 31; one roll counts at most 30",
        ),
        (
            lambda r: r["reroll"][0].update({"upTo": 10}),
            "resolution.reroll.0.upTo",
            "found 10; a re-throw reaches faces 1 to 9 on a d10",
        ),
        # A re-throw bought with a spend is held to the same faces.
        (
            lambda r: r.update(
                spend=[
                    {
                        "pool": "resolve",
                        "amount": 1,
                        "perCheck": 1,
                        "reroll": {"upTo": 10, "mode": "until"},
                    },
                ]
            ),
            "resolution.spend.0.reroll.upTo",
            "found 10; a re-throw reaches faces 1 to 9 on a d10",
        ),
    ],
)
def test_import_refuses_what_the_engine_refuses_at_its_fine_path(
    change: Callable[[dict[str, Any]], None], path: str, message: str
) -> None:
    with pytest.raises(RulesetError) as refused:
        load_ruleset(gravewatch_changed(change))
    assert (path, message) in [(p.path, p.message) for p in refused.value.problems]


def gravewatch_with_notes(notes: int) -> Any:
    data = json.loads((FIXTURES / "rulesets" / "reference" / "gravewatch.json").read_text("utf-8"))
    data["sheet"]["live"]["text"] = [
        {"id": f"note_{n}", "label": f"Note {n}", "maxLength": 500} for n in range(notes)
    ]
    return load_ruleset(data)


def stored_live_bytes(game: Game) -> int:
    live = game.to_document().get("rulesetLive", {})
    return len(json.dumps(live, ensure_ascii=False, separators=(",", ":")).encode("utf-8"))


def test_a_write_past_64_kb_of_live_state_is_refused_and_never_stored() -> None:
    ruleset = gravewatch_with_notes(12)
    names = [f"Warden {n}" for n in range(12)]
    game = Game.new(ruleset, dict.fromkeys(names))
    text = "ä" * 500  # two bytes each as stored: 1000 bytes a note
    notes = [
        f'[sheet: who="{name}" op="note" field="Note {n}" value="{text}"]'
        for name in names
        for n in range(12)
    ]
    receipts = []
    for first in range(0, len(notes), 36):  # replies of 36 tags (40 apply per reply)
        turn = game.apply_reply(" ".join(notes[first : first + 36]))
        receipts += turn.receipts
        game = turn.game
    refused = [r for r in receipts if r.reason is Reason.LIVE_STATE_FULL]
    written = [r for r in receipts if r.ok]
    # 144 notes of 1000 bytes cannot all be stored: the ones that fit are, the rest change nothing.
    assert len(written) + len(refused) == 144 and 60 <= len(written) < 66
    assert "over the 65536-byte limit" in refused[0].detail
    assert stored_live_bytes(game) <= 64 * 1024 < stored_live_bytes(game) + 1000
    assert receipts.index(refused[0]) == len(written)  # the first that did not fit
    # A smaller write after a refused one still lands, within the limit.
    cleared = game.apply_reply('[sheet: who="Warden 0" op="note" field="Note 0"]').game
    assert stored_live_bytes(cleared) < stored_live_bytes(game)
    again = cleared.apply_reply(f'[sheet: who="Warden 0" op="note" field="Note 0" value="{text}"]')
    assert again.receipts[0].ok


@pytest.mark.parametrize("past", ["characters", "bytes"])
def test_a_stored_live_state_past_the_engines_bounds_is_refused_at_load(past: str) -> None:
    """Issue #30: a stored state past 64 characters or 64 KB is refused when the game is read,
    not only by the next command that would write it."""
    gravewatch = ruleset_named("gravewatch")
    count = 65 if past == "characters" else 12
    document = Game.new(gravewatch, {f"Warden {n}": {} for n in range(count)}).to_document()
    if past == "characters":
        live = {f"warden {n}": {"pools": {"resolve": {"value": 1}}} for n in range(count)}
    else:
        notes = {f"n{n}": "x" * 500 for n in range(12)}
        live = {f"warden {n}": {"text": notes} for n in range(count)}
    document["rulesetLive"] = live
    with pytest.raises(GameDocumentError) as refused:
        Game.from_document(gravewatch, document)
    assert [problem.path for problem in refused.value.problems] == ["rulesetLive"]
    message = refused.value.problems[0].message
    assert ("65 characters" if past == "characters" else "65536-byte limit") in message


def test_live_entries_for_more_than_64_characters_are_refused() -> None:
    gravewatch = ruleset_named("gravewatch")
    for count, refused in ((64, False), (65, True)):
        game = Game.new(gravewatch, {f"Warden {n}": {} for n in range(count)})
        turn = game.apply_reply('[sheet: who="party" op="spend" pool="Resolve" amount="1"]')
        receipt = turn.receipts[0]
        assert (receipt.reason is Reason.LIVE_STATE_FULL) is refused
        stored = turn.game.to_document().get("rulesetLive", {})
        assert len(stored) == (0 if refused else 64)
    assert "entries for 65 characters; it holds at most 64" in receipt.detail
    # Outside a reply (a state picked on the sheet screen, a box, a rest) the same bound holds.
    full = game.apply_reply('[sheet: who="Warden 0" op="spend" pool="Resolve" amount="1"]').game
    for n in range(1, 64):
        full = full.set_state(f"Warden {n}", "Light", "Out").game
    picked = full.set_state("Warden 64", "Light", "Out")
    assert (picked.reason, picked.game) == (Reason.LIVE_STATE_FULL, full)
    assert full.set_state("Warden 3", "Light", "Shuttered").ok


def spending(**rule: Any) -> Game:
    """Gravewatch with one spend rule on Resolve (4 points for Wren), and Sinew 3 dice."""
    return gravewatch_with(spend=[{"pool": "resolve", "amount": 1, **rule}])


def test_a_pool_per_check_limit_is_the_checks_own_dice() -> None:
    game = spending(successes=1, perCheck="pool")
    record = rolled(game, CheckRequest("Sinew", dc=1, spend="resolve:4"), [2, 3, 4])
    # Three dice: three purchases at most, though Resolve holds four points.
    assert (record.spend, record.auto, record.total) == ("resolve:3", 3, 3)
    by_label = rolled(game, CheckRequest("Sinew", dc=1, spend="Resolve:2"), [2, 3, 4])
    assert by_label.spend == "resolve:2"


def test_bought_successes_are_in_used_and_total_and_modifier_is_zero() -> None:
    record = rolled(
        spending(successes=1, perCheck=2), CheckRequest("Sinew", dc=3, spend="resolve:2"), [8, 2, 3]
    )
    assert 'used="3" modifier="0" total="3"' in record.tag and 'auto="2"' in record.tag


def test_a_bought_rethrow_throws_every_die_in_reach_once_per_check() -> None:
    game = spending(reroll={"upTo": 3, "mode": "once"}, perCheck=2)
    # Two purchases still buy one re-throw: every die at 3 or less is thrown again, once.
    record = rolled(game, CheckRequest("Sinew", dc=1, spend="resolve:2"), [2, 1, 3, 8, 9, 4])
    assert record.rolls == (8, 9, 4)
    assert (record.rerolled, record.spend) == (3, "resolve:2")
    assert "reroll=" not in record.tag  # a bought re-throw has no name to write


def test_of_a_bought_and_a_named_rethrow_only_the_wider_is_thrown() -> None:
    narrow = spending(reroll={"upTo": 3, "mode": "once"}, perCheck=1)
    # careful reaches 6: it is the one thrown, and the record names it.
    wider = rolled(
        narrow, CheckRequest("Sinew", dc=1, spend="resolve:1", reroll="careful"), [5, 9, 2, 7, 8]
    )
    assert (wider.rolls, wider.rerolled, wider.reroll) == ((7, 9, 8), 2, "careful")
    # At equal reach `until` wins: the bought one (until) is thrown, so nothing names careful.
    until = spending(reroll={"upTo": 6, "mode": "until"}, perCheck=1)
    record = rolled(
        until, CheckRequest("Sinew", dc=1, spend="resolve:1", reroll="careful"), [5, 9, 9, 2, 8]
    )
    # The 5 is thrown again to a 2, still in reach, and again to an 8: under `once` it were 2.
    assert (record.rolls, record.rerolled, record.reroll) == ((8, 9, 9), 2, None)


def test_rerolled_counts_throws_and_reroll_is_written_only_when_something_was_thrown() -> None:
    game = gravewatch_with(reroll=[{"id": "careful", "upTo": 6, "mode": "until"}])
    record = rolled(game, CheckRequest("Sinew", dc=1, reroll="careful"), [2, 9, 9, 3, 4, 8])
    assert (record.rolls, record.rerolled) == ((8, 9, 9), 3)  # one die, three throws
    assert 'rerolled="3"' in record.tag and 'reroll="careful"' in record.tag
    clean = rolled(game, CheckRequest("Sinew", dc=1, reroll="careful"), [7, 9, 9])
    assert "rerolled" not in clean.tag and "reroll=" not in clean.tag


def test_explosions_are_chained_in_order_and_capped_at_the_pools_max() -> None:
    game = gravewatch_with(pool={"min": 1, "max": 4})
    # 3 dice; every 10 explodes, chained: at most 4 more dice (pool.max), however they fall.
    record = rolled(game, CheckRequest("Sinew", dc=1), [10, 10, 2, 10, 10, 10, 10])
    assert record.rolls == (10, 10, 2, 10, 10, 10, 10)
    assert record.dice == "7d10"


def test_a_pool_dc_is_held_between_one_and_the_most_one_roll_can_count() -> None:
    game = gravewatch_with()
    # Gravewatch: 15 dice at most, exploding: 30 successes is the most one roll can count.
    assert rolled(game, CheckRequest("Sinew", dc=99), [9, 9, 9]).dc == 30
    zero = rolled(game, CheckRequest("Sinew", dc=0), [2, 3, 4])
    assert (zero.dc, zero.result) == (1, "failure")
