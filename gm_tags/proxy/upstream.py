"""Where the proxy sends a request on: any OpenAI- or Anthropic-compatible base URL, or
`replay:SESSION.jsonl`, which answers from a recorded session's replies so the middleware can be
tried with no model (chat completions and Anthropic Messages alike).

A base URL is asked through aiohttp; the replay is an httpx2 transport that answers in the
protocol's own shapes, streamed in small chunks (`gm_tags.proxy.clients` says why each).
"""

from __future__ import annotations

import asyncio
import itertools
import json
import time
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import Any

import httpx2

from ..errors import SourceError
from ..replay import read_session
from .clients import AiohttpClient, HttpxClient, UpstreamClient

REPLAY = "replay:"
REPLAY_BASE = "http://replay.invalid/v1/"
# The replay streams a reply in pieces of this many characters, as a model streams tokens.
REPLAY_CHUNK = 7
REPLAY_MODEL = "gm-tags-replay"


def upstream_client(upstream: str, timeout: float) -> UpstreamClient:
    """A client for `upstream`: a base URL (`http://127.0.0.1:8080/v1`), asked through aiohttp,
    or `replay:PATH`, answered in-process through httpx2 (`gm_tags.proxy.clients`)."""
    connect = min(timeout, 10.0)
    if upstream.startswith(REPLAY):
        replies = session_replies(Path(upstream[len(REPLAY) :]))
        limits = httpx2.Timeout(timeout, connect=connect)
        transport = ReplayTransport(replies)
        return HttpxClient(
            httpx2.AsyncClient(base_url=REPLAY_BASE, transport=transport, timeout=limits)
        )
    return AiohttpClient(upstream, connect=connect, read=timeout)


def session_replies(path: Path) -> list[str]:
    """The replies of a recorded session (`gm-tags replay`'s JSONL), in order: every reply,
    regenerated reply and continuation."""
    _, steps = read_session(path)
    replies = [
        step[key]
        for _, step in steps
        for key in ("reply", "regenerate", "continue")
        if isinstance(step.get(key), str)
    ]
    if not replies:
        raise SourceError(f"{path}: the session has no replies to answer with")
    return replies


class ReplayTransport(httpx2.AsyncBaseTransport):
    """Answers `POST chat/completions` and `POST messages` with the session's next reply (after
    the last, the first again), streamed when asked, and `GET models` with one model."""

    def __init__(self, replies: list[str]) -> None:
        self._replies: Iterator[str] = itertools.cycle(replies)
        self._served = itertools.count(1)

    async def handle_async_request(self, request: httpx2.Request) -> httpx2.Response:
        path = request.url.path
        if request.method == "GET" and path.endswith("/models"):
            model = {"id": REPLAY_MODEL, "object": "model", "created": 0, "owned_by": "gm-tags"}
            return httpx2.Response(200, json={"object": "list", "data": [model]})
        messages = path.endswith("/messages")
        if request.method != "POST" or not (messages or path.endswith("/chat/completions")):
            return httpx2.Response(404, json=_error("no such endpoint in the replay", 404))
        body = json.loads(await request.aread())
        reply = next(self._replies)
        if messages:
            return _message(reply, f"msg_replay_{next(self._served)}", bool(body.get("stream")))
        ident = f"chatcmpl-replay-{next(self._served)}"
        created = int(time.time())
        if body.get("stream"):
            return httpx2.Response(
                200,
                headers={"content-type": "text/event-stream"},
                content=_streamed(reply, ident, created),
            )
        message = {"role": "assistant", "content": reply}
        completion = {
            "id": ident,
            "object": "chat.completion",
            "created": created,
            "model": REPLAY_MODEL,
            "choices": [{"index": 0, "message": message, "finish_reason": "stop"}],
        }
        return httpx2.Response(200, json=completion)


async def _streamed(reply: str, ident: str, created: int) -> AsyncIterator[bytes]:
    def event(delta: dict[str, Any], finish: str | None = None) -> bytes:
        chunk = {
            "id": ident,
            "object": "chat.completion.chunk",
            "created": created,
            "model": REPLAY_MODEL,
            "choices": [{"index": 0, "delta": delta, "finish_reason": finish}],
        }
        return f"data: {json.dumps(chunk, ensure_ascii=False)}\n\n".encode()

    yield event({"role": "assistant", "content": ""})
    for at in range(0, len(reply), REPLAY_CHUNK):
        await asyncio.sleep(0)
        yield event({"content": reply[at : at + REPLAY_CHUNK]})
    yield event({}, "stop")
    yield b"data: [DONE]\n\n"


def _message(reply: str, ident: str, stream: bool) -> httpx2.Response:
    """An Anthropic Messages answer: the reply as one text block, or its events."""
    message: dict[str, Any] = {
        "id": ident,
        "type": "message",
        "role": "assistant",
        "model": REPLAY_MODEL,
        "content": [],
        "stop_reason": None,
        "stop_sequence": None,
        "usage": {"input_tokens": 0, "output_tokens": 0},
    }
    if not stream:
        whole = {**message, "content": [{"type": "text", "text": reply}], "stop_reason": "end_turn"}
        return httpx2.Response(200, json=whole)
    pieces = [reply[at : at + REPLAY_CHUNK] for at in range(0, len(reply), REPLAY_CHUNK)]
    deltas = [{"type": "text_delta", "text": piece} for piece in pieces]
    stop = {"stop_reason": "end_turn", "stop_sequence": None}
    events: list[dict[str, Any]] = [
        {"type": "message_start", "message": message},
        {"type": "content_block_start", "index": 0, "content_block": {"type": "text", "text": ""}},
        *({"type": "content_block_delta", "index": 0, "delta": delta} for delta in deltas),
        {"type": "content_block_stop", "index": 0},
        {"type": "message_delta", "delta": stop, "usage": {"output_tokens": 0}},
        {"type": "message_stop"},
    ]
    return httpx2.Response(
        200, headers={"content-type": "text/event-stream"}, content=_events(events)
    )


async def _events(events: list[dict[str, Any]]) -> AsyncIterator[bytes]:
    for event in events:
        await asyncio.sleep(0)
        data = json.dumps(event, ensure_ascii=False)
        yield f"event: {event['type']}\ndata: {data}\n\n".encode()


def _error(message: str, status: int) -> dict[str, Any]:
    return {"error": {"message": message, "type": "invalid_request_error", "code": status}}
