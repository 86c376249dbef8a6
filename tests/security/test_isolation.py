"""Two tenants on one deployment (real `serve` and `proxy` processes on one store, SQLite and
PostgreSQL): the second key reaches no chat of the first, whether it names one (`X-GM-Chat`,
`user`, a path on the service), lists them (`GET /games`) or sends another table's transcript to
the proxy; the first table's chat is left exactly as it was, and the model is shown only the
second tenant's own fresh game."""

from __future__ import annotations

from typing import Any

import pytest

from tests.security.conftest import ALPHA_KEY, BETA_KEY, UPSTREAM_KEY, Deployment, call

pytestmark = pytest.mark.slow

OPENING = "We scale the bell tower at midnight."
SECOND = "Tobin slips the lock on the vestry door."
START_CLOCKS = "Clocks now: Alarm raised 2/6"


def tick(amount: int, where: str = "tower") -> str:
    return f'The {where} bell rings. [clock: name="Alarm raised" tick="{amount}"] Steps: {amount}.'


def ask(deployment: Deployment, key: str, messages: list[dict[str, str]], **more: Any) -> Any:
    with deployment.model(key) as client:
        completion = client.chat.completions.create(model="m", messages=messages, **more)
    return (completion.model_extra or {})["gm_tags"]


def play_alpha(deployment: Deployment, where: str, **naming: Any) -> tuple[str, str]:
    """Two turns of a table of the first tenant (the alarm from 2/6 to 5/6; `where` tells its
    replies apart from its other tables'): the chat's id and the narration of its first reply."""
    deployment.upstream.script({"reply": tick(1, where)}, {"reply": tick(2, where)})
    first = ask(deployment, ALPHA_KEY, [{"role": "user", "content": OPENING}], **naming)
    said = [
        {"role": "user", "content": OPENING},
        {"role": "assistant", "content": first["narration"]},
        {"role": "user", "content": SECOND},
    ]
    second = ask(deployment, ALPHA_KEY, said, **naming)
    assert second["chat"] == first["chat"] and second["receipts"][0]["now"] == "5/6"
    return str(first["chat"]), str(first["narration"])


def alpha_sees(deployment: Deployment, chat: str) -> Any:
    status, answer = call(deployment.serve, "GET", f"/games/{chat}", key=ALPHA_KEY)
    assert status == 200, answer
    return answer


def listed(server: int, key: str) -> tuple[int, list[str]]:
    """The status of `GET /games` with `key`, and the chats it lists."""
    status, answer = call(server, "GET", "/games", key=key)
    return status, answer["chats"]


def test_another_key_reaches_no_chat_of_the_first_by_any_way(deployment: Deployment) -> None:
    named, _ = play_alpha(deployment, "vault", extra_headers={"X-GM-Chat": "vault"})
    by_user, _ = play_alpha(deployment, "crypt", user="crew-a")
    recognised, narration = play_alpha(deployment, "tower")
    mine = sorted({named, by_user, recognised})
    assert listed(deployment.serve, ALPHA_KEY) == (200, mine)
    before = {chat: alpha_sees(deployment, chat) for chat in mine}

    # The service: the second key lists nothing, and every path to a chat of the first is 404.
    assert listed(deployment.serve, BETA_KEY) == (200, [])
    for chat in mine:
        for method, path, body in (
            ("GET", f"/games/{chat}", None),
            ("GET", f"/games/{chat}/view", None),
            ("GET", f"/games/{chat}/events", None),
            ("POST", f"/games/{chat}/replies", {"text": tick(1)}),
            ("DELETE", f"/games/{chat}", None),
            ("POST", "/game/skill-check", {"chatId": chat, "skill": "prowl", "dc": 10}),
        ):
            status, answer = call(deployment.serve, method, path, body, key=BETA_KEY)
            assert (status, answer["code"]) == (404, "chat_not_found"), (method, path)

    # The proxy: naming the first table's chat, or sending its transcript, starts the second
    # tenant's own game; the model sees the starting clocks, never the first table's 5/6.
    deployment.upstream.script({"reply": "Quiet."}, {"reply": "Quiet."}, {"reply": "Quiet."})
    attack = [
        {"role": "user", "content": OPENING},
        {"role": "assistant", "content": "x"},
        {"role": "user", "content": SECOND},
        {"role": "assistant", "content": "x"},
    ]
    for naming in ({"extra_headers": {"X-GM-Chat": "vault"}}, {"user": "crew-a"}, {}):
        summary = ask(deployment, BETA_KEY, attack, **naming)
        assert deployment.upstream.clocks_seen().startswith(START_CLOCKS), naming
        assert summary["receipts"] == []
    edited = [{"role": "user", "content": OPENING}, {"role": "assistant", "content": narration}]
    ask(deployment, BETA_KEY, [*edited, {"role": "user", "content": SECOND}])
    assert deployment.upstream.clocks_seen().startswith(START_CLOCKS)

    # The first table's chats are as they were; the second tenant's hold what it sent, never the
    # first table's stored reply (its tags) in place of the narration it knew.
    assert {chat: alpha_sees(deployment, chat) for chat in mine} == before
    status, theirs = call(deployment.serve, "GET", "/games", key=BETA_KEY)
    assert status == 200 and theirs["chats"]
    for chat in theirs["chats"]:
        messages = call(deployment.serve, "GET", f"/games/{chat}", key=BETA_KEY)[1]["messages"]
        assert tick(1, "tower") not in [m["text"] for m in messages]


def test_keys_are_asked_for_and_never_sent_upstream(deployment: Deployment) -> None:
    for port, path in ((deployment.serve, "/games"), (deployment.proxy, "/v1/models")):
        for key in (None, "not-a-key-of-this-server"):
            status, answer = call(port, "GET", path, key=key)
            assert status == 401, (port, key, answer)
        assert call(port, "GET", "/health")[0] == 200  # a load balancer's check needs none
    deployment.upstream.script({"reply": "Quiet."})
    ask(deployment, BETA_KEY, [{"role": "user", "content": "A new table."}])
    assert deployment.upstream.requests()[-1]["authorization"] == f"Bearer {UPSTREAM_KEY}"
