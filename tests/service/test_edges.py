"""The service's edges: chat ids that can always be read back, the chats listed, drafts of the
wrong shape, and what it answers a browser."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from gm_tags.game_document import CARRIED_LIMIT
from gm_tags.service import create_app
from gm_tags.service.models import MAX_GAME_BYTES
from gm_tags.settings import MAX_BODY_BYTES
from tests.conftest import LOOPBACK
from tests.service.test_api import CREW, client, db, heist  # noqa: F401 (fixtures)


@pytest.mark.parametrize(
    "chat_id", ["a/b", "../x", "x\x00y", "tab\there", "new\nline", " lead", "trail.", "", "x" * 101]
)
def test_a_chat_id_that_could_not_be_read_back_is_refused(
    client: TestClient,  # noqa: F811
    chat_id: str,
) -> None:
    answer = client.post("/games", json={"chatId": chat_id, "rulesetId": "crew-of-shadows"})
    assert answer.status_code == 422
    assert answer.json()["code"] == "request_invalid"
    assert client.get("/games").json()["chats"] == []


@pytest.mark.parametrize("chat_id", ["heist-2", "Night 1", "夜の部", "रात.1", "a:b_c"])
def test_ids_in_any_script_are_created_read_and_deleted(
    client: TestClient,  # noqa: F811
    chat_id: str,
) -> None:
    assert client.post(
        "/games", json={"chatId": chat_id, "rulesetId": "crew-of-shadows"}
    ).is_success
    assert client.get(f"/games/{chat_id}").json()["chatId"] == chat_id
    assert client.get("/games").json()["chats"] == [chat_id]
    assert client.delete(f"/games/{chat_id}").status_code == 204
    assert client.get("/games").json()["chats"] == []


@pytest.mark.parametrize(
    "draft",
    [
        {"fields": 5},
        {"fields": {"lair": "x"}, "lists": "no"},
        {"lists": {"contacts": "no"}},
        {"lists": {"contacts": [5]}},
    ],
)
def test_a_party_draft_of_the_wrong_shape_is_422_with_its_path(
    client: TestClient,  # noqa: F811
    heist: str,  # noqa: F811
    draft: object,
) -> None:
    answer = client.post(f"/games/{heist}/party-sheet", json={"draft": draft, "revision": 0})
    assert answer.status_code == 422
    assert answer.json()["problems"]


def test_a_body_over_the_limit_is_413_and_read_no_further(client: TestClient) -> None:  # noqa: F811
    huge = "x" * (MAX_BODY_BYTES + 1)
    answer = client.post(
        "/games/heist/replies", content=huge, headers={"Content-Type": "text/plain"}
    )
    assert (answer.status_code, answer.json()["code"]) == (413, "request_too_large")


def test_a_body_without_a_length_is_counted_too(client: TestClient) -> None:  # noqa: F811
    def chunks() -> Iterator[bytes]:
        for _ in range(MAX_BODY_BYTES // 65536 + 2):
            yield b"y" * 65536

    answer = client.post(
        "/rulesets/validate", content=chunks(), headers={"Content-Type": "application/json"}
    )
    assert (answer.status_code, answer.json()["code"]) == (413, "request_too_large")


def test_a_game_document_over_its_limit_is_413(client: TestClient) -> None:  # noqa: F811
    game = {"notes": "z" * (MAX_GAME_BYTES + 10)}
    answer = client.post(
        "/games", json={"chatId": "big", "rulesetId": "crew-of-shadows", "game": game}
    )
    assert (answer.status_code, answer.json()["code"]) == (413, "game_too_large")
    assert client.get("/games").json()["chats"] == []


def test_unknown_keys_are_carried_only_up_to_their_limit(client: TestClient) -> None:  # noqa: F811
    game = {"notes": "z" * (CARRIED_LIMIT + 1)}
    answer = client.post(
        "/games", json={"chatId": "big", "rulesetId": "crew-of-shadows", "game": game}
    )
    assert (answer.status_code, answer.json()["code"]) == (422, "game_invalid")
    assert answer.json()["problems"][0]["path"] == "notes"


@pytest.mark.parametrize("seed", [2**63, "s" * 201])
def test_a_seed_out_of_bounds_is_422(client: TestClient, heist: str, seed: object) -> None:  # noqa: F811
    answer = client.post(f"/games/{heist}/replies", json={"text": "Hi.", "seed": seed})
    assert answer.status_code == 422


def test_cors_is_off_by_default_and_on_for_the_origins_named(db: Path) -> None:  # noqa: F811
    preflight = {
        "Origin": "http://localhost:5173",
        "Access-Control-Request-Method": "POST",
        "Access-Control-Request-Headers": "content-type",
    }
    with TestClient(create_app(db, [CREW]), base_url=LOOPBACK) as closed:
        answer = closed.options("/games", headers=preflight)
        assert "access-control-allow-origin" not in answer.headers
    with TestClient(
        create_app(db, [CREW], cors_origins=["http://localhost:5173"]), base_url=LOOPBACK
    ) as open_:
        answer = open_.options("/games", headers=preflight)
        assert answer.headers["access-control-allow-origin"] == "http://localhost:5173"
        other = open_.options("/games", headers={**preflight, "Origin": "http://evil.invalid"})
        assert "access-control-allow-origin" not in other.headers


def test_regenerating_writes_only_the_new_swipe(client: TestClient, heist: str) -> None:  # noqa: F811
    for at in range(5):
        assert client.post(
            f"/games/{heist}/regenerate" if at else f"/games/{heist}/replies",
            json={"text": f"Take {at}."},
        ).is_success
    connection = client.app.state.chats.open().store._connection  # type: ignore[attr-defined]
    statements: list[str] = []
    connection.set_trace_callback(statements.append)
    try:
        assert client.post(f"/games/{heist}/regenerate", json={"text": "Take 5."}).is_success
    finally:
        connection.set_trace_callback(None)
    inserted = [s for s in statements if s.startswith("INSERT INTO swipes")]
    assert len(inserted) == 1


def test_a_problem_in_a_package_file_names_the_file_and_one_in_the_ruleset_names_none() -> None:
    import json

    from gm_tags.errors import Problem
    from gm_tags.service.errors import error_response

    answer = error_response(
        400,
        "ruleset_invalid",
        "2 problems",
        [Problem("entries.0.id", "already used", "catalogs/wards.json"), Problem("id", "missing")],
    )
    assert json.loads(bytes(answer.body))["problems"] == [
        {"path": "entries.0.id", "message": "already used", "file": "catalogs/wards.json"},
        {"path": "id", "message": "missing"},
    ]
