"""The narration at its edges: text joined into a new tag opening where a tag went, markup a tag
stood wrapped in, the space beside a tag in scripts written without spaces, and blank lines a
tag's line leaves behind. Worked by hand on Crew of Shadows, with a clock "A" to tick."""

from __future__ import annotations

import pytest

from gm_tags import Game

TICK = '[clock: name="A" tick="1"]'


@pytest.fixture
def ticking(game: Game) -> Game:
    return game.apply_reply('[clock: name="A" size="6"]').game


def narrated(game: Game, reply: str) -> str:
    turn = game.apply_reply(reply.replace("T", TICK))
    assert all(receipt.ok for receipt in turn.receipts)
    return turn.narration


@pytest.mark.parametrize(
    ("reply", "narration"),
    [
        # The "[" before the tag and the "clock:" after it would open a tag nobody applied.
        ('x [Tclock: tick="2"] y', 'x clock: tick="2"] y'),
        ("[Tclock: a] y", "clock: a] y"),
        # Leaving that "[" out would join "[ " and "clock:" again: the earlier "[" goes too.
        ('x [ [Tclock: tick="2"] y', 'x  clock: tick="2"] y'),
        ("[ \t[Tclock: a]", " \tclock: a]"),
    ],
)
def test_text_joined_into_a_tag_opening_loses_its_bracket(
    ticking: Game, reply: str, narration: str
) -> None:
    assert narrated(ticking, reply) == narration


@pytest.mark.parametrize(
    ("reply", "narration"),
    [
        ("a **T** b", "a b"),
        ("**T** b", "b"),  # the markup reaches the start of the reply
        ("a *(T)* b", "a b"),  # markup in markup
        ("***T*** b", "b"),
        ("*_**T**_* b", "b"),
        ("a `T` b", "a b"),
        ("a ~~T~~ b", "a b"),
        ("a __T__ b", "a b"),
        ("a [T] b", "a b"),
        ("a\u3010T\u3011b", "ab"),
        # Only markup closed on both sides goes with the tag.
        ("a ((T) b", "a ( b"),
        ("a T** b", "a ** b"),
        ("x*T* b", "x b"),
        # Markup the tag before took is not taken again: the first "*" after the first tag closed
        # it, so the second tag is wrapped in one "*" and the last "*" is text.
        ("x *T**T** y", "x* y"),
    ],
)
def test_markup_a_tag_stands_wrapped_in_goes_with_it(
    ticking: Game, reply: str, narration: str
) -> None:
    assert narrated(ticking, reply) == narration


@pytest.mark.parametrize(
    ("before", "spaceless"),
    [
        ("\u2fff", False),
        ("\u3000", True),  # CJK symbols and punctuation, kana
        ("\u30ff", True),
        ("\u3100", False),
        ("\u33ff", False),
        ("\u3400", True),  # CJK ideographs
        ("\u9fff", True),
        ("\ua000", False),
        ("\uf8ff", False),
        ("\uf900", True),  # compatibility ideographs to the half-width forms
        ("\uffef", True),
        ("\ufff0", False),
    ],
)
def test_a_space_after_a_tag_goes_only_after_a_script_written_without_spaces(
    ticking: Game, before: str, spaceless: bool
) -> None:
    expected = f"x{before}y" if spaceless else f"x{before} y"
    assert narrated(ticking, f"x{before}T y") == expected


def test_a_space_after_a_tag_stays_after_text_that_is_not_blank(ticking: Game) -> None:
    # The tab between two tags is text of the line; the space after the second one is kept.
    assert narrated(ticking, "xT\tT y") == "x\t y"


@pytest.mark.parametrize(
    ("reply", "narration"),
    [
        ("a\nT\n\nb", "a\n\nb"),
        ("a\n\nT\n\nb", "a\n\nb"),
        # The blank lines after a line of tags are one paragraph break, not two.
        ("a\nT\n\n\nb", "a\n\nb"),
        ("a\nT\nb", "a\nb"),
        ("a\nT\n", "a\n"),
    ],
)
def test_a_line_of_tags_goes_without_doubling_a_blank_line(
    ticking: Game, reply: str, narration: str
) -> None:
    assert narrated(ticking, reply) == narration
