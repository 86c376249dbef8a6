"""The MCP server: the tools of `GameTools` on the SDK's `MCPServer`, over stdio or streamable
HTTP. Over HTTP every request passes the same guard as `gm-tags serve` and `gm-tags proxy`
(gm_tags.guard: the Host header, the Origin of a state-changing request, JSON bodies, and with
keys a key naming the tenant whose chats the request reaches)."""

from __future__ import annotations

from collections.abc import Collection
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path

from mcp.server.mcpserver import MCPServer
from mcp.server.transport_security import TransportSecuritySettings
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.types import ASGIApp

from ..chats.served import ServedChats
from ..guard.http import Guard, Policy, host_names
from ..guard.keys import Keys
from ..ruleset import load_ruleset
from ..settings import MAX_BODY_BYTES
from .tools import TOOLS, GameTools

MCP_PATH = "/mcp"
HEALTH_PATH = "/health"

INSTRUCTIONS = (
    "gm-tags applies the command tags a Game Master writes in a reply against a ruleset's "
    "character sheets. Start a chat (start_chat), then give each model reply to apply_reply: "
    "it runs the tags, keeps the turn and answers with the narration and a receipt per command. "
    "Regenerating a reply is apply_reply with message= the last reply's index. Read the state "
    "with read_sheet, prompt_blocks and list_swipes; roll a check with roll_check."
)


def create_server(ruleset: str | Path, served: ServedChats) -> MCPServer:
    """The MCP server over `served`; new chats play the ruleset at `ruleset` (a file or a
    package folder; `RulesetError` when it is refused)."""
    source: dict[str, object] = {"path": str(Path(ruleset).resolve())}
    server: MCPServer = MCPServer(
        "gm-tags", instructions=INSTRUCTIONS, version=_version(), log_level="WARNING"
    )
    tools = GameTools(served, load_ruleset(ruleset), source)
    for name in TOOLS:
        tool = getattr(tools, name)
        # One paragraph: a docstring's line breaks and indent mean nothing to a client.
        described = " ".join((tool.__doc__ or "").split())
        server.add_tool(tool, description=described, structured_output=True)

    # The SDK leaves custom_route unannotated; the route is a plain Starlette endpoint.
    @server.custom_route(HEALTH_PATH, methods=["GET"])  # type: ignore[untyped-decorator]
    async def health(_: Request) -> Response:
        return JSONResponse({"status": "ok"})

    return server


def http_app(
    server: MCPServer, *, keys: Keys | None = None, allowed_hosts: Collection[str] = ()
) -> ASGIApp:
    """`server` over streamable HTTP at `/mcp`, behind the servers' guard. The SDK's own Host
    and Origin checks are left off: the guard's are the ones `--allowed-host` configures."""
    app = server.streamable_http_app(
        streamable_http_path=MCP_PATH,
        stateless_http=True,
        json_response=True,
        max_request_body_size=MAX_BODY_BYTES,
        transport_security=TransportSecuritySettings(enable_dns_rebinding_protection=False),
    )
    policy = Policy(keys=keys, allowed_hosts=host_names(allowed_hosts), open_paths={HEALTH_PATH})
    return Guard(app, policy=policy, refuse=_refusal)


def _version() -> str:
    try:
        return version("gm-tags")
    except PackageNotFoundError:
        return "unknown"


def _refusal(status: int, code: str, detail: str) -> Response:
    return JSONResponse({"code": code, "detail": detail}, status_code=status)
