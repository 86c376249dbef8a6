"""Which line and snapshot a transcript lands on (`gm_tags.chats.transcript`), in process: the
rules docs/proxy.md writes down, one by one."""

from __future__ import annotations

import json
import re

import pytest

from gm_tags import Game, load_ruleset
from gm_tags.chats.plan import plan_step
from gm_tags.chats.transcript import Said, chat_key, line_ids
from gm_tags.history import Chat, chat_id_problem
from gm_tags.proxy.transcript import conversation
from tests.proxy.conftest import GAME, RULESET

KEY = "chat-x"


@pytest.fixture(scope="module")
def start() -> Game:
    return Game.from_document(load_ruleset(RULESET), json.loads(GAME.read_text("utf-8")))


def alarm(game: Game) -> str:
    clock = next(clock for clock in game.clocks if clock.name == "Alarm raised")
    return clock.fill


def tick(amount: int) -> str:
    return f'Bells, {amount}. [clock: name="Alarm raised" tick="{amount}"]'


def user(text: str) -> Said:
    return Said("user", text)


def assistant(text: str) -> Said:
    return Said("assistant", text)


def played(start: Game, *steps: tuple[str, str]) -> Chat:
    chat = Chat(start)
    for said, reply in steps:
        chat = chat.user(said)
        chat, _ = chat.reply(reply)
    return chat


def test_a_conversation_is_its_user_and_assistant_messages_with_text_parts_joined() -> None:
    messages = [
        {"role": "system", "content": "rules"},
        {"role": "user", "content": [{"type": "text", "text": "a"}, {"type": "image_url"}]},
        {"role": "assistant", "content": "b"},
        {"role": "tool", "content": "c"},
        {"role": "assistant", "content": None},
    ]
    assert conversation(messages) == [user("a"), assistant("b"), assistant("")]


def test_the_chat_key_is_the_name_given_else_the_opening_message() -> None:
    assert chat_key("table-7", []) == "table-7"
    # A name an id cannot hold as it is stays readable, a digest keeping look-alikes apart.
    assert re.fullmatch(r"bad-name-[0-9a-f]{8}", chat_key("bad/name", []))
    assert re.fullmatch(r"a-b-[0-9a-f]{8}", chat_key("a:b", []))  # `:` numbers a chat's lines
    assert re.fullmatch(r"Agnes-s night-[0-9a-f]{8}", chat_key("Agnes's night", []))
    assert chat_key("a/b", []) != chat_key("a:b", [])
    assert chat_key("///", []).startswith("named-")
    assert chat_id_problem(chat_key("x" * 300 + "!", [])) is None
    opened = chat_key(None, [user("We  go in."), assistant("x")])
    assert opened == chat_key(None, [user("We go in.")]) != chat_key(None, [user("We go.")])


def test_lines_are_numbered_in_the_order_they_started() -> None:
    ids = ["chat-x:10", "other", "chat-x", "chat-x:2", "chat-xy", "chat-x:z"]
    assert line_ids(KEY, ids) == ["chat-x", "chat-x:2", "chat-x:10"]


def test_a_first_request_starts_a_line_from_the_start_game(start: Game) -> None:
    plan = plan_step(KEY, [], [user("Hello.")], start)
    assert (plan.line, plan.new, plan.action) == (KEY, True, "reply")
    assert [m.role for m in plan.base.messages] == ["user"]
    assert alarm(plan.game) == "2/6"


def test_an_edited_assistant_message_keeps_what_its_reply_did(start: Game) -> None:
    line = played(start, ("a", tick(1)), ("b", tick(2)))
    said = [
        user("a"),
        assistant("Bells, one (edited)."),
        user("b"),
        assistant("Bells, 2."),
        user("c"),
    ]
    plan = plan_step(KEY, [(KEY, line)], said, start)
    assert (plan.line, plan.new, plan.action) == (KEY, False, "reply")
    assert alarm(plan.game) == "5/6"


def test_an_older_swipe_in_the_middle_starts_a_new_line_and_retells_what_follows(
    start: Game,
) -> None:
    line = played(start, ("a", tick(1)))
    line, _ = line.regenerate(tick(3))
    line = line.user("b")
    line, _ = line.reply(tick(1))
    said = [user("a"), assistant("Bells, 1."), user("b"), assistant("Bells, 1."), user("c")]
    plan = plan_step(KEY, [(KEY, line)], said, start)
    assert (plan.line, plan.new) == ("chat-x:2", True)
    assert alarm(plan.game) == "4/6"  # 2 + 1 + 1, not the 3 of the other swipe
    assert alarm(line.game) == "6/6"  # the line itself is left as it was


def test_events_the_line_recorded_come_along_with_the_message_before_them(start: Game) -> None:
    line = played(start, ("a", tick(1)))
    line = line.record("party sheet saved", line.game.apply_reply(tick(2)).game)
    plan = plan_step(KEY, [(KEY, line)], [user("a"), assistant("Bells, 1."), user("b")], start)
    assert (plan.line, plan.new, plan.action) == (KEY, False, "reply")
    assert alarm(plan.game) == "5/6"


def test_a_trailing_assistant_message_continues_that_reply(start: Game) -> None:
    line = played(start, ("a", tick(1)), ("b", tick(2)))
    plan = plan_step(KEY, [(KEY, line)], [user("a"), assistant("Bells, 1.")], start)
    assert (plan.new, plan.action) == (True, "continue")
    assert alarm(plan.game) == "3/6"
    assert plan.base.messages[-1].role == "reply"


def test_an_assistant_message_the_proxy_never_gave_out_applies_as_it_stands(
    start: Game,
) -> None:
    greeting = 'Welcome. [clock: name="Alarm raised" tick="1"]'
    plan = plan_step(KEY, [], [assistant(greeting), user("Hi.")], start)
    assert alarm(plan.game) == "3/6"
    assert [m.role for m in plan.base.messages] == ["reply", "user"]
