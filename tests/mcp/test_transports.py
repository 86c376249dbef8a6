"""`gm-tags mcp` as its users run it, driven by the official `mcp` client: a real subprocess on
stdio, and a real streamable HTTP server on loopback with keys (each tenant sees its own chats;
no key, no answer). Each lists the tools and plays a short chat with a regenerate."""

from __future__ import annotations

import sys
from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager
from pathlib import Path

import anyio
import pytest

from gm_tags.mcp_server.tools import TOOLS
from tests.mcp.sdk import GAME, RULESET, call, need_mcp, play_short_chat
from tests.proxy.conftest import ROOT, started, stopped
from tests.security.conftest import call as http_call
from tests.service.server import free_port

need_mcp()

import httpx2  # noqa: E402
from mcp import Client, StdioServerParameters  # noqa: E402
from mcp.client.streamable_http import streamable_http_client  # noqa: E402
from mcp.shared.exceptions import MCPError  # noqa: E402

pytestmark = pytest.mark.slow
ALPHA_KEY = "alpha-key-4f9c2b7e1d"
BETA_KEY = "beta-key-8a1e5c3f90"


def command(db: Path, *more: str) -> list[str]:
    cli = [sys.executable, "-m", "gm_tags.cli", "mcp", "--ruleset", str(RULESET)]
    return [*cli, "--db", str(db), *more]


def test_over_stdio_the_client_lists_the_tools_and_plays_a_chat(tmp_path: Path) -> None:
    server = StdioServerParameters(
        command=command(tmp_path / "chats.sqlite")[0],
        args=command(tmp_path / "chats.sqlite")[1:],
        cwd=str(ROOT),
    )

    async def scenario() -> None:
        async with Client(server) as client:
            assert [tool.name for tool in (await client.list_tools()).tools] == list(TOOLS)
            await play_short_chat(client, "heist")

    anyio.run(scenario)


@pytest.fixture
def http_server(tmp_path: Path) -> Iterator[str]:
    keys = tmp_path / "keys.txt"
    keys.write_text(f"alpha={ALPHA_KEY}\nbeta={BETA_KEY}\n", encoding="utf-8")
    port = free_port()
    more = ["--http", "--port", str(port), "--keys", str(keys), "--log-level", "warning"]
    process = started(command(tmp_path / "chats.sqlite", *more), port, "/health")
    try:
        yield f"http://127.0.0.1:{port}/mcp"
    finally:
        stopped(process)


@asynccontextmanager
async def keyed(url: str, key: str) -> AsyncIterator[Client]:
    """The official client sending `key`; the HTTP client it is given is closed here."""
    headers = {"Authorization": f"Bearer {key}"}
    async with (
        httpx2.AsyncClient(headers=headers) as http,
        Client(streamable_http_client(url, http_client=http)) as client,
    ):
        yield client


def test_over_http_a_key_lists_the_tools_and_plays_its_own_chats(http_server: str) -> None:
    async def scenario() -> None:
        async with keyed(http_server, ALPHA_KEY) as alpha:
            assert [tool.name for tool in (await alpha.list_tools()).tools] == list(TOOLS)
            await play_short_chat(alpha, "heist")
        async with keyed(http_server, BETA_KEY) as beta:
            unknown = await beta.call_tool("list_swipes", {"chat": "heist"})
            assert unknown.is_error
            assert "no chat 'heist'" in unknown.content[0].text
            # Another tenant's id is free: this is beta's own chat, new.
            started = await call(beta, "start_chat", chat="heist", game=GAME)
            assert started["chat"] == "heist"
            assert (await call(beta, "list_swipes", chat="heist"))["swipes"] == []

    anyio.run(scenario)


def test_over_http_without_a_key_nothing_is_answered(http_server: str) -> None:
    async def scenario() -> None:
        async with Client(http_server) as client:
            await client.list_tools()

    with pytest.raises(BaseExceptionGroup) as refused:
        anyio.run(scenario)
    assert refused.group_contains(MCPError)
    port = int(http_server.split(":")[2].split("/")[0])
    status, body = http_call(port, "POST", "/mcp", {"jsonrpc": "2.0", "id": 1, "method": "ping"})
    assert (status, body["code"]) == (401, "unauthorized")
    status, body = http_call(
        port, "POST", "/mcp", {}, key=ALPHA_KEY, headers={"Host": "evil.example"}
    )
    assert (status, body["code"]) == (400, "host_not_allowed")
