"""A property test of the proxy against a model of what the client shows (hypothesis stateful):
random sequences of send, regenerate, swipe, edit, delete (any message but the greeting),
continue, stop at a random place, impersonate and window slides, as a SillyTavern-like client
makes them, in process against the ASGI app and a scripted upstream.

The oracle: the game the next reply sees (the clocks in the reminder the upstream receives)
equals the start game with the visible assistant messages applied in order, each as the proxy
gave it out, cut where the client cut it (a tag counts when the client shows some of the text
after it), an edited one as it was before the edit, a continued one with its continuation.

Replies are prose words with clock ticks between them (`W3a0 [clock: name="B" tick="-1"] W3a1`)
on clocks that start half full, so every tag shows in the clocks line.

The client's window reaches back to any message deleted since its last request: a deletion that
no request shows, the proxy cannot know of (docs/proxy.md, Limits). The run is 300 examples of up
to 25 steps, about two minutes; `tests/proxy/test_history_cases.py` replays, as plain tests, the
histories larger runs found.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, Phase, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, precondition, rule

from gm_tags import Game, load_ruleset
from tests.proxy.conftest import GAME, RULESET
from tests.proxy.inprocess import proxy_app_for

pytestmark = pytest.mark.slow

CLOCKS = "ABCD"
SYSTEM = {"role": "system", "content": "Write the Game Master's next reply."}
POST_HISTORY = {"role": "system", "content": "Stay in the Game Master's voice."}
CONTINUE = {"role": "system", "content": "[Continue the following message.]"}
IMPERSONATE = {
    "role": "system",
    "content": "[Write your next reply from the point of view of User.]",
}
TICKS = st.lists(st.tuples(st.sampled_from(CLOCKS), st.sampled_from([-1, 1])), max_size=3)


def start_document() -> dict[str, Any]:
    document = json.loads(GAME.read_text("utf-8"))
    document["rulesetClocks"] = [{"name": n, "size": 8, "filled": 4} for n in CLOCKS]
    return document


@dataclass(frozen=True)
class Reply:
    """A reply as the upstream wrote it: words with a tick after each but the last."""

    words: tuple[str, ...]
    ticks: tuple[tuple[str, int], ...]

    @property
    def text(self) -> str:
        parts = [self.words[0]]
        for (clock, amount), word in zip(self.ticks, self.words[1:], strict=True):
            parts.append(f'[clock: name="{clock}" tick="{amount}"] {word}')
        return " ".join(parts)

    def kept(self, shown: str) -> str:
        """The reply as far as the client shows it: a tick counts when some of the word after
        it is shown."""
        parts = [self.words[0]]
        after = len(self.words[0])  # the words are shown in order, one space apart
        for (clock, amount), word in zip(self.ticks, self.words[1:], strict=True):
            if len(shown) <= after + 1:
                break
            parts.append(f'[clock: name="{clock}" tick="{amount}"] {word}')
            after += 1 + len(word)
        return " ".join(parts)


@dataclass
class Shown:
    """A message as the client shows it. An assistant message keeps its swipes (each the
    replies it is made of: a reply and its continuations) and what the client shows of each
    (`views`: its text and the texts whose tags count, as the client kept it last: a swipe
    cut, continued or edited is shown so again when the player swipes back to it)."""

    role: str
    text: str
    swipes: list[list[Reply]] = field(default_factory=list)
    chosen: int = 0
    effect: tuple[str, ...] = ()  # the texts whose tags count, in order
    views: list[tuple[str, tuple[str, ...]]] = field(default_factory=list)

    @property
    def greeting(self) -> bool:
        return self.role == "assistant" and not self.swipes

    def showing(self, text: str, effect: tuple[str, ...]) -> Shown:
        """The message with its chosen swipe shown as `text`, with `effect`."""
        views = list(self.views)
        if self.swipes:
            views[self.chosen] = (text, effect)
        return replace(self, text=text, effect=effect, views=views)


class ProxyHistory(RuleBasedStateMachine):
    examples = 0

    def __init__(self) -> None:
        super().__init__()
        ProxyHistory.examples += 1
        self.example = ProxyHistory.examples  # words and greetings differ between examples
        self.words = 0
        self.window = 0  # how many of the latest messages the client sends; 0 for all
        # The first place a message was deleted at since the last request.
        self.deleted: int | None = None

    @initialize()
    def open_the_chat(self) -> None:
        self.upstream.queue.clear()
        self.start = Game.from_document(load_ruleset(RULESET), start_document())
        greeting = f"Rain on the skylight, {self.example}. What do you do?"
        self.visible: list[Shown] = [Shown("assistant", greeting)]
        self.send([])

    # The client's operations -----------------------------------------------------------------

    @rule(ticks=TICKS)
    def send(self, ticks: list[tuple[str, int]]) -> None:
        """The player sends a message (or, after deleting the reply to the last one, asks for
        a reply to it)."""
        if self.visible[-1].role == "assistant":
            self.visible.append(Shown("user", f"We act, {self.example}.{self.words}."))
        reply = self.reply(ticks)
        self.expect_clocks()
        shown = self.ask(reply)
        effect = (reply.text,)
        self.visible.append(Shown("assistant", shown, [[reply]], 0, effect, [(shown, effect)]))

    @precondition(lambda self: self.last_reply() is not None and self.visible[-2].role == "user")
    @rule(ticks=TICKS)
    def regenerate(self, ticks: list[tuple[str, int]]) -> None:
        last = self.visible.pop()
        reply = self.reply(ticks)
        self.expect_clocks()
        shown = self.ask(reply)
        effect = (reply.text,)
        views = [*last.views, (shown, effect)]
        swipes = [*last.swipes, [reply]]
        self.visible.append(replace(last, swipes=swipes, chosen=len(swipes) - 1, views=views))
        self.visible[-1] = self.visible[-1].showing(shown, effect)

    @precondition(lambda self: self.last_reply() is not None and len(self.last_reply().swipes) > 1)
    @rule(data=st.data())
    def swipe(self, data: st.DataObject) -> None:
        self.swipe_to(data.draw(st.integers(0, len(self.visible[-1].swipes) - 1)))

    def swipe_to(self, chosen: int) -> None:
        """The client shows another swipe of the last reply, as it kept it."""
        last = self.visible[-1]
        self.visible[-1] = replace(last, chosen=chosen).showing(*last.views[chosen])

    @precondition(lambda self: len(self.visible) > 2)
    @rule(data=st.data())
    def edit(self, data: st.DataObject) -> None:
        editable = self.editable()
        if editable:
            self.edit_at(data.draw(st.sampled_from(editable)))

    def editable(self) -> list[int]:
        """The player edits a message of theirs, or one of the GM's replies (what it did
        stands), but for one the client cut short: the proxy may never have seen the cut."""
        return [
            at
            for at, m in enumerate(self.visible)
            if at
            and (
                m.role == "user"
                or (m.swipes and m.effect == tuple(r.text for r in m.swipes[m.chosen]))
            )
        ]

    def edit_at(self, at: int) -> None:
        message = self.visible[at]
        # Kept as the player wrote it, with a word of theirs first: what tells a reply's swipes
        # apart is the words an edit keeps.
        edited = f"Edited {self.words}: {message.text}"
        self.visible[at] = message.showing(edited, message.effect)
        self.words += 1

    @precondition(lambda self: len(self.visible) > 2)
    @rule(data=st.data())
    def delete(self, data: st.DataObject) -> None:
        self.delete_at(data.draw(st.integers(1, len(self.visible) - 1)))

    def delete_at(self, at: int) -> None:
        del self.visible[at]
        self.deleted = min(self.deleted if self.deleted is not None else at, at)

    @precondition(lambda self: self.last_reply() is not None)
    @rule(ticks=TICKS)
    def continue_last(self, ticks: list[tuple[str, int]]) -> None:
        last = self.visible[-1]
        reply = self.reply(ticks)
        self.expect_clocks()
        more = self.ask(reply, trailing=[CONTINUE, POST_HISTORY])
        swipes = [list(s) for s in last.swipes]
        swipes[last.chosen] = [*swipes[last.chosen], reply]
        joined = f"{last.text} {more.lstrip()}"  # the front-end's own space at the join
        continued = replace(last, swipes=swipes)
        self.visible[-1] = continued.showing(joined, (*last.effect, reply.text))

    @precondition(lambda self: self.last_reply() is not None)
    @rule(data=st.data())
    def stop(self, data: st.DataObject) -> None:
        last = self.visible[-1]
        reply = last.swipes[last.chosen][-1]
        if len(last.effect) != 1 or last.text != self.narration(reply):
            return  # a continued, edited or cut reply: its cut is another story
        self.stop_at(data.draw(st.integers(1, len(last.text) - 1)))

    def stop_at(self, cut: int) -> None:
        """The client keeps less of the last reply than it was sent: `cut` characters."""
        last = self.visible[-1]
        reply = last.swipes[last.chosen][-1]
        shown = last.text[:cut].rstrip()
        if not shown:
            return
        self.visible[-1] = last.showing(shown, (reply.kept(shown),))

    @precondition(lambda self: self.visible[-1].role == "assistant")
    @rule()
    def impersonate(self) -> None:
        self.upstream.script({"reply": 'I wait. [clock: name="A" tick="1"]'})
        messages = [*self.sent(), POST_HISTORY, IMPERSONATE]
        answer = self.client.post("/v1/chat/completions", json={"model": "m", "messages": messages})
        assert answer.json()["gm_tags"]["stored"] is False

    def speak_again(self, ticks: list[tuple[str, int]]) -> None:
        """SillyTavern's send with an empty box (the GM speaks again): the request ends with the
        last reply, as a continue with a prefill does, so the proxy takes it as one; the client
        shows the answer as a message of its own. (Not a rule: a deletion or an edit of either
        message before the next request is not followed yet.)"""
        reply = self.reply(ticks)
        self.expect_clocks()
        shown = self.ask(reply, trailing=[]).strip()
        effect = (reply.text,)
        self.visible.append(Shown("assistant", shown, [[reply]], 0, effect, [(shown, effect)]))

    @rule(size=st.sampled_from([0, 2, 3, 4, 6]))
    def slide(self, size: int) -> None:
        self.window = size

    # The oracle ------------------------------------------------------------------------------

    def the_upstream_saw_the_game_the_visible_history_implies(self) -> None:
        if any(m["role"] == "user" for m in self.upstream.seen[-1]["messages"]):
            assert self.upstream.clocks_seen() == self.expected
        # else the reminder has no user message to go in (the player deleted them all)

    def expect_clocks(self) -> None:
        """What the next request must show: the visible history applied in order."""
        game = self.start
        for message in self.visible:
            if message.role == "assistant":
                for text in message.effect or (message.text,):
                    game = game.apply_reply(text).game
        self.expected = next(
            line for line in game.reminder().splitlines() if line.startswith("Clocks now:")
        )

    # The client ------------------------------------------------------------------------------

    def reply(self, ticks: list[tuple[str, int]]) -> Reply:
        # Of one length in every example (a replayed example draws the same cuts), and alike
        # in nothing but by chance: an edit is told from the replies by what it keeps of them.
        words = tuple(self.word(at) for at in range(len(ticks) + 1))
        self.words += 1
        return Reply(words, tuple(ticks))

    def word(self, at: int) -> str:
        said = f"{self.example}/{self.words}/{at}".encode()
        return "W" + hashlib.sha256(said).hexdigest()[:12]

    def narration(self, reply: Reply) -> str:
        return " ".join(reply.words)

    def last_reply(self) -> Shown | None:
        last = self.visible[-1]
        return last if last.role == "assistant" and last.swipes and len(self.visible) > 2 else None

    def sent(self) -> list[dict[str, str]]:
        """The messages of the story the client sends: its window, extended back to a reply it
        shows as it was given out (the proxy needs one it holds to know the chat)."""
        story = [{"role": m.role, "content": m.text} for m in self.visible]
        return [SYSTEM, *story[self.window_start() :]]

    def window_start(self) -> int:
        """Where the window starts: the latest `window` messages, and the message before any
        deleted since the last request (a deletion no request shows, the proxy cannot know of:
        docs/proxy.md, Limits)."""
        first = max(0, len(self.visible) - self.window) if self.window else 0
        if self.deleted is not None:
            first = min(first, self.deleted - 1)
        while first > 0 and not self.anchor(self.visible[first:]):
            first -= 1
        return first

    def anchor(self, messages: list[Shown]) -> bool:
        return any(
            m.role == "assistant"
            and len(m.effect) == 1
            and m.text == self.narration(m.swipes[m.chosen][0])
            for m in messages
            if m.swipes
        )

    def ask(self, reply: Reply, trailing: list[dict[str, str]] | None = None) -> str:
        self.upstream.script({"reply": reply.text, "chunk": 7})
        messages = [*self.sent(), *([POST_HISTORY] if trailing is None else trailing)]
        answer = self.client.post("/v1/chat/completions", json={"model": "m", "messages": messages})
        self.deleted = None
        assert answer.status_code == 200, answer.text
        self.the_upstream_saw_the_game_the_visible_history_implies()
        return str(answer.json()["choices"][0]["message"]["content"])


@contextmanager
def proxied(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """The machine's client and upstream: the proxy in process, on a new store."""
    game = tmp_path / "start.json"
    game.write_text(json.dumps(start_document()), "utf-8")
    with proxy_app_for(tmp_path / "chats.db", monkeypatch, game=game) as (client, upstream):
        ProxyHistory.client = client  # type: ignore[attr-defined]
        ProxyHistory.upstream = upstream  # type: ignore[attr-defined]
        yield


def run_machine(examples: int, steps: int, **more: Any) -> None:
    """The machine run `examples` times of up to `steps` steps, the same examples every run
    (derandomized: CI never meets a new one), not shrunk (shrinking takes minutes) unless
    `more` says so."""
    run = ProxyHistory.TestCase
    run.settings = settings(
        **{
            "phases": [Phase.explicit, Phase.reuse, Phase.generate],
            "derandomize": True,
            "max_examples": examples,
            "stateful_step_count": steps,
            "deadline": None,
            "suppress_health_check": [HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
            **more,
        }
    )
    run().runTest()


def test_the_game_follows_the_visible_history(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    with proxied(tmp_path, monkeypatch):
        run_machine(300, 25)
