"""The protocol-neutral hop between a front-end and its model: the chats, the streams pending on
them, the upstreams, and what every wire format does the same way (which of the client's headers
go upstream, a turn planned and registered, a request sent). Each wire format
(`gm_tags.proxy.protocols`) reads its requests and writes its answers around this; the app
(`gm_tags.proxy.app`) puts them together."""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, cast

import anyio
from starlette.background import BackgroundTask
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import BaseRoute

from ..chats.plan import Plan
from ..chats.transcript import Said, chat_key, key_of
from ..guard.keys import Keys
from .chats import ProxyChats
from .clients import Answer, Outgoing, UpstreamClient
from .failures import INVALID, UPSTREAM, ProxyError
from .landings import Landings
from .passing import PassedTurn
from .reminders import written_ahead
from .spliced import encoded
from .streaming import Relay, RelayedStream
from .turns import AnswerTurn, PendingTurn

# The header a request may name its chat in (each protocol has a body field for it too).
CHAT_HEADER = "x-gm-chat"
# The longest reply kept, in characters (`--max-reply`): an upstream that never ends is cut here.
MAX_REPLY = 100_000
# Answers the client reads as they come: no proxy in between may hold them back.
NO_BUFFERING = {"cache-control": "no-cache", "x-accel-buffering": "no"}


@dataclass(frozen=True)
class Upstream:
    """One protocol's model: the client that reaches it, and the key the proxy sends in place of
    the client's (None: the client's own goes, unless the proxy has keys of its own)."""

    client: UpstreamClient
    key: str | None = None


@dataclass(frozen=True)
class Protocol:
    """One wire format: its routes, its error shape, and a header its clients may send their
    gm-tags key in besides `Authorization: Bearer` (Anthropic's clients send `x-api-key`)."""

    name: str
    routes: Sequence[BaseRoute]
    error: Callable[[ProxyError], Response]
    key_header: str | None = None


@dataclass(frozen=True)
class Wire:
    """How one protocol's answers are read: the upstream's `path`; its error shape; a streamed
    answer relayed as narration (`relay`); a whole answer as the client reads it (`whole`, None
    when it is not one), called `what`."""

    path: str
    what: str
    error: Callable[[ProxyError], Response]
    relay: Callable[[Answer, AnswerTurn, int], Relay]
    whole: Callable[[Any, AnswerTurn, int], dict[str, Any] | None]


@dataclass
class Hop:
    """What every protocol's routes share, one per app (`hop_of(request)`)."""

    chats: ProxyChats
    upstreams: Mapping[str, Upstream]
    keys: Keys | None = None
    budget: int | None = None
    max_reply: int = MAX_REPLY
    show_outcomes: bool = False
    landings: Landings = field(default_factory=Landings)

    def upstream(self, protocol: str, option: str) -> Upstream:
        """The protocol's upstream, or a 404 that names the option the proxy was started
        without."""
        found = self.upstreams.get(protocol)
        if found is None:
            message = f"this proxy was started without {option}: it does not forward {protocol}"
            raise ProxyError(404, message, INVALID, code="no_upstream")
        return found

    def headers(
        self,
        request: Request,
        upstream: Upstream,
        *,
        credentials: Sequence[str],
        passed: Sequence[str] = (),
        key_as: tuple[str, str] = ("authorization", "Bearer {}"),
        replaced: Sequence[str] = ("authorization",),
    ) -> dict[str, str]:
        """The client's headers the upstream gets: the ones always `passed`, and its
        `credentials` unless the proxy has keys (then they are gm-tags' own and go no further).
        When the proxy has a key for the upstream of its own, it goes as `key_as` says (a header
        and its form), in place of the client's `replaced` ones."""
        names = [*passed, *(credentials if self.keys is None else ())]
        if upstream.key is not None:
            names = [name for name in names if name not in replaced]
        headers = {name: request.headers[name] for name in names if name in request.headers}
        if upstream.key is not None:
            name, form = key_as
            headers[name] = form.format(upstream.key)
        return headers

    async def plan(
        self, request: Request, named: str | None, said: Sequence[Said]
    ) -> tuple[ProxyChats, Plan]:
        """The request's tenant's chats and the step it takes on them, once the streams pending
        on its chat have landed (an earlier stream the client just stopped lands first)."""
        tenant = request.state.tenant
        await self.landings.settled(tenant, chat_key(named, said) if named else None)
        chats = self.chats.for_tenant(tenant)
        return chats, await anyio.to_thread.run_sync(chats.plan, named, said)

    def pending(
        self,
        request: Request,
        chats: ProxyChats,
        named: str | None,
        said: Sequence[Said],
        plan: Plan,
        *,
        choices: int = 1,
        stream: bool = False,
        opening: str = "",
    ) -> PendingTurn:
        """The request's turn. A streamed one is registered now, not when the stream ends or is
        stopped: no request on this chat is planned before its reply lands."""
        turn = PendingTurn(
            chats,
            named,
            said,
            plan,
            choices=choices,
            show_outcomes=self.show_outcomes,
            opening=opening,
        )
        if stream:
            turn.landing = self.landings.begin(request.state.tenant, key_of(plan.line), turn)
        return turn

    async def send(
        self,
        upstream: Upstream,
        path: str,
        body: Mapping[str, Any] | bytes,
        headers: Mapping[str, str],
        *,
        stream: bool,
    ) -> Answer:
        """The upstream's answer to `body` at `path` (its body still to read when streaming);
        a body given as bytes is JSON written already (`gm_tags.proxy.spliced`)."""
        raw = body if isinstance(body, bytes) else encoded(body).encode("utf-8")
        headers = {**headers, "content-type": "application/json"}
        return await upstream.client.send(Outgoing("POST", path, headers, raw, stream))

    async def answer(
        self,
        wire: Wire,
        upstream: Upstream,
        turn: AnswerTurn,
        body: Mapping[str, Any] | bytes,
        headers: Mapping[str, str],
        *,
        stream: bool,
    ) -> Response:
        """The upstream's answer to `body`, the turn's request, as the client reads it. An
        error, or an answer that is not one, changes no game."""
        try:
            answer = await self.send(upstream, wire.path, body, headers, stream=stream)
        except BaseException:
            turn.settle()
            raise
        if answer.status >= 400:
            turn.settle()
            return await read_passed(answer, wire.error)
        # Once the answer is out, the reminders of the games it landed are written ahead.
        ahead = BackgroundTask(lambda: written_ahead(turn.games_after()))
        if stream:
            return RelayedStream(wire.relay(answer, turn, self.max_reply), NO_BUFFERING, ahead)
        try:
            # Reading, applying and writing a whole reply: off the loop.
            read = json.loads(await answer.read())
            whole = await anyio.to_thread.run_sync(wire.whole, read, turn, self.max_reply)
        except ValueError:
            whole = None
        if whole is None:
            raise ProxyError(502, f"the upstream answered with no {wire.what}", UPSTREAM)
        return JSONResponse(whole, background=ahead)

    async def pass_on(
        self,
        wire: Wire,
        upstream: Upstream,
        body: Mapping[str, Any],
        headers: Mapping[str, str],
        passing: tuple[str, str],
        *,
        choices: int = 1,
    ) -> Response:
        """A request the proxy takes no turn from (`passing`: the action it is and why), sent
        on as it is; its answer comes back without the tags the model wrote (`passing`),
        nothing applied or stored, and `gm_tags` says so."""
        turn = PassedTurn(self.chats.start, *passing, choices=choices)
        stream = bool(body.get("stream"))
        return await self.answer(wire, upstream, turn, body, headers, stream=stream)

    async def aclose(self) -> None:
        for upstream in self.upstreams.values():
            await upstream.client.close()
        self.chats.served.close()


def hop_of(request: Request) -> Hop:
    """The hop of the app the request came to."""
    return cast(Hop, request.app.state.hop)


async def read_passed(answer: Answer, error: Callable[[ProxyError], Response]) -> Response:
    """The upstream's answer read whole and closed, then `passed`."""
    try:
        raw = await answer.read()
    finally:
        await answer.close()
    return passed(answer, raw, error)


def passed(answer: Answer, raw: bytes, error: Callable[[ProxyError], Response]) -> Response:
    """The upstream's answer (`raw`, its body) as it is when it is JSON, else an `error` (in the
    protocol's shape) with its status."""
    try:
        body = json.loads(raw)
    except ValueError:
        body = None
    if answer.status >= 400 and not (isinstance(body, dict) and "error" in body):
        text = raw.decode("utf-8", "replace")[:500] or answer.reason
        return error(ProxyError(answer.status, f"upstream: {text}", UPSTREAM))
    if body is None:
        raise ProxyError(502, "the upstream answered with something that is not JSON", UPSTREAM)
    return JSONResponse(body, status_code=answer.status)
