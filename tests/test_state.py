"""One state protocol: a snapshot (`GameState`) is a value with reads only; the engine writes to
a reply's `Draft`, and nowhere else."""

from __future__ import annotations

import pytest

from gm_tags import Game, Ruleset
from gm_tags.state import Draft, GameState, draft_of

CHANGES = {"set_clocks", "set_fight", "set_inventory", "set_live", "set_party_field"}


def test_a_snapshot_has_no_method_that_changes_it_or_seems_to() -> None:
    assert [name for name in dir(GameState) if name.startswith(("with_", "set_"))] == []
    assert [name for name in dir(Game) if name.startswith(("with_", "set_"))] == [
        "set_box",
        "set_state",
    ]
    assert set(dir(Draft)) >= CHANGES


def test_the_engine_cannot_write_to_a_snapshot(ember: Ruleset) -> None:
    game = Game.new(ember, {"Mira": {}})
    with pytest.raises(TypeError, match="writes only to a reply's Draft, never to a Game"):
        draft_of(game)
    draft = Draft(game)
    assert draft_of(draft) is draft


def test_a_draft_changes_in_place_and_its_snapshot_does_not(ember: Ruleset) -> None:
    game = Game.new(ember, {"Mira": {}})
    draft = Draft(game)
    mira = game.character("Mira")
    draft.set_live(mira.key, draft.live_of(mira).with_condition("hidden", True))
    assert draft.live_of(mira) != game.live_of(mira)
    frozen = draft.freeze()
    assert frozen.live_of(mira) == draft.live_of(mira) and type(frozen) is Game
    assert game.live == {}


def test_a_check_rolled_by_hand_is_the_one_a_reply_rolls(ember: Ruleset) -> None:
    game = Game.new(ember, {"Mira": {}})
    record = game.check("Mira", "Sneak", dc=12, seed=3)
    turn = game.apply_reply('[skill_check: who="Mira" skill="Sneak" dc="12"]', seed=3)
    assert turn.receipts[0].tag == record.tag
    assert turn.receipts[0].succeeded == record.succeeded
