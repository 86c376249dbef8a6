"""What the play page is given to show of a chat (gm_tags/web/view.py), without a browser."""

from __future__ import annotations

from gm_tags.history import Chat
from gm_tags.web.view import chat_view
from tests.fuzzing import fixture_game


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
