"""A streamed reply the client stops (a front-end's stop button closes the connection) is stored
as the client was sent it: its narration is exactly the narration the client got, and the tags
that apply are the ones that closed in the text behind it, none after (docs/proxy.md, "A stopped
reply"). Both protocols, through the proxy's ASGI app driven by a client that leaves at a chosen
moment; the interleavings are forced by events, never by sleeping:

- while a batch of the read-ahead is in the worker thread (the batch is worked, its events are
  never sent: issue #29's race, where the stored narration ran past the client's);
- right after the client got its Nth body, for every N (before the first narration, between two
  sends, in the read-ahead);
- at the `--max-reply` cut;
- after a check whose branch the client saw (the reply read again throws the same dice).
"""

from __future__ import annotations

import asyncio
import json
import threading
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import anyio
import anyio.from_thread
import pytest
from starlette.testclient import TestClient
from starlette.types import Message

import gm_tags.proxy.streaming as streaming
from gm_tags.chats.cut import applied_again
from gm_tags.store import open_store
from tests.proxy import inprocess
from tests.proxy import test_anthropic_stream as anthropic
from tests.proxy.inprocess import Scripted, chunk, proxy_app_for
from tests.proxy.test_proxy import starting_game

CLOCK = "Alarm raised"
SEEN = f'Bells. [clock: name="{CLOCK}" tick="1"] The guard turns. '
IN_FLIGHT = f'[clock: name="{CLOCK}" tick="2"] He walks on.'
AFTER = " He runs." * 6 + f' [clock: name="{CLOCK}" tick="3"] Gone.'
REPLY = SEEN + IN_FLIGHT + AFTER
CHAT, MESSAGES = "/v1/chat/completions", "/v1/messages"


class LeavingClient:
    """One request's client, speaking ASGI to the app: it gets the answer's bodies until it
    leaves (`leave`) and the app is told so (its listener receives the disconnect), then none
    (a server drops what is sent to a connection it knows is gone, as uvicorn does). `left` is
    set once the app's listener has seen the client go (it stops the stream in that step)."""

    def __init__(
        self, path: str, body: dict[str, Any], after: int | None = None, *, named: bool = True
    ) -> None:
        self.path, self.body, self.after = path, json.dumps(body).encode(), after
        self.said = body["messages"][-1]["content"]
        self.named = named  # False: the chat is found by its transcript, as SillyTavern's
        self.bodies: list[bytes] = []
        self.left = threading.Event()
        self.gone = False  # the app was told the client went away
        self._asked = False
        self._leave: anyio.Event | None = None

    def leave(self) -> None:
        self._stop().set()

    def _stop(self) -> anyio.Event:
        if self._leave is None:
            self._leave = anyio.Event()
        return self._leave

    async def receive(self) -> Message:
        if not self._asked:
            self._asked = True
            return {"type": "http.request", "body": self.body, "more_body": False}
        await self._stop().wait()
        self.gone = True
        # Runs after the step that returns this message, in which the listener stops the stream.
        asyncio.get_running_loop().call_soon(self.left.set)
        return {"type": "http.disconnect"}

    async def send(self, message: Message) -> None:
        if message["type"] != "http.response.body" or self.gone or not message["body"]:
            return
        self.bodies.append(message["body"])
        if len(self.bodies) == self.after:
            self.leave()

    async def asked(self, app: Any) -> None:
        headers = [(b"host", b"127.0.0.1"), (b"content-type", b"application/json")]
        if self.named:
            headers.append((b"x-gm-chat", self.said.encode()))  # a chat of its own
        scope = {
            "type": "http",
            "asgi": {"version": "3.0"},
            "http_version": "1.1",
            "method": "POST",
            "scheme": "http",
            "path": self.path,
            "raw_path": self.path.encode(),
            "root_path": "",
            "query_string": b"",
            "headers": headers,
            "client": ("127.0.0.1", 50000),
            "server": ("127.0.0.1", 80),
        }
        await app(scope, self.receive, self.send)

    def narration(self, index: int | None = None) -> str:
        """The narration the client got (of choice `index`, or all)."""
        text = b"".join(self.bodies).decode("utf-8")
        data = [line[6:] for line in text.splitlines() if line.startswith("data: ")]
        events = [json.loads(one) for one in data if one != "[DONE]"]
        if self.path == MESSAGES:
            return anthropic.shown(events)
        return "".join(
            choice["delta"].get("content") or ""
            for event in events
            for choice in event.get("choices") or []
            if index in (None, choice.get("index", 0))
        )


@pytest.fixture
def proxied(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Proxied]:
    with proxy_app_for(tmp_path / "c.db", monkeypatch, Either(), **ANTHROPIC) as (client, either):
        yield Proxied(tmp_path / "c.db", client, either)


ANTHROPIC = {"anthropic_upstream": "http://up.invalid"}


class Either(Scripted):
    """A scripted upstream of each protocol."""

    def __init__(self) -> None:
        super().__init__()
        self.messages = anthropic.Scripted()

    async def handle_async_request(self, request: Any) -> Any:
        if request.url.path.endswith("/messages"):
            return await self.messages.handle_async_request(request)
        return await super().handle_async_request(request)


class Proxied:
    """The proxy's app before a scripted upstream of each protocol, and its store."""

    def __init__(self, db: Path, client: TestClient, upstream: Either) -> None:
        self.db, self.client, self.upstream = db, client, upstream
        self.asked = 0
        self.current: LeavingClient | None = None  # the client of the request going on

    def stopped(
        self,
        path: str,
        pieces: list[str],
        after: int | None = None,
        *,
        choices: int = 1,
        said: list[dict[str, str]] | None = None,
    ) -> LeavingClient:
        """A client's streamed request answered with `pieces` of text, one event each (each
        choice's in turn, `n` > 1: the piece numbered by its choice); it leaves after its
        `after`th body (or when a test's hook makes it). Its messages are `said`, on a chat
        found by its transcript, or else one message of a chat of its own."""
        self.asked += 1
        named = said is None
        said = said or [{"role": "user", "content": f"We try, take {self.asked}."}]
        if path == CHAT:
            raw = [
                _delta(piece.replace("Bells", f"Bells {index}") if choices > 1 else piece, index)
                for piece in ["", *pieces]
                for index in range(choices)
            ]
            self.upstream.script({"raw": raw})
            body: dict[str, Any] = {"model": "m", "messages": said, "stream": True}
            if choices > 1:
                body["n"] = choices
        else:
            answer = anthropic.streamed((anthropic.text_block(""), pieces))
            self.upstream.messages.queue.append(answer)
            body = {"model": "m", "max_tokens": 9, "messages": said, "stream": True}
        self.current = LeavingClient(path, body, after, named=named)
        self.client.portal.call(self.current.asked, self.client.app)
        return self.current

    def stored(self, client: LeavingClient) -> dict[str, Any] | None:
        """The swipe stored for `client`'s reply (None: nothing was)."""
        swipes = self.swipes(client)
        return swipes[-1] if swipes else None

    def swipes(self, client: LeavingClient) -> list[dict[str, Any]]:
        """The swipes of `client`'s reply (one a choice), as stored."""
        store = open_store(str(self.db))
        try:
            for chat in map(store.load, store.chat_ids()):
                if chat.messages[0].swipes[0]["text"] == client.said:
                    return [dict(swipe) for swipe in chat.messages[-1].swipes]
            return []
        finally:
            store.close()


def pieces_of(text: str, size: int = 6) -> list[str]:
    return [text[at : at + size] for at in range(0, len(text), size)]


def _delta(piece: str, index: int = 0) -> dict[str, Any]:
    delta = {"content": piece} if piece else {"role": "assistant"}
    return chunk([{"index": index, "delta": delta, "finish_reason": None}])


def ticks(swipe: dict[str, Any]) -> list[str]:
    return [receipt["now"] for receipt in swipe["receipts"]]


def assert_stored_as_sent(swipe: dict[str, Any], client: LeavingClient) -> None:
    """The swipe is the reply stopped where the client was left: its narration is the client's,
    its receipts those of the tags in its text."""
    assert REPLY.startswith(swipe["text"])
    assert swipe["narration"] == client.narration(), len(client.bodies)
    stream = starting_game().stream()
    stream.feed(swipe["text"])
    again = stream.stop()
    assert again.narration == swipe["narration"]
    assert [receipt.to_dict()["now"] for receipt in again.receipts] == ticks(swipe)


def worked_while_leaving(proxied: Proxied) -> Callable[[streaming.Reading, list[str]], list[str]]:
    """A `streaming._taken` that makes the client leave when the worker takes its first batch,
    and works the batch once the app has seen the client go."""
    real = streaming._taken

    def taken(reading: streaming.Reading, lines: list[str]) -> list[str]:
        leaving = proxied.current
        if leaving is not None and not leaving.left.is_set():
            anyio.from_thread.run_sync(leaving.leave)
            assert leaving.left.wait(30), "the app never saw the client go"
        return real(reading, lines)

    return taken


@pytest.mark.parametrize("path", [CHAT, MESSAGES])
def test_a_batch_in_the_worker_when_the_client_leaves_is_not_kept(
    proxied: Proxied, monkeypatch: pytest.MonkeyPatch, path: str
) -> None:
    monkeypatch.setattr(streaming, "_taken", worked_while_leaving(proxied))
    client = proxied.stopped(path, [SEEN, IN_FLIGHT, *pieces_of(AFTER)])
    assert client.narration() == "Bells. The guard turns."
    swipe = proxied.stored(client)
    assert swipe is not None
    assert swipe["narration"] == "Bells. The guard turns."
    seen = [receipt.to_dict()["now"] for receipt in starting_game().apply_reply(SEEN).receipts]
    assert ticks(swipe) == seen  # the tick in the batch never reached the client
    assert_stored_as_sent(swipe, client)


def test_each_choice_of_a_stopped_stream_keeps_what_the_client_got_of_it(
    proxied: Proxied, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(streaming, "_taken", worked_while_leaving(proxied))
    client = proxied.stopped(CHAT, [SEEN, IN_FLIGHT, *pieces_of(AFTER)], choices=2)
    # Choice 0's first piece is the first narration; choice 1's came in the batch in flight.
    assert [client.narration(0), client.narration(1)] == ["Bells 0. The guard turns.", ""]
    swipes = proxied.swipes(client)
    assert [swipe["narration"] for swipe in swipes] == [client.narration(0), ""]
    seen = [receipt.to_dict()["now"] for receipt in starting_game().apply_reply(SEEN).receipts]
    assert [ticks(swipe) for swipe in swipes] == [seen, []]


@pytest.mark.parametrize("path", [CHAT, MESSAGES])
def test_a_client_that_leaves_after_any_body_has_the_reply_stored_as_far_as_it_got_it(
    proxied: Proxied, path: str
) -> None:
    pieces = [SEEN, IN_FLIGHT, *pieces_of(AFTER)]
    whole = proxied.stopped(path, pieces)
    assert not whole.gone
    for after in range(1, len(whole.bodies)):
        client = proxied.stopped(path, pieces, after)
        if not client.gone:  # the reads came together this time: fewer bodies, all of them got
            assert len(client.bodies) <= after and client.narration() == whole.narration()
            continue
        swipe = proxied.stored(client)
        if swipe is None:  # nothing of the reply had come: nothing to keep
            assert client.narration() == "", after
            continue
        assert_stored_as_sent(swipe, client)


@pytest.mark.parametrize("path", [CHAT, MESSAGES])
def test_a_reply_cut_at_the_cap_in_a_batch_the_client_never_got_is_not_kept(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, path: str
) -> None:
    cap = len(SEEN) + 20  # inside the batch in the worker, after its tag
    options = {**ANTHROPIC, "max_reply": cap}
    with proxy_app_for(tmp_path / "c.db", monkeypatch, Either(), **options) as (app, upstream):
        proxied = Proxied(tmp_path / "c.db", app, upstream)
        monkeypatch.setattr(streaming, "_taken", worked_while_leaving(proxied))
        client = proxied.stopped(path, [SEEN, IN_FLIGHT + AFTER])
        swipe = proxied.stored(client)
    assert swipe is not None
    assert swipe["narration"] == client.narration() == "Bells. The guard turns."
    assert_stored_as_sent(swipe, client)


# Either branch may come (the game's dice are not seeded): each about as often as the other.
CHECK = 'I try. [skill_check: skill="Prowl" dc="1"] [success: Open.] [failure: Jams.] Quietly. '
ANOTHER = '[skill_check: skill="Prowl" dc="1"] [success: In.] [failure: Out.] Done.'


@pytest.mark.parametrize("path", [CHAT, MESSAGES])
def test_a_check_the_client_saw_the_outcome_of_keeps_its_roll_when_a_batch_is_not_kept(
    proxied: Proxied, monkeypatch: pytest.MonkeyPatch, path: str
) -> None:
    monkeypatch.setattr(streaming, "_taken", worked_while_leaving(proxied))
    for _ in range(16):  # read again with other dice, a stored reply would differ in 4 of 10
        client = proxied.stopped(path, [CHECK, ANOTHER])
        got = client.narration()
        assert got in ("I try. Open. Quietly.", "I try. Jams. Quietly.")
        swipe = proxied.stored(client)
        assert swipe is not None
        assert swipe["narration"] == got  # read again, the reply rolled what the client saw
        assert [receipt["family"] for receipt in swipe["receipts"]] == ["skill_check"]


# A check whose branches the stream holds back until it sees both, between narration shown.
RUNS_ON = "Mira sprints along the beam toward the rope. "
BRANCH_START = '[skill_check: skill="Prowl" dc="1"] [success: She reaches it before the fir'
BRANCH_REST = (
    "st bluecoat looks up.] [failure: A bluecoat spots her.] The rope sways. They are out."
)
# The event that gives "...toward the rope." brings the check and the start of its branch too.
HELD = [RUNS_ON + BRANCH_START, *pieces_of(BRANCH_REST)]


def read_again_whole(swipe: dict[str, Any]) -> str:
    """The narration of a stored swipe's text applied again whole, throwing its faces (as a
    retell on a new line, or a continue joined onto it, reads it)."""
    return applied_again(starting_game(), swipe["text"], swipe["thrown"]).narration


@pytest.mark.parametrize("path", [CHAT, MESSAGES])
def test_a_reply_stopped_while_a_branch_is_held_back_keeps_no_text_the_client_was_not_given(
    proxied: Proxied, path: str
) -> None:
    """Stopped after any body: the stored text, read again whole, narrates what the client got
    (issue #29: stopped inside a held-back branch, it kept `[success: She reaches it before
    the fir`, which a continue joined onto and a retell showed)."""
    whole = proxied.stopped(path, HELD)
    inside = 0
    for after in range(1, len(whole.bodies)):
        client = proxied.stopped(path, HELD, after)
        swipe = proxied.stored(client)
        if not client.gone or swipe is None:
            continue
        assert swipe["narration"] == client.narration(), after
        assert read_again_whole(swipe).split() == client.narration().split(), after
        if swipe["receipts"] and "bluecoat" not in client.narration():
            inside += 1  # the check applied, its branches not shown
    assert inside  # a stop fell where the check had closed and its branches were held back


# A reply whose tag the deletion takes away: the replies after it are read again, on a new line.
GROANS = f'It groans. [clock: name="{CLOCK}" tick="1"]'


def said_to(proxied: Proxied, path: str, messages: list[dict[str, str]], reply: str) -> str:
    """A streamed request, as SillyTavern sends it (no chat named), answered with `reply`; the
    narration the client got."""
    if path == CHAT:
        proxied.upstream.script({"reply": reply, "chunk": 6})
        body = {"model": "m", "messages": messages}
        return inprocess.narration(inprocess.streamed(proxied.client, body))
    answer = anthropic.streamed((anthropic.text_block(""), pieces_of(reply)))
    proxied.upstream.messages.queue.append(answer)
    return anthropic.shown(anthropic.events(proxied.client, messages))


def stored_lines(db: Path) -> dict[str, list[str]]:
    """Each line's replies' narrations, as stored."""
    store = open_store(str(db))
    try:
        return {
            line: [
                m.swipes[m.selected]["narration"]
                for m in store.load(line).messages
                if m.role == "reply"
            ]
            for line in store.chat_ids()
        }
    finally:
        store.close()


@pytest.mark.parametrize("path", [CHAT, MESSAGES])
def test_a_reply_stopped_inside_a_branch_then_continued_reads_again_as_the_client_shows_it(
    proxied: Proxied, path: str
) -> None:
    """SillyTavern's session (issue #29): a reply stopped while its check's branch was held
    back, continued, then read again on a new line (an exchange before it deleted). The line
    stores it as the client shows it, and the player's next messages go on that line (before:
    `...toward the rope. [success: She reaches it before the firShe grabs the rope.`, which
    matched nothing the client showed, so every later message started a line of its own)."""
    greeting = {"role": "assistant", "content": "Rain hammers the slate roofs. What now?"}
    first = [greeting, {"role": "user", "content": "We go in through the skylight."}]
    first.append({"role": "assistant", "content": said_to(proxied, path, first, GROANS)})
    go = {"role": "user", "content": "Mira, go! Up the rope!"}
    for after in range(1, 6):  # the client leaves once it got the first words
        stopped = proxied.stopped(path, HELD, after, said=[*first, go])
        if stopped.narration():
            break
    assert stopped.gone and stopped.narration() == RUNS_ON.strip()
    shown = {"role": "assistant", "content": stopped.narration()}
    more = said_to(proxied, path, [*first, go, shown], "She grabs the rope and climbs.")
    joined = {"role": "assistant", "content": f"{stopped.narration()} {more.strip()}"}
    # The first exchange deleted: the reply is read again on a new line.
    story = [greeting, go, joined]
    for step in range(3):
        story.append({"role": "user", "content": f"We run on ({step})."})
        story.append({"role": "assistant", "content": said_to(proxied, path, story, "On.")})
    lines = stored_lines(proxied.db)
    key = min(lines)
    assert sorted(lines) == [key, f"{key}:2"]  # the one the deletion started; none a message
    assert [reply.split() for reply in lines[f"{key}:2"]] == [
        message["content"].split() for message in story if message["role"] == "assistant"
    ]
