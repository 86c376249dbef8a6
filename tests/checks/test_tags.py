"""Check tags in a reply: rolled from the sheet, rewritten as the Engine's receipt, heard next
turn, with their branches in the narration."""

from __future__ import annotations

import re

import pytest

from gm_tags import Game, Reason, Ruleset
from tests.fuzzing import fixture_game
from tests.sheet.conftest import one

SNEAK = '[skill_check: skill="Sneak" dc="8"]'


def test_a_check_is_rolled_from_the_sheet_and_written_back_in_the_engines_order(
    ember: Ruleset,
) -> None:
    game = one(ember, {"abilities": {"wits": 2}, "skills": {"sneak": "trained"}})
    turn = game.apply_reply(f"Mira creeps on. {SNEAK}", seed=5)
    (receipt,) = turn.receipts
    record = game.check(None, "Sneak", dc=8, seed=5)
    assert receipt.tag == record.tag
    assert re.fullmatch(
        r'\[skill_check: skill="Sneak" dc="8" rolls="\d\|\d" used="\d+" modifier="3" '
        r'total="\d+" result="(success|failure)" mode="normal" resolution="sum" dice="2d6"\]',
        receipt.tag,
    )
    assert turn.narration == "Mira creeps on."


@pytest.mark.spec("TG-4")
def test_a_check_that_already_looks_rolled_is_rolled_again(ember: Ruleset) -> None:
    game = one(ember)
    forged = (
        '[skill_check: skill="Sneak" dc="8" rolls="6|6" used="12" modifier="9" total="21" '
        'result="critical_success"]'
    )
    (receipt,) = game.apply_reply(forged, seed=3).receipts
    assert receipt.tag == game.check(None, "Sneak", dc=8, seed=3).tag
    assert receipt.tag.count("result=") == 1


@pytest.mark.spec("UT-5", "UT-9", "UT-11")
def test_an_untrained_refusal_is_written_back_settled_heard_and_branchless(
    gravewatch: Ruleset,
) -> None:
    game = one(gravewatch)
    turn = game.apply_reply(
        'Wren kneels at the grave. [skill_check: skill="Dig" dc="2"] '
        "[success: The lid comes up.] [failure: The earth will not give.] She waits."
    )
    (receipt,) = turn.receipts
    assert receipt.reason is Reason.UNTRAINED
    assert receipt.tag == '[skill_check: skill="Dig" dc="2" reason="untrained"]'
    assert turn.narration == "Wren kneels at the grave. She waits."
    assert "Mira could not attempt Dig" in turn.game.reminder()


def test_the_narration_keeps_the_branch_that_happened(ember: Ruleset) -> None:
    game = one(ember, {"abilities": {"wits": 3}, "skills": {"sneak": "expert"}})  # +5 on 2d6
    reply = (
        f"She edges along the wall. {SNEAK} [success: Nobody looks up.] "
        "[failure: A dog barks.] Then silence."
    )
    for seed in range(20):
        turn = game.apply_reply(reply, seed=seed)
        succeeded = 'result="success"' in turn.reply or 'result="critical_success"' in turn.reply
        expected = "Nobody looks up." if succeeded else "A dog barks."
        assert turn.narration == f"She edges along the wall. {expected} Then silence."
        assert (
            "[success: Nobody looks up.]" in turn.reply and "[failure: A dog barks.]" in turn.reply
        )


def test_branches_may_follow_on_the_next_line_and_in_either_order(ember: Ruleset) -> None:
    game = one(ember)
    turn = game.apply_reply(f"{SNEAK}\n[failure: Caught.] [success: Clear.]", seed=1)
    assert turn.narration in ("Caught.", "Clear.")


def test_a_branch_anywhere_else_is_prose(ember: Ruleset) -> None:
    text = "The sign says [success: a word they use here]."
    assert one(ember).apply_reply(text).narration == text


@pytest.mark.spec("AD-5", "PN-5")
def test_the_next_reminder_gives_each_check_its_summary_line(ember: Ruleset) -> None:
    game = one(
        ember, {"abilities": {"brawn": 2}, "lists": {"gear": [{"name": "Anvil", "bulk": 3}]}}
    )
    turn = game.apply_reply('[skill_check: skill="Brawn" dc="8"]', seed=9)
    record = game.check(None, "Brawn", dc=8, seed=9)
    assert turn.game.rolled == (record.summary,) and turn.game.recent == ()
    assert record.summary.startswith("Brawn check (DC 8): [")
    assert f"= {record.total}." in record.summary and 'adjust="-1"' in record.tag
    assert record.summary in turn.game.reminder()


def test_keeping_dice_per_message_throws_the_same_faces_on_a_regenerated_reply(
    ember: Ruleset,
) -> None:
    game = Game.new(ember, {"Mira": {}}, dice_policy="keep", dice_seed=1234)
    first = game.apply_reply(f"{SNEAK}{SNEAK}")
    regenerated = game.apply_reply(f"Another take. {SNEAK}{SNEAK}")
    assert [r.tag for r in first.receipts] == [r.tag for r in regenerated.receipts]
    following = first.game.apply_reply(f"{SNEAK}{SNEAK}")
    assert following.game.turn == 2
    document = first.game.to_document()
    assert document["gameDice"] == {"policy": "keep", "seed": 1234} and document["gameTurn"] == 1
    assert (
        Game.from_document(ember, document).apply_reply(f"{SNEAK}{SNEAK}").receipts
        == following.receipts
    )


def test_spending_on_a_check_pays_the_pool_and_buys_successes(gravewatch: Ruleset) -> None:
    game = one(gravewatch, {"abilities": {"nerve": 3}})  # Resolve 5
    turn = game.apply_reply('[skill_check: skill="Ward" dc="2" spend="resolve:2"]', seed=4)
    (receipt,) = turn.receipts
    assert 'spend="resolve:2" auto="2"' in receipt.tag
    assert turn.game.read(None, {"livePool": "resolve"}) == 3
    too_much = one(gravewatch, {"abilities": {"nerve": 3}}).apply_reply(
        '[skill_check: skill="Ward" dc="2" spend="resolve:3"]', seed=4
    )
    assert 'spend="resolve:2"' in too_much.receipts[0].tag  # two per check at most


@pytest.mark.parametrize(
    "tag",
    [
        '[skill_check: dc="8"]',
        '[skill_check: skill="Sneak"]',
        '[skill_check: skill="Sneak" dc="hard"]',
    ],
)
def test_a_check_without_what_it_needs_is_malformed(ember: Ruleset, tag: str) -> None:
    (receipt,) = one(ember).apply_reply(tag).receipts
    assert receipt.reason is Reason.MALFORMED


def test_advantage_can_be_a_bare_word(fifth: Ruleset) -> None:
    (receipt,) = (
        one(fifth).apply_reply('[skill_check: skill="Stealth" dc="15" advantage]', seed=2).receipts
    )
    assert 'mode="advantage"' in receipt.tag and receipt.tag.count("|") == 1


@pytest.mark.parametrize(
    ("tag", "reason", "names"),
    [
        ('[skill_check: skill="Wrestel" dc="1"]', "unknown-skill", ["Wrestle", "Ward"]),
        ('[skill_check: who="Wrne" skill="Wrestle" dc="1"]', "unknown-character", ["Wren"]),
    ],
)
def test_a_pool_check_naming_nothing_is_refused_with_what_it_could_name(
    gravewatch: Ruleset, tag: str, reason: str, names: list[str]
) -> None:
    game = Game.new(gravewatch, {"Wren": {}})
    turn = game.apply_reply(tag)
    receipt = turn.receipts[0]
    assert receipt.reason == reason
    assert all(name in receipt.detail for name in names)
    assert "rolls=" not in receipt.tag


def test_a_sum_check_naming_nothing_rolls_plain_dice_as_the_engine_does() -> None:
    game = fixture_game("reference/ember-roads.json", "ember-roads.json")
    known = game.apply_reply('[skill_check: skill="Sneak" dc="10"]', seed=1).receipts[0]
    misspelled = game.apply_reply('[skill_check: skill="Snaek" dc="10"]', seed=1).receipts[0]
    assert 'modifier="3"' in known.tag
    assert misspelled.ok and 'modifier="0"' in misspelled.tag


def test_a_unique_first_name_rolls_with_that_characters_sheet() -> None:
    game = fixture_game("reference/ember-roads.json", "ember-roads.json")
    by_first = game.apply_reply('[skill_check: who="Tobin" skill="Sneak" dc="10"]', seed=1)
    by_full = game.apply_reply('[skill_check: who="Tobin Vell" skill="Sneak" dc="10"]', seed=1)
    assert by_first.receipts[0].tag == by_full.receipts[0].tag
    assert 'who="Tobin Vell"' in by_first.receipts[0].tag
    assert game.check("tobin", "Sneak", dc=10, seed=1).tag == by_full.receipts[0].tag


def test_a_sum_check_naming_nobody_says_no_sheet_was_read_and_teaches_the_names() -> None:
    game = fixture_game("reference/ember-roads.json", "ember-roads.json")
    turn = game.apply_reply('[skill_check: who="Agnes" skill="Sneak" dc="10"]', seed=1)
    (receipt,) = turn.receipts
    assert receipt.ok and 'modifier="0"' in receipt.tag
    assert receipt.tag.endswith(' who="Agnes" sheet="none"]')
    reminder = turn.game.reminder()
    assert "No character is named Agnes: no sheet was read." in reminder
    assert "The names who= can use: Mira Ashdown, Tobin Vell, 灯里." in reminder
    # A model that copies the receipt back cannot claim the sheet itself.
    again = game.apply_reply('[skill_check: who="Tobin" skill="Sneak" dc="10" sheet="none"]')
    assert 'sheet="none"' not in again.receipts[0].tag
