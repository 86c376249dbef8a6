"""`gm-tags proxy`: a hop between a chat front-end and its model, in the front-end's own protocol.

The app is short: the protocol-neutral hop (`gm_tags.proxy.hop`: the chats, the upstreams), each
protocol's routes (`gm_tags.proxy.protocols`: OpenAI's chat completions, Anthropic's Messages),
`GET /health`, the guard every request passes, and error handlers that answer a `ProxyError` or
an unreachable upstream in the shape of the protocol the request came in on. docs/proxy.md has
the whole story.
"""

from __future__ import annotations

import json
import os
from collections.abc import AsyncIterator, Callable, Collection, Sequence
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import BaseRoute, Mount, Route
from starlette.types import ASGIApp, Receive, Scope, Send

from ..chats.served import ServedChats
from ..errors import SettingError, SourceError
from ..game import Game
from ..guard.http import Guard, Policy, Refuse, host_names
from ..guard.keys import Keys
from ..ruleset import load_ruleset
from ..settings import DEFAULT_DB
from ..store import open_store
from .chats import ProxyChats
from .clients import UpstreamError
from .failures import INVALID, UNAUTHORIZED, ProxyError, upstream_failure
from .hop import CHAT_HEADER, MAX_REPLY, Hop, Protocol, Upstream
from .protocols import anthropic, openai
from .upstream import upstream_client

__all__ = ["CHAT_HEADER", "MAX_REPLY", "create_proxy_app"]

PROTOCOLS: tuple[Protocol, ...] = (openai.PROTOCOL, anthropic.PROTOCOL)


def create_proxy_app(
    upstream: str | None,
    ruleset: str | Path,
    db: str | Path = DEFAULT_DB,
    *,
    anthropic_upstream: str | None = None,
    game: str | Path | None = None,
    upstream_key_env: str | None = None,
    anthropic_key_env: str | None = None,
    timeout: float = 600.0,
    budget: int | None = None,
    max_reply: int = MAX_REPLY,
    show_outcomes: bool = False,
    keys: Keys | None = None,
    allowed_hosts: Collection[str] = (),
    page: Callable[[ServedChats], ASGIApp] | None = None,
) -> Starlette:
    """The proxy to `upstream` (an OpenAI-compatible base URL or `replay:SESSION.jsonl`, for
    chat completions) and `anthropic_upstream` (an Anthropic-compatible base URL, for Messages),
    one of them at least, for chats under `ruleset`, kept in the store at `db`; a new chat starts
    from `game` (a game document) or the ruleset's defaults. `upstream_key_env` and
    `anthropic_key_env` name environment variables whose keys replace the client's own (a
    `SettingError` when one is not set). `budget` cuts the rules reference to
    that many tokens; `max_reply` cuts a reply that runs longer (in characters);
    `show_outcomes` adds a line of what the engine did to the narration
    (`gm_tags.proxy.outcomes`). With `keys`, every request needs one (`Authorization: Bearer
    KEY`) and reaches only its tenant's chats, and its credentials go no further: the upstream
    gets the proxy's own key, or none. The Host header must be a loopback name or one of
    `allowed_hosts`. `page` makes the app that answers every other path over the proxy's own
    chats (`gm-tags proxy` gives the service's: the play page and the API it reads), guarding
    itself with the same keys and Host names; without it, other paths are not found."""
    if upstream is None and anthropic_upstream is None:
        raise SettingError(
            "the proxy needs an upstream: --upstream for chat completions, "
            "--anthropic-upstream for Anthropic Messages, or both"
        )
    given = {openai.NAME: (upstream, upstream_key_env)}
    given[anthropic.NAME] = (anthropic_upstream, anthropic_key_env)
    keyed = {name: (url, _key(env)) for name, (url, env) in given.items() if url is not None}
    loaded = load_ruleset(ruleset)
    start = Game.new(loaded)
    if game is not None:
        start = Game.from_document(loaded, _document(Path(game)))
    upstreams = {
        name: Upstream(upstream_client(url, timeout), key) for name, (url, key) in keyed.items()
    }
    served = ServedChats(lambda: open_store(db))
    served.open()
    chats = ProxyChats(served, {"path": str(Path(ruleset).resolve())}, start)
    hop = Hop(
        chats,
        upstreams,
        keys=keys,
        budget=budget,
        max_reply=max_reply,
        show_outcomes=show_outcomes,
    )

    @asynccontextmanager
    async def lifespan(_: Starlette) -> AsyncIterator[None]:
        try:
            yield
        finally:
            await hop.aclose()

    policy = Policy(keys=keys, allowed_hosts=host_names(allowed_hosts), open_paths={"/health"})
    routes: list[BaseRoute] = [route for protocol in PROTOCOLS for route in protocol.routes]
    routes.append(Route("/health", health, methods=["GET"]))
    if page is not None:
        routes.append(Mount("", app=page(served)))
    guard = Middleware(
        ProtocolGuard, policy=policy, protocols=PROTOCOLS, rest_guarded=page is not None
    )
    app = Starlette(
        routes=routes,
        middleware=[guard],
        exception_handlers={ProxyError: _failed, UpstreamError: _unreachable},
        lifespan=lifespan,
    )
    app.state.hop = hop
    return app


async def health(_: Request) -> Response:
    return JSONResponse({"status": "ok"})


class ProtocolGuard:
    """The guard every request passes (`gm_tags.guard.http`), refusing in the shape of the
    protocol the request's path speaks; a key a protocol's clients send in their own header
    (`Protocol.key_header`) counts as `Authorization: Bearer KEY`. With `rest_guarded`, a path
    no protocol speaks (nor /health) goes on unguarded here: the app mounted for the other
    paths (the play page's) guards it with the same policy, and refuses in its own shape."""

    def __init__(
        self,
        app: ASGIApp,
        policy: Policy,
        protocols: Sequence[Protocol],
        *,
        rest_guarded: bool = False,
    ) -> None:
        self.guards: dict[str, tuple[ASGIApp, str | None]] = {}
        for protocol in protocols:
            guard = Guard(app, policy, _refusal_in(protocol))
            for route in protocol.routes:
                self.guards[getattr(route, "path", "")] = (guard, protocol.key_header)
        self.fallback: ASGIApp = Guard(app, policy, _refusal_in(protocols[0]))
        self.guards["/health"] = (self.fallback, None)
        if rest_guarded:
            self.fallback = app
        self.keyed = policy.keys is not None

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        guard, key_header = self.guards.get(scope.get("path", ""), (self.fallback, None))
        if key_header is not None and self.keyed and scope["type"] == "http":
            scope = _with_bearer(scope, key_header.encode("latin-1"))
        await guard(scope, receive, send)


def _with_bearer(scope: Scope, header: bytes) -> Scope:
    """`scope` with the key in `header` as its Authorization, when it sends no Authorization."""
    headers = list(scope["headers"])
    names = {name.lower() for name, _ in headers}
    if b"authorization" in names:
        return scope
    key = next((value for name, value in headers if name.lower() == header), None)
    if key is None:
        return scope
    return {**scope, "headers": [*headers, (b"authorization", b"Bearer " + key)]}


def _refusal_in(protocol: Protocol) -> Refuse:
    def refuse(status: int, code: str, detail: str) -> Response:
        kind = UNAUTHORIZED if status == 401 else INVALID
        return protocol.error(ProxyError(status, detail, kind, code=code))

    return refuse


# Which protocol a path speaks; any other path (a 404, /health) answers in the first one's shape.
_SPOKEN = {
    getattr(route, "path", ""): protocol for protocol in PROTOCOLS for route in protocol.routes
}


def _shape(request: Request) -> Protocol:
    return _SPOKEN.get(request.url.path, PROTOCOLS[0])


async def _failed(request: Request, failure: Exception) -> Response:
    assert isinstance(failure, ProxyError)
    return _shape(request).error(failure)


async def _unreachable(request: Request, failure: Exception) -> Response:
    assert isinstance(failure, UpstreamError)
    return _shape(request).error(upstream_failure(failure))


def _key(variable: str | None) -> str | None:
    """The key in the environment variable `variable` names, or None when it names none."""
    if variable is None:
        return None
    key = os.environ.get(variable, "")
    if not key:
        raise SettingError(f"the environment variable {variable} is not set")
    return key


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
