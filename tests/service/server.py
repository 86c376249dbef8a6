"""A real `gm-tags serve` process on loopback, for the tests that kill it and the load test."""

from __future__ import annotations

import http.client
import json
import socket
import subprocess
import sys
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


class Server:
    def __init__(self, process: subprocess.Popen[bytes], port: int) -> None:
        self.process, self.port = process, port

    def connect(self) -> http.client.HTTPConnection:
        return http.client.HTTPConnection("127.0.0.1", self.port, timeout=30)

    def call(
        self,
        method: str,
        path: str,
        body: Any = None,
        connection: http.client.HTTPConnection | None = None,
    ) -> tuple[int, Any]:
        own = connection is None
        connection = connection or self.connect()
        try:
            payload = None if body is None else json.dumps(body).encode()
            headers = {"Content-Type": "application/json"} if payload else {}
            connection.request(method, path, payload, headers)
            response = connection.getresponse()
            data = response.read()
            return response.status, json.loads(data) if data else None
        finally:
            if own:
                connection.close()


@contextmanager
def serving(db: Path | str, *rulesets: str, options: Sequence[str] = ()) -> Iterator[Server]:
    """A `gm-tags serve` process on the store `db` (a file, or a postgresql:// URL), with more
    command-line `options`."""
    port = free_port()
    command = [sys.executable, "-m", "gm_tags.cli", "serve", "--db", str(db), "--port", str(port)]
    command += ["--log-level", "warning"]
    for ruleset in rulesets:
        command += ["--ruleset", ruleset]
    command += options
    process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    server = Server(process, port)
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                if server.call("GET", "/health")[0] == 200:
                    break
            except OSError:
                if process.poll() is not None or time.monotonic() > deadline:
                    raise RuntimeError(f"the server did not start: {process.stderr}") from None
                time.sleep(0.05)
        yield server
    finally:
        if process.poll() is None:
            process.terminate()
        process.wait(timeout=30)
        if process.stderr is not None:
            process.stderr.close()
