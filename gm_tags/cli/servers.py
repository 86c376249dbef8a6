"""`gm-tags serve` (the HTTP service) and `gm-tags proxy` (the proxy in front of a model): the
options every server takes written once (`add_server_options`), and what every server does
before it listens (`ready_to_listen`) and to run (`run_server`)."""

from __future__ import annotations

import argparse
import gc
import sys
from typing import TYPE_CHECKING, Any, TextIO

from .common import OK, UNREADABLE, Commands, add_db, reporting_input_errors
from .options import port, positive, seconds, taken, upstream

if TYPE_CHECKING:
    from ..guard.options import Access

# The allocations (less deallocations) between two young collections of a server process: 700
# by default. Fewer, larger collections cost less in all: in 15 replies streamed through the
# proxy, 19 young collections and one of the middle generation (10-20 ms in all, up to 11 ms
# each) at 700, two young ones (9-15 ms, up to 8 ms each) at 5,000.
YOUNG_COLLECTION = 5_000


def add_commands(commands: Commands) -> None:
    serve = commands.add_parser("serve", help="the HTTP service (needs gm-tags[serve])")
    serve.add_argument(
        "--ruleset",
        action="append",
        metavar="PATH",
        help="a ruleset games can name by id (repeat for more)",
    )
    add_server_options(serve, default_port=8000)
    serve.add_argument(
        "--cors-origin",
        action="append",
        metavar="ORIGIN",
        help="let browser pages from this origin call the service (repeat for more; none by "
        "default)",
    )
    serve.add_argument(
        "--max-streams",
        type=positive,
        default=1000,
        metavar="N",
        help="open event streams (play pages) the process holds at most (default 1000)",
    )
    serve.add_argument(
        "--max-streams-per-key",
        type=positive,
        default=100,
        metavar="N",
        help="open event streams one key's tenant holds at most (default 100)",
    )
    serve.set_defaults(run=serve_service)
    proxy = commands.add_parser(
        "proxy",
        help="an OpenAI- and Anthropic-compatible proxy in front of a model (needs gm-tags[proxy])",
    )
    _add_proxy_options(proxy)
    add_server_options(proxy, default_port=8001)
    proxy.set_defaults(run=serve_proxy)


def add_server_options(parser: argparse.ArgumentParser, *, default_port: int) -> None:
    """The options every gm-tags server takes: its store, where it listens, how much it logs,
    and who may come in (`guard.options`)."""
    from ..guard.options import add_access_options

    add_db(parser)
    parser.add_argument("--host", default="127.0.0.1", help="the address (default 127.0.0.1)")
    parser.add_argument(
        "--port", type=port, default=default_port, help=f"the port (default {default_port})"
    )
    parser.add_argument("--log-level", default="info", help="uvicorn's log level (default info)")
    add_access_options(parser)


def _add_proxy_options(proxy: argparse.ArgumentParser) -> None:
    proxy.add_argument(
        "--upstream",
        type=upstream,
        metavar="URL",
        help="the model's OpenAI-compatible base URL (http://127.0.0.1:8080/v1), or "
        "replay:SESSION.jsonl to answer from a recorded session, for chat completions",
    )
    proxy.add_argument(
        "--anthropic-upstream",
        type=upstream,
        metavar="URL",
        help="the model's Anthropic-compatible base URL (https://api.anthropic.com), or "
        "replay:SESSION.jsonl, for Anthropic Messages (POST /v1/messages); give it, --upstream, "
        "or both",
    )
    proxy.add_argument("--ruleset", required=True, metavar="PATH", help="ruleset file or package")
    proxy.add_argument("--game", metavar="GAME.json", help="the game a new chat starts from")
    proxy.add_argument(
        "--upstream-key-env",
        metavar="NAME",
        help="send the key in this environment variable upstream, instead of the client's",
    )
    proxy.add_argument(
        "--anthropic-key-env",
        metavar="NAME",
        help="send the key in this environment variable to the Anthropic upstream (x-api-key), "
        "instead of the client's",
    )
    proxy.add_argument(
        "--timeout",
        type=seconds,
        default=600.0,
        help="seconds to wait on the upstream (600)",
    )
    proxy.add_argument(
        "--prompt-budget",
        type=positive,
        metavar="TOKENS",
        help="cut the rules reference in the system section to this many tokens",
    )
    proxy.add_argument(
        "--max-reply",
        type=positive,
        default=100_000,
        metavar="CHARS",
        help="cut a reply longer than this many characters, keeping it as shown (100000)",
    )
    proxy.add_argument(
        "--show-outcomes",
        action="store_true",
        help="add a line of what the engine did to the narration the client gets",
    )
    proxy.add_argument(
        "--no-page",
        dest="page",
        action="store_false",
        help="serve only the model's protocols: not the play page and the API it reads",
    )


@reporting_input_errors
def serve_service(args: argparse.Namespace, out: TextIO) -> int:
    access = ready_to_listen(args)
    if access is None:
        return UNREADABLE
    try:
        import uvicorn  # noqa: F401  (part of the extra: missing, it is said here)

        from ..service import create_app
    except ImportError:
        return needs_extra(args.command, "serve")
    from ..web.watch import StreamLimits

    app = create_app(
        args.db,
        args.ruleset or (),
        args.cors_origin or (),
        keys=access.keys,
        allowed_hosts=access.allowed_hosts,
        stream_limits=StreamLimits(args.max_streams, args.max_streams_per_key),
    )
    return run_server(app, args)


@reporting_input_errors
def serve_proxy(args: argparse.Namespace, out: TextIO) -> int:
    if not args.upstream and not args.anthropic_upstream:
        print(
            "gm-tags proxy: give --upstream (chat completions), --anthropic-upstream "
            "(Anthropic Messages), or both",
            file=sys.stderr,
        )
        return UNREADABLE
    access = ready_to_listen(args)
    if access is None:
        return UNREADABLE
    try:
        import uvicorn  # noqa: F401  (part of the extra: missing, it is said here)

        from ..proxy import create_proxy_app
        from ..service.app import proxy_page
    except ImportError:
        return needs_extra(args.command, "proxy")
    app = create_proxy_app(
        args.upstream,
        args.ruleset,
        args.db,
        anthropic_upstream=args.anthropic_upstream,
        game=args.game,
        upstream_key_env=args.upstream_key_env,
        anthropic_key_env=args.anthropic_key_env,
        timeout=args.timeout,
        budget=args.prompt_budget,
        max_reply=args.max_reply,
        show_outcomes=args.show_outcomes,
        keys=access.keys,
        allowed_hosts=access.allowed_hosts,
        page=proxy_page(args.ruleset, keys=access.keys, allowed_hosts=access.allowed_hosts)
        if args.page
        else None,
    )
    return run_server(app, args)


def ready_to_listen(args: argparse.Namespace) -> Access | None:
    """Who the server lets in (`guard.options.Access`), or None when it must not start (said on
    stderr): an address it may not listen on without keys, or a port it cannot take (asked
    before the store is opened, so a port in use leaves no new, empty store behind). Keys that
    do not read are raised as `SourceError`, for the caller to report."""
    from ..guard.listening import ListenRefused
    from ..guard.options import access_from

    try:
        access = access_from(args)
    except ListenRefused as refused:
        print(f"gm-tags {args.command}: {refused}", file=sys.stderr)
        return None
    if problem := taken(args.host, args.port):
        print(problem, file=sys.stderr)
        return None
    return access


def needs_extra(command: str, extra: str) -> int:
    print(
        f"gm-tags {command} needs the {extra} extra: from the project folder, "
        f'pip install ".[{extra}]"',
        file=sys.stderr,
    )
    return UNREADABLE


def run_server(app: Any, args: argparse.Namespace) -> int:
    import uvicorn

    _built_ahead()
    _settle_the_heap()
    # Open event streams (a play page left open) must not hold a stopping server: 3 s at most.
    uvicorn.run(
        app,
        host=args.host,
        port=args.port,
        log_level=args.log_level,
        timeout_graceful_shutdown=3,
    )
    return OK


def _built_ahead() -> None:
    """What the first reply would wait for, built before the server listens: the tag grammar's
    parser and the patterns a streamed reply's tags are found with (importing lark and building
    the grammar took the proxy's first request ~0.1 s more than the next; docs/proxy.md,
    "Measured")."""
    from ..grammar import opening
    from ..narrator import opening_so_far

    opening()
    opening_so_far()


def _settle_the_heap() -> None:
    """What the server loaded before it listens (the modules, the ruleset, the app) put out of
    the garbage collector's way: it lives as long as the process, and a full collection scans it
    all (one took the proxy 110-210 ms in a benchmark run of 135 replies; none with it frozen).
    Young collections come less often (`YOUNG_COLLECTION`)."""
    gc.collect()
    gc.freeze()
    gc.set_threshold(YOUNG_COLLECTION, *gc.get_threshold()[1:])
