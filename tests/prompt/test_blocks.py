"""What the model reads, for every fixture ruleset and both reference rulesets: the reminder (with
every sheet block) and the system section, snapshotted. Read a changed snapshot as the model
would: it has to be enough to play by, and no more."""

from __future__ import annotations

import json

import pytest
from syrupy.assertion import SnapshotAssertion

from gm_tags import Game, load_ruleset
from tests.conftest import FIXTURES

GAMES = {
    "crew-of-shadows": ("crew-of-shadows.json", "crew-mid-heist.json"),
    "ember-roads": ("reference/ember-roads.json", "ember-roads.json"),
    "gravewatch": ("reference/gravewatch.json", "gravewatch.json"),
    "storyteller": ("storyteller.json", "nightfall.json"),
    "fifth-age": ("fifth-age.json", "fifth-age.json"),
    "strain-runners": ("strain-runners.json", "strain-runners.json"),
    "lantern-keepers": ("packaged-lantern-keepers", "lantern-keepers.json"),
    "hearts-and-hollows": ("hearts-and-hollows.ja.json", "hollows-village.ja.json"),
    "jade-river": ("jade-river.zh.json", "jade-river.zh.json"),
    "rajmarg": ("rajmarg.hi.json", "rajmarg.hi.json"),
    "laser-hearts": ("lasers-and-feelings.json", "laser-hearts.json"),
    "story-points": ("story-points.json", "story-points.json"),
}
# Something happened in each game, so the blocks show live state and not only the start.
PLAY = {
    "laser-hearts": '[sheet: sheet="party" op="advance" field="problem" to="Hunted by the Empire"]',
    "story-points": '[sheet: sheet="party" op="spend" pool="player_points" amount="1"]',
    "crew-of-shadows": (
        '[sheet: op="damage" track="harm" kind="moderate" amount="1"]'
        '[sheet: op="spend" pool="stress" amount="3"]'
    ),
    "ember-roads": (
        '[sheet: op="damage" track="strain" kind="strain" amount="4"][sheet: op="note" field="x"]'
        # What the outfitter sold: worn, packed, carried by a friend, invented, and paid for.
        '[inventory: action="earn" amount="3" unit="sovereign"][inventory: add item="Leather coat"]'
        '[inventory: action="equip" item="Leather coat"][inventory: add item="Arrows" count="4"]'
        '[inventory: add item="Hunting bow" who="Tobin Vell"][inventory: equip item="Hunting bow"'
        ' who="Tobin Vell"][inventory: add item="Old shield" rarity="uncommon" guard="2"]'
    ),
    "gravewatch": (
        '[sheet: op="damage" track="harm" kind="tear" amount="2"]'
        '[sheet: op="spend" pool="resolve" amount="9"]'
        # A warden's kit: a bound bell rung once, a spade in both hands, pennies and shillings.
        '[inventory: add item="Dawn bell"][inventory: bind item="Dawn bell"]'
        '[inventory: action="use" item="Dawn bell"][inventory: add item="Grave spade"]'
        '[inventory: equip item="Grave spade"][inventory: add item="Silver coffin nail" count="3"]'
        '[inventory: action="earn" amount="1" unit="crown"]'
        '[inventory: action="pay" amount="7" unit="penny"]'
    ),
    "storyteller": (
        '[sheet: op="damage" track="health" kind="lethal" amount="4"]'
        '[sheet: op="note" field="hunting" value="Pier 9"]'
    ),
    "fifth-age": '[sheet: op="temp" pool="hp" amount="4"][sheet: op="condition" condition="prone"]',
    "strain-runners": '[sheet: op="damage" track="strain" kind="trauma" amount="1" box="3"]',
    "lantern-keepers": '[sheet: op="state" state="lamp" value="low"]',
    "hearts-and-hollows": (
        '[sheet: op="track" track="harm" by="2"]'
        '[sheet: who="蒼" op="state" state="stance" value="wild"]'
    ),
    "jade-river": '[sheet: op="damage" track="qi_deviation" kind="rupture" amount="2"]',
    "rajmarg": (
        '[sheet: op="condition" condition="thaka"]'
        '[sheet: who="नकुल" op="spend" pool="dam" amount="1"]'
    ),
}


def played(name: str) -> Game:
    ruleset_file, game_file = GAMES[name]
    ruleset = load_ruleset(FIXTURES / "rulesets" / ruleset_file)
    document = json.loads((FIXTURES / "games" / game_file).read_text("utf-8"))
    return Game.from_document(ruleset, document).apply_reply(PLAY[name]).game


@pytest.mark.parametrize("name", sorted(GAMES))
def test_reminder(name: str, snapshot: SnapshotAssertion) -> None:
    game = played(name)
    assert game.reminder() == snapshot
    assert game.reminder() == played(name).reminder()  # the same state, the same bytes


@pytest.mark.parametrize("name", sorted(GAMES))
def test_system_prompt(name: str, snapshot: SnapshotAssertion) -> None:
    game = played(name)
    prompt = game.system_prompt()
    assert prompt.text == snapshot
    assert prompt.cut == 0
    assert game.system_prompt().text == prompt.text  # stable from turn to turn
