"""A turn rendered for review (`gm_tags.testing.render`), snapshotted with our own extension:
every command family (clocks, sheet ops with wound marks and states, the party sheet, checks with
their rolls) and refusals, in all four fixture languages. Each `.turn.txt` is read like code."""

from __future__ import annotations

import pytest
from syrupy.assertion import SnapshotAssertion

from gm_tags.testing import PlayedTurn, TestGame, render
from tests.conftest import FIXTURES
from tests.reply.test_reply_corpus import INDEX, REPLIES

COVERED = {
    "en/sheet-and-clock.txt": "sheet ops and a clock",
    "en/gravewatch-long-night.txt": "wound marks on a track",
    "en/ember-checks.txt": "checks with their rolls, branches, a malformed check",
    "en/party-ship.txt": "the party sheet, refusals with their details",
    "en/ember-refusals.txt": "refusals",
    "ja/hollows-sheet.txt": "states, a track, a condition, Japanese labels",
    "zh/jade-river-sheet.txt": "Chinese labels",
    "zh/weizao-jieguo.txt": "a forged outcome thrown away",
    "hi/rajmarg-sheet.txt": "Devanagari labels, a state for the whole party",
}


@pytest.mark.parametrize(
    "name", sorted(COVERED), ids=[n.replace("/", "-") for n in sorted(COVERED)]
)
def test_a_turn_renders_for_review(name: str, turn_snapshot: SnapshotAssertion) -> None:
    entry = INDEX[name]
    game = TestGame.of(FIXTURES / "rulesets" / entry["ruleset"], FIXTURES / "games" / entry["game"])
    assert game.play((REPLIES / name).read_text("utf-8")) == turn_snapshot


def test_a_reply_that_changes_nothing_says_so() -> None:
    game = TestGame.of(FIXTURES / "rulesets" / "crew-of-shadows.json")
    rendered = render(game.play("Quiet night."))
    assert rendered.endswith("=== receipts ===\n(no tags)\n=== changed ===\n(nothing)\n")


def test_the_same_reply_renders_the_same_every_time() -> None:
    entry = INDEX["en/ember-checks.txt"]
    text = (REPLIES / "en/ember-checks.txt").read_text("utf-8")

    def once() -> str:
        game = TestGame.of(
            FIXTURES / "rulesets" / entry["ruleset"], FIXTURES / "games" / entry["game"]
        )
        return render(game.play(text))

    assert once() == once()


def test_a_played_turn_keeps_the_game_before_and_the_game_goes_on() -> None:
    game = TestGame.of(FIXTURES / "rulesets" / "crew-of-shadows.json")
    first = game.play('[clock: name="Alarm" size="4"]')
    second = game.play('[clock: name="Alarm" tick="1"]')
    assert isinstance(first, PlayedTurn)
    assert second.before is first.game
    assert "  - Alarm 0/4\n  + Alarm 1/4" in render(second)
