"""The proxy's ASGI app in this process, in front of a scripted upstream (an `httpx2`
transport): fast enough for property tests, and able to send chunks no real server would.

`Scripted.queue` holds what the next completions answer, each one of `{"reply": TEXT, "chunk":
N}` (streamed in N-character pieces when the request streams), `{"replies": [TEXT, ...]}` (one
per choice, `n` > 1), or `{"raw": [CHUNK, ...]}` (stream chunks sent as they are: objects as
JSON, strings as they stand, then `[DONE]` unless `"done": false`). `Scripted.seen` holds the
bodies the upstream got (`Scripted.sent`, as bytes).
"""

from __future__ import annotations

import json
from collections.abc import AsyncIterator, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import httpx2
import pytest
from starlette.testclient import TestClient

import gm_tags.proxy.app as proxy_app
from gm_tags.proxy import create_proxy_app
from gm_tags.proxy.clients import HttpxClient
from tests.conftest import LOOPBACK
from tests.proxy.conftest import GAME, RULESET


class Scripted(httpx2.AsyncBaseTransport):
    def __init__(self) -> None:
        self.queue: list[dict[str, Any]] = []
        self.seen: list[dict[str, Any]] = []
        self.sent: list[bytes] = []

    def script(self, *steps: dict[str, Any]) -> None:
        self.queue.extend(steps)

    def clocks_seen(self) -> str:
        """The clocks the model was shown in the last request's reminder."""
        users = [m for m in self.seen[-1]["messages"] if m["role"] == "user"]
        content = users[-1]["content"]
        text = content if isinstance(content, str) else "".join(p.get("text", "") for p in content)
        return next(line for line in text.splitlines() if line.startswith("Clocks now:"))

    async def handle_async_request(self, request: httpx2.Request) -> httpx2.Response:
        if request.method == "GET":
            return httpx2.Response(200, json={"object": "list", "data": []})
        self.sent.append(await request.aread())
        body = json.loads(self.sent[-1])
        self.seen.append(body)
        step = self.queue.pop(0) if self.queue else {"reply": "Nothing happens."}
        n = body.get("n") or 1
        replies = step.get("replies") or [step.get("reply", "")] * n
        if not body.get("stream"):
            choices = [
                {
                    "index": i,
                    "message": {"role": "assistant", "content": r},
                    "finish_reason": "stop",
                }
                for i, r in enumerate(replies)
            ]
            return httpx2.Response(
                200, json={"id": "c", "object": "chat.completion", "choices": choices}
            )
        if "raw" in step:
            lines = [c if isinstance(c, str) else json.dumps(c) for c in step["raw"]]
            if step.get("done", True):
                lines.append("[DONE]")
        else:
            lines = [json.dumps(c) for c in _chunks(replies, step.get("chunk", 5))] + ["[DONE]"]
        return httpx2.Response(
            200, headers={"content-type": "text/event-stream"}, content=_sent(lines)
        )


def chunk(choices: list[dict[str, Any]], **more: Any) -> dict[str, Any]:
    return {"id": "c", "object": "chat.completion.chunk", "choices": choices, **more}


def _chunks(replies: list[str], size: int) -> Iterator[dict[str, Any]]:
    for index in range(len(replies)):
        yield chunk([{"index": index, "delta": {"role": "assistant"}, "finish_reason": None}])
    longest = max(len(reply) for reply in replies)
    for at in range(0, longest, size):
        for index, reply in enumerate(replies):
            if reply[at : at + size]:
                delta = {"content": reply[at : at + size]}
                yield chunk([{"index": index, "delta": delta, "finish_reason": None}])
    for index in range(len(replies)):
        yield chunk([{"index": index, "delta": {}, "finish_reason": "stop"}])


async def _sent(lines: list[str]) -> AsyncIterator[bytes]:
    for line in lines:
        yield f"data: {line}\n\n".encode()


@contextmanager
def proxy_app_for(
    db: Path,
    monkeypatch: pytest.MonkeyPatch,
    transport: httpx2.AsyncBaseTransport | None = None,
    **options: Any,
) -> Iterator[tuple[TestClient, Any]]:
    """The proxy's app with `options`, every upstream of it answered by `transport` (by default
    a `Scripted` one)."""
    upstream = transport or Scripted()
    monkeypatch.setattr(
        proxy_app,
        "upstream_client",
        lambda _url, _timeout: HttpxClient(
            httpx2.AsyncClient(base_url="http://up.invalid/v1/", transport=upstream)
        ),
    )
    options.setdefault("game", GAME)
    app = create_proxy_app("http://up.invalid/v1", RULESET, db, **options)
    with TestClient(app, base_url=LOOPBACK) as client:
        yield client, upstream


def streamed(client: TestClient, body: dict[str, Any], **headers: str) -> list[dict[str, Any]]:
    """The chunks of a streamed answer, as JSON ([DONE] as the string)."""
    got: list[Any] = []
    with client.stream(
        "POST", "/v1/chat/completions", json={**body, "stream": True}, headers=headers
    ) as answer:
        for line in answer.iter_lines():
            if line.startswith("data: "):
                data = line[6:]
                got.append(data if data == "[DONE]" else json.loads(data))
    return got


def narration(chunks: list[Any], index: int = 0) -> str:
    return "".join(
        choice["delta"].get("content") or ""
        for c in chunks
        if isinstance(c, dict)
        for choice in c.get("choices") or []
        if choice.get("index", 0) == index
    )


def summary(chunks: list[Any]) -> dict[str, Any]:
    return next(c["gm_tags"] for c in reversed(chunks) if isinstance(c, dict) and "gm_tags" in c)
