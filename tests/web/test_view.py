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
