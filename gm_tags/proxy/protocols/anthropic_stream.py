"""An Anthropic Messages answer relayed to the client: its text blocks as narration (each tag
applied as it closes, when streaming), every other block as it is, and `gm_tags` on the
`message_delta` event (or on the whole message).

A stream's events keep their order. The text of all the text blocks is one reply, held back
exactly as chat chunks are (`gm_tags.stream`): a text delta carries the narration that became
safe to show, and none when nothing did. A text block's `content_block_stop` waits for the next
block to start, or for the end, so the narration still held at the end goes into the last text
block (into a text block of its own after the others, when a tool call came last). Tool-use,
thinking and any other blocks, `ping`s and events the proxy does not know pass untouched. The
`message_delta` waits for `message_stop`: only then is the reply complete, the turn written, and
its receipts known.

An event that is not JSON, has the wrong shape, is an `error` event, or text for a block that is
not a text block ends the stream with an Anthropic `error` event and changes no game; so does a
stream that ends without `message_stop`. A reply longer than the cap is cut there: the turn is
kept as far as it was shown, and the message ends with `stop_reason: "max_tokens"`.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from ...game import Game
from ...stream import ReplyStream
from ..clients import Answer
from ..streaming import Relay, event_json
from ..turns import AnswerTurn, fed_within


class _Reading:
    """One streamed answer's lines read into the events the client gets. It runs in a worker
    thread, a network read's lines at a time, so the event loop only relays bytes."""

    def __init__(self, stream: ReplyStream[Game], cap: int, opening: str = "") -> None:
        self.stream, self.cap = stream, cap
        self.opening = opening  # what the narration starts with (`transcript.opening`)
        self.text_blocks: set[int] = set()
        self.last_block = -1
        self.open_text: int | None = None  # a text block started and not stopped
        # Events held from a text block's stop or the message_delta on, in order.
        self.held: list[dict[str, Any]] = []
        self.output_tokens = 0
        self.done = False  # message_stop came, or the reply was cut
        self.broken = False
        self.cut = False
        self._data: list[str] = []

    def take(self, lines: list[str]) -> list[str]:
        events: list[str] = []
        for line in lines:
            if self.done or self.broken:
                break
            if line.startswith("data:"):
                self._data.append(line[5:].removeprefix(" "))
            elif not line and self._data:
                data, self._data = "\n".join(self._data), []
                events += self._event(data)
        return events

    def _event(self, data: str) -> list[str]:
        event = _parsed(data)
        problem = "the upstream sent an event that is not JSON" if event is None else None
        problem = problem or _shape_problem(event or {}, self.text_blocks)
        if event is None or problem is not None or event["type"] == "error":
            self.broken = True
            return [sse(event if event and event.get("type") == "error" else broken(problem))]
        kind = event["type"]
        if kind == "content_block_start":
            return self._start(event)
        if kind == "content_block_delta" and event["index"] in self.text_blocks:
            return self._text(event)
        if kind == "content_block_stop" and event["index"] in self.text_blocks:
            self.open_text = None
            return self._hold(event)
        if kind == "message_start":
            usage = (event.get("message") or {}).get("usage") or {}
            self.output_tokens = _count(usage.get("output_tokens"))
        if kind == "message_delta":
            self.output_tokens = _count((event.get("usage") or {}).get("output_tokens"))
            return self._hold(event)
        if kind == "message_stop":
            self.done = True
            return []
        return self._hold(event) if self.held else [sse(event)]

    def _hold(self, event: dict[str, Any]) -> list[str]:
        self.held.append(event)
        return []

    def _start(self, event: dict[str, Any]) -> list[str]:
        index, block = event["index"], event["content_block"]
        shown = [sse(one) for one in self.held]
        self.held = []
        self.last_block = max(self.last_block, index)
        if block["type"] == "text":
            self.text_blocks.add(index)
            self.open_text = index
            piece = self.shown(self._fed(block.get("text") or ""))
            event = {**event, "content_block": {**block, "text": piece}}
        return [*shown, sse(event)]

    def _text(self, event: dict[str, Any]) -> list[str]:
        delta = event["delta"]
        if delta["type"] != "text_delta":
            return [sse(event)]  # citations and the like: not the reply's text
        piece = self.shown(self._fed(delta["text"]))
        return [sse({**event, "delta": {**delta, "text": piece}})] if piece else []

    def _fed(self, text: str) -> str:
        """`text` fed to the reply as far as the cap; past it, the reply is cut and done."""
        fed, over = fed_within(self.stream, text, self.cap)
        self.cut = self.done = over
        return fed

    def shown(self, piece: str) -> str:
        """A piece of the narration as the client gets it: the first one after the opening."""
        if not piece or not self.opening:
            return piece
        opening, self.opening = self.opening, ""
        return opening + piece

    def ending(self, rest: str, summary: dict[str, Any]) -> list[str]:
        """The events after the last one read: the rest of the narration in the last text
        block, the held events, the `message_delta` with `summary` as `gm_tags`, and
        `message_stop`."""
        closing: list[dict[str, Any]] = []
        if self.open_text is not None:  # cut inside a text block
            closing.append({"type": "content_block_stop", "index": self.open_text})
        held = [*closing, *self.held]
        ending: list[dict[str, Any]] = []
        if rest and held and held[0]["type"] == "content_block_stop":
            ending.append(_text_delta(held[0]["index"], rest))
        elif rest:
            index = self.last_block + 1
            ending += [
                {"type": "content_block_start", "index": index, "content_block": _block("")},
                _text_delta(index, rest),
                {"type": "content_block_stop", "index": index},
            ]
        delta = next((one for one in held if one["type"] == "message_delta"), None)
        if delta is None or self.cut:
            held = [one for one in held if one["type"] != "message_delta"]
            reason = "max_tokens" if self.cut else "end_turn"
            delta = {
                "type": "message_delta",
                "delta": {"stop_reason": reason, "stop_sequence": None},
                "usage": {"output_tokens": self.output_tokens},
            }
            held.append(delta)
        ending += [{**one, "gm_tags": summary} if one is delta else one for one in held]
        ending.append({"type": "message_stop"})
        return [sse(one) for one in ending]


def events(answer: Answer, turn: AnswerTurn, cap: int) -> Relay:
    """The upstream's stream as the client reads it (`streaming.Relay`)."""
    reading = _Reading(turn.streams[0], cap, turn.opening)
    return Relay(
        answer,
        turn,
        reading,
        lambda: _end(reading, turn),
        lambda message: sse(broken(message)),
        "the upstream stream ended without message_stop",
    )


def _end(reading: _Reading, turn: AnswerTurn) -> list[str]:
    """The last events, the turn written."""
    rest = "" if reading.cut else reading.shown(reading.stream.finish()[0])
    turn.land(reading.cut)
    return reading.ending(rest + turn.shown_after(0), turn.summary(reading.cut))


def whole_message(message: Any, turn: AnswerTurn, cap: int) -> dict[str, Any] | None:
    """A whole message as the client reads it (its text blocks' narration in the first text
    block, the other text blocks gone), the turn written, `gm_tags` added; None when it does
    not have a message's shape."""
    if not isinstance(message, dict) or not isinstance(message.get("content"), list):
        return None
    content = message["content"]
    if not all(isinstance(block, dict) and isinstance(block.get("type"), str) for block in content):
        return None
    texts = [block for block in content if block["type"] == "text"]
    if not all(isinstance(block.get("text"), str) for block in texts):
        return None
    reply = "".join(block["text"] for block in texts)
    stopped = len(reply) > cap
    if reply:
        turn.streams[0].feed(reply[:cap])
    turn.land(stopped)
    narration = turn.narration(0)
    if narration is not None:
        narration = (turn.opening if narration else "") + narration + turn.shown_after(0)
        first = texts[0]
        message["content"] = [
            {**block, "text": narration} if block is first else block
            for block in content
            if block["type"] != "text" or block is first
        ]
        if stopped:
            message["stop_reason"] = "max_tokens"
    message["gm_tags"] = turn.summary(stopped)
    return message


def _shape_problem(event: Mapping[str, Any], text_blocks: set[int]) -> str | None:
    """What is wrong with an event's shape, or None (an event the proxy does not know is
    taken as it is)."""
    kind = event.get("type")
    if not isinstance(kind, str):
        return "the upstream sent an event without a type"
    if kind not in ("content_block_start", "content_block_delta", "content_block_stop"):
        return None
    index = event.get("index")
    if isinstance(index, bool) or not isinstance(index, int) or index < 0:
        return f"the upstream sent a {kind} with index {index!r}"
    part = event.get("content_block" if kind == "content_block_start" else "delta")
    if kind == "content_block_stop":
        return None
    if not isinstance(part, dict) or not isinstance(part.get("type"), str):
        return f"the upstream sent a {kind} whose block or delta has no type"
    if part["type"] in ("text", "text_delta") and not isinstance(part.get("text", ""), str):
        return "the upstream sent text that is not text"
    if part["type"] == "text_delta" and index not in text_blocks:
        return f"the upstream sent text for block {index}, which is not a text block"
    return None


def _text_delta(index: int, text: str) -> dict[str, Any]:
    return {
        "type": "content_block_delta",
        "index": index,
        "delta": {"type": "text_delta", "text": text},
    }


def _block(text: str) -> dict[str, Any]:
    return {"type": "text", "text": text}


def _count(value: object) -> int:
    return value if isinstance(value, int) and not isinstance(value, bool) else 0


def _parsed(data: str) -> dict[str, Any] | None:
    try:
        event = json.loads(data)
    except json.JSONDecodeError:
        return None
    return event if isinstance(event, dict) else None


def broken(message: str | None) -> dict[str, Any]:
    """An `error` event's data: the stream broke off."""
    return {"type": "error", "error": {"type": "api_error", "message": message or ""}}


def sse(event: Mapping[str, Any]) -> str:
    """An event as Anthropic streams it: its type as the event's name, then its data."""
    return f"event: {event.get('type')}\ndata: {event_json(event)}\n\n"
