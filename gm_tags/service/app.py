"""The HTTP service: `create_app(db, rulesets)` is an ASGI app; `gm-tags serve` runs it.

One router a resource (`rulesets`, `games`, `messages`, `sheets`), the play page's routes
(gm_tags.web.routes), the guard, the body limit, and the error handlers (`errors`: every refusal
is answered with `{"code", "detail", "problems"}`; docs/service.md lists the codes).
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable, Collection, Sequence
from contextlib import asynccontextmanager
from pathlib import Path

from fastapi import FastAPI
from starlette.middleware.cors import CORSMiddleware

from ..chats.served import ServedChats
from ..guard.http import Guard, Policy, host_names
from ..guard.keys import Keys
from ..ruleset import load_ruleset
from ..settings import DEFAULT_DB, MAX_BODY_BYTES
from ..store import open_store
from ..web.routes import OPEN_PATHS, OPEN_PREFIXES, install_play_page
from ..web.watch import StreamLimits, Watcher
from .depends import InstalledRulesets
from .errors import error_response, install_error_handlers
from .games import router as games
from .limits import BodyLimit
from .messages import router as messages
from .rulesets import router as service
from .sheets import router as sheets

# One router a resource, in the order the API's description lists them.
ROUTERS = (service, games, messages, sheets)

# What a browser or a load balancer reads without a key: the health check and the API's docs.
SERVICE_OPEN_PATHS = frozenset(
    {"/health", "/docs", "/docs/oauth2-redirect", "/redoc", "/openapi.json"}
)


def create_app(
    db: str | Path = DEFAULT_DB,
    rulesets: Sequence[str | Path] = (),
    cors_origins: Sequence[str] = (),
    *,
    keys: Keys | None = None,
    allowed_hosts: Collection[str] = (),
    stream_limits: StreamLimits | None = None,
) -> FastAPI:
    """The service over the store at `db`; `rulesets` (files or package folders) can be named
    by id when creating a game; browsers on `cors_origins` may call it (none by default). With
    `keys`, every request needs one and sees only its tenant's chats. The Host header must be a
    loopback name or one of `allowed_hosts` (`*` for any). The store is closed when the app shuts
    down."""
    installed: InstalledRulesets = {}
    for path in rulesets:
        ruleset = load_ruleset(path)
        installed[ruleset.id] = (str(Path(path).resolve()), ruleset)
    served = ServedChats(lambda: open_store(db))
    served.open()  # now, so a file that is not a store is refused before anything is served
    return service_app(
        served,
        installed,
        cors_origins,
        keys=keys,
        allowed_hosts=allowed_hosts,
        stream_limits=stream_limits,
    )


def proxy_page(
    ruleset: str | Path, *, keys: Keys | None = None, allowed_hosts: Collection[str] = ()
) -> Callable[[ServedChats], FastAPI]:
    """What `gm-tags proxy` serves beside the model's protocols (`create_proxy_app(page=...)`):
    this service over the proxy's chats, the proxy's ruleset installed, behind the same `keys` and
    `allowed_hosts`."""
    loaded = load_ruleset(ruleset)
    installed = {loaded.id: (str(Path(ruleset).resolve()), loaded)}

    def page(served: ServedChats) -> FastAPI:
        return service_app(served, installed, keys=keys, allowed_hosts=allowed_hosts)

    return page


def service_app(
    served: ServedChats,
    installed: InstalledRulesets,
    cors_origins: Sequence[str] = (),
    *,
    keys: Keys | None = None,
    allowed_hosts: Collection[str] = (),
    stream_limits: StreamLimits | None = None,
) -> FastAPI:
    """The service over chats already open: `create_app`'s, or the proxy's (`gm-tags proxy`
    serves the play page and this API beside its own routes, over its own chats, so a page sees
    the proxy's turns at once and the proxy's next request sees the page's changes). It guards
    itself; its lifespan closes `served` (when mounted in another app, that app closes it)."""
    app = FastAPI(
        title="gm-tags",
        summary="Apply the command tags a language-model Game Master writes, against a ruleset.",
        version="0.1.0",
        lifespan=_lifespan,
    )
    app.state.chats, app.state.rulesets = served, installed
    _add_middleware(app, keys, allowed_hosts, cors_origins)
    install_error_handlers(app)
    watcher = Watcher(served.revisions, stream_limits or StreamLimits(), keyed=keys is not None)
    served.changed = watcher.changed
    install_play_page(app, watcher)
    for router in ROUTERS:
        app.include_router(router)
    return app


@asynccontextmanager
async def _lifespan(app: FastAPI) -> AsyncIterator[None]:
    """The store is closed when the app shuts down (and opened again if it starts again)."""
    try:
        yield
    finally:
        app.state.chats.close()


def _add_middleware(
    app: FastAPI, keys: Keys | None, allowed_hosts: Collection[str], cors_origins: Sequence[str]
) -> None:
    """The guard (keys, Host names, browsers' origins), CORS when asked for, and the body limit
    (the outermost: a body too large is refused before anything reads it)."""
    policy = Policy(
        keys=keys,
        allowed_hosts=host_names(allowed_hosts),
        cors_origins=frozenset(cors_origins),
        open_paths=OPEN_PATHS | SERVICE_OPEN_PATHS,
        open_prefixes=OPEN_PREFIXES,
    )
    app.add_middleware(Guard, policy=policy, refuse=error_response)
    if cors_origins:
        app.add_middleware(
            CORSMiddleware,
            allow_origins=list(cors_origins),
            allow_methods=["GET", "POST", "DELETE"],
            allow_headers=["Content-Type", "Authorization"],
        )
    app.add_middleware(BodyLimit, limit=MAX_BODY_BYTES)
