"""`gm-tags mcp`: the MCP server (gm_tags.mcp_server) on stdio, or on streamable HTTP with the
options and the guard every server takes. The SDK is imported only when the command runs."""

from __future__ import annotations

import argparse
import sys
from typing import TextIO

from .common import OK, UNREADABLE, Commands, reporting_input_errors
from .servers import add_server_options, needs_extra, ready_to_listen, run_server


def add_commands(commands: Commands) -> None:
    mcp = commands.add_parser(
        "mcp", help="an MCP server over the store, on stdio or HTTP (needs gm-tags[mcp])"
    )
    mcp.add_argument("--ruleset", required=True, metavar="PATH", help="the ruleset new chats play")
    mcp.add_argument(
        "--http",
        action="store_true",
        help="serve streamable HTTP at /mcp on --host and --port instead of stdio",
    )
    add_server_options(mcp, default_port=8002)
    mcp.set_defaults(run=serve_mcp)


@reporting_input_errors
def serve_mcp(args: argparse.Namespace, out: TextIO) -> int:
    keys, hosts = None, tuple[str, ...]()
    if args.http:
        access = ready_to_listen(args)
        if access is None:
            return UNREADABLE
        keys, hosts = access.keys, access.allowed_hosts
    elif args.keys or args.no_auth or args.allowed_host:
        print("gm-tags mcp: --keys, --no-auth and --allowed-host are for --http", file=sys.stderr)
        return UNREADABLE
    try:
        from ..mcp_server.server import create_server, http_app
    except ImportError:
        return needs_extra(args.command, "mcp")
    from ..chats.served import ServedChats
    from ..store import open_store

    served = ServedChats(lambda: open_store(args.db))
    server = create_server(args.ruleset, served)  # a refused ruleset opens no store
    served.open()
    try:
        if not args.http:
            server.run("stdio")
            return OK
        return run_server(http_app(server, keys=keys, allowed_hosts=hosts), args)
    finally:
        served.close()
