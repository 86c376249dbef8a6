"""A dice-pool fight on a wound track, Gravewatch's: a warden with a nail against a dread. The
to-hit is a pool, each success past the defense adds a damage die, soak is Sinew for knocks and
nothing for tears, per-point damage marks the harm track, and a full track is down."""

from __future__ import annotations

import pytest
from syrupy.assertion import SnapshotAssertion

from gm_tags import Game, Ruleset
from gm_tags.reasons import Reason
from tests.fights.conftest import TRAVELLER, WARDEN, played


@pytest.fixture
def game(gravewatch: Ruleset) -> Game:
    return Game.new(gravewatch, {"Wren": WARDEN})


def _marks(game: Game) -> tuple[str, ...]:
    return game.live_of(game.character("Wren")).wounds["harm"].marks


BEGIN = '[fight: op="begin" against="hollow-warden"]'
WREN_FIRST = (9, 1)


@pytest.mark.spec("FT-1", "WT-17")
def test_a_nail_against_a_dread_worked_through(game: Game, snapshot: SnapshotAssertion) -> None:
    # Initiative: Wren 9 + Nerve 2 = 11, the warden 1 + 2 = 3, so Wren acts first.
    # The nail: Sinew 3 and Wrestle 2 throw five dice against 7; four successes meet defense 2
    # and add two damage dice to its one; three dice against 6 make 2; the dread soaks tears with
    # its one die for all harm (4: nothing).
    receipts: list[str] = []
    turn = played(
        game,
        f'{BEGIN} [fight: op="attack" who="Wren" with="Nail"]',
        *(9, 1),
        *(9, 9, 8, 7, 2),
        *(10, 6, 3),
        4,
    )
    begin, attack = turn.receipts
    receipts += [r.tag for r in turn.receipts]
    assert begin.now is not None and "round 1, Wren to act" in begin.now
    assert attack.now is not None
    assert "(9 9 8 7 2) vs 7 = 4 vs defense 2 (+2 dice)" in attack.now
    assert "damage (10 6 3) vs 6 = 2, soak (4) = 0, dealt 2; Hollow warden 4/6" in attack.now
    fight = turn.game.fight
    assert fight is not None and fight.get("hollow-warden").health == 4
    # The dread's turn, played by the engine: its cold grip throws six dice (three successes,
    # two past Wren's defense of 1: four damage dice), blunt harm is a knock, and Wren soaks
    # knocks with Sinew's three dice. Two points land as two marks (per-point), and the grip
    # leaves Wren rattled for a round. Round 2's initiative puts the dread first; its grip
    # misses; Wren's turn comes and the rattle is over.
    turn = played(
        turn.game,
        '[fight: op="next"]',
        *(7, 8, 9, 1, 1, 1),
        *(6, 6, 6, 1),
        *(6, 1, 1),
        *(5, 9),
        *(1, 1, 1, 1, 1, 1),
    )
    receipts += [r.tag for r in turn.receipts]
    assert _marks(turn.game) == ("knock", "knock")
    assert "rattled" not in turn.game.live_of(turn.game.character("Wren")).conditions
    assert turn.receipts[0].now is not None and turn.receipts[0].now.startswith(
        "round 2, Wren to act"
    )
    # WT-17: the fight reads the track as the levels left.
    assert "Order: Hollow warden 4/6; > Wren 2/4." in turn.game.reminder()
    # Winded's penalty takes a die off: four dice.
    turn = played(turn.game, '[fight: op="attack" with="nail"]', *(10, 10, 10, 1), *(9, 9), 2)
    assert "(10 10 10 1) vs 7 = 3 vs defense 2 (+1 dice)" in (turn.receipts[0].now or "")
    assert turn.game.to_document()["rulesetLive"]["wren"]["wounds"]["harm"] == {
        "marks": ["knock", "knock"]
    }
    receipts += [r.tag for r in turn.receipts]
    assert receipts == snapshot


@pytest.mark.spec("FT-2", "WT-17")
def test_a_full_track_is_down_and_the_fight_is_lost(gravewatch: Ruleset) -> None:
    game = Game.new(gravewatch, {"Wren": WARDEN})
    game = played(game, '[sheet: who="Wren" op="damage" track="harm" kind="tear" amount="3"]').game
    # The dread wins initiative and its grip lands three points past a soak that takes nothing.
    turn = played(
        game,
        BEGIN,
        *(1, 10),
        *(10, 10, 1, 1, 1, 1),
        *(6, 6, 1),
        *(1, 1, 1),
    )
    assert len(_marks(turn.game)) == 4
    fight = turn.game.fight
    assert fight is not None and fight.outcome == "defeat"
    assert "Wren 0/4 down" in turn.game.reminder()
    refused = played(turn.game, '[fight: op="attack" with="Nail"]')
    assert refused.receipts[0].reason is Reason.FIGHT_OVER


@pytest.mark.spec("FT-4")
def test_healing_in_a_fight_clears_the_lightest_mark_of_any_kind(game: Game) -> None:
    game = played(
        game,
        '[sheet: who="Wren" op="damage" track="harm" kind="tear" amount="1"] '
        '[sheet: who="Wren" op="damage" track="harm" kind="knock" amount="1"]',
    ).game
    turn = played(game, f'{BEGIN} [fight: op="heal" target="Wren"]', 9, 1)
    assert turn.receipts[1].ok, turn.receipts[1].detail
    assert _marks(turn.game) == ("tear",)
    again = played(turn.game, '[fight: op="heal" target="Wren"]')
    assert again.receipts[0].reason is Reason.NO_BUDGET


def test_nothing_soaks_a_tear(game: Game) -> None:
    # The rats win initiative (1 + 2 against 10 + 3) and gnaw: two successes, one past Wren's
    # defense, so two damage dice; tearing harm is a tear, which no dice soak (a soak die thrown
    # here would run the script out).
    turn = played(game, '[fight: op="begin" against="grave-rats"]', 1, 10, *(10, 10, 1, 1, 1), 6, 6)
    assert _marks(turn.game) == ("tear", "tear")
    assert "dealt 2" in (turn.receipts[0].now or "")


def test_a_condition_a_blow_leaves_lasts_its_rounds(game: Game) -> None:
    # The dread goes first and its grip lands two points (none soaked): Wren is rattled.
    turn = played(game, BEGIN, 1, 10, *(10, 10, 1, 1, 1, 1), *(6, 6, 1), *(1, 1, 1))
    assert "rattled" in turn.game.live_of(turn.game.character("Wren")).conditions
    assert "> Wren 2/4 (Rattled)" in turn.game.reminder()
    # Still rattled on its own turn in that round: a die off its five, and Winded one more.
    turn = played(turn.game, '[fight: op="attack" with="Nail"]', 1, 1, 1)
    assert "(1 1 1) vs 7 = 0" in (turn.receipts[0].now or "")
    # Round 2: the dread first again (a miss), then Wren, and the rattle is over.
    turn = played(turn.game, '[fight: op="next"]', 10, 1, *(1, 1, 1, 1, 1, 1))
    assert "rattled" not in turn.game.live_of(turn.game.character("Wren")).conditions


def test_a_condition_that_says_cannot_act_leaves_only_the_end_of_the_turn(ember: Ruleset) -> None:
    game = Game.new(ember, {"Juno": TRAVELLER})
    pinned = played(game, '[sheet: who="Juno" op="condition" condition="pinned" on="true"]').game
    turn = played(pinned, '[fight: op="begin" against="stray"] [fight: op="attack"]', 6, 6, 1, 1)
    assert turn.receipts[1].reason is Reason.UNKNOWN_OPTION
    assert "Juno may: nothing; pass the turn." in turn.game.reminder()


CHARMED = {
    **WARDEN,
    "lists": {
        **WARDEN["lists"],
        "charms": [
            {"name": "Lantern Flare", "_catalog": "charms/lantern-flare"},
            {"name": "Stern Word", "_catalog": "charms/stern-word"},
            {"name": "Steady Hand", "_catalog": "charms/steady-hand"},
        ],
    },
}


def test_a_charm_is_paid_for_through_the_sheets_own_use_and_strikes(gravewatch: Ruleset) -> None:
    game = Game.new(gravewatch, {"Wren": CHARMED})
    # Lantern Flare is thrown with Ward (untrained, Nerve 2: two dice) and costs a point of
    # Resolve; two successes meet the dread's defense and burning is a tear (one soak die).
    turn = played(
        game,
        f'{BEGIN} [fight: op="attack" with="Lantern Flare"]',
        *WREN_FIRST,
        *(9, 9),
        *(7, 7),
        1,
    )
    flare = turn.receipts[1]
    assert flare.now is not None
    assert flare.now.startswith("Wren Lantern Flare (Resolve 3/4) at Hollow warden: (9 9) vs 7")
    assert "dealt 2; Hollow warden 4/6" in flare.now
    # A charm the fight does not run (one that changes a check) is refused and costs nothing.
    steady = played(game, f'{BEGIN} [fight: op="attack" with="Steady Hand"]', *WREN_FIRST)
    assert steady.receipts[1].reason is Reason.UNSUPPORTED
    assert int(steady.game.read("Wren", {"livePool": "resolve"})) == 4
    assert "Steady Hand" not in turn.game.reminder().split("<fight>")[1].split("</fight>")[0]


def test_a_stern_word_rattles_a_dread_that_fails_its_steel(gravewatch: Ruleset) -> None:
    game = Game.new(gravewatch, {"Wren": CHARMED})
    # Spoken on the quick budget beside a blow: the dread throws its Steel (three dice) against
    # the charms' save difficulty of 2, and fails.
    turn = played(game, f'{BEGIN} [fight: op="attack" with="Stern Word"]', *WREN_FIRST, 1, 7, 1)
    word = turn.receipts[1].now or ""
    assert word.startswith("Wren Stern Word (Resolve 3/4) at Hollow warden: Steel save (1 7 1)")
    assert word.endswith("= 1 vs 2: failed; Rattled")
    fight = turn.game.fight
    assert fight is not None and fight.get("hollow-warden").conditions == ("rattled",)
    assert fight.actor.spent == {"quick": 1, "pool:resolve": 1}
    # Rattled takes a die off its grip: five dice, not six.
    turn = played(turn.game, '[fight: op="next"]', *(1, 1, 1, 1, 1), 9, 1)
    assert "(1 1 1 1 1) vs 7 = 0 vs defense 1: miss" in (turn.receipts[0].now or "")
    # A steel that holds shrugs it off.
    held = played(game, f'{BEGIN} [fight: op="attack" with="Stern Word"]', *WREN_FIRST, 7, 7, 1)
    assert (held.receipts[1].now or "").endswith(": saved")


def test_a_charm_the_sheet_cannot_pay_for_is_not_an_option(gravewatch: Ruleset) -> None:
    game = Game.new(gravewatch, {"Wren": CHARMED})
    spent = played(game, '[sheet: who="Wren" op="spend" pool="resolve" amount="4"]').game
    turn = played(spent, f'{BEGIN} [fight: op="attack" with="Lantern Flare"]', *WREN_FIRST)
    assert turn.receipts[1].reason is Reason.UNKNOWN_OPTION
    assert int(turn.game.read("Wren", {"livePool": "resolve"})) == 0


def test_resolve_is_spent_one_point_a_turn_in_a_fight(gravewatch: Ruleset) -> None:
    """combat.spendLimits: a warden who flares the lantern cannot flare it again that turn (it
    costs a point of Resolve, and one point a turn is all a fight allows), and can next turn."""
    game = Game.new(gravewatch, {"Wren": CHARMED})
    turn = played(game, f'{BEGIN} [fight: op="attack" with="Lantern Flare"]', *WREN_FIRST, 1, 1)
    block = turn.game.reminder().split("<fight>")[1]
    assert "Lantern Flare" not in block.split("Budgets left")[0].split("may:")[1]
    fight = turn.game.fight
    assert fight is not None and fight.actor.spent == {"act": 1, "pool:resolve": 1}
    # The dread's turn (a miss), then round 2 (Wren first): the point is Wren's to spend again.
    turn = played(turn.game, '[fight: op="next"]', *(1, 1, 1, 1, 1, 1), 9, 1)
    assert "Lantern Flare (ability:0:0)" in turn.game.reminder()


def test_the_engines_turns_carry_their_whole_arithmetic_in_the_detail(game: Game) -> None:
    turn = played(game, BEGIN, 1, 10, *(10, 10, 1, 1, 1, 1), *(6, 6, 1), *(1, 1, 1))
    begin = turn.receipts[0]
    assert begin.now is not None and "soak" not in begin.now
    assert "damage (6 6 1) vs 6 = 2, soak (1 1 1) = 0, dealt 2" in begin.detail
