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
from collections.abc import Mapping, Sequence
from typing import Any

from ..game import Game
from ..stream import ReplyStream
from .clients import Answer
from .streaming import Relay, event_json
from .turns import AnswerTurn, fed_within


def _rests(streams: Sequence[ReplyStream[Game]]) -> list[str]:
    return [stream.finish()[0] for stream in streams]


class _Reading:
    """One streamed answer's lines read into the events the client gets: the chunk checked, its
    content fed to its stream, the narration written out. It runs in a worker thread
    (`streaming.Relay`), so the event loop only relays bytes (a chunk's tags can cost a
    Lark pass, the end a rewrite of the whole reply)."""

    def __init__(self, streams: Sequence[ReplyStream[Game]], cap: int, opening: str) -> None:
        self.streams, self.cap = streams, cap
        self.last: dict[str, Any] = {}
        self.finishes: dict[int, str] = {}
        self.after: list[dict[str, Any]] = []  # chunks without choices (usage), for the end
        self.done = False  # `[DONE]` came, or the reply was cut: nothing more is read
        self.broken = False  # an error event ends the stream, and changes no game
        self.cut = False
        self.opening = opening
        self.opened: set[int] = set()  # the choices whose narration began to go out

    def shown(self, index: int, piece: str) -> str:
        """A piece of choice `index`'s narration as the client gets it: the first one after
        the turn's opening."""
        if not piece or index in self.opened:
            return piece
        self.opened.add(index)
        return self.opening + piece

    def take(self, lines: list[str]) -> list[str]:
        events: list[str] = []
        for line in lines:
            if self.done or self.broken:
                break
            events += self._read(line)
        return events

    def _read(self, line: str) -> list[str]:
        if not line.startswith("data:"):
            return []
        data = line[5:].strip()
        if data == "[DONE]":
            self.done = True
            return []
        chunk = _chunk(data)
        problem = "the upstream sent a chunk that is not JSON" if chunk is None else None
        problem = problem or _shape_problem(chunk or {}, len(self.streams))
        if chunk is None or problem is not None or "error" in chunk:
            self.broken = True
            return [_sse(chunk if chunk and "error" in chunk else _broken(problem or ""))]
        if not chunk.get("choices"):
            self.after.append(chunk)  # usage: after the last content chunk
            return []
        self.last = chunk
        shown = []
        for choice in chunk["choices"]:
            index = choice.get("index", 0)
            delta = dict(choice.get("delta") or {})
            content = delta.pop("content", None)
            if choice.get("finish_reason"):
                self.finishes[index] = choice["finish_reason"]
            fed, over = fed_within(self.streams[index], content or "", self.cap)
            piece = self.shown(index, fed)
            if piece:
                delta["content"] = piece
            if delta:
                shown.append({**choice, "delta": delta, "finish_reason": None})
            self.cut = self.cut or over
        self.done = self.cut
        return [_sse({**chunk, "choices": shown})] if shown else []


def events(answer: Answer, turn: AnswerTurn, cap: int) -> Relay:
    """The upstream's stream as the client reads it, then `[DONE]` (`streaming.Relay`)."""
    reading = _Reading(turn.streams, cap, turn.opening)
    return Relay(
        answer,
        turn,
        reading,
        lambda: _end(reading, turn),
        lambda message: _sse(_broken(message)),
        "the upstream stream ended without [DONE]",
    )


def _end(reading: _Reading, turn: AnswerTurn) -> list[str]:
    """The last chunks: each choice's rest of the narration, `gm_tags` on the last, the chunks
    without choices, `[DONE]`; the turn written."""
    cut = reading.cut
    rests = [""] * len(turn.streams) if cut else _rests(turn.streams)
    turn.land(cut)
    events = []
    for index, rest in enumerate(rests):
        rest = reading.shown(index, rest) + turn.shown_after(index)
        finish = "length" if cut else reading.finishes.get(index, "stop")
        choice = {"index": index, "delta": {"content": rest} if rest else {}}
        final = {**reading.last, "choices": [{**choice, "finish_reason": finish}]}
        if index == len(rests) - 1:
            final["gm_tags"] = turn.summary(cut)
        events.append(_sse(final))
    return [*events, *(_sse(chunk) for chunk in reading.after), "data: [DONE]\n\n"]


def completed(completion: Any, turn: AnswerTurn, cap: int) -> dict[str, Any] | None:
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
    turn.land(stopped)
    for index, choice in enumerate(choices[: len(turn.streams)]):
        narration = turn.narration(index)
        if narration is None:
            continue  # nothing written: the completion goes as it came
        narration = (turn.opening if narration else "") + narration + turn.shown_after(index)
        choice["message"]["content"] = narration
        if stopped:
            choice["finish_reason"] = "length"
    completion["gm_tags"] = turn.summary(stopped)
    return completion


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
    return f"data: {event_json(chunk)}\n\n"
