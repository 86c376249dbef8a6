"""The reminder the upstream reads is the game's own, when it was written ahead for the game
(`gm_tags.proxy.reminders`) as when it is written on the request's way, and a message with the
reminder written as JSON once for the game is the JSON of that message."""

from __future__ import annotations

import json
from dataclasses import replace
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from gm_tags import Game
from gm_tags.families.registry import registered
from gm_tags.prompt.reminder import Teaching
from gm_tags.proxy.messages import reminded
from gm_tags.proxy.reminders import AFTER, Reminder, kept_reminder, reminder_of, written_ahead
from gm_tags.proxy.spliced import encoded, unwritten
from gm_tags.ruleset import load_ruleset
from tests.families import omen
from tests.proxy.conftest import GAME, RULESET
from tests.proxy.test_spliced import contents, texts

TICK = '[clock: name="Alarm raised" tick="1"]'


def game() -> Game:
    return Game.from_document(load_ruleset(RULESET), json.loads(GAME.read_text()))


def test_a_reminder_written_ahead_is_the_games_own_and_a_later_game_gets_its_own() -> None:
    before = game()
    written_ahead([before])
    after = before.apply_reply(f"The bell rings. {TICK}").game
    assert reminder_of(before) == before.reminder()
    assert reminder_of(after) == after.reminder() != reminder_of(before)
    assert "Alarm raised 3/6" in reminder_of(after)


def test_a_family_registered_after_a_reminder_was_written_is_taught() -> None:
    played = game()
    untaught = reminder_of(played)
    with registered(omen.FAMILY):
        taught, expected = reminder_of(played), played.reminder()
    assert omen.LESSON not in untaught.split("\n")
    assert omen.LESSON in taught.split("\n") and taught == expected
    assert reminder_of(played) == untaught


def test_a_family_registered_again_under_its_name_with_other_teaching_is_taught_anew() -> None:
    """A reminder kept by the families' names alone would teach the family unregistered."""
    played = game()
    with registered(omen.FAMILY):
        first = reminder_of(played)
    other = replace(omen.FAMILY, teach=lambda _game: Teaching(["- Omens come in threes."]))
    with registered(other):
        again, expected = reminder_of(played), played.reminder()
    assert omen.LESSON in first.split("\n")
    assert omen.LESSON not in again.split("\n")
    assert "- Omens come in threes." in again.split("\n") and again == expected


def test_the_reminder_kept_is_written_as_json_for_the_text_after_a_message_s_own() -> None:
    played = game()
    kept = kept_reminder(played)
    assert kept.text == reminder_of(played) == played.reminder()
    assert json.loads(f'"{kept.after_text}"') == AFTER + kept.text


@settings(max_examples=300, deadline=None, derandomize=True)
@given(
    content=contents,
    more=st.dictionaries(st.sampled_from(("name", "n", "role")), texts, max_size=2),
    content_first=st.booleans(),
    reminder=texts.filter(bool),
)
def test_a_message_with_the_reminder_written_once_is_that_message_written(
    content: Any, more: dict[str, Any], content_first: bool, reminder: str
) -> None:
    """Whatever its content, its other keys and their order: the text spliced in is the JSON
    of the message with the reminder at its end, as if written whole."""
    others = {**more, "role": "user"}
    message = {"content": content, **others} if content_first else {**others, "content": content}
    got = reminded([message], Reminder(reminder, encoded(AFTER + reminder)[1:-1]))[0]
    value = unwritten(got)
    if isinstance(content, list):
        expected = [*content, {"type": "text", "text": AFTER + reminder}]
    else:
        expected = f"{content}{AFTER}{reminder}" if content else reminder
    assert value == {**message, "content": expected}
    assert encoded(got) == encoded(value)
