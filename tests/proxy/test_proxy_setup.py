"""How the proxy is set up: whose key the upstream gets, the offline replay upstream, the chat
loop example, and requests it refuses."""

from __future__ import annotations

import http.client
import json
import os
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import openai
import pytest
from openai import OpenAI

from tests.proxy.conftest import ROOT, Upstream, proxy_command, started, stopped
from tests.service.server import free_port

pytestmark = pytest.mark.slow

SESSION = ROOT / "fixtures" / "sessions" / "heist.jsonl"


@contextmanager
def proxy(upstream: str, db: Path, *more: str, env: dict[str, str] | None = None) -> Iterator[str]:
    port = free_port()
    process = started(proxy_command(upstream, db, port, *more), port, "/health", env)
    try:
        yield f"http://127.0.0.1:{port}/v1"
    finally:
        stopped(process)


def test_the_clients_key_goes_upstream_unless_the_proxy_is_given_its_own(
    upstream: Upstream, tmp_path: Path
) -> None:
    env = {**os.environ, "GM_TEST_UPSTREAM_KEY": "the-proxys-key"}
    with (
        proxy(upstream.url, tmp_path / "a.db") as url,
        OpenAI(base_url=url, api_key="the-clients-key", max_retries=0) as client,
    ):
        client.models.list()
        client.chat.completions.create(model="m", messages=[{"role": "user", "content": "Hello."}])
    with (
        proxy(
            upstream.url, tmp_path / "b.db", "--upstream-key-env", "GM_TEST_UPSTREAM_KEY", env=env
        ) as url,
        OpenAI(base_url=url, api_key="the-clients-key", max_retries=0) as client,
    ):
        client.chat.completions.create(model="m", messages=[{"role": "user", "content": "Hello."}])
    keys = [seen["authorization"] for seen in upstream.requests()]
    assert keys == ["Bearer the-clients-key", "Bearer the-proxys-key"]


def test_a_missing_key_variable_stops_the_proxy_with_one_line(
    upstream: Upstream, tmp_path: Path
) -> None:
    command = proxy_command(upstream.url, tmp_path / "c.db", free_port())
    command += ["--upstream-key-env", "GM_TEST_NOT_SET"]
    env = {k: v for k, v in os.environ.items() if k != "GM_TEST_NOT_SET"}
    result = subprocess.run(command, capture_output=True, text=True, env=env, timeout=60)
    assert result.returncode != 0
    assert "GM_TEST_NOT_SET is not set" in result.stderr


def session_replies() -> list[str]:
    steps = [json.loads(line) for line in SESSION.read_text("utf-8").splitlines()]
    return [s[k] for s in steps for k in ("reply", "regenerate", "continue") if k in s]


def test_the_replay_upstream_answers_from_a_recorded_session_in_order(tmp_path: Path) -> None:
    with (
        proxy(f"replay:{SESSION}", tmp_path / "replay.db") as url,
        OpenAI(base_url=url, api_key="none", max_retries=0) as client,
    ):
        assert [model.id for model in client.models.list()] == ["gm-tags-replay"]
        messages = [{"role": "user", "content": "We go in through the skylight."}]
        pieces = [
            chunk.choices[0].delta.content
            for chunk in client.chat.completions.create(model="m", messages=messages, stream=True)
            if chunk.choices and chunk.choices[0].delta.content
        ]
        second = client.chat.completions.create(model="m", messages=messages)
    first, then = session_replies()[:2]
    assert "".join(pieces).startswith(first.split(" [")[0])
    assert len(pieces) > 3
    regenerated = (second.model_extra or {})["gm_tags"]
    assert regenerated["action"] == "regenerate"
    assert second.choices[0].message.content == regenerated["narration"]
    assert regenerated["reply"].startswith(then.split(" [")[0])


def test_the_chat_loop_example_plays_against_the_replay(tmp_path: Path) -> None:
    with proxy(f"replay:{SESSION}", tmp_path / "loop.db") as url:
        result = subprocess.run(
            [sys.executable, str(ROOT / "examples" / "chat_loop.py"), "--base-url", url],
            input="We go in through the skylight.\nWe crack it.\n",
            capture_output=True,
            text=True,
            timeout=120,
        )
    assert result.returncode == 0, result.stderr
    assert "The glass is old" in result.stdout
    assert "clock" in result.stdout and "ok" in result.stdout  # the receipts line
    assert "[clock:" not in result.stdout.split("receipts")[0]


@pytest.mark.parametrize(
    ("body", "status"),
    [
        (b"{not json", 400),
        (json.dumps({"model": "m"}).encode(), 400),
        (json.dumps({"model": "m", "messages": [], "n": 2}).encode(), 400),
    ],
    ids=["not-json", "no-messages", "n-2"],
)
def test_a_bad_request_is_refused_in_the_openai_shape(
    proxy_url: str, body: bytes, status: int
) -> None:
    port = int(proxy_url.rsplit(":", 1)[1].split("/")[0])
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    connection.request("POST", "/v1/chat/completions", body, {"Content-Type": "application/json"})
    response = connection.getresponse()
    answer = json.loads(response.read())
    connection.close()
    assert response.status == status
    assert set(answer["error"]) >= {"message", "type", "code"}


def test_an_unreachable_upstream_is_a_502_in_the_openai_shape(tmp_path: Path) -> None:
    with (
        proxy(f"http://127.0.0.1:{free_port()}/v1", tmp_path / "none.db") as url,
        OpenAI(base_url=url, api_key="k", max_retries=0) as client,
        pytest.raises(openai.APIStatusError) as raised,
    ):
        client.chat.completions.create(model="m", messages=[{"role": "user", "content": "?"}])
    assert raised.value.status_code == 502
