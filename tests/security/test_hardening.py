"""What a browser page can and cannot do to a server on loopback, and where a server without keys
may listen, through real `serve` and `proxy` processes: a foreign Host header (DNS rebinding) is
refused, a body that is not JSON is refused 415, a state-changing request from another origin is
refused 403, and neither server starts on a non-loopback address without keys."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from tests.proxy.conftest import Upstream, proxy_command
from tests.security.conftest import call, serve_command
from tests.service.server import free_port

pytestmark = pytest.mark.slow

COMPLETION = {"model": "m", "messages": [{"role": "user", "content": "We go in."}]}


ASKS = {"serve": ("GET", "/games"), "proxy": ("GET", "/v1/models")}


@pytest.mark.parametrize("server", ["serve", "proxy"])
def test_a_foreign_host_header_is_refused(servers: dict[str, int], server: str) -> None:
    method, path = ASKS[server]
    for host in ("attacker.example", "attacker.example:8000", "127.0.0.1.nip.io"):
        status, _ = call(servers[server], method, path, headers={"Host": host})
        assert status == 400, host
    for host in ("127.0.0.1", f"localhost:{servers[server]}", "[::1]:80"):
        assert call(servers[server], method, path, headers={"Host": host})[0] == 200, host


def test_bodies_that_are_not_json_and_other_origins_change_nothing(
    servers: dict[str, int], upstream: Upstream
) -> None:
    upstream.reset()
    new_game = b'{"chatId": "form", "rulesetId": "crew-of-shadows"}'
    plain = {"Content-Type": "text/plain"}
    status, answer = call(servers["serve"], "POST", "/games", new_game, headers=plain)
    assert (status, answer["code"]) == (415, "unsupported_media_type")
    status, answer = call(servers["proxy"], "POST", "/v1/chat/completions", b"{}", headers=plain)
    assert (status, answer["error"]["code"]) == (415, "unsupported_media_type")
    foreign = {"Content-Type": "application/json", "Origin": "http://attacker.example"}
    status, answer = call(servers["serve"], "POST", "/games", new_game, headers=foreign)
    assert (status, answer["code"]) == (403, "origin_not_allowed")
    status, _ = call(servers["proxy"], "POST", "/v1/chat/completions", COMPLETION, headers=foreign)
    assert status == 403
    status, answer = call(servers["serve"], "GET", "/games")
    assert (status, answer["chats"]) == (200, [])
    assert upstream.requests() == []
    # The server's own page (its own origin) may.
    own = {"Origin": f"http://127.0.0.1:{servers['serve']}"}
    body = {"chatId": "own", "rulesetId": "crew-of-shadows"}
    assert call(servers["serve"], "POST", "/games", body, headers=own)[0] == 201


@pytest.mark.parametrize("command", ["serve", "proxy"])
def test_without_keys_neither_server_starts_beyond_loopback(tmp_path: Path, command: str) -> None:
    db = str(tmp_path / "chats.sqlite")
    if command == "serve":
        argv = serve_command(db, free_port(), "--host", "0.0.0.0")
    else:
        argv = proxy_command("http://127.0.0.1:9/v1", db, free_port(), "--host", "0.0.0.0")
    done = subprocess.run(argv, capture_output=True, text=True, timeout=60)
    assert done.returncode == 2
    assert "refusing to listen on 0.0.0.0 without keys" in done.stderr
    assert not Path(db).exists()  # refused before the store was opened, or a port bound
