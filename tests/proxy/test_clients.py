"""The proxy's network client (`AiohttpClient`) answers as the httpx2 client before it did, against
a real HTTP server on loopback: long headers read, redirects handed back, the environment's
proxy settings and a base URL's login honoured, no `~/.netrc` login added beside the client's
key, and a new event loop served."""

from __future__ import annotations

import asyncio
import base64
import socket
from collections.abc import Callable
from pathlib import Path

import pytest

from gm_tags.proxy.clients import AiohttpClient, Outgoing

Seen = list[tuple[str, dict[str, str]]]


async def _serving(answer: bytes, seen: Seen, port: int = 0) -> asyncio.Server:
    """A one-answer HTTP server: records each request's line and headers, sends `answer`."""

    async def handle(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        head = (await reader.readuntil(b"\r\n\r\n")).decode("latin-1").split("\r\n")
        fields = dict(line.split(": ", 1) for line in head[1:] if line)
        headers = {name.lower(): value for name, value in fields.items()}
        await reader.readexactly(int(headers.get("content-length", "0")))
        seen.append((head[0], headers))
        writer.write(answer)
        await writer.drain()
        writer.close()

    return await asyncio.start_server(handle, "127.0.0.1", port)


def _answer(*, status: str = "200 OK", extra: str = "", body: bytes = b"{}") -> bytes:
    head = f"HTTP/1.1 {status}\r\ncontent-type: application/json\r\n{extra}"
    return f"{head}content-length: {len(body)}\r\nconnection: close\r\n\r\n".encode() + body


ASK = Outgoing("POST", "chat/completions", {"Authorization": "Bearer key"}, b"{}")


def _asked(answer: bytes, base: Callable[[int], str] = "http://127.0.0.1:{}/v1".format):
    """Send ASK through a new client to a server giving `answer`: (status, body, seen)."""

    async def run() -> tuple[int, bytes, Seen]:
        seen: Seen = []
        server = await _serving(answer, seen)
        port = server.sockets[0].getsockname()[1]
        client = AiohttpClient(base(port), connect=5, read=5)
        try:
            got = await client.send(ASK)
            return got.status, await got.read(), seen
        finally:
            await client.close()
            server.close()

    return asyncio.run(run())


def test_a_header_longer_than_aiohttps_default_is_read() -> None:
    status, body, _ = _asked(_answer(extra=f"x-long: {'a' * 20_000}\r\n"))
    assert (status, body) == (200, b"{}")


def test_a_redirect_is_handed_back_not_followed() -> None:
    status, _, seen = _asked(_answer(status="307 Temporary Redirect", extra="location: /v2\r\n"))
    assert status == 307
    assert len(seen) == 1


def test_a_netrc_login_is_not_added_beside_the_clients_key(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    netrc = tmp_path / "netrc"
    netrc.write_text("machine 127.0.0.1 login someone password secret\n")
    monkeypatch.setenv("NETRC", str(netrc))
    status, _, seen = _asked(_answer())
    assert status == 200
    assert seen[0][1]["authorization"] == "Bearer key"


def test_a_login_in_the_base_url_is_sent_in_place_of_the_clients_key() -> None:
    status, _, seen = _asked(_answer(), "http://someone:se%40cret@127.0.0.1:{}/v1".format)
    assert status == 200
    assert seen[0][1]["authorization"] == "Basic " + base64.b64encode(b"someone:se@cret").decode()
    assert seen[0][0] == "POST /v1/chat/completions HTTP/1.1"


@pytest.mark.parametrize("variable", ["ALL_PROXY", "http_proxy"])
def test_the_environments_proxy_carries_the_request(
    variable: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    async def run() -> tuple[int, Seen]:
        seen: Seen = []
        proxy = await _serving(_answer(), seen)
        monkeypatch.setenv(variable, f"http://127.0.0.1:{proxy.sockets[0].getsockname()[1]}")
        monkeypatch.delenv("NO_PROXY", raising=False)
        monkeypatch.delenv("no_proxy", raising=False)
        client = AiohttpClient("http://upstream.invalid/v1", connect=5, read=5)
        try:
            return (await client.send(ASK)).status, seen
        finally:
            await client.close()
            proxy.close()

    status, seen = asyncio.run(run())
    assert status == 200
    assert seen[0][0] == "POST http://upstream.invalid/v1/chat/completions HTTP/1.1"


def test_a_client_serves_a_new_event_loop_after_its_first_is_gone() -> None:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    client = AiohttpClient(f"http://127.0.0.1:{port}/v1", connect=5, read=5)

    async def ask(last: bool) -> int:
        server = await _serving(_answer(), [], port)
        try:
            return (await client.send(ASK)).status
        finally:
            server.close()
            if last:
                await client.close()

    assert asyncio.run(ask(last=False)) == 200
    assert asyncio.run(ask(last=True)) == 200
