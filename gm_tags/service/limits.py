"""The bounds on what a request may carry, so no request can make the service hold unbounded
text: the whole body (`BodyLimit`, counted as it arrives) and a JSON value within it (`within`)."""

from __future__ import annotations

import json

from starlette.types import ASGIApp, Message, Receive, Scope, Send

from .errors import Refused, error_response


def within(what: str, value: object, limit: int) -> None:
    """Refuse (413, `{what}_too_large`) a JSON value over `limit` bytes."""
    if value is None:
        return
    size = len(json.dumps(value, ensure_ascii=False).encode("utf-8"))
    if size > limit:
        raise Refused(413, f"{what}_too_large", f"the {what} is {size} bytes; at most {limit}")


class BodyLimit:
    """Refuse a request body over `limit` bytes with 413 `request_too_large`, counting as it
    arrives (a body without a Content-Length is counted too) and reading no more of it."""

    def __init__(self, app: ASGIApp, limit: int) -> None:
        self.app, self.limit = app, limit

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        declared = dict(scope.get("headers") or []).get(b"content-length")
        if declared is not None and declared.isdigit() and int(declared) > self.limit:
            await self._refuse(scope, receive, send)
            return
        seen, over = 0, False

        async def counted() -> Message:
            # Past the limit the body is cut short here, and the answer below is the refusal.
            nonlocal seen, over
            if over:
                return {"type": "http.request", "body": b"", "more_body": False}
            message = await receive()
            seen += len(message.get("body", b""))
            if seen > self.limit:
                over = True
                return {"type": "http.request", "body": b"", "more_body": False}
            return message

        async def unless_over(message: Message) -> None:
            if not over:
                await send(message)

        await self.app(scope, counted, unless_over)
        if over:
            await self._refuse(scope, receive, send)

    async def _refuse(self, scope: Scope, receive: Receive, send: Send) -> None:
        detail = f"the request body is over {self.limit} bytes"
        await error_response(413, "request_too_large", detail)(scope, receive, send)
