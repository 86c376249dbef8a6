"""A keyed deployment as an operator runs one: `gm-tags serve` and `gm-tags proxy` as real
processes on loopback, on one store (an SQLite file or a PostgreSQL database), with one keys file
naming two tenants, and the proxy sending upstream its own key from --upstream-key-env."""

from __future__ import annotations

import http.client
import json
import os
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from openai import OpenAI

from tests.history.test_store_backends import db as db
from tests.proxy.conftest import ROOT, Upstream, proxy_command, started, stopped
from tests.proxy.conftest import upstream as upstream
from tests.service.server import free_port

RULESETS = ROOT / "fixtures" / "rulesets"
ALPHA_KEY = "alpha-key-4f9c2b7e1d"
BETA_KEY = "beta-key-8a1e5c3f90"
UPSTREAM_KEY = "sk-upstream-operator-key"


def call(
    port: int,
    method: str,
    path: str,
    body: Any = None,
    *,
    key: str | None = None,
    headers: dict[str, str] | None = None,
) -> tuple[int, Any]:
    """A request to a server on loopback: JSON in, the status and JSON (or text) out."""
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    sent = {"Content-Type": "application/json"} if body is not None else {}
    if key is not None:
        sent["Authorization"] = f"Bearer {key}"
    sent.update(headers or {})
    try:
        payload = body if isinstance(body, bytes) or body is None else json.dumps(body).encode()
        connection.request(method, path, payload, sent)
        response = connection.getresponse()
        data = response.read()
        try:
            return response.status, json.loads(data) if data else None
        except ValueError:
            return response.status, data.decode()
    finally:
        connection.close()


@dataclass(frozen=True)
class Deployment:
    serve: int
    proxy: int
    upstream: Upstream

    def model(self, key: str) -> OpenAI:
        """The official client, sending `key` to the proxy."""
        base = f"http://127.0.0.1:{self.proxy}/v1"
        return OpenAI(base_url=base, api_key=key, max_retries=0, timeout=30)


def serve_command(db: str, port: int, *more: str) -> list[str]:
    command = [sys.executable, "-m", "gm_tags.cli", "serve", "--db", db, "--port", str(port)]
    command += ["--ruleset", str(RULESETS / "crew-of-shadows.json"), "--log-level", "warning"]
    return [*command, *more]


@pytest.fixture
def deployment(
    db: str,
    upstream: Upstream,
    tmp_path: Path,
) -> Iterator[Deployment]:
    keys = tmp_path / "keys.txt"
    keys.write_text(
        f"# the tables of two groups\nalpha={ALPHA_KEY}\nbeta={BETA_KEY}\n", encoding="utf-8"
    )
    serve_port, proxy_port = free_port(), free_port()
    env = {**os.environ, "GM_UPSTREAM_KEY": UPSTREAM_KEY}
    env.pop("GM_TAGS_KEYS", None)
    serve = started(serve_command(db, serve_port, "--keys", str(keys)), serve_port, "/health")
    try:
        proxy = started(
            proxy_command(
                upstream.url,
                db,
                proxy_port,
                "--keys",
                str(keys),
                "--upstream-key-env",
                "GM_UPSTREAM_KEY",
            ),
            proxy_port,
            "/health",
            env,
        )
        try:
            yield Deployment(serve_port, proxy_port, upstream)
        finally:
            stopped(proxy)
    finally:
        stopped(serve)


@pytest.fixture(scope="module")
def servers(
    tmp_path_factory: pytest.TempPathFactory,
    upstream: Upstream,
) -> Iterator[dict[str, int]]:
    """A `serve` and a `proxy` without keys, on one store, on loopback."""
    db = str(tmp_path_factory.mktemp("plain") / "chats.sqlite")
    serve_port, proxy_port = free_port(), free_port()
    serve = started(serve_command(db, serve_port), serve_port, "/health")
    try:
        proxy = started(proxy_command(upstream.url, db, proxy_port), proxy_port, "/health")
        try:
            yield {"serve": serve_port, "proxy": proxy_port}
        finally:
            stopped(proxy)
    finally:
        stopped(serve)
