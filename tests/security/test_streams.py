"""Event streams through a real `serve` process: every open page of a chat hears a change made
through the API (one watcher for them all), and past a cap, per key or per process, a new stream
is refused 429 while the open ones go on."""

from __future__ import annotations

import socket
from pathlib import Path

import pytest

from tests.proxy.conftest import started, stopped
from tests.security.conftest import ALPHA_KEY, BETA_KEY, call, serve_command
from tests.security.streams import open_stream, read_until
from tests.service.server import free_port

pytestmark = pytest.mark.slow


def test_streams_are_shared_and_capped_per_key_and_per_process(tmp_path: Path) -> None:
    keys = tmp_path / "keys.txt"
    keys.write_text(f"alpha={ALPHA_KEY}\nbeta={BETA_KEY}\n", encoding="utf-8")
    port = free_port()
    limits = ("--max-streams", "3", "--max-streams-per-key", "2")
    command = serve_command(str(tmp_path / "s.sqlite"), port, "--keys", str(keys), *limits)
    server = started(command, port, "/health")
    opened: list[socket.socket] = []

    def stream(key: str) -> tuple[int, socket.socket]:
        status, sock = open_stream(port, "/games/table/events", key)
        opened.append(sock)
        return status, sock

    try:
        for key in (ALPHA_KEY, BETA_KEY):
            body = {"chatId": "table", "rulesetId": "crew-of-shadows"}
            assert call(port, "POST", "/games", body, key=key)[0] == 201
        first = [stream(ALPHA_KEY) for _ in range(2)]
        assert [status for status, _ in first] == [200, 200]
        status, answer = call(port, "GET", "/games/table/events", key=ALPHA_KEY)
        assert (status, answer["code"]) == (429, "too_many_streams")
        beta = stream(BETA_KEY)
        assert beta[0] == 200
        assert stream(BETA_KEY)[0] == 429  # the process's cap
        reply = {"text": 'The bell. [clock: name="Alarm raised" tick="1"]'}
        assert call(port, "POST", "/games/table/replies", reply, key=ALPHA_KEY)[0] == 200
        for _, sock in first:
            assert b"event: changed\ndata: 1" in read_until(sock, b"data: 1")
        first[0][1].close()
        again = None
        for _ in range(50):  # the server notices the closed stream within a moment
            again = stream(ALPHA_KEY)
            if again[0] == 200:
                break
            again[1].close()
        assert again is not None and again[0] == 200
    finally:
        for sock in opened:
            sock.close()
        stopped(server)
