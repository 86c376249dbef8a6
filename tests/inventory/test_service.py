"""The service carries the inventory with the game document: each swipe keeps its own bag, and a
restart keeps them (the proxy passes the same document)."""

from __future__ import annotations

import json
from pathlib import Path

from fastapi.testclient import TestClient

from gm_tags.service import create_app
from tests.conftest import FIXTURES, LOOPBACK

EMBER = str(FIXTURES / "rulesets" / "reference" / "ember-roads.json")
GAME = json.loads((FIXTURES / "games" / "ember-roads.json").read_text("utf-8"))


def _coats(body: dict[str, object]) -> list[tuple[str, int]]:
    game = body["game"]
    assert isinstance(game, dict)
    return [(s["name"], s["quantity"]) for s in game.get("gameInventory", [])]


def test_each_swipe_keeps_its_own_bag_and_a_restart_keeps_them(tmp_path: Path) -> None:
    db = tmp_path / "service.sqlite"
    buy = {
        "text": '[inventory: earn amount="3" unit="sovereign"] [inventory: buy item="Leather coat"]'
    }
    with TestClient(create_app(db, [EMBER]), base_url=LOOPBACK) as client:
        made = client.post(
            "/games", json={"chatId": "road", "rulesetId": "ember-roads", "game": GAME}
        )
        assert made.status_code == 201
        first = client.post("/games/road/replies", json=buy).json()
        assert _coats(first) == [("Leather coat", 1)]
        assert first["game"]["gameMoney"] == {"mira ashdown": {"coin": 100}}
        other = client.post("/games/road/regenerate", json={"text": "Nothing for sale."}).json()
        assert _coats(other) == []
        assert _coats(client.post("/games/road/swipe", json={"swipe": 0}).json()) == [
            ("Leather coat", 1)
        ]
    with TestClient(create_app(db, [EMBER]), base_url=LOOPBACK) as client:
        assert _coats(client.get("/games/road").json()) == [("Leather coat", 1)]


def test_the_play_page_shows_what_each_character_carries(tmp_path: Path) -> None:
    """The play page's view of a chat holds each character's inventory and money lines."""
    buy = {
        "text": '[inventory: earn amount="3" unit="sovereign"] [inventory: buy item="Leather coat"]'
    }
    with TestClient(create_app(tmp_path / "s.sqlite", [EMBER]), base_url=LOOPBACK) as client:
        client.post("/games", json={"chatId": "road", "rulesetId": "ember-roads", "game": GAME})
        client.post("/games/road/replies", json=buy)
        view = client.get("/games/road/view")
        assert view.status_code == 200, view.text
        (mira, *_) = view.json()["characters"]
    assert mira["carries"] == [
        "Carries: Leather coat [Armor, Common; Bulk 3, Guard 1; costs 2 sovereigns]",
        "Load 4 of 7, most 12",
        "Money: Coin 1 sovereigns",
    ]
