"""The floor of any Python hop, for the proxy's benchmarks: a bare ASGI app that relays every
request to the upstream and its answer back byte for byte, as each network read completes, with
nothing read, planned or rewritten, on the same server (uvicorn, as `gm-tags proxy` runs it) and
the same HTTP client (`gm_tags.proxy.clients.AiohttpClient`: one pooled aiohttp session) as the
proxy. What it adds to the first
token is what a hop costs before gm-tags does anything.

`python -m tests.benchmarks.passthrough UPSTREAM_BASE_URL PORT` (the base URL ends in `/v1`).
"""

from __future__ import annotations

import sys
from typing import Any

import uvicorn

from gm_tags.proxy.clients import AiohttpClient, Outgoing

Scope = dict[str, Any]


def passthrough(upstream: str) -> Any:
    client = AiohttpClient(upstream, connect=10, read=60)

    async def app(scope: Scope, receive: Any, send: Any) -> None:
        if scope["type"] == "lifespan":
            while (await receive())["type"] != "lifespan.shutdown":
                await send({"type": "lifespan.startup.complete"})
            await client.close()
            await send({"type": "lifespan.shutdown.complete"})
            return
        if scope["path"] == "/health":
            await send({"type": "http.response.start", "status": 200, "headers": []})
            await send({"type": "http.response.body", "body": b"{}"})
            return
        body = b""
        while True:
            message = await receive()
            body += message.get("body", b"")
            if not message.get("more_body"):
                break
        path = scope["path"].removeprefix("/v1/")
        headers = {"content-type": "application/json"}
        answer = await client.send(Outgoing(scope["method"], path, headers, body, stream=True))
        kind = answer.headers.get("content-type", "application/json").encode()
        start = {"status": answer.status, "headers": [(b"content-type", kind)]}
        await send({"type": "http.response.start", **start})
        try:
            async for chunk in answer.chunks():
                await send({"type": "http.response.body", "body": chunk, "more_body": True})
        finally:
            await answer.close()
        await send({"type": "http.response.body", "body": b""})

    return app


if __name__ == "__main__":
    uvicorn.run(
        passthrough(sys.argv[1]), host="127.0.0.1", port=int(sys.argv[2]), log_level="warning"
    )
