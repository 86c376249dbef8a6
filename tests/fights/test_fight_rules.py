"""Who plays the other side (FT-8, FT-9), every refusal with its reason and nothing changed, the
fight kept in the snapshot like everything else, and the fight block the model reads."""

from __future__ import annotations

from typing import Any

import pytest

from gm_tags import Game, Ruleset
from gm_tags.reasons import Reason
from tests.conftest import ruleset_named
from tests.fights.conftest import WARDEN, played, variant

BEGIN = '[fight: op="begin" against="hollow-warden"]'
# Initiative that puts the hollow warden first (Wren 1 + 2, the warden 10 + 2).
DREAD_FIRST = (1, 10)
# Initiative that puts Wren first.
WREN_FIRST = (9, 1)


def _opposition(value: str | None) -> Ruleset:
    def edit(document: dict[str, Any]) -> None:
        if value is not None:
            document["gm"]["opposition"] = value

    return variant("gravewatch", edit)


@pytest.mark.spec("FT-8")
def test_the_gm_plays_every_opponent_under_game_master_opposition() -> None:
    game = Game.new(_opposition("game-master"), {"Wren": WARDEN}, gm_bosses=True)
    turn = played(game, BEGIN, *DREAD_FIRST)
    assert "Hollow warden the GM plays" in (turn.receipts[0].now or "")
    reminder = turn.game.reminder()
    assert "Hollow warden may: Cold grip (grip)" in reminder
    # The GM picks one of the options by tag.
    grip = played(
        turn.game,
        '[fight: op="attack" who="Hollow warden" target="Wren" with="Cold grip"] '
        '[fight: op="next"]',
        *(1, 1, 1, 1, 1, 1),
    )
    assert [r.ok for r in grip.receipts] == [True, True]
    assert "miss" in (grip.receipts[0].now or "")
    # When the GM passes without answering, the engine's picker acts for it.
    passed = played(turn.game, '[fight: op="next"]', *(1, 1, 1, 1, 1, 1))
    assert "Hollow warden Cold grip at Wren" in (passed.receipts[0].now or "")


@pytest.mark.spec("FT-8")
def test_only_a_game_whose_player_let_the_gm_play_bosses_hands_it_over() -> None:
    game = Game.new(_opposition("game-master"), {"Wren": WARDEN})
    # The engine plays the warden at once: its grip is thrown as the fight begins.
    turn = played(game, BEGIN, *DREAD_FIRST, *(1, 1, 1, 1, 1, 1))
    assert (turn.receipts[0].now or "").startswith("round 1, Wren to act")


@pytest.mark.spec("FT-9")
@pytest.mark.parametrize("opposition", [None, "engine"])
def test_the_engine_plays_all_but_the_bosses_it_was_told_of(opposition: str | None) -> None:
    game = Game.new(_opposition(opposition), {"Wren": WARDEN}, gm_bosses=True)
    boss = played(game, BEGIN[:-1] + ' boss="hollow-warden"]', *DREAD_FIRST)
    assert "Hollow warden the GM plays" in (boss.receipts[0].now or "")
    # Grave rats named beside the boss are the engine's: they gnaw (and miss) as their turn comes.
    both = played(
        game,
        '[fight: op="begin" against="grave-rats, hollow-warden" boss="Hollow warden"]',
        *(1, 10, 9),
        *(1, 1, 1, 1, 1),
    )
    assert "Grave-rat swarm Gnaw at Wren" in (both.receipts[0].now or "")
    assert "Hollow warden the GM plays" in (both.receipts[0].now or "")
    # Without the player's leave, a boss is the engine's too.
    plain = Game.new(_opposition(opposition), {"Wren": WARDEN})
    alone = played(plain, BEGIN[:-1] + ' boss="hollow-warden"]', *DREAD_FIRST, 1, 1, 1, 1, 1, 1)
    assert (alone.receipts[0].now or "").startswith("round 1, Wren to act")


@pytest.fixture
def fighting(gravewatch: Ruleset) -> Game:
    charms = [
        {"name": "Lantern Flare", "_catalog": "charms/lantern-flare"},
        {"name": "Stern Word", "_catalog": "charms/stern-word"},
        {"name": "Steady Hand", "_catalog": "charms/steady-hand"},
    ]
    build = {**WARDEN, "lists": {**WARDEN["lists"], "charms": charms}}
    game = Game.new(gravewatch, {"Wren": build})
    return played(game, BEGIN, *WREN_FIRST).game


@pytest.mark.parametrize(
    ("tag", "reason"),
    [
        (BEGIN, Reason.FIGHT_RUNNING),
        ('[fight: op="attack" who="Hollow warden" with="Cold grip"]', Reason.NOT_YOUR_TURN),
        ('[fight: op="attack" with="Spade"]', Reason.UNKNOWN_OPTION),
        ('[fight: op="attack" with="Steady Hand"]', Reason.UNSUPPORTED),
        ('[fight: op="attack" target="Nobody"]', Reason.NO_SUCH_TARGET),
        ('[fight: op="heal" target="Wren"]', Reason.TARGET_DOWN),
        ('[fight: op="heal" target="Wren" amount="0"]', Reason.BAD_AMOUNT),
        ('[fight: op="swing"]', Reason.MALFORMED),
        ('[fight: op="next" who="Wren"]', Reason.MALFORMED),
    ],
)
def test_a_choice_off_the_options_is_refused_and_changes_nothing(
    fighting: Game, tag: str, reason: Reason
) -> None:
    turn = played(fighting, tag)
    assert turn.receipts[0].reason is reason, turn.receipts[0].detail
    before, after = fighting.to_document(), turn.game.to_document()
    assert after["rulesetFight"] == before["rulesetFight"]
    assert after.get("rulesetLive") == before.get("rulesetLive")


def test_no_fight_no_combat_and_unknown_opponents_are_refused(gravewatch: Ruleset) -> None:
    game = Game.new(gravewatch, {"Wren": WARDEN})
    assert played(game, '[fight: op="next"]').receipts[0].reason is Reason.NO_FIGHT
    unknown = played(game, '[fight: op="begin" against="dragon"]').receipts[0]
    assert unknown.reason is Reason.UNKNOWN_OPPONENT
    story = Game.new(ruleset_named("storyteller"), {"Ana": {}})
    assert played(story, BEGIN).receipts[0].reason is Reason.NO_COMBAT
    assert "fight:" not in story.reminder()


def test_a_fight_is_kept_in_the_snapshot_and_regenerated_from_the_one_before(
    fighting: Game, gravewatch: Ruleset
) -> None:
    reread = Game.from_document(gravewatch, fighting.to_document())
    assert reread.fight == fighting.fight
    assert reread.reminder() == fighting.reminder()
    # Regenerating the reply that began the fight begins it again from the snapshot before.
    before = Game.new(gravewatch, {"Wren": WARDEN})
    again = played(before, BEGIN, *DREAD_FIRST, *(1, 1, 1, 1, 1, 1))
    assert before.fight is None and again.game.fight is not None
    assert again.game.fight.order[0] == "hollow-warden"
    ended = played(fighting, '[fight: op="end"]').game
    assert ended.fight is None and "rulesetFight" not in ended.to_document()


@pytest.mark.spec("WT-17")
def test_the_fight_block_says_round_order_health_budgets_and_options(fighting: Game) -> None:
    reminder = fighting.reminder()
    block = reminder[reminder.index("<fight>") : reminder.index("</fight>")]
    assert "Round 1, Wren to act." in block
    assert "Order: > Wren 4/4; Hollow warden 6/6." in block
    assert "Wren may: Nail (attack:0:0), Cudgel (attack:0:1), Lantern Flare (ability:0:0)" in block
    assert "Budgets left: Act 1/1, Quick 1/1." in block
    assert 'op="begin"' not in reminder and 'op="attack"' in reminder


def test_the_next_reminder_says_why_a_fight_tag_was_refused(fighting: Game) -> None:
    turn = played(fighting, '[fight: op="attack" who="Hollow warden" with="Cold grip"]')
    reminder = turn.game.reminder()
    assert "fight attack Hollow warden refused (not-your-turn: it is Wren's turn" in reminder
