"""The proxy serves the play page and the API it reads (`create_proxy_app(page=...)`, what
`gm-tags proxy` does unless `--no-page`), over its own chats and behind its own guard: a chat
the proxy stored is on the page's list and view, a change made through the page is in the next
request's reminder, and keys, tenants, Host names and the Origin check hold for the page's
paths as for the proxy's."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from gm_tags.guard.keys import parse_keys
from gm_tags.service.app import proxy_page
from tests.proxy.conftest import RULESET
from tests.proxy.inprocess import proxy_app_for

KEYS = parse_keys("blue=blue-key-0123456789abcdef\nred=red-key-0123456789abcdef", "keys")
BLUE = {"Authorization": "Bearer blue-key-0123456789abcdef"}
RED = {"Authorization": "Bearer red-key-0123456789abcdef"}
OPENING = {"role": "user", "content": "We slip over the wall into the yard of the customs house."}


def completion(client: Any, headers: dict[str, str], *messages: dict[str, str]) -> Any:
    answer = client.post(
        "/v1/chat/completions",
        json={"model": "m", "messages": list(messages or [OPENING])},
        headers=headers,
    )
    assert answer.status_code == 200, answer.text
    return answer.json()


def test_a_chat_the_proxy_stored_is_on_the_page_and_a_page_change_reaches_the_model(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    with proxy_app_for(tmp_path / "chats.db", monkeypatch, page=proxy_page(RULESET)) as (
        client,
        upstream,
    ):
        upstream.script({"reply": 'The yard is quiet. [clock: name="Alarm raised" tick="1"]'})
        chat = completion(client, {})["gm_tags"]["chat"]
        assert chat in client.get("/games").json()["chats"]
        view = client.get(f"/games/{chat}/view").json()
        assert view["last"]["narration"] == "The yard is quiet."
        assert view["clocks"][0]["filled"] == 3
        assert "/static/play.js" in client.get(f"/play/{chat}").text
        assert client.get("/static/play.css").status_code == 200
        box = {"who": "Mira", "track": "harm", "box": 1, "kind": "lesser"}
        assert client.post(f"/games/{chat}/box", json=box).json()["now"] == "Harm 1/3 Lesser"
        event = client.get(f"/games/{chat}").json()["messages"][-1]
        assert event["text"] == "Mira: Harm box 1 marked: Harm 1/3 Lesser"
        reply = {"role": "assistant", "content": "The yard is quiet."}
        completion(client, {}, OPENING, reply, {"role": "user", "content": "We wait."})
        reminder = upstream.seen[-1]["messages"][-1]["content"]
        assert "Harm 1/3" in reminder


def test_without_a_page_the_proxy_serves_only_its_protocols(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    with proxy_app_for(tmp_path / "chats.db", monkeypatch) as (client, _):
        assert client.get("/games").status_code == 404
        assert client.get("/").status_code == 404
        assert client.get("/health").status_code == 200


def test_the_page_and_its_api_are_behind_the_proxys_keys_tenants_hosts_and_origin_check(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    page = proxy_page(RULESET, keys=KEYS)
    with proxy_app_for(tmp_path / "chats.db", monkeypatch, keys=KEYS, page=page) as (client, _):
        chat = completion(client, BLUE)["gm_tags"]["chat"]
        refused = client.get("/games")
        assert (refused.status_code, refused.json()["code"]) == (401, "unauthorized")
        assert client.get("/games", headers=BLUE).json()["chats"] == [chat]
        assert client.get("/games", headers=RED).json()["chats"] == []
        assert client.get(f"/games/{chat}/view", headers=RED).status_code == 404
        assert client.get("/").status_code == 200  # the shell asks for the key; holds no chat
        foreign = client.post(
            f"/games/{chat}/box",
            json={"who": "Mira", "track": "harm", "box": 1, "kind": "lesser"},
            headers={**BLUE, "Origin": "http://evil.example"},
        )
        assert (foreign.status_code, foreign.json()["code"]) == (403, "origin_not_allowed")
        elsewhere = client.get("/games", headers={**BLUE, "Host": "evil.example"})
        assert elsewhere.status_code == 400
        # The proxy's own routes still answer in OpenAI's shape.
        assert "error" in client.post("/v1/chat/completions", json={}).json()
