"""Where the proxy sends a request on: any OpenAI-compatible base URL, or `replay:SESSION.jsonl`,
which answers from a recorded session's replies so the middleware can be tried with no model.

Both are an `httpx2.AsyncClient` (the HTTP client the official `openai` package is built on);
the replay is a transport that answers in the protocol's own shapes, streamed in small chunks.
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

REPLAY = "replay:"
REPLAY_BASE = "http://replay.invalid/v1/"
# The replay streams a reply in pieces of this many characters, as a model streams tokens.
REPLAY_CHUNK = 7
REPLAY_MODEL = "gm-tags-replay"


def upstream_client(upstream: str, timeout: float) -> httpx2.AsyncClient:
    """A client for `upstream`: a base URL (`http://127.0.0.1:8080/v1`) or `replay:PATH`."""
    limits = httpx2.Timeout(timeout, connect=min(timeout, 10.0))
    if upstream.startswith(REPLAY):
        replies = session_replies(Path(upstream[len(REPLAY) :]))
        return httpx2.AsyncClient(
            base_url=REPLAY_BASE, transport=ReplayTransport(replies), timeout=limits
        )
    return httpx2.AsyncClient(base_url=upstream.rstrip("/") + "/", timeout=limits)


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
    """Answers `POST chat/completions` with the session's next reply (after the last, the first
    again), streamed when asked, and `GET models` with one model."""

    def __init__(self, replies: list[str]) -> None:
        self._replies: Iterator[str] = itertools.cycle(replies)
        self._served = itertools.count(1)

    async def handle_async_request(self, request: httpx2.Request) -> httpx2.Response:
        path = request.url.path
        if request.method == "GET" and path.endswith("/models"):
            model = {"id": REPLAY_MODEL, "object": "model", "created": 0, "owned_by": "gm-tags"}
            return httpx2.Response(200, json={"object": "list", "data": [model]})
        if request.method != "POST" or not path.endswith("/chat/completions"):
            return httpx2.Response(404, json=_error("no such endpoint in the replay", 404))
        body = json.loads(await request.aread())
        reply = next(self._replies)
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


def _error(message: str, status: int) -> dict[str, Any]:
    return {"error": {"message": message, "type": "invalid_request_error", "code": status}}
