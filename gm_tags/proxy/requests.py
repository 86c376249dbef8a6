"""What the proxy accepts: a request read within the size limit (any protocol), and a
chat-completions request checked before anything is looked up or stored. A request that does not
hold is refused with a 400 (a 413 for its size) in its protocol's shape, and nothing of it is
kept."""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from starlette.requests import Request

from ..chats.transcript import Conversation
from ..settings import MAX_BODY_BYTES
from ..text import lone_surrogate_at
from . import spliced
from .failures import INVALID, ProxyError
from .spliced import NotJSON, Read
from .transcript import conversation

# As many choices as one request may ask for (`n`): each is applied and stored as a swipe.
MAX_CHOICES = 8
ROLES = frozenset({"system", "developer", "user", "assistant", "tool", "function"})
# Where a lone surrogate may come from in a UTF-8 body: an escape (`\\ud800`, or an escaped
# backslash before `ud800`, which is text) or the bytes UTF-8 would give one (json.loads lets
# them through). A body with neither holds none, and its strings are not searched one by one.
# (Two patterns, each searched for from its first bytes, are many times faster than one.)
_SURROGATE_ESCAPE = re.compile(rb"\\u[dD][89a-fA-F]")
_SURROGATE_BYTES = re.compile(rb"\xed[\xa0-\xbf]")


class Refused(ProxyError):
    """A request the proxy does not take: the status and the message the client gets."""

    def __init__(self, status: int, message: str, param: str | None = None) -> None:
        super().__init__(status, message, INVALID, param)


async def read_body(request: Request, limit: int = MAX_BODY_BYTES) -> bytes:
    """The request's body, refused (413) as soon as it is over `limit` bytes, declared or not."""
    declared = request.headers.get("content-length", "")
    if declared.isdigit() and int(declared) > limit:
        raise Refused(413, f"the request body is over {limit} bytes")
    body = bytearray()
    async for piece in request.stream():
        body += piece
        if len(body) > limit:
            raise Refused(413, f"the request body is over {limit} bytes")
    return bytes(body)


def read_object(raw: bytes) -> Read:
    """The request's body read (`spliced.read`), if it is a JSON object."""
    try:
        read = spliced.read(raw)
    except NotJSON as error:
        raise Refused(400, f"the request {str(error).removeprefix('the ')}") from None
    if not isinstance(read.value, dict):
        raise Refused(400, "the request body is a JSON object")
    return read


def checked(raw: bytes) -> tuple[Read, Conversation]:
    """The request's body read (`spliced.read`: the value and where its messages stand in its
    text) and its conversation (`transcript.conversation`), if it is a chat-completions request
    the proxy can take."""
    read = read_object(raw)
    body = read.value
    messages = body.get("messages")
    if not isinstance(messages, list) or not messages:
        raise Refused(400, "messages must be a list of one or more messages", "messages")
    # Read as it is checked: a user's or an assistant's text is checked at the cost of reading it.
    said = conversation(messages, _check_at)
    # Anywhere in the body: its text goes upstream as it came (`spliced`).
    where = lone_surrogate_at(body) if may_hold_surrogate(raw) else None
    if where is not None:
        raise Refused(400, f"{where[0]} {where[1]}", where[0])
    n = body.get("n", 1)
    if n is None:
        n = 1
    if isinstance(n, bool) or not isinstance(n, int) or not 1 <= n <= MAX_CHOICES:
        raise Refused(400, f"n must be a whole number from 1 to {MAX_CHOICES}", "n")
    if body.get("logprobs") or body.get("top_logprobs") is not None:
        raise Refused(
            400,
            "logprobs cannot be given: gm-tags rewrites the reply's text, and the tokens' "
            "log probabilities would no longer line up with it",
            "logprobs",
        )
    if not isinstance(body.get("stream", False), bool | None):
        raise Refused(400, "stream must be true or false", "stream")
    options = body.get("stream_options")
    if options is not None and not isinstance(options, dict):
        raise Refused(400, "stream_options must be an object", "stream_options")
    return read, said


def may_hold_surrogate(raw: bytes) -> bool:
    """Whether the body may hold a lone surrogate (a body in UTF-16 or UTF-32, which json.loads
    reads too, may)."""
    if 0 in raw[:4] or raw[:2] in (b"\xff\xfe", b"\xfe\xff"):
        return True
    return bool(_SURROGATE_ESCAPE.search(raw) or _SURROGATE_BYTES.search(raw))


def _check_at(message: object, at: int) -> None:
    _check_message(message, f"messages[{at}]")


def _check_message(message: object, where: str) -> None:
    checked = with_role(message, where, ROLES)
    content = checked.get("content")
    if (
        content is None
        and checked.get("role") == "assistant"
        and (checked.get("tool_calls") or checked.get("function_call"))
    ):
        return  # a call of a tool, with no text
    check_content(content, f"{where}.content")


def with_role(message: object, where: str, roles: frozenset[str]) -> Mapping[str, Any]:
    """The message, if it is an object with one of `roles`."""
    if not isinstance(message, Mapping):
        raise Refused(400, f"{where} must be an object with a role and content", where)
    role = message.get("role")
    if role not in roles:
        known = ", ".join(sorted(roles))
        raise Refused(400, f"{where}.role is {role!r}; a role is one of {known}", f"{where}.role")
    return message


def check_content(content: object, where: str) -> None:
    """Content that is text or a list of parts (each an object with a type; a text part's text
    a string)."""
    if isinstance(content, str):
        return
    if isinstance(content, list) and all(is_part(part) for part in content):
        return
    raise Refused(
        400,
        f"{where} must be text or a list of content parts, not {type(content).__name__}",
        where,
    )


def is_part(part: object) -> bool:
    """A content part: an object with a type; a text part's text is a string."""
    if not isinstance(part, Mapping) or not isinstance(part.get("type"), str):
        return False
    return part.get("type") != "text" or isinstance(part.get("text"), str)
