"""Characters and their live state in the game document."""

from __future__ import annotations

import json
from typing import Any

import pytest

from gm_tags import Game, GameDocumentError, Ruleset
from tests.sheet.conftest import one


def test_a_game_round_trips_through_json_unchanged(gravewatch: Ruleset) -> None:
    game = one(gravewatch, {"abilities": {"nerve": 2}, "fields": {"watch": "dawn"}})
    turn = game.apply_reply(
        '[sheet: op="spend" pool="resolve" amount="2"]'
        '[sheet: op="damage" track="harm" kind="tear" amount="2"]'
        '[sheet: op="condition" condition="rattled"]'
        '[sheet: op="state" state="light" value="out"]'
    )
    document = json.loads(json.dumps(turn.game.to_document()))
    assert document["rulesetLive"] == {
        "mira": {
            "pools": {"resolve": {"value": 3}},
            "wounds": {"harm": {"marks": ["tear", "tear"]}},
            "conditions": ["rattled"],
            "states": {"light": "out"},
        }
    }
    again = Game.from_document(gravewatch, document)
    assert again.to_document() == document
    assert again.read(None, {"derived": "light_nerve"}) == -2


@pytest.mark.spec("ST-3")
def test_a_stored_state_value_no_longer_offered_reads_as_the_default_and_is_kept(
    ember: Ruleset,
) -> None:
    document = {
        "gameCharacterCards": [{"name": "Mira", "rulesetSheet": {"v": 1, "build": {}}}],
        "rulesetLive": {"mira": {"states": {"stance": "berserk"}, "pools": {"mana": {"value": 2}}}},
    }
    game = Game.from_document(ember, document)
    assert game.read(None, {"derived": "stance_brawn"}) == 0  # steady: not in the table
    assert game.to_document()["rulesetLive"] == document["rulesetLive"]  # kept: it may return


def test_unknown_keys_of_a_card_and_of_a_live_state_are_carried(ember: Ruleset) -> None:
    document = {
        "gameCharacterCards": [
            {"name": "Mira", "shortDescription": "A courier", "class": "Scout", "extra": {"a": 1}}
        ],
        "rulesetLive": {"mira": {"tracks": {"heat": 2}, "futureKey": [1]}},
        "gamePartySheet": {"coin": 3},
    }
    game = Game.from_document(ember, document)
    assert game.to_document() == {**document, "gameRuleset": record(ember)}


def record(ruleset: Ruleset) -> dict[str, str]:
    return {"id": ruleset.id, "name": ruleset.name, "fingerprint": ruleset.fingerprint}


def test_a_game_records_its_ruleset_and_refuses_another(ember: Ruleset, fifth: Ruleset) -> None:
    document = Game.new(ember).to_document()
    assert document["gameRuleset"] == record(ember)
    assert Game.from_document(ember, document).to_document() == document
    with pytest.raises(GameDocumentError) as refused:
        Game.from_document(fifth, document)
    (problem,) = refused.value.problems
    assert problem.path == "gameRuleset.id"
    assert problem.message == (
        f"this game belongs to the ruleset {ember.name!r} ({ember.id}), "
        f"not {fifth.name!r} ({fifth.id})"
    )


def test_the_fingerprint_follows_the_content(ember: Ruleset) -> None:
    from gm_tags.ruleset.loader import load_stored

    again = load_stored(ember.document)
    assert again.fingerprint == ember.fingerprint
    changed = load_stored({**ember.document, "ruleset": {**ember.data, "version": 99}})
    assert changed.fingerprint != ember.fingerprint


@pytest.mark.parametrize(
    ("document", "paths"),
    [
        (
            {"gameCharacterCards": [{"rulesetSheet": {"v": 1, "build": {}}}]},
            ["gameCharacterCards.0"],
        ),
        (
            {
                "gameCharacterCards": [
                    {
                        "name": "Mira",
                        "rulesetSheet": {"v": 1, "build": {"abilities": {"brawn": "two"}}},
                    }
                ]
            },
            ["gameCharacterCards.0.rulesetSheet.build.abilities.brawn"],
        ),
        (
            {"rulesetLive": {"mira": {"pools": {"grit": {"value": 1.5}}}}},
            ["rulesetLive.mira.pools.grit.value"],
        ),
        (
            {"rulesetLive": {"mira": {"pools": {"grit": {"value": 1, "temp": -1}}}}},
            ["rulesetLive.mira.pools.grit.temp"],
        ),
        (
            {"rulesetLive": {"mira": {"tracks": {"heat": 2_000_000}}}},
            ["rulesetLive.mira.tracks.heat"],
        ),
        (
            {"rulesetLive": {"mira": {"wounds": {"harm": {"marks": "knock"}}}}},
            ["rulesetLive.mira.wounds.harm.marks"],
        ),
        ({"rulesetLive": {"mira": {"text": {"note": "x" * 501}}}}, ["rulesetLive.mira.text.note"]),
        ({"gamePlayer": 3}, ["gamePlayer"]),
    ],
)
def test_a_bad_document_names_every_problem_by_its_path(
    ember: Ruleset, document: dict[str, Any], paths: list[str]
) -> None:
    with pytest.raises(GameDocumentError) as raised:
        Game.from_document(ember, document)
    assert [problem.path for problem in raised.value.problems] == paths
