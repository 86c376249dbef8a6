"""Anthropic's Messages on the proxy: `POST /v1/messages`, streaming and not, forwarded to the
Anthropic-compatible upstream `--anthropic-upstream` names (its base URL as the Anthropic client
takes it: the proxy posts to `URL/v1/messages`).

The same hop as chat completions (`gm_tags.proxy.hop`): the chat and the snapshot come from the
transcript (the user and assistant messages' text blocks; a user message holding only tool
results is not part of the story, as a `tool` message is not in chat completions), the chat may
be named by `X-GM-Chat` or `metadata.user_id`, and the turn lands by the same rules. What differs
is the wire:

- the GM section is one more block at the end of `system` (a string `system` becomes its one
  block): the client's own blocks, and their `cache_control` breakpoints, stay as they were, so
  what a prompt cache keeps of them it still keeps; the reminder ends the latest user message;
- the answer's text blocks are the reply: as narration (`anthropic_stream`), with `gm_tags` on
  the `message_delta` event of a stream or on the whole message;
- errors are Anthropic's: `{"type": "error", "error": {"type", "message"}}` with the status, and
  an `error` event once a stream has begun.
docs/proxy.md has the whole story.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from ...text import lone_surrogate_at
from ..failures import ProxyError
from ..hop import CHAT_HEADER, Hop, Protocol, Upstream, Wire, hop_of
from ..messages import forwarded
from ..reminders import kept_reminder
from ..requests import (
    Refused,
    check_content,
    is_part,
    may_hold_surrogate,
    read_body,
    read_object,
    with_role,
)
from ..sections import section_of
from ..spliced import Read
from ..transcript import conversation, opening
from .anthropic_stream import events, whole_message

NAME = "Anthropic Messages"
OPTION = "--anthropic-upstream"
CREDENTIALS = ("x-api-key", "authorization")
# Sent whatever the proxy's keys: they say which version of the API the client speaks.
PASSED = ("anthropic-version", "anthropic-beta")
VERSION = "2023-06-01"  # when the client names none: the API refuses a request without one
ROLES = frozenset({"user", "assistant"})
# The error type Anthropic's clients read for a status; any other 4xx is an invalid request.
_KINDS = {
    400: "invalid_request_error",
    401: "authentication_error",
    403: "permission_error",
    404: "not_found_error",
    413: "request_too_large",
    429: "rate_limit_error",
    529: "overloaded_error",
}


def error_body(failure: ProxyError) -> dict[str, Any]:
    """An error as Anthropic's clients read it (an `error` event's data, too)."""
    fallback = "invalid_request_error" if failure.status < 500 else "api_error"
    kind = _KINDS.get(failure.status, fallback)
    return {"type": "error", "error": {"type": kind, "message": failure.message}}


def error(failure: ProxyError) -> JSONResponse:
    return JSONResponse(error_body(failure), status_code=failure.status)


async def messages(request: Request) -> Response:
    hop = hop_of(request)
    upstream = hop.upstream(NAME, OPTION)
    read = checked(await read_body(request))
    body: dict[str, Any] = read.value
    story = _story(body["messages"])
    said = conversation(story)
    headers = _headers(hop, request, upstream)
    stream = bool(body.get("stream"))
    if not said:
        why = "the request holds no user or assistant text: passed on as it is"
        return await hop.pass_on(WIRE, upstream, body, headers, ("none", why))
    metadata = body.get("metadata") or {}
    named = request.headers.get(CHAT_HEADER) or metadata.get("user_id")
    named = named if isinstance(named, str) else None
    chats, plan = await hop.plan(request, named, said)
    system = with_section(body.get("system"), section_of(plan.game, hop.budget).text)
    fields = {"system": system} if system is not None else {}
    sent = forwarded(read, kept_reminder(plan.game), fields=fields)
    turn = hop.pending(request, chats, named, said, plan, stream=stream, opening=opening(story))
    return await hop.answer(WIRE, upstream, turn, sent, headers, stream=stream)


def with_section(system: object, section: str) -> object:
    """`system` with the GM section as one more text block at its end."""
    if not section:
        return system
    block = {"type": "text", "text": section}
    if isinstance(system, list):
        return [*system, block]
    if isinstance(system, str) and system:
        return [{"type": "text", "text": system}, block]
    return [block]


def checked(raw: bytes) -> Read:
    """The request's body read (`spliced.read`), if it is a Messages request the proxy can
    take."""
    read = read_object(raw)
    body = read.value
    listed = body.get("messages")
    if not isinstance(listed, list) or not listed:
        raise Refused(400, "messages: a list of one or more messages", "messages")
    for at, message in enumerate(listed):
        checked = with_role(message, f"messages.{at}", ROLES)
        check_content(checked.get("content"), f"messages.{at}.content")
    system = body.get("system")
    blocks = isinstance(system, list) and all(is_part(one) for one in system)
    if system is not None and not isinstance(system, str) and not blocks:
        raise Refused(400, "system: text, or a list of text blocks", "system")
    # Anywhere in the body: its text goes upstream as it came (`spliced`).
    where = lone_surrogate_at(body) if may_hold_surrogate(raw) else None
    if where is not None:
        raise Refused(400, f"{where[0]}: {where[1]}", where[0])
    if not isinstance(body.get("stream", False), bool | None):
        raise Refused(400, "stream: true or false", "stream")
    if not isinstance(body.get("metadata", {}), dict | None):
        raise Refused(400, "metadata: an object", "metadata")
    return read


def _story(messages: Sequence[Mapping[str, Any]]) -> list[Mapping[str, Any]]:
    """The messages that tell the story: not a user message that only gives tools' results."""
    return [message for message in messages if not _only_tool_results(message)]


def _only_tool_results(message: Mapping[str, Any]) -> bool:
    content = message.get("content")
    return (
        message.get("role") == "user"
        and isinstance(content, list)
        and bool(content)
        and all(block.get("type") == "tool_result" for block in content)
    )


def _headers(hop: Hop, request: Request, upstream: Upstream) -> dict[str, str]:
    headers = hop.headers(
        request,
        upstream,
        credentials=CREDENTIALS,
        passed=PASSED,
        key_as=("x-api-key", "{}"),
        replaced=CREDENTIALS,
    )
    headers.setdefault("anthropic-version", VERSION)
    return headers


WIRE = Wire("v1/messages", "message", error, events, whole_message)
PROTOCOL = Protocol(
    NAME, [Route("/v1/messages", messages, methods=["POST"])], error, key_header="x-api-key"
)
