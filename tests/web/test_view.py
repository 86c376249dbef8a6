"""What the play page is given to show of a chat (gm_tags/web/view.py), without a browser."""

from __future__ import annotations

import json
from pathlib import Path

from fastapi.testclient import TestClient

from gm_tags.history import Chat
from gm_tags.service import create_app
from gm_tags.web.story import story_page
from gm_tags.web.view import chat_view
from tests.conftest import FIXTURES, LOOPBACK
from tests.fuzzing import fixture_game

CREW = str(FIXTURES / "rulesets" / "crew-of-shadows.json")


def test_every_skill_is_on_the_sheet_with_the_number_its_check_starts_from() -> None:
    game = fixture_game("reference/ember-roads.json", "ember-roads.json")
    view = chat_view("ember", Chat(game), 0)
    tobin = next(c for c in view["characters"] if c["name"] == "Tobin Vell")
    labels = [section["label"] for section in tobin["sections"]]
    # First the abilities, last the skills: a field without a section never sits under them.
    assert labels[0] == "Abilities" and labels[-1] == "Skills" and labels.count("Skills") == 1
    skills = {entry["label"]: entry["value"] for entry in tobin["sections"][-1]["entries"]}
    assert set(skills) == {s.label for s in game.ruleset.definition.sheet.skills}  # type: ignore[union-attr]
    record = game.check("Tobin Vell", "Sneak", dc=10, seed=1)
    assert skills["Sneak"] == record.modifier


def test_party_fields_never_saved_show_their_default_and_computed_ones_say_so() -> None:
    game = fixture_game("crew-of-shadows.json", "crew-mid-heist.json")
    party = chat_view("heist", Chat(game), 0)["party"]
    fields = {field["id"]: field for field in party["fields"]}
    # Coin shows 3/4 because Vault capacity is 4 by default: the field says so too.
    assert {key: fields[key]["value"] for key in ("heat", "tier", "vault")} == {
        "heat": 0,
        "tier": 0,
        "vault": 4,
    }
    assert [pool["max"] for pool in party["pools"]] == [fields["vault"]["value"]]
    assert fields["lair"]["value"] == ""  # a text field without a default stays empty
    # Crew size and the members' stash are worked out from the characters, not typed in.
    assert {key for key, field in fields.items() if field["computed"]} == {"size", "stashed"}
    assert fields["size"]["value"] == len(game.characters)


def test_the_players_own_character_is_marked_and_no_other() -> None:
    heist = fixture_game("crew-of-shadows.json", "crew-mid-heist.json")  # names no player
    marked = [c["name"] for c in chat_view("heist", Chat(heist), 0)["characters"] if c["player"]]
    assert marked == [heist.characters[0].name]  # the card a command without who= means
    ember = fixture_game("reference/ember-roads.json", "ember-roads.json")  # names Mira Ashdown
    marked = [c["name"] for c in chat_view("ember", Chat(ember), 0)["characters"] if c["player"]]
    assert marked == ["Mira Ashdown"]


def test_the_story_is_read_back_a_page_at_a_time_oldest_first_without_tags() -> None:
    chat = Chat(fixture_game("crew-of-shadows.json", "crew-mid-heist.json"))
    chat = chat.user("We slip in by the canal.")
    chat, _ = chat.reply('A bell rings. [clock: name="Alarm raised" tick="1"]', seed=1)
    chat, _ = chat.rest("downtime")
    chat = chat.user("We run.")
    chat, _ = chat.reply('Boots on the stairs. [clock: name="Alarm raised" tick="9"]', seed=1)
    newest = chat_view("heist", chat, 0)["story"]
    assert [e["role"] for e in newest["entries"]] == ["user", "reply", "event", "user", "reply"]
    assert newest["earlier"] is None
    first, last = newest["entries"][1], newest["entries"][-1]
    assert first["text"] == "A bell rings." and "[" not in last["text"]
    assert [r["result"] for r in first["receipts"]] == ["ok"]
    assert newest["entries"][2]["text"].startswith("rest downtime")
    # Reading back: the two newest, then the two before them, then the first.
    page = story_page(chat, limit=2)
    assert ([e["message"] for e in page["entries"]], page["earlier"]) == ([3, 4], 3)
    page = story_page(chat, before=page["earlier"], limit=2)
    assert ([e["message"] for e in page["entries"]], page["earlier"]) == ([1, 2], 1)
    page = story_page(chat, before=page["earlier"], limit=2)
    assert (page["entries"][0]["text"], page["earlier"]) == ("We slip in by the canal.", None)


def test_the_story_route_pages_back_and_refuses_a_bad_page(tmp_path: Path) -> None:
    with TestClient(create_app(tmp_path / "s.sqlite", [CREW]), base_url=LOOPBACK) as client:
        heist = json.loads((FIXTURES / "games" / "crew-mid-heist.json").read_text("utf-8"))
        made = client.post(
            "/games", json={"chatId": "h", "rulesetId": "crew-of-shadows", "game": heist}
        )
        assert made.status_code == 201
        for turn in range(3):
            client.post("/games/h/user", json={"text": f"Turn {turn}."})
            client.post(
                "/games/h/replies",
                json={"text": f'Reply {turn}. [clock: name="Alarm raised" tick="1"]'},
            )
        page = client.get("/games/h/story", params={"before": 4, "limit": 3}).json()
        assert [e["text"] for e in page["entries"]] == ["Reply 0.", "Turn 1.", "Reply 1."]
        assert page["earlier"] == 1
        assert client.get("/games/h/story", params={"limit": 0}).status_code == 422
        assert client.get("/games/nobody/story").status_code == 404


def test_fields_without_a_section_come_first_under_no_heading_never_under_the_abilities() -> None:
    game = fixture_game("crew-of-shadows.json", "crew-mid-heist.json")
    mira = chat_view("heist", Chat(game), 0)["characters"][0]
    first, second = mira["sections"][:2]
    assert first["label"] is None
    assert {entry["label"] for entry in first["entries"]} >= {"Playbook"}
    assert second["label"] == "Abilities"
    assert "Playbook" not in {entry["label"] for entry in second["entries"]}
