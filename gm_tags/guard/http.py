"""The checks every request passes before it reaches a route, as one ASGI middleware shared by
`gm-tags serve` and `gm-tags proxy`, in this order:

1. **Host.** The Host header must name the server as it was told to answer (loopback names by
   default, more with `--allowed-host`): a page on a rebound domain (`attacker.example` resolving
   to 127.0.0.1) reaches the port, but its requests carry the attacker's name and are refused.
2. **Origin.** A state-changing request (POST, PUT, PATCH, DELETE) that a browser sent from
   another origin is refused: a page may change state only through its own server (or an origin
   let in with `--cors-origin`). Clients that are not browsers send no Origin and pass.
3. **Content type.** A body (of any length but 0) sent with POST, PUT or PATCH must be JSON
   (`application/json` or a `+json` type): an HTML form can send `text/plain` across origins
   without a preflight; JSON it cannot.
4. **Key.** With keys, `Authorization: Bearer KEY` must name a tenant; the request then carries
   the tenant in `scope["state"]["tenant"]`, and the client's Authorization goes no further.
   Without keys every request is the default tenant's. Paths the server lists as open (the
   health check, the play page's shell and static files) need no key.

Preflight requests (OPTIONS) need only pass the Host check; the service's CORS middleware, off
by default, answers them.
"""

from __future__ import annotations

from collections.abc import Callable, Collection
from dataclasses import dataclass, field
from urllib.parse import urlsplit

from starlette.responses import Response
from starlette.types import ASGIApp, Receive, Scope, Send

from ..tenants import DEFAULT_TENANT
from .keys import Keys
from .listening import LOOPBACK_NAMES

ANY_HOST = "*"
_CHANGING = frozenset({"POST", "PUT", "PATCH", "DELETE"})
_WITH_BODY = frozenset({"POST", "PUT", "PATCH"})

# (status, code, detail) -> the refusal in the server's own error shape.
Refuse = Callable[[int, str, str], Response]


@dataclass(frozen=True)
class Policy:
    """What a server lets in. `open_paths`, and the paths under `open_prefixes`, need no key."""

    keys: Keys | None = None
    allowed_hosts: frozenset[str] = LOOPBACK_NAMES
    cors_origins: frozenset[str] = frozenset()
    open_paths: Collection[str] = field(default_factory=frozenset)
    open_prefixes: tuple[str, ...] = ()

    def is_open(self, path: str) -> bool:
        return path in self.open_paths or path.startswith(self.open_prefixes)


def host_names(extra: Collection[str] = ()) -> frozenset[str]:
    """The loopback names and `extra` (names or addresses, without ports; `*` for any)."""
    return LOOPBACK_NAMES | {host.strip().lower().strip("[]") for host in extra}


class Guard:
    def __init__(self, app: ASGIApp, policy: Policy, refuse: Refuse) -> None:
        self.app, self.policy, self.refuse = app, policy, refuse

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        headers = {name.decode("latin-1"): value for name, value in scope["headers"]}
        refusal = self._refusal(scope, headers)
        if refusal is not None:
            await refusal(scope, receive, send)
            return
        await self.app(scope, receive, send)

    def _refusal(self, scope: Scope, headers: dict[str, bytes]) -> Response | None:
        method, path = scope["method"], scope["path"]
        host = headers.get("host", b"").decode("latin-1")
        if not self._host_allowed(host):
            return self.refuse(400, "host_not_allowed", f"this server does not answer to {host!r}")
        if method == "OPTIONS":
            return None
        origin = headers.get("origin")
        foreign = origin is not None and not self._origin_allowed(origin.decode("latin-1"), host)
        if method in _CHANGING and foreign:
            detail = "a page of another origin cannot change this server"
            return self.refuse(403, "origin_not_allowed", detail)
        has_body = headers.get("content-length", b"0") != b"0" or "transfer-encoding" in headers
        if method in _WITH_BODY and has_body and not _is_json(headers.get("content-type", b"")):
            return self.refuse(415, "unsupported_media_type", "send the body as application/json")
        tenant = self._tenant(headers.get("authorization", b"").decode("latin-1"))
        if tenant is None and not self.policy.is_open(path):
            response = self.refuse(401, "unauthorized", "send a key: Authorization: Bearer KEY")
            response.headers["WWW-Authenticate"] = "Bearer"
            return response
        scope.setdefault("state", {})["tenant"] = tenant
        return None

    def _host_allowed(self, host: str) -> bool:
        if ANY_HOST in self.policy.allowed_hosts:
            return True
        name = urlsplit(f"//{host}").hostname if host else None
        return name is not None and name in self.policy.allowed_hosts

    def _origin_allowed(self, origin: str, host: str) -> bool:
        if origin in self.policy.cors_origins:
            return True
        parts = urlsplit(origin)
        return parts.scheme in ("http", "https") and parts.netloc == host

    def _tenant(self, authorization: str) -> str | None:
        """The tenant of the request's key; the default tenant when the server has no keys."""
        if self.policy.keys is None:
            return DEFAULT_TENANT
        scheme, _, key = authorization.partition(" ")
        if scheme.lower() != "bearer" or not key.strip():
            return None
        return self.policy.keys.tenant(key.strip())


def _is_json(content_type: bytes) -> bool:
    kind = content_type.decode("latin-1").split(";")[0].strip().lower()
    return kind == "application/json" or (
        kind.startswith("application/") and kind.endswith("+json")
    )
