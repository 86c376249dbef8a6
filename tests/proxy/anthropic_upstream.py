"""A small Anthropic-compatible model server for the proxy's tests, run as its own process on
loopback (`python -m tests.proxy.anthropic_upstream PORT`): `POST /v1/messages`, streaming and
not, in the Messages API's shapes.

Tests script it as they script the OpenAI-shaped one (`tests.proxy.upstream`, whose control
routes it serves too): each step one of `{"reply": TEXT, "chunk": N, "delay": SECONDS}`, with
`"tool": True` for a tool call after the text, `{"fail": STATUS}`, `{"hang": SECONDS}`,
`{"malformed": true}` (an event that is not JSON) or `{"cut": true}` (a stream that stops before
`message_stop`). A stream sends a `ping` after `message_start` and an event no client knows
(`gm_test_unknown`) after the first text delta. `GET /control/requests` lists what it got: the
body (and its `text` as sent) and the headers that carry keys and the API version.
"""

from __future__ import annotations

import asyncio
import json
import sys
from collections.abc import AsyncIterator
from typing import Any

import uvicorn
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse, Response, StreamingResponse
from starlette.routing import Route

from tests.proxy import upstream as control

MODEL = "claude-fixture"
# The tool call a step with `"tool": true` makes after its text.
TOOL = {"type": "tool_use", "id": "toolu_fixture", "name": "roll_dice", "input": {"sides": 6}}
HEADERS = ("x-api-key", "authorization", "anthropic-version", "anthropic-beta")


async def messages(request: Request) -> Response:
    text = (await request.body()).decode()
    body = json.loads(text)
    seen = {name: request.headers.get(name) for name in HEADERS}
    control._seen.append({"body": body, "text": text, **seen})
    step = control._script.pop(0) if control._script else {"reply": "Nothing happens."}
    if "fail" in step:
        error = {"type": "api_error" if step["fail"] >= 500 else "rate_limit_error"}
        return JSONResponse(
            {"type": "error", "error": {**error, "message": "the model fell over"}},
            status_code=step["fail"],
        )
    if "hang" in step:
        await asyncio.sleep(step["hang"])
    reply = step.get("reply", "")
    stop = "tool_use" if step.get("tool") else "end_turn"
    if body.get("stream"):
        return StreamingResponse(_events(step, reply, stop), media_type="text/event-stream")
    content = [{"type": "text", "text": reply}, *([TOOL] if step.get("tool") else [])]
    return JSONResponse({**_message(stop), "content": content})


def _message(stop: str | None) -> dict[str, Any]:
    return {
        "id": "msg_fixture",
        "type": "message",
        "role": "assistant",
        "model": MODEL,
        "content": [],
        "stop_reason": stop,
        "stop_sequence": None,
        "usage": {"input_tokens": 10, "output_tokens": 1},
    }


def _event(data: dict[str, Any]) -> str:
    return f"event: {data['type']}\ndata: {json.dumps(data, ensure_ascii=False)}\n\n"


async def _events(step: dict[str, Any], reply: str, stop: str) -> AsyncIterator[str]:
    yield _event({"type": "message_start", "message": _message(None)})
    yield _event({"type": "ping"})
    yield _event({"type": "content_block_start", "index": 0, "content_block": _text("")})
    if step.get("malformed"):
        yield "event: content_block_delta\ndata: {this is not json\n\n"
        return
    size, delay = step.get("chunk", 5), step.get("delay", 0)
    for at in range(0, len(reply), size):
        if delay:
            await asyncio.sleep(delay)
        delta = {"type": "text_delta", "text": reply[at : at + size]}
        yield _event({"type": "content_block_delta", "index": 0, "delta": delta})
        if at == 0:
            yield _event({"type": "gm_test_unknown", "note": "a client that knows none passes"})
        if step.get("cut") and at + size >= len(reply) // 2:
            return
    yield _event({"type": "content_block_stop", "index": 0})
    if step.get("tool"):
        yield _event(
            {"type": "content_block_start", "index": 1, "content_block": {**TOOL, "input": {}}}
        )
        delta = {"type": "input_json_delta", "partial_json": json.dumps(TOOL["input"])}
        yield _event({"type": "content_block_delta", "index": 1, "delta": delta})
        yield _event({"type": "content_block_stop", "index": 1})
    delta = {"stop_reason": stop, "stop_sequence": None}
    yield _event({"type": "message_delta", "delta": delta, "usage": {"output_tokens": 9}})
    yield _event({"type": "message_stop"})


def _text(text: str) -> dict[str, Any]:
    return {"type": "text", "text": text}


app = Starlette(
    routes=[
        Route("/v1/messages", messages, methods=["POST"]),
        Route("/control/script", control.script, methods=["POST"]),
        Route("/control/requests", control.requests, methods=["GET", "DELETE"]),
    ]
)

if __name__ == "__main__":
    uvicorn.run(app, host="127.0.0.1", port=int(sys.argv[1]), log_level="warning")
