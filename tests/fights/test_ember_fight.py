"""An attack-against-defense fight on a pool, Ember Roads': two six-sided dice plus the stat a
piece of gear swings with, against a Guard, on the Grit pool, with one action a turn."""

from __future__ import annotations

from typing import Any

import pytest
from syrupy.assertion import SnapshotAssertion

from gm_tags import Game, Ruleset
from gm_tags.engine.fight.options import options_for
from gm_tags.reasons import Reason
from tests.fights.conftest import TRAVELLER, Table, played, variant


@pytest.fixture
def game(ember: Ruleset) -> Game:
    return Game.new(ember, {"Juno": TRAVELLER})


def _grit(game: Game) -> int:
    return int(game.read("Juno", {"livePool": "grit"}))


def test_a_road_axe_against_a_rust_jackal_worked_through(
    game: Game, snapshot: SnapshotAssertion
) -> None:
    receipts: list[str] = []
    # The jackal's 3d6 health (12), then initiative: Juno 5 + 5 + Wits 1 = 11, the jackal 1 + 1
    # + 1 = 3. The axe: 6 + 3 + Brawn 2 = 11 against its defense 6; 4 + Brawn 2 = 6 cut.
    turn = played(
        game,
        '[fight: op="begin" against="Rust Jackal"] [fight: op="attack" with="Road axe"] '
        '[fight: op="attack" with="Road axe"]',
        *(4, 4, 4),
        *(5, 5, 1, 1),
        *(6, 3),
        4,
    )
    receipts += [r.tag for r in turn.receipts]
    _, axe, again = turn.receipts
    assert axe.now is not None and "(6 3) +2 = 11 vs defense 6: hit" in axe.now
    assert "Rust Jackal 6/12" in axe.now
    # One thing to do a turn: the second swing is refused and changes nothing.
    assert again.reason is Reason.NO_BUDGET
    # The jackal's bite, played by the engine: 3 + 3 + 2 = 8 against Juno's Guard of 7, and
    # 5 + 1 (its rust) off the Grit pool through the sheet's own damage.
    turn = played(turn.game, '[fight: op="next"]', *(3, 3), 5)
    receipts += [r.tag for r in turn.receipts]
    assert _grit(turn.game) == 2
    assert turn.game.to_document()["rulesetLive"]["juno"]["pools"]["grit"]["value"] == 2
    turn = played(turn.game, '[fight: op="attack" with="Road axe"]', *(6, 6), 6)
    receipts += [r.tag for r in turn.receipts]
    fight = turn.game.fight
    assert fight is not None and fight.outcome == "victory"
    turn = played(turn.game, '[fight: op="end"]')
    receipts += [r.tag for r in turn.receipts]
    assert turn.game.fight is None and _grit(turn.game) == 2
    assert receipts == snapshot


@pytest.mark.spec("FT-6")
def test_resistance_immunity_and_vulnerability_work_on_pool_health(ember: Ruleset) -> None:
    def edit(document: dict[str, Any]) -> None:
        wader = document["catalogs"][1]["entries"][2]["creature"]
        wader["immune"] = ["crush"]

    ruleset = variant("ember-roads", edit)
    build = {
        **TRAVELLER,
        "lists": {
            "gear": [
                *TRAVELLER["lists"]["gear"],
                {"name": "Torch", "swing": "brawn", "damage": "1d4", "harm": "Burn"},
            ]
        },
    }
    game = Game.new(ruleset, {"Juno": build})
    # The wader's 4d8 + 4 health (8); Juno wins initiative.
    turn = played(
        game,
        '[fight: op="begin" against="glass-wader"] [fight: op="attack" with="Road axe"]',
        *(1, 1, 1, 1),
        *(6, 6, 1, 1),
        *(6, 6),
        6,
    )
    assert "resists cut: 4" in (turn.receipts[1].now or "")
    fight = turn.game.fight
    assert fight is not None and fight.get("glass-wader").health == 4
    # Its glass lash (a signature action, between Juno's turn and its own) and its sweep
    # miss; then a torch (Burn, matched without case) is doubled and a sling (crush) is nothing.
    turn = played(
        turn.game, '[fight: op="next"] [fight: op="attack" with="torch"]', 1, 1, 1, 1, 6, 6, 1
    )
    assert "vulnerable to Burn: 6" in (turn.receipts[1].now or "")
    assert turn.game.fight is not None and turn.game.fight.outcome == "victory"
    immune = played(
        game,
        '[fight: op="begin" against="glass-wader"] [fight: op="attack" with="sling"]',
        *(1, 1, 1, 1),
        *(6, 6, 1, 1),
        *(6, 6),
        4,
    )
    assert "immune to crush: 0" in (immune.receipts[1].now or "")


@pytest.mark.spec("FT-7")
def test_adjust_rides_on_every_roll_built_from_the_sheet_by_its_ability(game: Game) -> None:
    reckless = played(game, '[sheet: who="Juno" op="state" state="stance" value="reckless"]').game
    begin = '[fight: op="begin" against="rust-jackal"]'
    # Reckless adds two to every Brawn roll: the axe (Brawn) throws +4, the sling (Wits) +1.
    axe = played(
        reckless, f'{begin} [fight: op="attack" with="Road axe"]', 4, 4, 4, 5, 5, 1, 1, 1, 1, 1
    )
    assert "(1 1) +4 = 6 vs defense 6: hit" in (axe.receipts[1].now or "")
    sling = played(
        reckless, f'{begin} [fight: op="attack" with="Sling"]', 4, 4, 4, 5, 5, 1, 1, 1, 1
    )
    assert "(1 1) +1 = 3 vs defense 6: miss" in (sling.receipts[1].now or "")
    # Initiative is read off Wits, so the stance does not move it.
    assert "Juno 11" in (axe.receipts[0].now or "")


@pytest.mark.spec("FT-3")
def test_on_a_box_track_per_point_names_the_box_and_no_box_puts_them_down(ember: Ruleset) -> None:
    def on_strain(marks: str) -> Ruleset:
        def edit(document: dict[str, Any]) -> None:
            document["combat"]["health"] = {"track": "strain"}
            document["combat"]["damageKinds"] = {"default": "strain", "marks": marks}
            # FT-5: temporary points mean nothing on a track, so the entries granting them go.
            for catalog in document["catalogs"]:
                for entry in catalog.get("entries", []):
                    entry.get("mechanics", {}).pop("temporary", None)

        return variant("ember-roads", edit)

    traveller = {**TRAVELLER, "abilities": {"brawn": 2, "wits": 1, "heart": 2}}  # 4 boxes
    begin = '[fight: op="begin" against="rust-jackal"]'
    # The jackal goes first and bites for 2 + 1: per-point, the blow lands on box 3.
    per_point = Game.new(on_strain("per-point"), {"Juno": traveller})
    turn = played(per_point, begin, 4, 4, 4, 1, 1, 6, 6, 6, 6, 2)
    assert turn.game.live_of(turn.game.character("Juno")).wounds["strain"].marks == (
        "",
        "",
        "strain",
    )
    # Per-blow, the same bite aims at the first box.
    per_blow = Game.new(on_strain("per-blow"), {"Juno": traveller})
    turn = played(per_blow, begin, 4, 4, 4, 1, 1, 6, 6, 6, 6, 2)
    assert turn.game.live_of(turn.game.character("Juno")).wounds["strain"].marks == ("strain",)
    # A bite for 5 names box 5, which a track of four cannot take: Juno is taken out.
    turn = played(per_point, begin, 4, 4, 4, 1, 1, 6, 6, 6, 6, 4)
    assert "taken out" in (turn.receipts[0].now or "")
    fight = turn.game.fight
    assert fight is not None and fight.get("juno").down and fight.outcome == "defeat"


def test_a_single_d20_reads_its_natural_faces(ember: Ruleset) -> None:
    """The 5e shape on these roads: a d20 whose top face is a critical (its damage dice thrown
    twice) and whose one misses whatever it would have come to."""

    def edit(document: dict[str, Any]) -> None:
        document["combat"]["attackRoll"] = {
            "dice": {"count": 1, "sides": 20},
            "naturals": {"max": "critical", "min": "miss"},
            "critical": "double-dice",
        }

    game = Game.new(variant("ember-roads", edit), {"Juno": TRAVELLER})
    begin = '[fight: op="begin" against="rust-jackal"] [fight: op="attack" with="Road axe"]'
    critical = played(game, begin, 4, 4, 4, 6, 6, 1, 1, 20, 3, 4)
    assert "(20) +2 = 22 vs defense 6: critical; damage (3 4) +2 = 9" in (
        critical.receipts[1].now or ""
    )

    # A one misses even where its total (3) beats the defense (a jackal of defense 2), and no
    # damage die is thrown for it.
    def weak(document: dict[str, Any]) -> None:
        edit(document)
        document["catalogs"][1]["entries"][1]["creature"]["defense"] = 2

    fumble = played(
        Game.new(variant("ember-roads", weak), {"Juno": TRAVELLER}), begin, 4, 4, 4, 6, 6, 1, 1, 1
    )
    assert "(1) +2 = 3 vs defense 2: miss" in (fumble.receipts[1].now or "")


def test_a_gm_stat_block_is_pulled_onto_the_threat_scale(game: Game) -> None:
    turn = played(
        game,
        '[fight: op="begin" against="Bandit captain (pack, health 99, damage 1), stray"]',
        *(6, 6, 1, 1, 1, 1),
    )
    fight = turn.game.fight
    assert fight is not None
    captain = fight.get("bandit-captain")
    # The pack rung's defense and to-hit; health and damage held within its ranges (8-16, 4-7).
    assert (captain.name, captain.health, captain.most) == ("Bandit captain", 16, 16)
    block = captain.block or {}
    assert block["defense"] == 6 and block["actions"][0]["toHit"] == 1
    assert block["actions"][0]["damage"] == {"flat": 4}
    assert fight.get("stray").health == 5
    unknown = played(game, '[fight: op="begin" against="Bandit captain (legend)"]')
    assert unknown.receipts[0].reason is Reason.UNKNOWN_OPPONENT


def test_a_creature_written_as_a_sheet_fights_on_its_tiers_numbers(game: Game) -> None:
    turn = played(game, '[fight: op="begin" against="Toll Warden"]', 6, 6, 1, 1)
    fight = turn.game.fight
    assert fight is not None
    warden = fight.get("toll-warden")
    assert (warden.health, (warden.block or {}).get("defense")) == (12, 6)
    assert "Toll Warden may" not in turn.game.reminder()
    assert [a["name"] for a in (warden.block or {})["actions"]] == ["Strike"]


def test_a_sweep_takes_two_targets_and_a_sequence_strikes_twice(ember: Ruleset) -> None:
    game = Game.new(ember, {"Juno": TRAVELLER, "Pell": TRAVELLER})
    # The wader (8 health) goes first; its sweep takes two targets the engine's dice pick: Juno
    # (a d2 says the first), then Pell, the one left.
    turn = played(
        game,
        '[fight: op="begin" against="glass-wader"]',
        *(1, 1, 1, 1),
        *(1, 1, 1, 1, 6, 6),
        1,
        *(6, 6, 1, 1),
        *(1, 1),
    )
    begin = turn.receipts[0].now or ""
    assert "Glass Wader Sweep at Juno: (6 6) +4 = 16 vs defense 7: hit, dealt 3" in begin
    assert "Glass Wader Sweep at Pell: (1 1) +4 = 6 vs defense 7: miss" in begin
    # A GM-played jackal snaps and worries: one budget, two strikes at the one it names.
    bosses = Game.new(ember, {"Juno": TRAVELLER}, gm_bosses=True)
    turn = played(
        bosses, '[fight: op="begin" against="rust-jackal" boss="rust-jackal"]', 4, 4, 4, 1, 1, 6, 6
    )
    turn = played(
        turn.game,
        '[fight: op="attack" who="Rust Jackal" target="Juno" with="Snap and worry"]',
        *(6, 6, 1),
        *(1, 1),
    )
    both = turn.receipts[0].now or ""
    assert "Rust Jackal Bite at Juno: (6 6) +2 = 14 vs defense 7: hit" in both
    assert "Rust Jackal Worry at Juno: (1 1) +2 = 4 vs defense 7: miss" in both
    fight = turn.game.fight
    assert fight is not None and fight.actor.spent == {"act": 1}


def test_an_action_that_must_recharge(game: Game, snapshot: SnapshotAssertion) -> None:
    """The Cinder Moth's Ash bloom: used the moment it is ready, then thrown for as the moth's
    turn begins (1d6, back on 5 or more); until then the moth beats its wing dust."""
    table = Table(game)
    # Initiative: Juno 1 + 1 + 1, the moth 6 + 6 + 2. The bloom lands unrolled: 4 burn, and
    # Juno is shaken for a round.
    table.step('[fight: op="begin" against="Cinder Moth"]', 1, 1, 6, 6, 4)
    assert "Cinder Moth Ash bloom at Juno: lands unrolled: hit, dealt 4" in table.receipts[-1]
    # Round 2: the bloom's recharge throw (3) is short, so the dust (3 + 3 + 1 = 7 against
    # Guard 7, 2 burn).
    table.step('[fight: op="next"]', 3, 3, 3, 2)
    assert "Ash bloom recharge (3): not yet" in table.receipts[-1]
    assert "Wing dust at Juno: (3 3) +1 = 7 vs defense 7: hit" in table.receipts[-1]
    # Round 3: a 6 brings it back, and it is used at once.
    table.step('[fight: op="next"]', 6, 1)
    assert "Ash bloom recharge (6): back; Cinder Moth Ash bloom at Juno" in table.receipts[-1]
    assert table.receipts == snapshot


def test_contests_grab_and_shove(game: Game, snapshot: SnapshotAssertion) -> None:
    """Ember Roads' contests: both sides throw the attack's two dice plus their best check."""
    table = Table(game)
    # The jackal's 3d6 health (12); initiative Juno 11, the jackal 3. Grab: Juno's Brawn
    # (4 3, +2 = 9) against the jackal's better of Brawn and Wits (2 2, +1 = 5): held.
    table.step(
        '[fight: op="begin" against="Rust Jackal"] [fight: op="act" with="Grab"]',
        *(4, 4, 4),
        *(5, 5, 1, 1),
        *(4, 3, 2, 2),
    )
    assert (
        "Grab at Rust Jackal: Brawn (4 3) +2 = 9 vs Brawn (2 2) +1 = 5: won" in (table.receipts[-1])
    )
    fight = table.game.fight
    assert fight is not None and fight.get("rust-jackal").conditions == ("held",)
    # Break free is offered only to whoever is held.
    table.step('[fight: op="act" with="Break free"]')
    assert 'reason="unknown-option"' in table.receipts[-1]
    # The jackal's bite misses (1 1 + 2); then a shove ties at 8, and this one goes to the
    # one who shoves: won, and nobody moves on a fight with no board.
    table.step('[fight: op="next"] [fight: op="act" with="Shove back"]', 1, 1, 3, 3, 4, 3)
    assert "vs Brawn (4 3) +1 = 8: won; no board here, so nobody is pushed" in table.receipts[-1]
    assert table.receipts == snapshot


def test_a_signature_action_between_turns(game: Game, snapshot: SnapshotAssertion) -> None:
    """The Glass Wader's Glass lash is bought with its own signature points (2, a point each)
    between a party member's turn and the next, never on its own turn; the points come back as
    its own turn begins."""
    table = Table(game)
    # Health 4d8 + 4 (8); initiative Juno 13, the wader 2. Juno's axe misses (1 1 + 2).
    table.step(
        '[fight: op="begin" against="glass-wader"] [fight: op="attack" with="Road axe"]',
        *(1, 1, 1, 1),
        *(6, 6, 1, 1),
        *(1, 1),
    )
    # Her turn ends: the lash (6 6 + 3 against Guard 7, 5 cut), then the wader's own turn: its
    # sweep (1 1 + 4) misses.
    table.step('[fight: op="next"]', 6, 6, 5, 1, 1)
    assert "Glass lash at Juno: (6 6) +3 = 15 vs defense 7: hit, dealt 5" in table.receipts[-1]
    assert table.receipts[-1].index("Glass lash") < table.receipts[-1].index("Sweep")
    fight = table.game.fight
    assert fight is not None and "signature" not in fight.get("glass-wader").spent
    options = [o.label for o in options_for(table.game, fight.get("glass-wader"), {})]
    assert options == ["Sweep", "End the turn"]
    assert table.receipts == snapshot
