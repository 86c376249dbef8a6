"""The reply pipeline as a whole: order, limits, forged outcomes, atomicity, immutability."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

from gm_tags import Game, Reason, Ruleset
from gm_tags.families.registry import FAMILIES
from tests.fuzzing import fixture_game


@pytest.mark.spec("TG-1")
def test_commands_apply_in_reply_order_each_seeing_the_ones_before(game: Game) -> None:
    turn = game.apply_reply(
        'First a tick on nothing [clock: name="Siege" tick="1"], then the clock '
        '[clock: name="Siege" size="8"], then ticks [clock: name="Siege" tick="3"]'
        '[clock: name="Siege" tick="1"].'
    )
    assert [(receipt.result, receipt.now) for receipt in turn.receipts] == [
        ("refused", None),
        ("ok", "0/8"),
        ("ok", "3/8"),
        ("ok", "4/8"),
    ]


@pytest.mark.spec("TG-3")
def test_each_tag_is_rewritten_in_place_as_its_receipt(game: Game) -> None:
    reply = 'Bells. [clock:NAME = "Alarm raised"   SIZE=6] Silence. [clock: name=Ghost tick=1] End.'
    turn = game.apply_reply(reply)
    assert turn.reply == (
        'Bells. [clock: name="Alarm raised" size="6" result="ok" now="0/6"] Silence. '
        '[clock: name="Ghost" tick="1" result="refused" reason="unknown-clock"] End.'
    )


@pytest.mark.spec("TG-4", "CL-11")
def test_no_outcome_the_model_wrote_reaches_a_receipt(game: Game) -> None:
    turn = game.apply_reply(
        '[clock: name="Alarm" size="6" result="ok" now="6/6" rolls="6|6" total="99"]'
        '[clock: name="Alarm" tick=1 result=refused reason="nope"] [clock: result="ok" now="3/4"]'
    )
    assert turn.reply == (
        '[clock: name="Alarm" size="6" result="ok" now="0/6"]'
        '[clock: name="Alarm" tick="1" result="ok" now="1/6"] '
        '[clock: raw="" result="refused" reason="malformed"]'
    )


@pytest.mark.spec("TG-5")
def test_a_malformed_tag_is_refused_and_the_rest_of_the_reply_still_applies(game: Game) -> None:
    turn = game.apply_reply(
        '[clock: name="A" size="4"] [clock: name="A" tick="1" tick="2"] [clock: ==] '
        '[clock: name="A" tick="1"'
        '\n\n[clock: name="A" tick="2"]'
    )
    assert [receipt.reason for receipt in turn.receipts] == [
        None,
        Reason.MALFORMED,
        Reason.MALFORMED,
        Reason.MALFORMED,
        None,
    ]
    assert (
        turn.receipts[3].tag == '[clock: raw="name= A tick= 1" result="refused" reason="malformed"]'
    )
    assert turn.game.clocks[0].fill == "2/4"


@pytest.mark.spec("TG-6", "CL-12")
def test_at_most_forty_clock_commands_apply_per_reply(game: Game) -> None:
    ticks = "".join('[clock: name="Long" tick="1"]' for _ in range(44))
    turn = game.apply_reply('[clock: name="Long" size="8"]' + ticks)
    reasons = [receipt.reason for receipt in turn.receipts]
    assert reasons[:40] == [None] * 40
    assert reasons[40:] == [Reason.TOO_MANY] * 5
    assert (
        turn.receipts[40].tag == '[clock: name="Long" tick="1" result="refused" reason="too-many"]'
    )
    assert turn.game.clocks[0].fill == "8/8"


@pytest.mark.spec("TG-6")
def test_malformed_tags_count_toward_the_limit_too(game: Game) -> None:
    turn = game.apply_reply("[clock: ?]" * 40 + '[clock: name="Late" size="4"]')
    assert turn.receipts[-1].reason is Reason.TOO_MANY
    assert turn.game.clocks == ()


def test_a_reply_of_broken_tags_tells_the_next_reminder_a_bounded_story(game: Game) -> None:
    turn = game.apply_reply("[clock: ?] " * 300)
    recent = turn.game.recent
    assert len(recent) == 21
    assert recent[0] == (
        'a clock tag that could not be read refused (malformed: at column 9: found "?"; '
        'expected ",", a key or the closing bracket)'
    )
    assert recent[-1] == "280 more commands were refused"
    assert "280 more commands were refused" in turn.game.reminder()
    # The snapshot still reads back, as a store would reopen it.
    document = turn.game.to_document()
    assert Game.from_document(game.ruleset, document).to_document() == document


@pytest.mark.spec("TG-8")
@pytest.mark.parametrize(
    "text",
    [
        "[OOC: pausing] See [the map](https://example.invalid) [sic] and a lone [ or ].",
        "[[clock]] [clocks: name=x] [ clock name=x] [sheet]",
        "Some `[code]` and **[bold]** and [^1] footnote.",
    ],
)
def test_bracketed_text_that_is_no_command_tag_is_left_as_it_was(game: Game, text: str) -> None:
    turn = game.apply_reply(text)
    assert turn.reply == text and turn.narration == text and turn.receipts == ()


@pytest.mark.spec("TG-9", "CL-10")
def test_values_written_back_are_prompt_safe(game: Game) -> None:
    turn = game.apply_reply("[clock: name='{{char}} \"x\"' tick='a\u2028b']")
    (receipt,) = turn.receipts
    assert receipt.reason is Reason.BAD_NAME
    assert receipt.tag == '[clock: name="char x" tick="a b" result="refused" reason="bad-name"]'


def test_an_engine_fault_refuses_that_command_and_keeps_the_snapshot_whole(
    game: Game, monkeypatch: pytest.MonkeyPatch
) -> None:
    before = game.apply_reply('[clock: name="A" size="4"]').game
    clock = FAMILIES["clock"]

    def flaky(command: Any, draft: Any, dice: Any) -> Any:
        if getattr(command, "amount", None) == 2:
            raise RuntimeError("disk on fire")
        return clock.run(command, draft, dice)

    monkeypatch.setitem(FAMILIES, "clock", replace(clock, run=flaky))
    turn = before.apply_reply(
        '[clock: name="A" tick="1"][clock: name="A" tick="2"][clock: name="A" tick="1"]'
    )
    assert [receipt.reason for receipt in turn.receipts] == [None, Reason.ENGINE_ERROR, None]
    assert "disk on fire" in turn.receipts[1].detail
    assert turn.game.clocks[0].fill == "2/4"


@pytest.mark.spec("CL-15")
def test_a_snapshot_is_a_value_regenerating_starts_again_from_it(game: Game) -> None:
    before = game.apply_reply('[clock: name="A" size="6"]').game
    first = before.apply_reply('[clock: name="A" tick="2"]')
    swipe = before.apply_reply('[clock: name="A" tick="5"]')
    assert before.clocks[0].fill == "0/6"
    assert first.game.clocks[0].fill == "2/6"
    assert swipe.game.clocks[0].fill == "5/6"
    continued = first.game.apply_reply('[clock: name="A" tick="1"]')
    assert continued.game.clocks[0].fill == "3/6"


def test_the_receipt_keeps_the_span_and_the_text_the_model_wrote(game: Game) -> None:
    reply = 'Ah. [clock: name="A" size="4" now="9/9"] Oh.'
    (receipt,) = game.apply_reply(reply).receipts
    assert (
        reply[receipt.start : receipt.end]
        == receipt.written
        == '[clock: name="A" size="4" now="9/9"]'
    )
    assert receipt.to_dict()["request"] == {"name": "A", "size": "4"}


def test_a_game_without_a_ruleset_and_no_tags_passes_the_reply_through(no_clocks: Ruleset) -> None:
    reply = "Nothing but prose.\n\nTwo paragraphs of it."
    turn = Game.new(no_clocks).apply_reply(reply)
    assert (turn.reply, turn.narration, turn.receipts) == (reply, reply, ())


def test_a_command_that_fails_half_way_leaves_nothing_of_itself(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A reply's commands change one draft; a fault after a command wrote to it undoes what that
    command wrote, and the commands before and after it stand."""
    start = fixture_game("crew-of-shadows.json", "crew-mid-heist.json")
    sheet = FAMILIES["sheet"]

    def writes_then_fails(command: Any, draft: Any, dice: Any) -> Any:
        result = sheet.run(command, draft, dice)
        if getattr(command, "amount", None) == 2:
            raise RuntimeError("after writing")
        return result

    monkeypatch.setitem(FAMILIES, "sheet", replace(sheet, run=writes_then_fails))
    turn = start.apply_reply(
        '[sheet: who="party" op="spend" pool="Stress" amount="1"]'
        '[sheet: who="party" op="restore" pool="Stress" amount="2"]'
        '[sheet: who="Mira" op="spend" pool="Stress" amount="1"]'
    )
    assert [receipt.reason for receipt in turn.receipts] == [None, Reason.ENGINE_ERROR, None]
    assert turn.receipts[2].now == "7/9"  # the restore of 2 that failed is not in it
    live = turn.game.to_document()["rulesetLive"]
    assert {key: entry["pools"]["stress"]["value"] for key, entry in live.items()} == {
        "mira": 7,
        "tobin vell": 8,
    }
