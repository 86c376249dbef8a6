"""The upstream's answer, relayed to the client: narration for content (each tag applied as it
closes, when streaming), one swipe per choice, the turn written once, and `gm_tags` on the last
choice-bearing chunk (or on the completion).

A stream's chunks are checked as they come: one that is not JSON, is an error, or has the wrong
shape (`choices` not a list, a choice that is not an object, a `delta` that is not one, content
that is not text, an `index` past the choices asked for) ends the stream with an OpenAI-shaped
error event and changes no game. Chunks without choices (the usage chunk
`stream_options.include_usage` asks for) come after the last content chunk, as they are. A
reply longer than the cap is cut there: the turn is kept as far as it was shown, and the choice
ends with `finish_reason: "length"`.
"""

from __future__ import annotations

import json
import threading
from collections.abc import AsyncIterator, Mapping, Sequence
from typing import Any

import anyio
import anyio.lowlevel
import httpx2

from ..game import Game
from ..pipeline import Turn
from ..stream import ReplyStream
from .chats import Landed, ProxyChats, not_stored
from .outcomes import outcomes_line
from .plan import Plan
from .transcript import Said


class PendingTurn:
    """One request's turn: written once, whether its replies finished or were cut off."""

    def __init__(
        self,
        chats: ProxyChats,
        named: str | None,
        said: Sequence[Said],
        plan: Plan,
        *,
        choices: int = 1,
        show_outcomes: bool = False,
    ) -> None:
        self.chats, self.named, self.said, self.plan = chats, named, said, plan
        self.show_outcomes = show_outcomes
        continues = plan.action == "continue"
        self.streams = [plan.game.stream(continues=continues) for _ in range(choices)]
        self._lock = threading.Lock()
        self.landed: Landed | None = None
        self.written = False

    def land(self, stopped: bool) -> Landed | None:
        """Write the replies as far as they came (None when none holds any text: a tool call)."""
        with self._lock:
            if not self.written:
                self.written = True
                if any(stream.text for stream in self.streams):
                    replies = [(s.text, _turn_of(s, stopped)) for s in self.streams]
                    self.landed = self.chats.land(self.named, self.said, self.plan, replies)
            return self.landed

    def summary(self, stopped: bool) -> dict[str, Any]:
        if self.landed is None:
            return not_stored(self.plan.action, "the reply holds no text to apply")
        return self.landed.summary(stopped=stopped)

    def shown_after(self, index: int) -> str:
        """The outcomes line for choice `index` (`--show-outcomes`), or ""."""
        if not self.show_outcomes or self.landed is None:
            return ""
        turn = self.landed.turns[index]
        return outcomes_line(receipt.to_dict() for receipt in turn.receipts)


def _rests(streams: Sequence[ReplyStream[Game]]) -> list[str]:
    return [stream.finish()[0] for stream in streams]


def _turn_of(stream: ReplyStream[Game], stopped: bool) -> Turn[Game]:
    turn = stream.stop() if stopped else stream.finish()[1]
    return turn


async def events(answer: httpx2.Response, turn: PendingTurn, cap: int) -> AsyncIterator[str]:
    """The upstream's stream as the client reads it, then `[DONE]`. A reply the client stops
    reading is written as far as it was given out; one the upstream breaks off changes
    nothing."""
    streams = turn.streams
    last: dict[str, Any] = {}
    finishes: dict[int, str] = {}
    after: list[dict[str, Any]] = []
    ended = cut = False
    try:
        async for line in answer.aiter_lines():
            if not line.startswith("data:"):
                continue
            data = line[5:].strip()
            if data == "[DONE]":
                break
            chunk = _chunk(data)
            problem = "the upstream sent a chunk that is not JSON" if chunk is None else None
            problem = problem or _shape_problem(chunk or {}, len(streams))
            if chunk is None or problem is not None or "error" in chunk:
                ended = True
                yield _sse(chunk if chunk and "error" in chunk else _broken(problem or ""))
                return
            if not chunk.get("choices"):
                after.append(chunk)  # usage: after the last content chunk
                continue
            last = chunk
            shown = []
            for choice in chunk["choices"]:
                index = choice.get("index", 0)
                delta = dict(choice.get("delta") or {})
                content = delta.pop("content", None)
                if choice.get("finish_reason"):
                    finishes[index] = choice["finish_reason"]
                piece = streams[index].feed(content) if content else ""
                if piece:
                    delta["content"] = piece
                if delta:
                    shown.append({**choice, "delta": delta, "finish_reason": None})
                cut = cut or len(streams[index].text) > cap
            if shown:
                yield _sse({**chunk, "choices": shown})
            if cut:
                break
            # Lines read ahead come without a wait: let the loop serve others between chunks,
            # so a long reply never holds it longer than one chunk's work.
            await anyio.lowlevel.checkpoint()
        else:
            ended = True
            yield _sse(_broken("the upstream stream ended without [DONE]"))
            return
        # The end (the tags still waiting, the whole reply rewritten) and the write: off the loop.
        rests = [""] * len(streams) if cut else await anyio.to_thread.run_sync(_rests, streams)
        await anyio.to_thread.run_sync(turn.land, cut)
        for index, rest in enumerate(rests):
            rest += turn.shown_after(index)
            finish = "length" if cut else finishes.get(index, "stop")
            choice = {"index": index, "delta": {"content": rest} if rest else {}}
            final = {**last, "choices": [{**choice, "finish_reason": finish}]}
            if index == len(rests) - 1:
                final["gm_tags"] = turn.summary(cut)
            yield _sse(final)
        for chunk in after:
            yield _sse(chunk)
        yield "data: [DONE]\n\n"
        ended = True
    except httpx2.HTTPError as failure:
        ended = True
        yield _sse(_broken(f"the upstream failed mid-stream: {type(failure).__name__}"))
    finally:
        if not ended:
            turn.land(True)  # the client went away: keep what it saw
        with anyio.CancelScope(shield=True):
            await answer.aclose()


def completed(completion: Any, turn: PendingTurn, cap: int) -> dict[str, Any] | None:
    """A whole completion as the client reads it (each choice's content its narration), the
    turn written; None when it does not have a completion's shape."""
    if not isinstance(completion, dict) or not isinstance(completion.get("choices"), list):
        return None
    choices = completion["choices"]
    if not choices or not all(
        isinstance(c, dict) and isinstance(c.get("message"), dict) for c in choices
    ):
        return None
    contents = [choice["message"].get("content") for choice in choices[: len(turn.streams)]]
    stopped = False
    for stream, content in zip(turn.streams, contents, strict=False):
        if isinstance(content, str):
            stopped = stopped or len(content) > cap
            stream.feed(content[:cap])
    landed = turn.land(stopped)
    if landed is not None:
        for index, choice in enumerate(choices[: len(landed.turns)]):
            narration = landed.turns[index].narration + turn.shown_after(index)
            choice["message"]["content"] = narration
            if stopped:
                choice["finish_reason"] = "length"
    completion["gm_tags"] = turn.summary(stopped)
    return completion


async def relayed(answer: httpx2.Response, summary: dict[str, Any]) -> AsyncIterator[str]:
    """The upstream's stream passed through as it is, with `summary` as `gm_tags` on the last
    choice-bearing chunk (a request the proxy takes no turn from)."""
    held: dict[str, Any] | None = None
    after: list[str] = []
    try:
        async for line in answer.aiter_lines():
            if not line.startswith("data:"):
                continue
            data = line[5:].strip()
            chunk = _chunk(data) if data != "[DONE]" else None
            if chunk is not None and isinstance(chunk.get("choices"), list) and chunk["choices"]:
                if held is not None:
                    yield _sse(held)
                held = chunk
            elif data == "[DONE]":
                break
            else:
                after.append(f"data: {data}\n\n")
        if held is not None:
            yield _sse({**held, "gm_tags": summary})
        for line in after:
            yield line
        yield "data: [DONE]\n\n"
    except httpx2.HTTPError as failure:
        yield _sse(_broken(f"the upstream failed mid-stream: {type(failure).__name__}"))
    finally:
        with anyio.CancelScope(shield=True):
            await answer.aclose()


def _shape_problem(chunk: Mapping[str, Any], choices: int) -> str | None:
    """What is wrong with a chunk's shape, or None."""
    if "error" in chunk:
        return None
    listed = chunk.get("choices")
    if listed is None:
        return None
    if not isinstance(listed, list):
        return "the upstream sent a chunk whose choices are not a list"
    for choice in listed:
        if not isinstance(choice, dict):
            return "the upstream sent a choice that is not an object"
        index = choice.get("index", 0)
        if isinstance(index, bool) or not isinstance(index, int) or not 0 <= index < choices:
            return f"the upstream sent a choice with index {index!r} of {choices}"
        delta = choice.get("delta")
        if delta is not None and not isinstance(delta, dict):
            return "the upstream sent a delta that is not an object"
        if delta and not isinstance(delta.get("content"), str | None):
            return "the upstream sent content that is not text"
        if not isinstance(choice.get("finish_reason"), str | None):
            return "the upstream sent a finish reason that is not text"
    return None


def _chunk(data: str) -> dict[str, Any] | None:
    try:
        chunk = json.loads(data)
    except json.JSONDecodeError:
        return None
    return chunk if isinstance(chunk, dict) else None


def _broken(message: str) -> dict[str, Any]:
    return {"error": {"message": message, "type": "upstream_error", "param": None, "code": None}}


def _sse(chunk: Mapping[str, Any]) -> str:
    return f"data: {json.dumps(chunk, ensure_ascii=False)}\n\n"
