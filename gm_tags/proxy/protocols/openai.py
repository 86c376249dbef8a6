"""OpenAI's chat completions on the proxy: `POST /v1/chat/completions` (streaming and not) and
`GET /v1/models` (passed through).

A request's chat and snapshot come from its transcript (`gm_tags.proxy.transcript`); the game's
prompt is added (`gm_tags.proxy.messages`); the reply is relayed as narration with `gm_tags` on
the last chunk or the completion (`gm_tags.proxy.relay`). Errors come back in the OpenAI shape
(`{"error": {"message", "type", "param", "code"}}`) with the upstream's status, and change no
game. docs/proxy.md has the whole story.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from ...chats.transcript import Said
from ..clients import Outgoing
from ..failures import ProxyError
from ..hop import CHAT_HEADER, Hop, Protocol, Upstream, Wire, hop_of, read_passed
from ..messages import upstream_body
from ..outcomes import unshown
from ..relay import completed, events
from ..requests import checked, read_body
from ..transcript import impersonating, opening

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
    read, said = checked(await read_body(request))
    body: dict[str, Any] = read.value
    messages = body["messages"]
    headers = _headers(hop, request, upstream)
    choices = body.get("n") or 1
    passing = _passing(messages, said)
    if passing is not None:
        passed = {**body, "messages": unshown(messages)}
        return await hop.pass_on(WIRE, upstream, passed, headers, passing, choices=choices)
    named = request.headers.get(CHAT_HEADER) or body.get("user")
    named = named if isinstance(named, str) else None
    chats, plan = await hop.plan(request, named, said)
    if choices > 1 and plan.action == "continue":
        raise ProxyError(400, "a continue takes one reply: n must be 1", param="n")
    stream = bool(body.get("stream"))
    forwarded = upstream_body(read, plan.game, hop.budget)
    turn = hop.pending(
        request, chats, named, said, plan, choices=choices, stream=stream, opening=opening(messages)
    )
    return await hop.answer(WIRE, upstream, turn, forwarded, headers, stream=stream)


def _passing(messages: list[dict[str, Any]], said: Sequence[Said]) -> tuple[str, str] | None:
    """The action and why, when the request takes no turn: it has no story, or asks for the
    player's next line."""
    if not said:
        return "none", "the request holds no user or assistant message: passed on as it is"
    if impersonating(messages):
        why = "the model writes the player's next line (impersonate): nothing is applied"
        return "impersonate", why
    return None


async def models(request: Request) -> Response:
    hop = hop_of(request)
    upstream = hop.upstream(NAME, OPTION)
    asked = Outgoing("GET", "models", _headers(hop, request, upstream))
    return await read_passed(await upstream.client.send(asked), error)


def _headers(hop: Hop, request: Request, upstream: Upstream) -> dict[str, str]:
    return hop.headers(request, upstream, credentials=CREDENTIALS)


WIRE = Wire("chat/completions", "completion", error, events, completed)
PROTOCOL = Protocol(
    NAME,
    [
        Route("/v1/chat/completions", completions, methods=["POST"]),
        Route("/v1/models", models, methods=["GET"]),
    ],
    error,
)
