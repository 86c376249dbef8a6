"""A scripted front-end that builds its requests exactly as SillyTavern 1.12.6 does (the shapes
in ../shared/reference/clients/: leading system messages, the example dialogue as named system
messages, the greeting as the first assistant message, a post-history instruction, continue with
and without prefill, impersonate, stop, `n` = 2) and plays a campaign through the official
`openai` client and a real `gm-tags proxy` process, with a context budget small enough that the
window slides past the greeting.

After every operation the reminder the upstream received shows the game the visible history
implies: the start game with the visible assistant messages applied in order, each as the proxy
gave it out, cut where the client cut it (`Reply.kept`). And the upstream got the request as the
front-end sent it: SillyTavern's body fields and its `Authorization: Bearer undefined` as they
were, its messages in their order with the GM section after the leading system messages and the
reminder at the end of the latest user message; an impersonate, and a window so small it holds
no user or assistant message, exactly as they came."""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.request import urlopen

import pytest
from openai import OpenAI

from gm_tags import Game, load_ruleset
from tests.proxy.conftest import RULESET, Upstream, proxy_command, started, stopped
from tests.proxy.test_history_model import Reply, start_document
from tests.service.server import free_port

pytestmark = pytest.mark.slow

LEADING = [
    {"role": "system", "content": "Write Game Master's next reply in a fictional chat."},
    {"role": "system", "content": "Game Master runs a Crew of Shadows heist for the crew."},
    {"role": "system", "content": "[Game Master's personality: Terse, atmospheric, fair.]"},
    {"role": "system", "content": "[Circumstances and context of the dialogue: Night.]"},
    {"role": "system", "content": "[Example Chat]"},
    {"role": "system", "name": "example_user", "content": "We wait for the guard to pass."},
    {"role": "system", "name": "example_assistant", "content": "The footsteps fade."},
    {"role": "system", "content": "[Start a new Chat]"},
]
POST_HISTORY = {"role": "system", "content": "Stay in the Game Master's voice. Keep it short."}
CONTINUE_NUDGE = {
    "role": "system",
    "content": "[Continue the following message. Do not include ANY parts of the original "
    "message. Use capitalization and punctuation as if your reply is a part of the original "
    "message.]",
}
IMPERSONATE = {
    "role": "system",
    "content": "[Write your next reply from the point of view of User, using the chat history "
    "so far as a guideline for the writing style of User. Write 1 reply only.]",
}
GREETING = "Rain hammers the skylight of the Bluecoat records office. What do you do?"
BUDGET = 150  # characters of chat history the context holds (SillyTavern counts tokens)
# The body fields SillyTavern 1.12.6 sends with every request (Custom OpenAI-compatible source,
# default settings), besides `model`, `messages` and `stream`.
SAMPLING: dict[str, Any] = {
    "temperature": 1,
    "max_tokens": 300,
    "presence_penalty": 0,
    "frequency_penalty": 0,
    "top_p": 1,
    "logit_bias": {},
}


@dataclass
class Message:
    role: str
    text: str
    swipes: list[list[Reply]] = field(default_factory=list)  # each: a reply and continuations
    chosen: int = 0
    effect: list[str] = field(default_factory=list)  # the reply texts whose tags count


class SillyTavern:
    """The chat as the front-end shows it, and the requests it makes."""

    def __init__(self, client: OpenAI, upstream: Upstream, start: Game) -> None:
        self.client, self.upstream, self.start = client, upstream, start
        self.chat = [Message("assistant", GREETING)]
        self.words = 0
        self.slid = False

    # What the front-end sends -----------------------------------------------------------------

    def history(self) -> list[dict[str, Any]]:
        """The chat messages that fit the context budget: the oldest go first, the greeting
        included."""
        kept: list[dict[str, Any]] = []
        size = 0
        for message in reversed(self.chat):
            size += len(message.text)
            if kept and size > BUDGET:
                self.slid = True
                break
            kept.insert(0, {"role": message.role, "content": message.text})
        return kept

    def request(self, *, trailing: list[dict[str, Any]] | None = None) -> list[Any]:
        return [*LEADING, *self.history(), *(trailing or [POST_HISTORY])]

    def reply(self, *ticks: tuple[str, int]) -> Reply:
        words = tuple(f"Word{self.words}x{at}" for at in range(len(ticks) + 1))
        self.words += 1
        return Reply(words, ticks)

    def generate(
        self, messages: list[Any], replies: list[Reply], keep: int | None = None, n: int = 1
    ) -> list[str]:
        """Stream a generation; `keep` stops reading after that many content chunks and
        keeps one fewer (the client shows less than it was sent). The text of each choice."""
        self.upstream.script(
            {"replies": [r.text for r in replies], "chunk": 6, "delay": 0.01 if keep else 0}
        )
        expected = self.expected()
        pieces: dict[int, list[str]] = {}
        extra: dict[str, Any] = {"n": n} if n > 1 else {}
        with self.client.chat.completions.create(
            model="m", messages=messages, stream=True, **SAMPLING, **extra
        ) as chunks:
            for chunk in chunks:
                for choice in chunk.choices:
                    if choice.delta.content:
                        pieces.setdefault(choice.index, []).append(choice.delta.content)
                if keep is not None and len(pieces.get(0, [])) >= keep:
                    break
        if keep is not None:
            pieces[0] = pieces[0][:-1]
        self.check(expected)
        self.check_sent(messages, {"n": n} if n > 1 else {})
        return ["".join(pieces.get(i, [])) for i in range(n)]

    def passed_on(self, messages: list[Any], reply: str) -> tuple[str, dict[str, Any]]:
        """Stream a request the proxy takes no turn from: the text the client shows and the
        answer's `gm_tags`."""
        self.upstream.script({"reply": reply, "chunk": 6})
        pieces: list[str] = []
        said: dict[str, Any] = {}
        with self.client.chat.completions.create(
            model="m", messages=messages, stream=True, **SAMPLING
        ) as chunks:
            for chunk in chunks:
                for choice in chunk.choices:
                    pieces.append(choice.delta.content or "")
                said = (chunk.model_extra or {}).get("gm_tags", said)
        self.check_sent(messages, {}, as_sent=True)
        return "".join(pieces), said

    # The oracle ------------------------------------------------------------------------------

    def expected(self) -> str:
        game = self.start
        for message in self.chat:
            if message.role == "assistant":
                for text in message.effect or [message.text]:
                    game = game.apply_reply(text).game
        return next(line for line in game.reminder().splitlines() if line.startswith("Clocks"))

    def check(self, expected: str) -> None:
        assert self.upstream.clocks_seen() == expected

    def check_sent(
        self, messages: list[Any], extra: dict[str, Any], *, as_sent: bool = False
    ) -> None:
        """The upstream got the front-end's body fields and key as they were, and its messages
        with only the proxy's two additions (none, `as_sent`)."""
        (got,) = self.upstream.requests()[-1:]
        body = dict(got["body"])
        seen = body.pop("messages")
        assert body == {"model": "m", "stream": True, **SAMPLING, **extra}
        assert got["authorization"] == "Bearer undefined"
        if as_sent:
            assert seen == messages
            return
        section = seen.pop(len(LEADING))  # the GM section, right after the leading messages
        assert section["role"] == "system" and "Clocks now:" not in section["content"]
        last_user = max(at for at, message in enumerate(messages) if message["role"] == "user")
        reminded = seen[last_user]["content"]
        assert reminded.startswith(messages[last_user]["content"] + "\n\n")
        assert "Clocks now:" in reminded
        assert [*seen[:last_user], messages[last_user], *seen[last_user + 1 :]] == messages

    # The player's operations -----------------------------------------------------------------

    def send(self, text: str, *ticks: tuple[str, int], keep: int | None = None) -> None:
        self.chat.append(Message("user", text))
        reply = self.reply(*ticks)
        (shown,) = self.generate(self.request(), [reply], keep)
        effect = reply.text if keep is None else reply.kept(shown)
        self.chat.append(Message("assistant", shown, [[reply]], 0, [effect]))

    def regenerate(self, *ticks: tuple[str, int]) -> None:
        last = self.chat.pop()
        reply = self.reply(*ticks)
        (shown,) = self.generate(self.request(), [reply])
        last.swipes.append([reply])
        last.chosen, last.text, last.effect = len(last.swipes) - 1, shown, [reply.text]
        self.chat.append(last)

    def swipe_to(self, swipe: int) -> None:
        last = self.chat[-1]
        last.chosen = swipe
        last.text = " ".join(" ".join(reply.words) for reply in last.swipes[swipe])
        last.effect = [reply.text for reply in last.swipes[swipe]]

    def continue_last(self, *ticks: tuple[str, int], prefill: bool) -> None:
        last = self.chat[-1]
        reply = self.reply(*ticks)
        history = self.history()
        history[-1]["content"] = history[-1]["content"].strip()
        if prefill:
            messages = [*LEADING, *history[:-1], POST_HISTORY, history[-1]]
        else:
            messages = [*LEADING, *history, CONTINUE_NUDGE, POST_HISTORY]
        (more,) = self.generate(messages, [reply])
        last.text = f"{last.text} {more.lstrip()}"  # continue_postfix: a space of its own
        last.swipes[last.chosen].append(reply)
        last.effect.append(reply.text)

    def stored_narrations(self) -> list[str]:
        """What the proxy's play page (and `GET /games/{chat}`) tells of each GM message."""
        served = str(self.client.base_url).removesuffix("/v1/")
        (chat,) = json.load(urlopen(f"{served}/games"))["chats"]
        story = json.load(urlopen(f"{served}/games/{chat}"))["messages"]
        return [message["narration"] for message in story if message["role"] == "reply"]

    def impersonate(self) -> str:
        """The model writes the player's next line into the input box; no game changes, and no
        tag reaches the player."""
        messages = [*LEADING, *self.history(), POST_HISTORY, IMPERSONATE]
        line, said = self.passed_on(messages, 'Mira waits. [clock: name="A" tick="1"] Quietly.')
        assert (said["action"], said["stored"]) == ("impersonate", False)
        assert "[" not in line and line.startswith("Mira waits.") and line.endswith("Quietly.")
        return line

    def forget_everything(self) -> None:
        """A context budget so small that only the system messages fit: sent on as it came,
        nothing applied or stored."""
        _, said = self.passed_on([*LEADING, POST_HISTORY], "Who are you?")
        assert (said["action"], said["stored"]) == ("none", False)

    def generate_two(self, text: str, *ticks: tuple[str, int], shows: int) -> None:
        """A message answered with `n` = 2 ("multiple swipes per generation"); the player
        swipes to choice `shows`."""
        self.chat.append(Message("user", text))
        replies = [self.reply(*ticks), self.reply(*reversed(ticks), ("C", 1))]
        shown = self.generate(self.request(), replies, n=2)
        self.chat.append(
            Message("assistant", shown[shows], [[r] for r in replies], shows, [replies[shows].text])
        )

    def delete(self, at: int) -> None:
        del self.chat[at]

    def edit(self, at: int, text: str) -> None:
        self.chat[at].text = text


@pytest.fixture
def tavern(upstream: Upstream, tmp_path: Path) -> Iterator[SillyTavern]:
    game = tmp_path / "start.json"
    game.write_text(json.dumps(start_document()), "utf-8")
    port = free_port()
    command = proxy_command(upstream.url, tmp_path / "chats.db", port, "--game", str(game))
    process = started(command, port, "/health")
    start = Game.from_document(load_ruleset(RULESET), start_document())
    try:
        with OpenAI(
            base_url=f"http://127.0.0.1:{port}/v1", api_key="undefined", max_retries=0, timeout=30
        ) as client:
            yield SillyTavern(client, upstream, start)
    finally:
        stopped(process)


@pytest.mark.load
def test_a_campaign_through_a_sillytavern_shaped_front_end_keeps_the_right_game(
    tavern: SillyTavern,
) -> None:
    tavern.send("Mira slips down the stairs.", ("A", 1))
    tavern.send("Tobin drags the guard off.", ("B", 1), ("A", 1))
    tavern.regenerate(("B", -1))
    tavern.regenerate(("D", 1))
    tavern.swipe_to(1)
    tavern.send("We climb to the roof.", ("C", 1))
    tavern.continue_last(("A", -1), prefill=False)
    tavern.send("We go back inside.", ("D", 1))
    tavern.continue_last(("C", 1), prefill=True)
    assert tavern.slid  # the greeting and the first turns are out of the window now
    line = tavern.impersonate()
    tavern.send(line, ("B", 1), ("A", 1), ("D", -1), keep=3)  # the player sends that line
    tavern.forget_everything()
    tavern.send("Anyone there?", ("C", -1))
    tavern.generate_two("Mira drops in.", ("A", 1), ("B", -1), shows=1)
    tavern.send("Mira freezes.", ("D", 1))
    tavern.delete(-1)
    tavern.delete(-1)  # the last exchange
    tavern.send("Tobin whistles.", ("B", 1))
    tavern.edit(-4, "Mira drops in, knife first.")  # an earlier user message
    tavern.send("They run.", ("A", 1))
    tavern.delete(-6)
    tavern.delete(-6)  # an exchange in the middle
    tavern.send("Out through the skylight.", ("C", 1))


def test_a_continue_is_stored_as_the_client_shows_it_joined(tavern: SillyTavern) -> None:
    """SillyTavern joins a continuation onto the reply with a space of its own; once a request
    shows the joined reply, the stored story tells it with the client's white space."""
    tavern.send("Mira slips down the stairs.", ("A", 1))
    tavern.continue_last(("B", 1), prefill=False)
    tavern.send("We climb to the roof.", ("C", 1))
    tavern.send("We go back inside.", ("D", 1))
    shown = [message.text for message in tavern.chat if message.role == "assistant"]
    assert "Word0x1 Word1x0" in shown[1]  # the join, as the client shows it
    assert tavern.stored_narrations() == shown
