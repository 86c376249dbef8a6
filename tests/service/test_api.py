"""The HTTP service as a pipeline calls it: status codes, bodies, and state that follows the
history and survives a restart."""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from gm_tags.chats import served as service_chats
from gm_tags.service import create_app
from gm_tags.store import StoreError
from tests.conftest import FIXTURES, LOOPBACK, run_together

CREW = str(FIXTURES / "rulesets" / "crew-of-shadows.json")
HEIST = json.loads((FIXTURES / "games" / "crew-mid-heist.json").read_text("utf-8"))


def tick(amount: int) -> dict[str, str]:
    return {"text": f'A bell. [clock: name="Alarm raised" tick="{amount}"]'}


@pytest.fixture
def db(tmp_path: Path) -> Path:
    return tmp_path / "service.sqlite"


@pytest.fixture
def client(db: Path) -> Iterator[TestClient]:
    with TestClient(create_app(db, [CREW]), base_url=LOOPBACK) as client:
        yield client


@pytest.fixture
def heist(client: TestClient) -> str:
    answer = client.post(
        "/games", json={"chatId": "heist", "rulesetId": "crew-of-shadows", "game": HEIST}
    )
    assert answer.status_code == 201
    return "heist"


def alarm(body: dict[str, Any]) -> int:
    (filled,) = [c["filled"] for c in body["game"]["rulesetClocks"] if c["name"] == "Alarm raised"]
    return int(filled)


def test_a_valid_ruleset_is_named_and_a_bad_one_gets_every_problem_with_its_path(
    client: TestClient,
) -> None:
    good = json.loads(Path(CREW).read_text("utf-8"))
    answer = client.post("/rulesets/validate", json=good)
    assert answer.status_code == 200
    assert answer.json() == {"ok": True, "id": "crew-of-shadows", "name": "Crew of Shadows"}

    bad = json.loads(
        (FIXTURES / "rulesets" / "invalid" / "levels-max-disagrees.json").read_text("utf-8")
    )
    answer = client.post("/rulesets/validate", json=bad)
    assert answer.status_code == 422
    assert answer.json()["code"] == "ruleset_invalid"
    assert {
        "path": "sheet.live.tracks.0.max",
        "message": "max must equal the number of levels (3), found 4",
    } in answer.json()["problems"]


def test_games_are_made_from_inline_or_installed_rulesets_and_refused_clearly(
    client: TestClient,
) -> None:
    inline = json.loads(Path(CREW).read_text("utf-8"))
    made = client.post("/games", json={"ruleset": inline})
    assert made.status_code == 201 and made.json()["chatId"]
    assert (
        client.post("/games", json={"chatId": "a", "rulesetId": "crew-of-shadows"}).status_code
        == 201
    )

    taken = client.post("/games", json={"chatId": "a", "rulesetId": "crew-of-shadows"})
    assert (taken.status_code, taken.json()["code"]) == (409, "chat_exists")
    missing = client.post("/games", json={"rulesetId": "nightfall"})
    assert (missing.status_code, missing.json()["code"]) == (400, "ruleset_not_installed")
    broken_game = {
        "rulesetId": "crew-of-shadows",
        "game": {"rulesetClocks": [{"name": "X", "size": "six"}]},
    }
    refused = client.post("/games", json=broken_game)
    assert (refused.status_code, refused.json()["code"]) == (422, "game_invalid")
    assert refused.json()["problems"]
    unknown = client.get("/games/nobody")
    assert (unknown.status_code, unknown.json()["code"]) == (404, "chat_not_found")
    garbled = client.post("/games", content=b"\xff{", headers={"Content-Type": "application/json"})
    assert (garbled.status_code, garbled.json()["code"]) == (400, "http_400")
    assert client.put("/games/a").json()["code"] == "http_405"


@pytest.mark.spec("CL-15", "EN-2")
def test_regenerate_swipe_continue_and_delete_move_between_snapshots(
    client: TestClient, heist: str
) -> None:
    first = client.post(f"/games/{heist}/replies", json=tick(2)).json()
    assert 'result="ok" now="4/6"]' in first["reply"]
    assert first["narration"] == "A bell."
    assert (first["message"], first["swipe"], first["swipes"]) == (0, 0, 1)

    again = client.post(f"/games/{heist}/regenerate", json=tick(1)).json()
    assert alarm(again) == 3  # from before the reply, not on top of it
    assert (again["swipe"], again["swipes"]) == (1, 2)

    chosen = client.post(f"/games/{heist}/swipe", json={"swipe": 0}).json()
    assert alarm(chosen) == 4
    more = client.post(f"/games/{heist}/continue", json=tick(1)).json()
    assert alarm(more) == 5
    assert client.get(f"/games/{heist}").json()["messages"][0]["text"].count("A bell.") == 2

    after = client.delete(f"/games/{heist}/swipes/0").json()
    assert alarm(after) == 3  # the continued swipe went; swipe 1 is what is left
    assert client.delete(f"/games/{heist}/messages/last").json()["messages"] == []
    assert alarm(client.get(f"/games/{heist}").json()) == 2

    conflict = client.post(f"/games/{heist}/regenerate", json=tick(1))
    assert (conflict.status_code, conflict.json()["code"]) == (409, "history_conflict")
    negative = client.post(f"/games/{heist}/swipe", json={"swipe": -1})
    assert (negative.status_code, negative.json()["code"]) == (422, "request_invalid")
    assert negative.json()["problems"][0]["path"] == "body.swipe"


@pytest.mark.spec("EN-3")
def test_the_history_survives_a_restart(db: Path) -> None:
    with TestClient(create_app(db, [CREW]), base_url=LOOPBACK) as client:
        client.post("/games", json={"chatId": "c", "rulesetId": "crew-of-shadows", "game": HEIST})
        client.post("/games/c/replies", json=tick(2))
        client.post("/games/c/regenerate", json=tick(3))
    with TestClient(create_app(db), base_url=LOOPBACK) as client:
        body = client.get("/games/c").json()
        assert alarm(body) == 5 and body["messages"][0]["swipes"] == 2
        assert alarm(client.post("/games/c/swipe", json={"swipe": 0}).json()) == 4


@pytest.mark.spec("UT-5")
def test_a_skill_check_is_rolled_for_the_character_and_untrained_refuse_is_a_400(
    tmp_path: Path,
) -> None:
    jade = str(FIXTURES / "rulesets" / "jade-river.zh.json")
    game = json.loads((FIXTURES / "games" / "jade-river.zh.json").read_text("utf-8"))
    with TestClient(create_app(tmp_path / "db.sqlite", [jade]), base_url=LOOPBACK) as client:
        client.post("/games", json={"chatId": "j", "rulesetId": "jade-river", "game": game})
        before = client.get("/games/j").json()["game"]
        rolled = client.post(
            "/game/skill-check",
            json={"chatId": "j", "skill": "轻功", "dc": 8, "who": "苏晴", "seed": 4},
        )
        assert rolled.status_code == 200, rolled.json()
        result = rolled.json()["result"]
        assert result["who"] == "苏晴" and result["dc"] == 8
        assert result["result"] in ("success", "failure", "critical_success", "critical_failure")
        assert result["tag"].startswith('[skill_check: skill="轻功" dc="8" rolls="')
        refused = client.post(
            "/game/skill-check", json={"chatId": "j", "skill": "内功心法", "dc": 8, "who": "林逸"}
        )
        assert (refused.status_code, refused.json()["code"]) == (400, "skill_check_untrained")
        # A step no ladder has: the Engine's code (its block game-ruleset-check-rules).
        nope = client.post(
            "/game/skill-check", json={"chatId": "j", "skill": "轻功", "difficulty": "Nope"}
        )
        assert (nope.status_code, nope.json()["code"]) == (400, "skill_check_difficulty_unknown")
        assert client.get("/games/j").json()["game"] == before  # a check changes nothing


@pytest.mark.spec("PT-14")
def test_a_stale_party_save_is_a_409_with_the_newer_sheet_and_the_draft(
    client: TestClient, heist: str
) -> None:
    saved = client.post(
        f"/games/{heist}/party-sheet", json={"draft": {"fields": {"lair": "Loft"}}, "revision": 0}
    )
    assert saved.status_code == 200
    assert (saved.json()["saved"], saved.json()["revision"]) == (True, 1)
    stale = client.post(
        f"/games/{heist}/party-sheet", json={"draft": {"fields": {"lair": "Barge"}}, "revision": 0}
    )
    assert stale.status_code == 409
    body = stale.json()
    assert body["code"] == "party_sheet_stale"
    assert body["sheet"]["fields"]["lair"] == "Loft" and body["revision"] == 1
    assert body["draft"] == {"fields": {"lair": "Barge"}}
    invalid = client.post(
        f"/games/{heist}/party-sheet", json={"draft": {"fields": {"heat": 99}}, "revision": 1}
    )
    assert (invalid.status_code, invalid.json()["code"]) == (422, "party_sheet_invalid")
    assert invalid.json()["problems"][0]["path"].endswith("heat")


def test_rests_and_prompts(client: TestClient, heist: str) -> None:
    client.post(
        f"/games/{heist}/replies",
        json={"text": '[sheet: who="Mira" op="spend" pool="stress" amount="3"]'},
    )
    rest = client.post(f"/games/{heist}/rest", json={"rest": "downtime", "who": "Mira"}).json()
    assert rest["ok"] and rest["now"].endswith("Stress 9/9")
    unknown = client.post(f"/games/{heist}/rest", json={"rest": "nap", "who": "Mira"}).json()
    assert (unknown["ok"], unknown["reason"]) == (False, "unknown-rest")
    roles = [m["role"] for m in client.get(f"/games/{heist}").json()["messages"]]
    assert roles == ["reply", "event"]  # a refused rest is not in the story

    prompt = client.get(f"/games/{heist}/prompt").json()
    assert "Stress 9/9" in prompt["reminder"] and prompt["system"] and prompt["cut"] == 0
    negative = client.get(f"/games/{heist}/prompt", params={"budget": -1})
    assert negative.status_code == 422


def test_a_prompt_budget_cuts_the_rules_reference(tmp_path: Path) -> None:
    lantern = str(FIXTURES / "rulesets" / "packaged-lantern-keepers")
    with TestClient(create_app(tmp_path / "db.sqlite", [lantern]), base_url=LOOPBACK) as client:
        client.post("/games", json={"chatId": "l", "rulesetId": "lantern-keepers"})
        whole = client.get("/games/l/prompt").json()
        cut = client.get("/games/l/prompt", params={"budget": 60}).json()
    assert whole["cut"] == 0 and cut["cut"] > 0
    assert len(cut["system"]) < len(whole["system"])


@pytest.mark.load
def test_steps_on_one_chat_from_many_threads_are_taken_one_at_a_time(
    client: TestClient, heist: str
) -> None:
    def post_ticks() -> None:
        for _ in range(10):
            assert client.post(f"/games/{heist}/replies", json=tick(0)).status_code == 200

    run_together(post_ticks, [()] * 6)
    assert len(client.get(f"/games/{heist}").json()["messages"]) == 60


def save_on_cue(
    client: TestClient,
    chat_id: str,
    draft: dict[str, Any],
    revision: int,
    cue: threading.Barrier,
    answers: list[Any],
    slot: int,
) -> None:
    cue.wait()
    body = {"draft": draft, "revision": revision}
    answers[slot] = client.post(f"/games/{chat_id}/party-sheet", json=body)


@pytest.mark.load
@pytest.mark.spec("PT-14")
def test_two_saves_opened_at_one_revision_through_the_api_land_exactly_once(
    client: TestClient, heist: str
) -> None:
    for round_ in range(25):
        revision = client.get(f"/games/{heist}").json()["game"].get("gamePartySheetRevision", 0)
        drafts = [{"fields": {"lair": f"Loft {round_}"}}, {"fields": {"lair": f"Barge {round_}"}}]
        answers: list[Any] = [None, None]
        start = threading.Barrier(2)
        run_together(
            save_on_cue, [(client, heist, drafts[n], revision, start, answers, n) for n in (0, 1)]
        )
        assert sorted(answer.status_code for answer in answers) == [200, 409]
        landed = next(n for n in (0, 1) if answers[n].status_code == 200)
        stale = answers[1 - landed].json()
        assert stale["draft"] == drafts[1 - landed]  # the loser's draft comes back unchanged
        assert stale["sheet"]["fields"]["lair"] == drafts[landed]["fields"]["lair"]
        assert stale["revision"] == revision + 1


@pytest.mark.load
@pytest.mark.spec("PT-14")
def test_no_update_is_lost_through_the_api_under_interleaved_saves_and_story(
    client: TestClient, heist: str
) -> None:
    landed: list[int] = []
    lock = threading.Lock()
    advance = {"text": '[sheet: sheet="party" op="advance" field="tier" to="1"]'}

    def player(name: str) -> None:
        for n in range(80):
            opened = client.get(f"/games/{heist}").json()["game"].get("gamePartySheetRevision", 0)
            body = {"draft": {"fields": {"lair": f"{name} {n}"}}, "revision": opened}
            answer = client.post(f"/games/{heist}/party-sheet", json=body)
            assert answer.status_code in (200, 409)
            if answer.status_code == 200:
                with lock:
                    landed.append(answer.json()["revision"])

    def story() -> None:
        for _ in range(80):
            assert client.post(f"/games/{heist}/replies", json=advance).status_code == 200

    def act(role: str) -> None:
        return story() if role == "story" else player(role)

    run_together(act, [("A",), ("B",), ("C",), ("story",)])
    game = client.get(f"/games/{heist}").json()["game"]
    # Every landed save and every story change raised the revision by exactly one.
    assert game["gamePartySheetRevision"] == len(landed) + 80
    assert len(set(landed)) == len(landed)


def test_a_store_that_is_not_one_stops_the_service_before_it_serves(tmp_path: Path) -> None:
    notes = tmp_path / "notes.txt"
    notes.write_text("not a database\n" * 100, encoding="utf-8")
    with pytest.raises(StoreError, match="not a gm-tags store"):
        create_app(notes)


def test_chats_beyond_those_held_in_memory_are_read_back_from_the_store(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(service_chats, "HELD", 2)
    names = [f"chat-{n}" for n in range(5)]
    for name in names:
        client.post("/games", json={"chatId": name, "rulesetId": "crew-of-shadows", "game": HEIST})
    for amount in (1, 1, -1, 1):
        for name in names:
            assert client.post(f"/games/{name}/replies", json=tick(amount)).status_code == 200
    for name in names:
        body = client.get(f"/games/{name}").json()
        assert alarm(body) == 4 and len(body["messages"]) == 4
    served = client.app.state.chats  # type: ignore[attr-defined]
    assert len(served._held) <= 2


def test_a_chat_read_back_has_each_messages_rewritten_reply_and_receipts(
    client: TestClient, heist: str
) -> None:
    assert client.post(f"/games/{heist}/replies", json=tick(1)).status_code == 200
    (message,) = client.get(f"/games/{heist}").json()["messages"]
    assert message["narration"] == "A bell."
    assert message["reply"].startswith('A bell. [clock: name="Alarm raised" tick="1" result="ok"')
    (receipt,) = message["receipts"]
    assert receipt["family"] == "clock" and receipt["result"] == "ok"
    assert receipt["tag"] in message["reply"]


def test_a_chat_has_a_title_beside_its_id_and_it_can_be_renamed(client: TestClient) -> None:
    made = client.post(
        "/games",
        json={"chatId": "h", "rulesetId": "crew-of-shadows", "game": HEIST, "title": "Vault job"},
    )
    assert made.status_code == 201
    client.post("/games", json={"chatId": "plain", "rulesetId": "crew-of-shadows"})
    listed = client.get("/games").json()
    assert listed == {"chats": ["h", "plain"], "titles": {"h": "Vault job", "plain": ""}}
    renamed = client.put("/games/plain/title", json={"title": "Bell tower"})
    assert renamed.json() == {"chatId": "plain", "title": "Bell tower"}
    assert client.get("/games").json()["titles"]["plain"] == "Bell tower"
    assert client.put("/games/nobody/title", json={"title": "X"}).status_code == 404
    bad = client.put("/games/h/title", json={"title": "two\nlines"})
    assert bad.status_code == 422 and "one line" in json.dumps(bad.json())
