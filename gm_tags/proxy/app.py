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
import threading
from collections.abc import AsyncIterator, Mapping
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import anyio
import httpx2
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse, Response, StreamingResponse
from starlette.routing import Route

from ..errors import SourceError
from ..game import Game
from ..ruleset import load_ruleset
from ..service.chats import ServedChats
from ..settings import DEFAULT_DB
from ..storage import open_store
from ..stream import ReplyStream
from .chats import Landed, ProxyChats
from .messages import upstream_messages
from .transcript import Plan, Said, chat_key, conversation
from .upstream import upstream_client

CHAT_HEADER = "x-gm-chat"
# Headers of the client's request the upstream gets as they are.
_FORWARDED = ("authorization", "openai-organization", "openai-project")


def error(status: int, message: str, kind: str, code: str | None = None) -> JSONResponse:
    """An error as OpenAI-compatible clients read it."""
    body = {"error": {"message": message, "type": kind, "param": None, "code": code}}
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
) -> Starlette:
    """The proxy to `upstream` (a base URL or `replay:SESSION.jsonl`) for chats under `ruleset`,
    kept in the store at `db`; a new chat starts from `game` (a game document) or the ruleset's
    defaults. `upstream_key_env` names an environment variable whose key replaces the client's
    `Authorization`. `budget` cuts the rules reference to that many tokens."""
    loaded = load_ruleset(ruleset)
    start = Game.new(loaded)
    if game is not None:
        start = Game.from_document(loaded, _document(Path(game)))
    served = ServedChats(lambda: open_store(db))
    served.open()
    chats = ProxyChats(served, {"path": str(Path(ruleset).resolve())}, start)
    client = upstream_client(upstream, timeout)
    key = os.environ.get(upstream_key_env, "") if upstream_key_env else None
    if upstream_key_env and not key:
        raise SystemExit(f"the environment variable {upstream_key_env} is not set")

    def headers_for(request: Request) -> dict[str, str]:
        headers = {name: request.headers[name] for name in _FORWARDED if name in request.headers}
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
            body = json.loads(await request.body())
        except (json.JSONDecodeError, UnicodeDecodeError):
            return error(400, "the request body is not JSON", "invalid_request_error")
        messages = body.get("messages") if isinstance(body, dict) else None
        if not isinstance(messages, list) or not all(isinstance(m, dict) for m in messages):
            return error(400, "messages must be a list of messages", "invalid_request_error")
        if body.get("n", 1) != 1:
            return error(
                400, "gm-tags applies one reply a turn: n must be 1", "invalid_request_error"
            )
        said = conversation(messages)
        named = request.headers.get(CHAT_HEADER) or body.get("user")
        chat = chat_key(named if isinstance(named, str) else None, said)
        plan = await anyio.to_thread.run_sync(chats.plan, chat, said)
        forwarded = {**body, "messages": upstream_messages(messages, plan.game, budget)}
        turn = _Turn(chats, chat, said, plan)
        outgoing = client.build_request(
            "POST", "chat/completions", json=forwarded, headers=headers_for(request)
        )
        try:
            answer = await client.send(outgoing, stream=bool(body.get("stream")))
        except httpx2.HTTPError as failure:
            return _failed(failure)
        if answer.status_code >= 400:
            await answer.aread()
            await answer.aclose()
            return _passed(answer)
        if body.get("stream"):
            return StreamingResponse(
                _events(answer, turn), media_type="text/event-stream", headers=_NO_BUFFERING
            )
        try:
            completion = answer.json()
            content = completion["choices"][0]["message"].get("content")
        except (ValueError, KeyError, IndexError, TypeError, AttributeError):
            return error(502, "the upstream answered with no completion", "upstream_error")
        if not isinstance(content, str):  # a refusal or a tool call: no reply to apply
            return JSONResponse(completion)
        stream = plan.game.stream(continues=plan.action == "continue")
        stream.feed(content)
        _, finished = stream.finish()
        landed = await anyio.to_thread.run_sync(turn.land, content, stream, False)
        completion["choices"][0]["message"]["content"] = finished.narration
        completion["gm_tags"] = landed.summary()
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

    return Starlette(
        routes=[
            Route("/v1/chat/completions", completions, methods=["POST"]),
            Route("/v1/models", models, methods=["GET"]),
            Route("/health", health, methods=["GET"]),
        ],
        lifespan=lifespan,
    )


_NO_BUFFERING = {"cache-control": "no-cache", "x-accel-buffering": "no"}


class _Turn:
    """One request's turn: written once, whether the reply finished or was cut off."""

    def __init__(self, chats: ProxyChats, key: str, said: list[Said], plan: Plan) -> None:
        self.chats, self.key, self.said, self.plan = chats, key, said, plan
        self._lock = threading.Lock()
        self.landed: Landed | None = None

    def land(self, text: str, stream: ReplyStream[Game], stopped: bool) -> Landed:
        with self._lock:
            if self.landed is None:
                turn = stream.stop() if stopped else stream.finish()[1]
                self.landed = self.chats.land(self.key, self.said, self.plan, stream.text, turn)
            return self.landed


async def _events(answer: httpx2.Response, turn: _Turn) -> AsyncIterator[str]:
    """The upstream's stream with narration for content, then a last chunk with the rest of the
    narration and `gm_tags`, the turn written, then `[DONE]`. A reply the client stops reading
    is written as far as it was given out; one the upstream breaks off changes nothing."""
    stream = turn.plan.game.stream(continues=turn.plan.action == "continue")
    last: dict[str, Any] = {}
    finish: str | None = None
    ended = False
    try:
        async for line in answer.aiter_lines():
            if not line.startswith("data:"):
                continue
            data = line[5:].strip()
            if data == "[DONE]":
                break
            chunk = _chunk(data)
            if chunk is None or "error" in chunk:
                ended = True
                yield _sse(chunk or _broken("the upstream sent a chunk that is not JSON"))
                return
            choices = chunk.get("choices")
            if not choices:
                yield _sse(chunk)  # usage and other chunks without choices pass as they are
                continue
            last = chunk
            choice = choices[0]
            delta = dict(choice.get("delta") or {})
            content = delta.pop("content", None)
            finish = choice.get("finish_reason") or finish
            shown = stream.feed(content) if isinstance(content, str) else ""
            if shown:
                delta["content"] = shown
            if delta:
                yield _sse(_with_delta(chunk, delta, None))
        else:
            ended = True
            yield _sse(_broken("the upstream stream ended without [DONE]"))
            return
        rest, _ = stream.finish()
        landed = await anyio.to_thread.run_sync(turn.land, stream.text, stream, False)
        final = _with_delta(last, {"content": rest} if rest else {}, finish or "stop")
        final["gm_tags"] = landed.summary()
        yield _sse(final)
        yield "data: [DONE]\n\n"
        ended = True
    except httpx2.HTTPError as failure:
        ended = True
        yield _sse(_broken(f"the upstream failed mid-stream: {type(failure).__name__}"))
    finally:
        if not ended and stream.text:
            turn.land(stream.text, stream, True)  # the client went away: keep what it saw
        with anyio.CancelScope(shield=True):
            await answer.aclose()


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


def _chunk(data: str) -> dict[str, Any] | None:
    try:
        chunk = json.loads(data)
    except json.JSONDecodeError:
        return None
    return chunk if isinstance(chunk, dict) else None


def _with_delta(
    chunk: Mapping[str, Any], delta: dict[str, Any], finish: str | None
) -> dict[str, Any]:
    choice = {"index": 0, "delta": delta, "finish_reason": finish}
    return {**chunk, "choices": [choice]}


def _broken(message: str) -> dict[str, Any]:
    return {"error": {"message": message, "type": "upstream_error", "param": None, "code": None}}


def _sse(chunk: Mapping[str, Any]) -> str:
    return f"data: {json.dumps(chunk, ensure_ascii=False)}\n\n"


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
        return error(504, "the upstream did not answer in time", "timeout", "upstream_timeout")
    return error(502, f"the upstream cannot be reached: {failure}", "upstream_error")
