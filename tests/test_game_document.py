"""The game document: read with every problem reported, written back losing nothing."""

from __future__ import annotations

import json
from typing import Any

import pytest

from gm_tags import Clock, Game, GameDocumentError, Ruleset, load_ruleset
from tests.conftest import FIXTURES


@pytest.fixture(scope="module")
def crew() -> Ruleset:
    return load_ruleset(FIXTURES / "rulesets" / "crew-of-shadows.json")


@pytest.mark.spec("CL-14")
def test_clocks_are_stored_as_ruleset_clocks_and_read_back(crew: Ruleset) -> None:
    game = (
        Game.new(crew)
        .apply_reply('[clock: name="Heat" size="4"][clock: name="Heat" tick="3"]')
        .game
    )
    document = json.loads(json.dumps(game.to_document()))
    assert document["rulesetClocks"] == [{"name": "Heat", "size": 4, "filled": 3}]
    assert set(document) == {"rulesetClocks", "gameRuleset"}
    assert Game.from_document(crew, document).clocks == (Clock("Heat", 4, 3),)


@pytest.mark.spec("CL-14")
@pytest.mark.parametrize("document", [{}, {"rulesetClocks": None}, {"rulesetClocks": []}])
def test_missing_clock_data_means_no_clocks(crew: Ruleset, document: dict[str, Any]) -> None:
    game = Game.from_document(crew, document)
    assert game.clocks == ()
    assert "rulesetClocks" not in game.to_document()


def test_keys_later_stages_own_are_carried_unchanged(crew: Ruleset) -> None:
    document = {
        "gameCharacterCards": [{"name": "Mira", "rulesetSheet": {"v": 1, "build": {}}}],
        "rulesetLive": {"mira": {"pools": {"stress": {"value": 2}}}},
        "somethingNewer": [1, 2, 3],
    }
    game = Game.from_document(crew, document)
    after = game.apply_reply('[clock: name="Heat" size="4"]').game.to_document()
    assert {key: after[key] for key in document} == document
    after["rulesetLive"]["mira"] = "changed"
    assert game.to_document()["rulesetLive"] == document["rulesetLive"]


def test_a_bad_document_lists_every_problem_with_its_path(crew: Ruleset) -> None:
    document = {
        "rulesetClocks": [
            {"name": "Heat", "size": 4, "filled": 5},
            {"name": "[bad]", "size": 20},
            {"size": 4, "colour": "red"},
        ]
    }
    with pytest.raises(GameDocumentError) as raised:
        Game.from_document(crew, document)
    paths = sorted(problem.path for problem in raised.value.problems)
    assert paths == [
        "rulesetClocks.0",
        "rulesetClocks.1.name",
        "rulesetClocks.1.size",
        "rulesetClocks.2",
        "rulesetClocks.2",
    ]
    assert "unknown key 'colour'" in str(raised.value)


def test_two_clocks_sharing_a_name_are_refused(crew: Ruleset) -> None:
    document = {"rulesetClocks": [{"name": "Heat", "size": 4}, {"name": "HEAT", "size": 6}]}
    with pytest.raises(GameDocumentError) as raised:
        Game.from_document(crew, document)
    assert [str(problem) for problem in raised.value.problems] == [
        "rulesetClocks.1.name: 'HEAT' is also the name of clock 0; names must differ"
    ]


def test_a_document_that_is_no_object_is_refused(crew: Ruleset) -> None:
    with pytest.raises(GameDocumentError) as raised:
        Game.from_document(crew, ["not", "an", "object"])  # type: ignore[arg-type]
    assert [problem.path for problem in raised.value.problems] == ["(root)"]
