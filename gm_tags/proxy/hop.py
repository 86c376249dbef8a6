"""The protocol-neutral hop between a front-end and its model: the chats, the streams pending on
them, the upstreams, and what every wire format does the same way (which of the client's headers
go upstream, a turn planned and registered, a request sent). Each wire format
(`gm_tags.proxy.protocols`) reads its requests and writes its answers around this; the app
(`gm_tags.proxy.app`) puts them together."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, cast

import anyio
import httpx2
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import BaseRoute

from ..chats.transcript import Said, chat_key, key_of
from ..guard.keys import Keys
from .chats import ProxyChats
from .failures import INVALID, ProxyError
from .landings import Landings
from .plan import Plan
from .turns import PendingTurn

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

    client: httpx2.AsyncClient
    key: str | None = None


@dataclass(frozen=True)
class Protocol:
    """One wire format: its routes, its error shape, and a header its clients may send their
    gm-tags key in besides `Authorization: Bearer` (Anthropic's clients send `x-api-key`)."""

    name: str
    routes: Sequence[BaseRoute]
    error: Callable[[ProxyError], Response]
    key_header: str | None = None


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
    ) -> dict[str, str]:
        """The client's headers the upstream gets: the ones always `passed`, its `credentials`
        unless the proxy has keys (then they are gm-tags' own and go no further), and the
        proxy's own key, if it has one, as `key_as` says (a header and its form)."""
        names = [*passed, *(credentials if self.keys is None else ())]
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
    ) -> PendingTurn:
        """The request's turn. A streamed one is registered now, not when the stream ends or is
        stopped: no request on this chat is planned before its reply lands."""
        turn = PendingTurn(
            chats, named, said, plan, choices=choices, show_outcomes=self.show_outcomes
        )
        if stream:
            turn.landing = self.landings.begin(request.state.tenant, key_of(plan.line), turn)
        return turn

    async def send(
        self,
        upstream: Upstream,
        path: str,
        body: Mapping[str, Any],
        headers: Mapping[str, str],
        *,
        stream: bool,
    ) -> httpx2.Response:
        """The upstream's answer to `body` at `path` (its body still to read when streaming)."""
        outgoing = upstream.client.build_request("POST", path, json=body, headers=headers)
        return await upstream.client.send(outgoing, stream=stream)

    async def aclose(self) -> None:
        for upstream in self.upstreams.values():
            await upstream.client.aclose()
        self.chats.served.close()


def hop_of(request: Request) -> Hop:
    """The hop of the app the request came to."""
    return cast(Hop, request.app.state.hop)
