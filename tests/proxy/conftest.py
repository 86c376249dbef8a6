"""A real upstream model server and a real `gm-tags proxy` process, both on loopback, driven by
the official `openai` client."""

from __future__ import annotations

import http.client
import json
import os
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from openai import AsyncOpenAI, OpenAI

from tests.conftest import FIXTURES
from tests.service.server import free_port

RULESET = FIXTURES / "rulesets" / "crew-of-shadows.json"
GAME = FIXTURES / "games" / "crew-mid-heist.json"
ROOT = Path(__file__).resolve().parents[2]


def call(port: int, method: str, path: str, body: Any = None) -> tuple[int, Any]:
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    try:
        payload = None if body is None else json.dumps(body).encode()
        connection.request(method, path, payload, {"Content-Type": "application/json"})
        response = connection.getresponse()
        data = response.read()
        return response.status, json.loads(data) if data else None
    finally:
        connection.close()


def started(command: list[str], port: int, health: str, env: dict[str, str] | None = None):
    process = subprocess.Popen(
        command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, cwd=ROOT, env=env
    )
    deadline = time.monotonic() + 120  # a loaded machine (nice, 2 cores) can take a minute
    while True:
        try:
            if call(port, "GET", health)[0] == 200:
                return process
        except OSError:
            if process.poll() is not None or time.monotonic() > deadline:
                # A server still running past the deadline is stopped first: reading its
                # stderr waits for the pipe's end, which a live process never gives.
                stopped(process, keep_stderr=True)
                stderr = process.stderr.read().decode() if process.stderr else ""
                stopped(process)
                raise RuntimeError(f"{command[:4]} did not start: {stderr}") from None
            time.sleep(0.05)


def stopped(process: subprocess.Popen[bytes], keep_stderr: bool = False) -> None:
    if process.poll() is None:
        process.terminate()
    try:
        process.wait(timeout=30)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait(timeout=30)
    if process.stderr is not None and not keep_stderr:
        process.stderr.close()


class Upstream:
    def __init__(self, port: int) -> None:
        self.port = port
        self.url = f"http://127.0.0.1:{port}/v1"

    def script(self, *steps: dict[str, Any]) -> None:
        call(self.port, "POST", "/control/script", list(steps))

    def requests(self) -> list[dict[str, Any]]:
        return call(self.port, "GET", "/control/requests")[1]

    def last_messages(self) -> list[dict[str, Any]]:
        return self.requests()[-1]["body"]["messages"]

    def clocks_seen(self) -> str:
        """The clocks the model was shown in the last request's reminder."""
        user = [m for m in self.last_messages() if m["role"] == "user"][-1]["content"]
        return next(line for line in user.splitlines() if line.startswith("Clocks now:"))

    def reset(self) -> None:
        call(self.port, "DELETE", "/control/requests")


@pytest.fixture(scope="session")
def upstream() -> Iterator[Upstream]:
    port = free_port()
    process = started([sys.executable, "-m", "tests.proxy.upstream", str(port)], port, "/v1/models")
    try:
        yield Upstream(port)
    finally:
        stopped(process)


def proxy_command(upstream: str, db: Path | str, port: int, *more: str) -> list[str]:
    return [
        sys.executable,
        "-m",
        "gm_tags.cli",
        "proxy",
        "--upstream",
        upstream,
        "--ruleset",
        str(RULESET),
        "--game",
        str(GAME),
        "--db",
        str(db),
        "--port",
        str(port),
        "--timeout",
        "2",
        "--log-level",
        "warning",
        *more,
    ]


@pytest.fixture(scope="session")
def proxy_url(upstream: Upstream, tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    port = free_port()
    db = tmp_path_factory.mktemp("proxy") / "chats.db"
    process = started(proxy_command(upstream.url, db, port), port, "/health", dict(os.environ))
    try:
        yield f"http://127.0.0.1:{port}/v1"
    finally:
        stopped(process)


@pytest.fixture(autouse=True)
def _fresh_upstream(request: pytest.FixtureRequest) -> None:
    if "upstream" in request.fixturenames:
        request.getfixturevalue("upstream").reset()


@pytest.fixture
def client(proxy_url: str) -> Iterator[OpenAI]:
    with OpenAI(base_url=proxy_url, api_key="client-key", max_retries=0, timeout=30) as opened:
        yield opened


def async_client(proxy_url: str) -> AsyncOpenAI:
    """An async client, to open inside the event loop that uses it (`async with`)."""
    return AsyncOpenAI(base_url=proxy_url, api_key="client-key", max_retries=0, timeout=30)
