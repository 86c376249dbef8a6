"""What the player reads: every command tag gone, with no trace of where it stood."""

from __future__ import annotations

import pytest

from gm_tags import Game

TAG = '[clock: name="Alarm" size="4"]'


@pytest.mark.spec("TG-7")
@pytest.mark.parametrize(
    ("reply", "narration"),
    [
        (f"The lantern gutters. {TAG} A bell rings.", "The lantern gutters. A bell rings."),
        (f"A bell rings {TAG}.", "A bell rings."),
        (f"{TAG} A bell rings.", "A bell rings."),
        (f"A bell rings. {TAG}", "A bell rings."),
        (f"A bell rings.\n{TAG}\nThe guards wake.", "A bell rings.\nThe guards wake."),
        (f"Para one.\n\n{TAG}\n\nPara two.", "Para one.\n\nPara two."),
        (f"{TAG}\n\nPara one.", "Para one."),
        (f"Para one.\n\n{TAG}\n", "Para one.\n"),
        (f"A {TAG} {TAG} B", "A B"),
        (f"A {TAG}{TAG}, B", "A, B"),
        (f"灯が揺れる。{TAG}鐘が鳴る。", "灯が揺れる。鐘が鳴る。"),
        (f"- first\n- {TAG} second", "- first\n- second"),
        (f"Windows line.\r\n{TAG}\r\nNext.", "Windows line.\r\nNext."),
        ('Broken [clock: name="Alarm"\n size="4"] over lines.', "Broken over lines."),
        (f"**Bold** {TAG} *and* `code`.", "**Bold** *and* `code`."),
    ],
)
def test_tags_are_hidden_leaving_no_doubled_space_or_empty_line(
    game: Game, reply: str, narration: str
) -> None:
    assert game.apply_reply(reply).narration == narration


@pytest.mark.spec("TG-7")
def test_refused_and_malformed_tags_are_hidden_too_and_kept_in_the_reply(game: Game) -> None:
    turn = game.apply_reply('One. [clock: name="Ghost" tick="1"] Two. [clock: ~~~] Three.')
    assert turn.narration == "One. Two. Three."
    assert turn.reply.count("result=") == 2


def test_text_that_is_no_tag_is_never_reflowed(game: Game) -> None:
    reply = f"Two  spaces stay.\n\n\nThree newlines stay. {TAG}\n   Indent stays."
    assert game.apply_reply(reply).narration == (
        "Two  spaces stay.\n\n\nThree newlines stay.\n   Indent stays."
    )
