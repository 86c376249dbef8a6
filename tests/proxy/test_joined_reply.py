"""A reply the client was given whole before a continuation was joined on keeps that part whole
when the client shows it so again (issue #29; found by hand through SillyTavern 1.12.6).

SillyTavern's send with an empty box asks for a further GM message; the proxy stores it joined
onto the reply. When the player swipes or deletes that second message before any request showed
the two, the next request shows the first one alone: the stored reply shown cut at the join. It
is the reply as it was given out, and its tags after the last words count (a stop's rule, "a tag
after the last words shown does not apply", is for a stream the client never got the rest of).
Each case runs on the OpenAI protocol, whole and streamed, and on the Anthropic one."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

from gm_tags.history import Chat
from tests.proxy.inprocess import narration, proxy_app_for, streamed
from tests.proxy.test_anthropic_stream import Scripted, events, text_block
from tests.proxy.test_anthropic_stream import shown as anthropic_text
from tests.proxy.test_anthropic_stream import streamed as anthropic_streamed
from tests.proxy.test_kept_dice import ask, nows
from tests.proxy.test_proxy import starting_game
from tests.proxy.test_reconcile import assistant, planned, user

U1 = {"role": "user", "content": "I hold the door against whoever comes."}
U2 = {"role": "user", "content": "Keep at it, Tobin."}
R1 = 'Boots on the stair, then silence: the guard turns back. [clock: name="Alarm raised" tick="1"]'
C1 = 'Tobin curses softly and tries a second pick. [clock: name="Vault door" tick="1"]'
C2 = (
    "Tobin sets down the picks and listens at the wall instead. "
    '[sheet: who="Tobin Vell" op="spend" pool="stress" amount="3"]'
)
PROTOCOLS = ["openai whole", "openai streamed", "anthropic"]

Say = Callable[[str, list[dict[str, str]]], str]


@contextmanager
def proxy(protocol: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Any]:
    """`say(reply, messages)`: the model's next reply queued, the messages sent, the narration
    the client gets; and `clocks()`: the clocks line of the reminder the model was sent last."""
    anthropic = protocol == "anthropic"
    upstream: Any = Scripted() if anthropic else None
    options = {"anthropic_upstream": "http://up.invalid"} if anthropic else {}
    with proxy_app_for(tmp_path / "c.db", monkeypatch, upstream, **options) as (client, up):

        def say(reply: str, messages: list[dict[str, str]]) -> str:
            if anthropic:
                pieces = [reply[at : at + 7] for at in range(0, len(reply), 7)]
                up.queue.append(anthropic_streamed((text_block(""), pieces)))
                return anthropic_text(events(client, messages)).strip()
            up.script({"reply": reply, "chunk": 6})
            if protocol == "openai whole":
                return ask(client, "joined", messages).strip()
            body = {"model": "m", "messages": messages}
            return narration(streamed(client, body, **{"X-GM-Chat": "joined"})).strip()

        def clocks() -> str:
            body = up.bodies[-1] if anthropic else up.seen[-1]
            return _clocks_line(body)

        yield say, clocks


def _clocks_line(body: dict[str, Any]) -> str:
    users = [m for m in body["messages"] if m["role"] == "user"]
    content = users[-1]["content"]
    text = content if isinstance(content, str) else "".join(p.get("text", "") for p in content)
    return next(line for line in text.splitlines() if line.startswith("Clocks now:"))


def said(text: str) -> dict[str, str]:
    return {"role": "assistant", "content": text}


@pytest.mark.parametrize("protocol", PROTOCOLS)
def test_a_reply_ending_with_a_tag_keeps_it_when_the_gm_again_message_is_deleted(
    protocol: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    with proxy(protocol, tmp_path, monkeypatch) as (say, clocks):
        first = said(say(R1, [U1]))
        say(C1, [U1, first])  # a send with an empty box: the GM speaks again
        say("The lid creaks open.", [U1, first, U2])  # that message deleted
        assert "Alarm raised 3/6" in clocks() and "Vault door 5/8" in clocks()


@pytest.mark.parametrize("protocol", PROTOCOLS)
def test_a_gm_again_message_regenerated_then_swiped_back_keeps_both_messages_tags(
    protocol: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The player swipes right on the second message (SillyTavern regenerates it: a continue of
    the first again), then back left to its first swipe, and sends a line."""
    with proxy(protocol, tmp_path, monkeypatch) as (say, clocks):
        first = said(say(R1, [U1]))
        again = said(say(C1, [U1, first]))
        say(C2, [U1, first])  # swiped right: another continuation of the first message
        assert "Alarm raised 3/6" in clocks()  # the first message's tick, once
        say("The lid creaks open.", [U1, first, again, U2])  # swiped back, then sent
        assert "Alarm raised 3/6" in clocks() and "Vault door 6/8" in clocks()


@pytest.mark.parametrize("protocol", PROTOCOLS)
def test_a_continued_reply_shown_as_it_was_before_a_second_continuation_keeps_both_parts(
    protocol: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A continue of a continue (two joins): the reply continued (one message), then a send
    with an empty box, whose message is deleted: the message shows the reply and its first
    continuation, both given out whole, each with its tag."""
    with proxy(protocol, tmp_path, monkeypatch) as (say, clocks):
        first = say(R1, [U1])
        more = say(C1, [U1, said(first)])  # Continue: the client joins it onto the message
        whole = said(f"{first} {more}")
        say(C2, [U1, whole])  # a send with an empty box
        say("The lid creaks open.", [U1, whole, U2])  # that message deleted
        assert "Alarm raised 3/6" in clocks() and "Vault door 6/8" in clocks()


def test_a_continuation_opening_with_a_tag_that_shows_nothing_keeps_it_with_the_second() -> None:
    """Split at the join, a continuation's opening clock tick goes with the second message:
    deleting that message takes the tick away (before, it stayed with the first)."""
    start = starting_game()
    chat, first = Chat(start).user("We try.").reply(R1)
    chat, more = chat.continue_reply('[clock: name="Vault door" tick="2"] The lock gives.')
    both = [user("We try."), assistant(first.narration), assistant(more.narration)]
    plan = planned(chat, [*both, user("Then?")], start)
    cut, rest = (m.swipe for m in plan.base.messages[1:3])
    assert (nows(cut.receipts), nows(rest.receipts)) == (nows(first), nows(more))
    deleted = planned(chat, [*both[:2], user("Then?")], start)
    assert deleted.base.game.to_document() == first.game.to_document()


def test_a_reply_split_further_back_keeps_the_second_messages_tags_and_faces() -> None:
    """The stored line went on past the joined reply; the client shows the reply as two
    messages and a turn the line does not hold (a new line forks at the reply): the second
    message is the rest of the stored reply, its check with the faces it threw, not plain
    text (a reviewer's F4)."""
    check = '[skill_check: skill="Prowl" dc="1"] [success: Gone.] [failure: Seen.]'
    start = starting_game()
    chat, one = Chat(start).user("We try.").reply(f"{R1} I try. {check}", seed=1)
    chat, two = chat.continue_reply(f" The guard turns. {check}", seed=2)
    chat = chat.user("Then?")
    chat, three = chat.reply("Dogs bark.", seed=3)
    shown = [user("We try."), assistant(one.narration), assistant(two.narration), user("Then?")]
    plan = planned(chat, [*shown, assistant(three.narration), user("And?")], start)
    assert plan.new
    cut, rest = (m.swipe for m in plan.base.messages[1:3])
    assert (nows(cut.receipts), nows(rest.receipts)) == (nows(one), nows(two))
    assert (cut.thrown, rest.thrown) == (one.thrown, two.thrown)


def test_a_reply_continued_twice_shown_as_three_messages_keeps_each_parts_checks() -> None:
    """Two sends with an empty box: the reply is stored with two continuations joined on, and
    the client shows three messages; each keeps its own check, with the faces it threw (before,
    the third was kept as plain text; a reviewer's probe, 20 of 20)."""

    def check(n: int) -> str:
        return (
            f'Try {n}. [skill_check: skill="Prowl" dc="1"] [success: Open{n}.] [failure: Jams{n}.] '
        )

    start = starting_game()
    chat, first = Chat(start).user("We try.").reply(check(1))
    turns = [first]
    for n in (2, 3):
        chat, more = chat.continue_reply(check(n))
        turns.append(more)
    shown = [user("We try."), *(assistant(turn.narration) for turn in turns), user("Then?")]
    plan = planned(chat, shown, start)
    parts = [m.swipe for m in plan.base.messages if m.role == "reply"]
    assert [nows(part.receipts) for part in parts] == [nows(turn) for turn in turns]
    assert [part.thrown for part in parts] == [turn.thrown for turn in turns]
