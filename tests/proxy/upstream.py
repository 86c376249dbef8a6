"""A small OpenAI-compatible model server for the proxy's tests, run as its own process on
loopback (`python -m tests.proxy.upstream PORT`).

Tests script it: `POST /control/script` queues what the next completions answer, each one of
`{"reply": TEXT, "chunk": N, "delay": SECONDS}` (streamed in N-character pieces when the request
streams), `{"replies": [TEXT, ...]}` (one per choice, for `n` > 1), `{"fail": 500}`,
`{"hang": SECONDS}`, `{"malformed": true}` (a stream chunk that is not JSON), `{"cut": true}`
(a stream that stops without `[DONE]`), `{"lost": true}` (a stream whose connection is dropped
halfway, its body unfinished), `{"raw": [CHUNK, ...]}` (stream chunks sent as they are:
objects as JSON, strings as they stand, then `[DONE]`), `{"body": ANY}` (a whole answer, as it
is) or `{"endless": TEXT}` (a stream that sends TEXT again and again until the client goes).
`GET /control/requests` lists the bodies and headers of the requests it got (a streamed answer's
with `first_sent`: when its first text went out, by `time.monotonic()`, one clock for every
process of the machine, so a client can tell how long that text took to reach it), and
`DELETE /control/requests` forgets them.
"""

from __future__ import annotations

import asyncio
import json
import sys
import time
from collections.abc import AsyncIterator
from typing import Any

import uvicorn
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse, Response, StreamingResponse
from starlette.routing import Route

MODEL = "fixture-model"
_script: list[dict[str, Any]] = []
_seen: list[dict[str, Any]] = []


async def script(request: Request) -> Response:
    _script.extend(await request.json())
    return JSONResponse({"queued": len(_script)})


async def requests(request: Request) -> Response:
    if request.method == "DELETE":
        _seen.clear()
        _script.clear()
    return JSONResponse(_seen)


async def models(_: Request) -> Response:
    return JSONResponse(
        {
            "object": "list",
            "data": [{"id": MODEL, "object": "model", "created": 0, "owned_by": "t"}],
        }
    )


async def completions(request: Request) -> Response:
    body = await request.json()
    _seen.append({"body": body, "authorization": request.headers.get("authorization")})
    step = _script.pop(0) if _script else {"reply": "Nothing happens."}
    if "fail" in step:
        error = {"message": "the model fell over", "type": "server_error", "code": None}
        return JSONResponse({"error": error}, status_code=step["fail"])
    if "hang" in step:
        await asyncio.sleep(step["hang"])
    created = int(time.time())
    replies = step.get("replies") or [step.get("reply", "")]
    if "body" in step:
        return JSONResponse(step["body"])
    if "raw" in step or "endless" in step:
        return StreamingResponse(_as_given(step), media_type="text/event-stream")
    if not body.get("stream"):
        choices = [
            {"index": i, "message": {"role": "assistant", "content": r}, "finish_reason": "stop"}
            for i, r in enumerate(replies)
        ]
        return JSONResponse(
            {
                "id": "chatcmpl-fixture",
                "object": "chat.completion",
                "created": created,
                "model": MODEL,
                "choices": choices,
                "usage": {"prompt_tokens": 1, "completion_tokens": 1, "total_tokens": 2},
            }
        )
    events = _events(step, replies, created, _seen[-1])
    return StreamingResponse(events, media_type="text/event-stream")


async def _events(
    step: dict[str, Any], replies: list[str], created: int, seen: dict[str, Any]
) -> AsyncIterator[str]:
    def event(delta: dict[str, Any], finish: str | None = None, index: int = 0) -> str:
        chunk = {
            "id": "chatcmpl-fixture",
            "object": "chat.completion.chunk",
            "created": created,
            "model": MODEL,
            "choices": [{"index": index, "delta": delta, "finish_reason": finish}],
        }
        return f"data: {json.dumps(chunk, ensure_ascii=False)}\n\n"

    for index in range(len(replies)):
        yield event({"role": "assistant", "content": ""}, index=index)
    if step.get("malformed"):
        yield "data: {this is not json\n\n"
        return
    size, delay = step.get("chunk", 5), step.get("delay", 0)
    for at in range(0, max(len(reply) for reply in replies), size):
        if delay:
            await asyncio.sleep(delay)
        for index, reply in enumerate(replies):
            if reply[at : at + size]:
                written = event({"content": reply[at : at + size]}, index=index)
                seen.setdefault("first_sent", time.monotonic())  # as it is written out
                yield written
        if step.get("cut") and at + size >= len(replies[0]) // 2:
            return
        if step.get("lost") and at + size >= len(replies[0]) // 2:
            # The server drops the connection mid-body (an unfinished chunked body).
            raise ConnectionAbortedError("the upstream's test server drops the stream")
    for index in range(len(replies)):
        yield event({}, "stop", index)
    yield "data: [DONE]\n\n"


async def _as_given(step: dict[str, Any]) -> AsyncIterator[str]:
    for raw in step.get("raw", []):
        yield f"data: {raw if isinstance(raw, str) else json.dumps(raw)}\n\n"
    while "endless" in step:
        delta = {"index": 0, "delta": {"content": step["endless"]}, "finish_reason": None}
        yield f"data: {json.dumps({'object': 'chat.completion.chunk', 'choices': [delta]})}\n\n"
        await asyncio.sleep(0.001)
    yield "data: [DONE]\n\n"


app = Starlette(
    routes=[
        Route("/v1/chat/completions", completions, methods=["POST"]),
        Route("/v1/models", models, methods=["GET"]),
        Route("/control/script", script, methods=["POST"]),
        Route("/control/requests", requests, methods=["GET", "DELETE"]),
    ]
)

if __name__ == "__main__":
    uvicorn.run(app, host="127.0.0.1", port=int(sys.argv[1]), log_level="warning")
