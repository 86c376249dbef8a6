"""`gm-tags proxy`: an OpenAI-compatible hop between a chat front-end and its model.

`POST /v1/chat/completions` finds the chat and the snapshot from the transcript, adds the game's
prompt, asks the upstream, applies the reply's tags (each as it closes, when streaming) and
answers with the narration, the receipts and the rewritten reply under `gm_tags`. `GET
/v1/models` is passed through. Errors come back in the OpenAI shape (`{"error": {...}}`) with
the upstream's status, and change no game. docs/proxy.md has the whole story.
"""

from __future__ import annotations

import json
import os
from collections.abc import AsyncIterator, Collection
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import anyio
import httpx2
from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import JSONResponse, Response, StreamingResponse
from starlette.routing import Route

from ..errors import SourceError
from ..game import Game
from ..guard.http import Guard, Policy, host_names
from ..guard.keys import Keys
from ..ruleset import load_ruleset
from ..service.chats import ServedChats
from ..settings import DEFAULT_DB
from ..storage import open_store
from .chats import ProxyChats, not_stored
from .landings import Landings
from .messages import upstream_messages
from .relay import PendingTurn, completed, events, relayed
from .requests import Refused, checked, read_body
from .transcript import chat_key, conversation, impersonating, key_of
from .upstream import upstream_client

CHAT_HEADER = "x-gm-chat"
# The longest reply kept, in characters (`--max-reply`): an upstream that never ends is cut here.
MAX_REPLY = 100_000
# Headers of the client's request the upstream gets as they are.
_FORWARDED = ("authorization", "openai-organization", "openai-project")


def error(
    status: int, message: str, kind: str, param: str | None = None, code: str | None = None
) -> JSONResponse:
    """An error as OpenAI-compatible clients read it."""
    body = {"error": {"message": message, "type": kind, "param": param, "code": code}}
    return JSONResponse(body, status_code=status)


def create_proxy_app(
    upstream: str,
    ruleset: str | Path,
    db: str | Path = DEFAULT_DB,
    *,
    game: str | Path | None = None,
    upstream_key_env: str | None = None,
    timeout: float = 600.0,
    budget: int | None = None,
    max_reply: int = MAX_REPLY,
    show_outcomes: bool = False,
    keys: Keys | None = None,
    allowed_hosts: Collection[str] = (),
) -> Starlette:
    """The proxy to `upstream` (a base URL or `replay:SESSION.jsonl`) for chats under `ruleset`,
    kept in the store at `db`; a new chat starts from `game` (a game document) or the ruleset's
    defaults. `upstream_key_env` names an environment variable whose key replaces the client's
    `Authorization`. `budget` cuts the rules reference to that many tokens; `max_reply` cuts a
    reply that runs longer (in characters); `show_outcomes` adds a line of what the engine did
    to the narration (`gm_tags.proxy.outcomes`). With `keys`, every request needs one
    (`Authorization: Bearer KEY`) and reaches only its tenant's chats, and its Authorization goes
    no further: the upstream gets `upstream_key_env`'s key, or none. The Host header must be a
    loopback name or one of `allowed_hosts`."""
    loaded = load_ruleset(ruleset)
    start = Game.new(loaded)
    if game is not None:
        start = Game.from_document(loaded, _document(Path(game)))
    served = ServedChats(lambda: open_store(db))
    served.open()
    chats = ProxyChats(served, {"path": str(Path(ruleset).resolve())}, start)
    landings = Landings()
    client = upstream_client(upstream, timeout)
    key = os.environ.get(upstream_key_env, "") if upstream_key_env else None
    if upstream_key_env and not key:
        raise SystemExit(f"the environment variable {upstream_key_env} is not set")

    def headers_for(request: Request) -> dict[str, str]:
        # With keys, the client's credentials are gm-tags' own: none of them goes upstream.
        forwarded = () if keys is not None else _FORWARDED
        headers = {name: request.headers[name] for name in forwarded if name in request.headers}
        if key is not None:
            headers["authorization"] = f"Bearer {key}"
        return headers

    async def models(request: Request) -> Response:
        try:
            answer = await client.get("models", headers=headers_for(request))
        except httpx2.HTTPError as failure:
            return _failed(failure)
        return _passed(answer)

    async def completions(request: Request) -> Response:
        try:
            body = checked(await read_body(request))
        except Refused as refused:
            return error(refused.status, refused.message, "invalid_request_error", refused.param)
        messages = body["messages"]
        said = conversation(messages)
        stream = bool(body.get("stream"))
        headers = headers_for(request)
        if not said:
            why = "the request holds no user or assistant message: passed on as it is"
            return await _passed_on(client, body, headers, not_stored("none", why))
        if impersonating(messages):
            why = "the model writes the player's next line (impersonate): nothing is applied"
            return await _passed_on(client, body, headers, not_stored("impersonate", why))
        named = request.headers.get(CHAT_HEADER) or body.get("user")
        named = named if isinstance(named, str) else None
        tenant = chats.for_tenant(request.state.tenant)
        # An earlier stream on this chat (one the client just stopped) lands first.
        await landings.settled(request.state.tenant, chat_key(named, said) if named else None)
        plan = await anyio.to_thread.run_sync(tenant.plan, named, said)
        choices = body.get("n") or 1
        if choices > 1 and plan.action == "continue":
            return error(
                400, "a continue takes one reply: n must be 1", "invalid_request_error", "n"
            )
        forwarded = {**body, "messages": upstream_messages(messages, plan.game, budget)}
        turn = PendingTurn(tenant, named, said, plan, choices=choices, show_outcomes=show_outcomes)
        if stream:
            # Registered now, not when the stream ends or is stopped: no request on this chat
            # is planned before the reply lands.
            turn.landing = landings.begin(request.state.tenant, key_of(plan.line), turn)
        outgoing = client.build_request("POST", "chat/completions", json=forwarded, headers=headers)
        try:
            answer = await client.send(outgoing, stream=stream)
        except httpx2.HTTPError as failure:
            turn.settle()
            return _failed(failure)
        if answer.status_code >= 400:
            turn.settle()
            await answer.aread()
            await answer.aclose()
            return _passed(answer)
        if stream:
            return StreamingResponse(
                events(answer, turn, max_reply),
                media_type="text/event-stream",
                headers=_NO_BUFFERING,
            )
        try:
            # Reading, applying and writing a whole reply: off the loop.
            completion = await anyio.to_thread.run_sync(completed, answer.json(), turn, max_reply)
        except ValueError:
            completion = None
        if completion is None:
            return error(502, "the upstream answered with no completion", "upstream_error")
        return JSONResponse(completion)

    async def health(_: Request) -> Response:
        return JSONResponse({"status": "ok"})

    @asynccontextmanager
    async def lifespan(_: Starlette) -> AsyncIterator[None]:
        try:
            yield
        finally:
            await client.aclose()
            served.close()

    policy = Policy(keys=keys, allowed_hosts=host_names(allowed_hosts), open_paths={"/health"})
    return Starlette(
        routes=[
            Route("/v1/chat/completions", completions, methods=["POST"]),
            Route("/v1/models", models, methods=["GET"]),
            Route("/health", health, methods=["GET"]),
        ],
        middleware=[Middleware(Guard, policy=policy, refuse=_refused)],
        lifespan=lifespan,
    )


def _refused(status: int, code: str, detail: str) -> Response:
    """A refusal of the guard (gm_tags.guard.http) in the OpenAI shape."""
    kind = "authentication_error" if status == 401 else "invalid_request_error"
    return error(status, detail, kind, code=code)


_NO_BUFFERING = {"cache-control": "no-cache", "x-accel-buffering": "no"}


def _document(path: Path) -> dict[str, Any]:
    try:
        document = json.loads(path.read_text(encoding="utf-8"))
    except OSError as failure:
        raise SourceError(f"{path}: cannot read the game: {failure.strerror}") from None
    except (json.JSONDecodeError, UnicodeDecodeError) as failure:
        raise SourceError(f"{path}: not a JSON game document: {failure}") from None
    if not isinstance(document, dict):
        raise SourceError(f"{path}: a game document is a JSON object")
    return document


async def _passed_on(
    client: httpx2.AsyncClient,
    body: dict[str, Any],
    headers: dict[str, str],
    summary: dict[str, Any],
) -> Response:
    """A request the proxy takes no turn from, sent on as it is; the answer comes back as it
    is, with `summary` as `gm_tags`."""
    stream = bool(body.get("stream"))
    outgoing = client.build_request("POST", "chat/completions", json=body, headers=headers)
    try:
        answer = await client.send(outgoing, stream=stream)
    except httpx2.HTTPError as failure:
        return _failed(failure)
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
        relayed(answer, summary), media_type="text/event-stream", headers=_NO_BUFFERING
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
        return error(answer.status_code, f"upstream: {text}", "upstream_error")
    if body is None:
        return error(502, "the upstream answered with something that is not JSON", "upstream_error")
    return JSONResponse(body, status_code=answer.status_code)


def _failed(failure: httpx2.HTTPError) -> Response:
    if isinstance(failure, httpx2.TimeoutException):
        return error(504, "the upstream did not answer in time", "timeout", code="upstream_timeout")
    return error(502, f"the upstream cannot be reached: {failure}", "upstream_error")
