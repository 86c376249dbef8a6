"""OpenAI's chat completions on the proxy: `POST /v1/chat/completions` (streaming and not) and
`GET /v1/models` (passed through).

A request's chat and snapshot come from its transcript (`gm_tags.proxy.transcript`); the game's
prompt is added (`gm_tags.proxy.messages`); the reply is relayed as narration with `gm_tags` on
the last chunk or the completion (`gm_tags.proxy.relay`). Errors come back in the OpenAI shape
(`{"error": {"message", "type", "param", "code"}}`) with the upstream's status, and change no
game. docs/proxy.md has the whole story.
"""

from __future__ import annotations

import json
from typing import Any

import anyio
import httpx2
from starlette.requests import Request
from starlette.responses import JSONResponse, Response, StreamingResponse
from starlette.routing import Route

from ..chats import not_stored
from ..failures import UPSTREAM, ProxyError
from ..hop import CHAT_HEADER, NO_BUFFERING, Hop, Protocol, Upstream, hop_of
from ..messages import upstream_messages
from ..relay import completed, events, relayed
from ..requests import checked, read_body
from ..transcript import conversation, impersonating

NAME = "chat completions"
OPTION = "--upstream"
# The client's headers that are its credentials with the upstream (none go when the proxy has
# keys of its own).
CREDENTIALS = ("authorization", "openai-organization", "openai-project")


def error(failure: ProxyError) -> JSONResponse:
    """An error as OpenAI-compatible clients read it."""
    body = {
        "error": {
            "message": failure.message,
            "type": failure.kind,
            "param": failure.param,
            "code": failure.code,
        }
    }
    return JSONResponse(body, status_code=failure.status)


async def completions(request: Request) -> Response:
    hop = hop_of(request)
    upstream = hop.upstream(NAME, OPTION)
    body = checked(await read_body(request))
    messages = body["messages"]
    said = conversation(messages)
    headers = _headers(hop, request, upstream)
    if not said:
        why = "the request holds no user or assistant message: passed on as it is"
        return await _passed_on(hop, upstream, body, headers, not_stored("none", why))
    if impersonating(messages):
        why = "the model writes the player's next line (impersonate): nothing is applied"
        return await _passed_on(hop, upstream, body, headers, not_stored("impersonate", why))
    named = request.headers.get(CHAT_HEADER) or body.get("user")
    named = named if isinstance(named, str) else None
    chats, plan = await hop.plan(request, named, said)
    choices = body.get("n") or 1
    if choices > 1 and plan.action == "continue":
        raise ProxyError(400, "a continue takes one reply: n must be 1", param="n")
    stream = bool(body.get("stream"))
    forwarded = {**body, "messages": upstream_messages(messages, plan.game, hop.budget)}
    turn = hop.pending(request, chats, named, said, plan, choices=choices, stream=stream)
    try:
        answer = await hop.send(upstream, "chat/completions", forwarded, headers, stream=stream)
    except BaseException:
        turn.settle()
        raise
    if answer.status_code >= 400:
        turn.settle()
        await answer.aread()
        await answer.aclose()
        return _passed(answer)
    if stream:
        return StreamingResponse(
            events(answer, turn, hop.max_reply),
            media_type="text/event-stream",
            headers=NO_BUFFERING,
        )
    try:
        # Reading, applying and writing a whole reply: off the loop.
        completion = await anyio.to_thread.run_sync(completed, answer.json(), turn, hop.max_reply)
    except ValueError:
        completion = None
    if completion is None:
        raise ProxyError(502, "the upstream answered with no completion", UPSTREAM)
    return JSONResponse(completion)


async def models(request: Request) -> Response:
    hop = hop_of(request)
    upstream = hop.upstream(NAME, OPTION)
    answer = await upstream.client.get("models", headers=_headers(hop, request, upstream))
    return _passed(answer)


def _headers(hop: Hop, request: Request, upstream: Upstream) -> dict[str, str]:
    return hop.headers(request, upstream, credentials=CREDENTIALS)


async def _passed_on(
    hop: Hop,
    upstream: Upstream,
    body: dict[str, Any],
    headers: dict[str, str],
    summary: dict[str, Any],
) -> Response:
    """A request the proxy takes no turn from, sent on as it is; the answer comes back as it
    is, with `summary` as `gm_tags`."""
    stream = bool(body.get("stream"))
    answer = await hop.send(upstream, "chat/completions", body, headers, stream=stream)
    if answer.status_code >= 400 or not stream:
        await answer.aread()
        await answer.aclose()
        passed = _passed(answer)
        if answer.status_code < 400 and isinstance(passed, JSONResponse):
            completion = json.loads(bytes(passed.body))
            if isinstance(completion, dict):
                return JSONResponse({**completion, "gm_tags": summary})
        return passed
    return StreamingResponse(
        relayed(answer, summary), media_type="text/event-stream", headers=NO_BUFFERING
    )


def _passed(answer: httpx2.Response) -> Response:
    """The upstream's answer as it is when it is JSON, else an OpenAI-shaped error with its
    status."""
    try:
        body = answer.json()
    except ValueError:
        body = None
    if answer.status_code >= 400 and not (isinstance(body, dict) and "error" in body):
        text = answer.text[:500] or answer.reason_phrase
        return error(ProxyError(answer.status_code, f"upstream: {text}", UPSTREAM))
    if body is None:
        raise ProxyError(502, "the upstream answered with something that is not JSON", UPSTREAM)
    return JSONResponse(body, status_code=answer.status_code)


PROTOCOL = Protocol(
    NAME,
    [
        Route("/v1/chat/completions", completions, methods=["POST"]),
        Route("/v1/models", models, methods=["GET"]),
    ],
    error,
)
