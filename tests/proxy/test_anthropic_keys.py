"""`POST /v1/messages` behind keys, as chat completions are (docs/security.md): a key names a
tenant whose chats are its own, whether the client sends it as a bearer token or in Anthropic's
`x-api-key`; it goes no further than the proxy, which sends the model its own key; the guard's
refusals (key, Host, Origin) come back in Anthropic's error shape."""

from __future__ import annotations

import http.client
import json
import os
from collections.abc import Iterator
from typing import Any

import anthropic
import pytest
from anthropic import Anthropic

from tests.proxy.conftest import Upstream, proxy_command, started, stopped
from tests.proxy.conftest import upstream as upstream  # the fixtures
from tests.proxy.test_anthropic import _fresh_model as _fresh_model
from tests.proxy.test_anthropic import ask, user
from tests.proxy.test_anthropic import model as model
from tests.proxy.test_proxy import opening, tick
from tests.service.server import free_port

pytestmark = pytest.mark.slow

ALPHA, BETA = "alpha-key-5d2e8c1b7a", "beta-key-0f4a6b9e3c"
MODEL_KEY = "sk-ant-operator-key"


@pytest.fixture(scope="module")
def keyed(
    model: Upstream, upstream: Upstream, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[int]:
    """The port of a proxy with two tenants' keys and its own key for the Anthropic model."""
    folder = tmp_path_factory.mktemp("keyed")
    keys = folder / "keys.txt"
    keys.write_text(f"alpha={ALPHA}\nbeta={BETA}\n", encoding="utf-8")
    port = free_port()
    more = ["--anthropic-upstream", model.url, "--keys", str(keys)]
    more += ["--anthropic-key-env", "GM_TEST_ANTHROPIC_KEY"]
    env = {**os.environ, "GM_TEST_ANTHROPIC_KEY": MODEL_KEY}
    env.pop("GM_TAGS_KEYS", None)
    process = started(
        proxy_command(upstream.url, folder / "chats.db", port, *more), port, "/health", env
    )
    try:
        yield port
    finally:
        stopped(process)


def posted(port: int, headers: dict[str, str], body: Any) -> tuple[int, Any]:
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    try:
        sent = {"Content-Type": "application/json", **headers}
        connection.request("POST", "/v1/messages", json.dumps(body).encode(), sent)
        response = connection.getresponse()
        return response.status, json.loads(response.read())
    finally:
        connection.close()


def test_each_tenant_plays_its_own_chat_and_the_model_gets_the_proxys_key(
    keyed: int, model: Upstream
) -> None:
    first = user(opening())
    model.script({"reply": tick(1)}, {"reply": tick(2)}, {"reply": "."})
    base = f"http://127.0.0.1:{keyed}"
    with Anthropic(base_url=base, api_key=ALPHA, max_retries=0) as alpha:
        _, played = ask(alpha, [first], stream=True)
    with Anthropic(base_url=base, api_key=BETA, max_retries=0) as beta:
        _, other = ask(beta, [first], stream=False)
    # The same opening under another key is another chat: not a regenerate of alpha's.
    assert (played["action"], other["action"], other["swipes"]) == ("reply", "reply", 1)
    # A client that sends its key as Anthropic's x-api-key is the same tenant.
    status, message = posted(
        keyed, {"x-api-key": ALPHA}, {"model": "m", "max_tokens": 9, "messages": [first]}
    )
    assert (status, message["gm_tags"]["action"]) == (200, "regenerate")
    sent = [(seen["x-api-key"], seen["authorization"]) for seen in model.requests()]
    assert sent == [(MODEL_KEY, None)] * 3


@pytest.mark.parametrize(
    ("headers", "status", "kind"),
    [
        ({"x-api-key": "not-a-key"}, 401, "authentication_error"),
        ({}, 401, "authentication_error"),
        ({"x-api-key": ALPHA, "Host": "attacker.example"}, 400, "invalid_request_error"),
        ({"x-api-key": ALPHA, "Origin": "http://attacker.example"}, 403, "permission_error"),
    ],
    ids=["wrong-key", "no-key", "host", "origin"],
)
def test_the_guard_refuses_in_anthropics_shape(
    keyed: int, model: Upstream, headers: dict[str, str], status: int, kind: str
) -> None:
    body = {"model": "m", "max_tokens": 9, "messages": [user("Hello.")]}
    got, answer = posted(keyed, headers, body)
    assert (got, answer["type"], answer["error"]["type"]) == (status, "error", kind)
    assert model.requests() == []


def test_the_official_client_with_a_wrong_key_reads_an_authentication_error(keyed: int) -> None:
    base = f"http://127.0.0.1:{keyed}"
    with (
        Anthropic(base_url=base, api_key="wrong", max_retries=0) as client,
        pytest.raises(anthropic.AuthenticationError),
    ):
        client.messages.create(model="m", max_tokens=9, messages=[user("Hello.")])  # type: ignore[list-item]
