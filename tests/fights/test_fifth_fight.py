"""The d20 shape, on a fragment of our own built on the Fifth Age fixture: an attack roll against
armor class, a critical that throws the damage dice twice, a natural one that misses, and a
spell the opponent saves against."""

from __future__ import annotations

from typing import Any

from syrupy.assertion import SnapshotAssertion

from gm_tags import Game
from tests.fights.conftest import Table, played, variant

BANDIT = {
    "health": 11,
    "defense": 12,
    "initiativeModifier": 1,
    "saves": {"wis_save": 0},
    "actions": [
        {
            "id": "scimitar",
            "name": "Scimitar",
            "budget": "action",
            "toHit": 3,
            "damage": {"dice": "1d6", "flat": 1, "type": "slashing"},
        }
    ],
}
# An opponent whose breath asks a save of whoever it reaches, and a spell the opponent saves
# against for half.
SPORE_CALLER = {
    "health": 14,
    "defense": 11,
    "saves": {"dex_save": 1},
    "actions": [
        {
            "id": "spore-cloud",
            "name": "Spore cloud",
            "budget": "action",
            "save": {"save": "con_save", "difficulty": 12, "onSuccess": "half"},
            "damage": {"dice": "2d6", "type": "poison"},
            "applies": [{"condition": "poisoned", "duration": {"rounds": 1}}],
        }
    ],
}
FIRE_BURST = {
    "kind": "attack",
    "amount": {"dice": "2d6"},
    "damageType": "fire",
    "save": {"save": "dex_save", "onSuccess": "half"},
    "cost": [{"pool": "slots_1", "amount": 1}],
}
# Buffs and a utility: temporary points on oneself, a condition on an ally that the ruleset's
# combat.conditions says adds to attacks and saves, and one more action this turn.
WARD = {
    "kind": "buff",
    "targets": "self",
    "temporary": {"dice": "1d4", "flat": 4},
    "cost": [{"pool": "slots_1", "amount": 1}],
}
BLESS = {
    "kind": "buff",
    "targets": "ally",
    "applies": [{"condition": "blessed", "duration": {"rounds": 2}}],
    "cost": [{"pool": "slots_1", "amount": 1}],
}
SNARE = {
    "kind": "debuff",
    "applies": [{"condition": "frightened", "duration": {"rounds": 10}}],
    "concentration": True,
}
FLAME_BURST = {
    "kind": "attack",
    "amount": {"dice": "3d6"},
    "damageType": "fire",
    "save": {"save": "dex_save", "onSuccess": "half"},
    "area": {"shape": "burst", "size": 20},
    "targetCount": 3,
    "cost": [{"pool": "slots_1", "amount": 1}],
}
FEAR = {
    "kind": "debuff",
    "save": {"save": "wis_save", "onSuccess": "negates"},
    "applies": [
        {
            "condition": "frightened",
            "duration": "until-save",
            "saveEnds": {"save": "wis_save", "at": "turn-end"},
        }
    ],
}
QUICKEN = {"kind": "utility", "targets": "self", "gives": [{"budget": "action", "count": 1}]}
HOLD_FAST = {
    "kind": "debuff",
    "save": {"save": "wis_save", "onSuccess": "negates"},
    "applies": [{"condition": "frightened", "duration": {"rounds": 1}}],
    "cost": [{"pool": "slots_1", "amount": 1}],
}


def _fragment(document: dict[str, Any]) -> None:
    sheet = document["sheet"]
    sheet["live"]["conditions"].append({"id": "unconscious", "label": "Unconscious"})
    sheet["live"]["conditions"].append({"id": "blessed", "label": "Blessed"})
    sheet["fields"].append(
        {"id": "ac", "label": "Armor class", "type": "number", "min": 0, "max": 30, "default": 10}
    )
    weapons = next(lst for lst in sheet["lists"] if lst["id"] == "weapons")
    weapons["columns"] += [
        {"id": "ability", "label": "Ability", "type": "enum", "values": ["str", "dex"]},
        {"id": "proficient", "label": "Proficient", "type": "boolean", "default": True},
        {"id": "harm", "label": "Damage type", "type": "text", "maxLength": 20},
    ]
    sheet["lists"].append(
        {
            "id": "spells",
            "label": "Spells",
            "maxItems": 20,
            "columns": [
                {"id": "name", "label": "Spell", "type": "text", "maxLength": 60, "required": True}
            ],
        }
    )
    row = {"list": "spells", "values": {"name": "Hold Fast"}}
    burst = {"list": "spells", "values": {"name": "Fire Burst"}}
    document["catalogs"] = [
        {
            "id": "spells",
            "label": "Spells",
            "feeds": ["spells"],
            "entries": [
                {"id": "hold-fast", "label": "Hold Fast", "rows": [row], "mechanics": HOLD_FAST},
                {
                    "id": "fire-burst",
                    "label": "Fire Burst",
                    "rows": [burst],
                    "mechanics": FIRE_BURST,
                },
                *(
                    {
                        "id": name.lower().replace(" ", "-"),
                        "label": name,
                        "rows": [{"list": "spells", "values": {"name": name}}],
                        "mechanics": mechanics,
                    }
                    for name, mechanics in (
                        ("Ward", WARD),
                        ("Bless", BLESS),
                        ("Quicken", QUICKEN),
                        ("Snare", SNARE),
                        ("Fear", FEAR),
                        ("Flame Burst", FLAME_BURST),
                    )
                ),
            ],
        },
        {
            "id": "foes",
            "label": "Foes",
            "holds": "creatures",
            "entries": [
                {"id": "bandit", "label": "Bandit", "creature": BANDIT},
                {"id": "spore-caller", "label": "Spore-caller", "creature": SPORE_CALLER},
            ],
        },
    ]
    document["combat"] = {
        "kind": "attack-vs-defense",
        "health": {"pool": "hp"},
        "defense": {"field": "ac"},
        "initiative": {"dice": {"count": 1, "sides": 20}, "modifier": {"abilityMod": "dex"}},
        "attackRoll": {
            "dice": {"count": 1, "sides": 20},
            "advantage": True,
            "naturals": {"max": "critical", "min": "miss"},
            "critical": "double-dice",
        },
        "economy": {"budgets": [{"id": "action", "label": "Action", "per": "turn"}]},
        "damageTypes": ["slashing", "piercing", "poison", "fire"],
        "attacks": [
            {
                "list": "weapons",
                "budget": "action",
                "name": "name",
                "toHit": {
                    "ability": {"column": "ability"},
                    "proficiency": {"column": "proficient"},
                },
                "damage": {
                    "dice": {"column": "damage"},
                    "ability": {"column": "ability"},
                    "type": {"column": "harm"},
                },
            }
        ],
        "abilities": [{"list": "spells", "budget": "action", "saveDifficulty": {"const": 13}}],
        "standard": ["dash", "dodge", "help"],
        "conditions": [
            {"condition": "frightened", "modifiers": [{"to": "attacks", "flat": -2}]},
            {"condition": "poisoned", "effects": ["own-attacks-disadvantage"]},
            {
                "condition": "blessed",
                "modifiers": [{"to": "attacks", "flat": 2}, {"to": "saves", "flat": 1}],
            },
            {
                "condition": "unconscious",
                "effects": ["cannot-act", "attacks-against-advantage"],
                "failsSaves": ["str_save", "dex_save"],
            },
        ],
        "concentration": {
            "text": "concentration",
            "save": "con_save",
            "floor": 10,
            "fromDamage": 0.5,
        },
        "dying": {
            "kind": "saves",
            "successes": "death_successes",
            "failures": "death_failures",
            "dice": {"count": 1, "sides": 20},
            "succeedAt": 10,
            "naturals": {"max": "revive-1", "min": "two-failures"},
            "damageWhileDown": "one-failure",
            "criticalWhileDown": "two-failures",
            "condition": "unconscious",
        },
    }


FIRE_BURST_ROW = {"name": "Fire Burst", "_catalog": "spells/fire-burst"}
ILSE = {
    "abilities": {"str": 10, "dex": 14, "con": 14, "int": 16, "wis": 12, "cha": 8},
    "fields": {"class": "wizard", "caster": True, "level": 5, "ac": 12, "hit_die_size": "d6"},
    "lists": {
        "weapons": [
            {
                "name": "Dagger",
                "damage": "1d4",
                "ability": "dex",
                "proficient": True,
                "harm": "piercing",
            }
        ],
        "spells": [{"name": "Hold Fast", "_catalog": "spells/hold-fast"}],
    },
}


def test_an_attack_roll_a_critical_a_natural_one_and_a_save(snapshot: SnapshotAssertion) -> None:
    game = Game.new(variant("fifth-age", _fragment), {"Ilse": ILSE})
    receipts: list[str] = []
    # Initiative: Ilse 15 + Dex 2 = 17, the bandit 3 + 1. Hold Fast: the bandit's Wisdom save
    # (5 + 0 against 13) fails, and a first-level slot is paid.
    turn = played(
        game,
        '[fight: op="begin" against="bandit"] [fight: op="attack" with="Hold Fast"]',
        15,
        3,
        5,
    )
    receipts += [r.tag for r in turn.receipts]
    assert "Wisdom save (5) +0 = 5 vs 13: failed; Frightened" in (turn.receipts[1].now or "")
    # The frightened bandit's scimitar: a natural one misses whatever it would have come to,
    # and throws no damage. Round 2: Ilse again.
    turn = played(turn.game, '[fight: op="next"]', 1)
    receipts += [r.tag for r in turn.receipts]
    assert "(1) +1 = 2 vs defense 12: miss" in (turn.receipts[0].now or "")
    # A natural twenty with the dagger: a critical, its 1d4 thrown twice, plus Dex.
    turn = played(turn.game, '[fight: op="attack" with="Dagger"]', 20, 3, 4)
    receipts += [r.tag for r in turn.receipts]
    assert "(20) +5 = 25 vs defense 12: critical; damage (3 4) +2 = 9" in (
        turn.receipts[0].now or ""
    )
    # The fright is over as the bandit's turn begins: its scimitar takes +3 again.
    turn = played(turn.game, '[fight: op="next"]', 12, 6)
    receipts += [r.tag for r in turn.receipts]
    assert "(12) +3 = 15 vs defense 12: hit" in (turn.receipts[0].now or "")
    assert receipts == snapshot


def test_saves_a_blow_asks_for_thrown_by_either_side(snapshot: SnapshotAssertion) -> None:
    ilse = {**ILSE, "lists": {**ILSE["lists"], "spells": [FIRE_BURST_ROW]}}
    game = Game.new(variant("fifth-age", _fragment), {"Ilse": ilse})
    receipts: list[str] = []
    # Initiative: Ilse 5 + 2, the spore-caller 15 + 0, so its breath comes first: Ilse's
    # Constitution save (6, +2) misses 12, and she takes all of 2d6 and is poisoned a round.
    turn = played(game, '[fight: op="begin" against="spore-caller"]', 5, 15, 6, 3, 4)
    receipts += [r.tag for r in turn.receipts]
    assert "Constitution save (6) +2 = 8 vs 12: failed; damage (3 4) +0 = 7, dealt 7" in (
        turn.receipts[0].detail
    )
    assert turn.game.live_of(turn.game.characters[0]).conditions == ("poisoned",)
    # Fire Burst: the spore-caller's Dexterity save (14 + 1 against Ilse's 13) holds, so half
    # of 2d6 (11) lands, and nothing is rolled to hit.
    turn = played(turn.game, '[fight: op="attack" with="Fire Burst"]', 14, 5, 6)
    receipts += [r.tag for r in turn.receipts]
    assert (
        "Dexterity save (14) +1 = 15 vs 13: saved; damage (5 6) +0 = 11, halved = 5, dealt 5"
        in (turn.receipts[0].now or "")
    )
    # Round 2: Ilse's save holds this time (15 + 2), half of 2d6 (4) and no poison.
    turn = played(turn.game, '[fight: op="next"]', 15, 2, 2)
    receipts += [r.tag for r in turn.receipts]
    assert (
        "Constitution save (15) +2 = 17 vs 12: saved; damage (2 2) +0 = 4, halved = 2, dealt 2"
        in (turn.receipts[0].detail)
    )
    assert turn.game.live_of(turn.game.characters[0]).conditions == ()
    assert receipts == snapshot


def test_a_party_members_save_in_a_fight_reads_what_they_suffer() -> None:
    """A save in a fight is the sheet's own save, through the check code: a condition that fails
    it fails it unrolled (no die is thrown for it), as a `[skill_check:]` save would."""

    def failing(document: dict[str, Any]) -> None:
        _fragment(document)
        document["combat"]["conditions"][1]["failsSaves"] = ["con_save"]

    game = Game.new(variant("fifth-age", failing), {"Ilse": ILSE})
    turn = played(game, '[sheet: op="condition" who="Ilse" condition="poisoned" active="true"]')
    # Initiative 5 and 15, then only the breath's damage: 3 and 4.
    turn = played(turn.game, '[fight: op="begin" against="spore-caller"]', 5, 15, 3, 4)
    assert "Constitution save fails unrolled (Poisoned) vs 12: failed; damage (3 4) +0 = 7" in (
        turn.receipts[0].detail
    )


def test_dodge_help_and_what_a_condition_leans(snapshot: SnapshotAssertion) -> None:
    tam = {**ILSE, "lists": {"weapons": ILSE["lists"]["weapons"]}}
    table = Table(Game.new(variant("fifth-age", _fragment), {"Ilse": ILSE, "Tam": tam}))
    step = table.step

    # Initiative: Ilse 17, Tam 16, the bandit 4. Ilse helps Tam, whose dagger is then thrown
    # twice and the better kept (4, 16: 16 + 5 hits); the help is spent, and an action is all
    # Tam had, so a dodge after it is refused.
    step(
        '[fight: op="begin" against="bandit"] [fight: op="act" with="help" target="Tam"]', 15, 14, 3
    )
    step('[fight: op="next"] [fight: op="attack" who="Tam" with="Dagger"]', 4, 16, 3)
    assert (
        "(4 16) advantage (Tam helped), kept (16) +5 = 21 vs defense 12: hit" in table.receipts[-1]
    )
    step('[fight: op="act" who="Tam" with="dodge"]')
    assert 'reason="no-budget"' in table.receipts[-1]
    # The bandit picks Ilse (a d2 of 1) and hits her plainly. Round 2: Ilse dodges, Tam dashes,
    # and the bandit's blow at her is thrown twice and the worse kept (18, 6: 6 + 3 misses).
    step('[fight: op="next"]', 1, 12, 2)
    step('[fight: op="act" with="dodge"] [fight: op="next"] [fight: op="act" with="dash"]')
    step('[fight: op="next"]', 1, 18, 6)
    assert (
        "(18 6) disadvantage (Ilse dodging), kept (6) +3 = 9 vs defense 12: miss"
        in table.receipts[-1]
    )
    # Round 3: the dodge is over as her turn begins. Poisoned, her dagger leans the other way
    # (20, 3: the natural twenty is not the throw kept).
    assert table.game.fight is not None and table.game.fight.actor.stances == ()
    step('[sheet: op="condition" who="Ilse" condition="poisoned" active="true"]')
    step('[fight: op="attack" with="Dagger"]', 20, 3)
    assert (
        "(20 3) disadvantage (Poisoned), kept (3) +5 = 8 vs defense 12: miss" in table.receipts[-1]
    )
    assert table.receipts == snapshot


def _tracks(game: Game, name: str) -> tuple[int, int]:
    character = next(c for c in game.characters if c.name == name)
    live = game.live_of(character)
    return live.tracks.get("death_successes", 0), live.tracks.get("death_failures", 0)


def test_down_dying_and_back(snapshot: SnapshotAssertion) -> None:
    tam = {**ILSE, "lists": {"weapons": ILSE["lists"]["weapons"]}}
    table = Table(Game.new(variant("fifth-age", _fragment), {"Ilse": ILSE, "Tam": tam}))
    step = table.step

    step('[sheet: who="Ilse" op="damage" pool="hp" amount="15"]')
    # Initiative: the bandit 21, Ilse 7, Tam 6. The bandit picks Ilse (a d2 of 1) and its
    # scimitar (12 + 3, 4 + 1) takes her 3 hit points: she is down and dying, unconscious.
    # Her turn is her death save (3: a failure), and the turn passes to Tam.
    step('[fight: op="begin" against="bandit"]', 5, 4, 20, 1, 12, 4, 3)
    assert "Ilse Hit points 0/18 (dying)" in table.receipts[-1]
    assert "Ilse death save (3) vs 10: successes 0/3, failures 1/3" in table.receipts[-1]
    character = next(c for c in table.game.characters if c.name == "Ilse")
    assert "unconscious" in table.game.live_of(character).conditions
    assert _tracks(table.game, "Ilse") == (0, 1)
    # Round 2: the bandit can reach only Tam (5 + 3 misses); Ilse's save (12) succeeds.
    step('[fight: op="next"]', 5, 12)
    assert _tracks(table.game, "Ilse") == (1, 1)
    # Tam heals her: 4 hit points, and she is back, the count and the condition gone.
    step('[fight: op="heal" who="Tam" target="Ilse" amount="4"]')
    assert _tracks(table.game, "Ilse") == (0, 0)
    assert table.game.live_of(character).conditions == ()
    # Round 3: a natural twenty at Ilse doubles the scimitar's die (6 6 + 1 = 13): down again;
    # her death save is a natural twenty, and she is back with 1.
    step('[fight: op="next"]', 1, 20, 6, 6, 20)
    assert "Ilse death save (20) vs 10: back with 1 (Ilse Hit points 1/18)" in table.receipts[-1]
    assert _tracks(table.game, "Ilse") == (0, 0)
    assert table.game.fight is not None and table.game.fight.actor.name == "Ilse"
    assert table.receipts == snapshot


def test_three_failures_is_dead_and_three_successes_stable() -> None:
    game = Game.new(variant("fifth-age", _fragment), {"Ilse": ILSE, "Tam": ILSE})
    game = played(game, '[sheet: who="Ilse" op="damage" pool="hp" amount="18"]').game
    # Ilse starts the fight dying: her first turn is a throw (a natural one, two failures).
    turn = played(game, '[fight: op="begin" against="bandit"]', 15, 14, 3, 1)
    assert "Ilse death save (1) vs 10: successes 0/3, failures 2/3" in (turn.receipts[0].now or "")
    # Tam passes; the bandit misses Tam (2 + 3); Ilse fails again (9): dead, and not a target.
    turn = played(turn.game, '[fight: op="next"]', 2, 9)
    assert "Ilse death save (9) vs 10: dead" in (turn.receipts[0].now or "")
    assert turn.game.fight is not None and turn.game.fight.get("ilse").fate == "dead"
    healed = played(turn.game, '[fight: op="heal" who="Tam" target="Ilse" amount="4"]')
    assert healed.receipts[0].reason == "target-down"
    # Three successes leave a dying member stable: no more throws (and the count cleared).
    game = Game.new(variant("fifth-age", _fragment), {"Ilse": ILSE, "Tam": ILSE})
    game = played(game, '[sheet: who="Tam" op="damage" pool="hp" amount="18"]').game
    turn = played(game, '[fight: op="begin" against="bandit"]', 15, 14, 3)
    for faces in ((11, 1), (12, 2)):
        turn = played(turn.game, '[fight: op="next"]', *faces)
        assert "Tam death save" in (turn.receipts[0].now or "")
    turn = played(turn.game, '[fight: op="next"]', 14, 5)
    assert "Tam death save (14) vs 10: stable" in (turn.receipts[0].now or "")
    assert _tracks(turn.game, "Tam") == (0, 0)
    turn = played(turn.game, '[fight: op="next"]', 5)
    assert "death save" not in (turn.receipts[0].now or "")


def test_buffs_and_utilities_give_what_they_say_for_their_rounds(
    snapshot: SnapshotAssertion,
) -> None:
    spells = [
        {"name": name, "_catalog": f"spells/{name.lower()}"}
        for name in ("Ward", "Bless", "Quicken")
    ]
    ilse = {**ILSE, "lists": {**ILSE["lists"], "spells": spells}}
    tam = {**ILSE, "lists": {"weapons": ILSE["lists"]["weapons"]}}
    table = Table(Game.new(variant("fifth-age", _fragment), {"Ilse": ilse, "Tam": tam}))
    step = table.step

    # Initiative: Ilse 17, Tam 16, the bandit 4. Quicken gives Ilse a second action, which
    # blesses Tam for two rounds; Ward would need a third.
    step('[fight: op="begin" against="bandit"] [fight: op="act" with="Quicken"]', 15, 14, 3)
    step('[fight: op="attack" with="Bless" target="Tam"] [fight: op="act" with="Ward"]')
    assert 'reason="no-budget"' in table.receipts[-1]
    # Blessed, Tam's dagger takes +2 (Dex 2, proficiency 3, Blessed 2).
    step('[fight: op="next"] [fight: op="attack" who="Tam" with="Dagger"]', 5, 2)
    assert "(5) +7 = 12 vs defense 12: hit" in table.receipts[-1]
    # Round 2: Ilse wards herself (1d4 + 4 = 7 temporary points) after the bandit's miss.
    step('[fight: op="next"]', 1, 4)
    step('[fight: op="act" with="Ward"]', 3)
    assert "7 temporary points" in table.receipts[-1]
    # Round 3: the blessing is over as Tam's turn begins.
    step('[fight: op="next"] [fight: op="next"] [fight: op="next"]', 2, 8)
    tam_now = next(c for c in table.game.characters if c.name == "Tam")
    assert table.game.live_of(tam_now).conditions == ()
    assert table.receipts == snapshot


def test_concentration_held_lost_to_a_blow_and_replaced(snapshot: SnapshotAssertion) -> None:
    ilse = {
        **ILSE,
        "lists": {**ILSE["lists"], "spells": [{"name": "Snare", "_catalog": "spells/snare"}]},
    }
    table = Table(Game.new(variant("fifth-age", _fragment), {"Ilse": ilse}))
    ilse_now = table.game.characters[0]
    # Initiative: Ilse 17, the bandit 4. Snare frightens it for ten rounds while she holds it.
    table.step('[fight: op="begin" against="bandit"] [fight: op="attack" with="Snare"]', 15, 3)
    assert table.game.live_of(ilse_now).text == {"concentration": "Snare"}
    # The bandit (frightened: -2) still hits (15 + 1) for 6: her Constitution save against 10
    # (4 + 2) fails, the snare lets go and the bandit is no longer frightened.
    table.step('[fight: op="next"]', 15, 5, 4)
    assert "concentration: Constitution save (4) +2 = 6 vs 10: failed" in table.receipts[-1]
    assert table.game.fight is not None and table.game.fight.get("bandit").conditions == ()
    assert table.game.live_of(ilse_now).text == {}
    # Round 2 she snares it again, and round 3 once more: the second ends the first.
    table.step('[fight: op="attack" with="Snare"] [fight: op="next"]', 3)
    table.step('[fight: op="attack" with="Snare"]')
    assert "concentration on Snare ends (replaced)" in table.receipts[-1]
    assert table.game.fight is not None and table.game.fight.get("bandit").conditions == (
        "frightened",
    )
    assert table.receipts == snapshot


def test_a_condition_a_save_ends(snapshot: SnapshotAssertion) -> None:
    ilse = {
        **ILSE,
        "lists": {**ILSE["lists"], "spells": [{"name": "Fear", "_catalog": "spells/fear"}]},
    }
    table = Table(Game.new(variant("fifth-age", _fragment), {"Ilse": ilse}))
    # Ilse 17, the bandit 4. Fear: its Wisdom save (5 against 13) fails, frightened until saved.
    table.step('[fight: op="begin" against="bandit"] [fight: op="attack" with="Fear"]', 15, 3, 5)
    # Its turn: the scimitar (10 + 3 - 2) misses, and as its turn ends it throws again (8): held.
    table.step('[fight: op="next"]', 10, 8)
    assert "Bandit against Frightened: Wisdom save (8) +0 = 8 vs 13: failed" in table.receipts[-1]
    # Round 2: another miss (10 + 1), then a 15 at its turn's end shakes it off.
    table.step('[fight: op="next"]', 10, 15)
    assert "Wisdom save (15) +0 = 15 vs 13: saved; Frightened off" in table.receipts[-1]
    fight = table.game.fight
    assert fight is not None and fight.get("bandit").conditions == ()
    assert table.receipts == snapshot


def test_the_fight_block_shows_what_each_side_suffers_and_holds() -> None:
    ilse = {
        **ILSE,
        "lists": {**ILSE["lists"], "spells": [{"name": "Snare", "_catalog": "spells/snare"}]},
    }
    table = Table(Game.new(variant("fifth-age", _fragment), {"Ilse": ilse}))
    table.step('[fight: op="begin" against="bandit"] [fight: op="attack" with="Snare"]', 15, 3)
    table.step('[fight: op="act" with="dodge"]')
    assert table.receipts[-1].endswith('reason="no-budget"]')
    reminder = table.game.reminder()
    assert "> Ilse 18/18, concentrating on Snare; Bandit 11/11 (Frightened)." in reminder


def test_an_area_throws_its_damage_once_and_each_target_saves(snapshot: SnapshotAssertion) -> None:
    ilse = {
        **ILSE,
        "lists": {
            **ILSE["lists"],
            "spells": [{"name": "Flame Burst", "_catalog": "spells/flame-burst"}],
        },
    }
    table = Table(Game.new(variant("fifth-age", _fragment), {"Ilse": ilse}))
    # Ilse 17, the bandits 4 and 3. Three at most: four names are refused, changing nothing.
    table.step('[fight: op="begin" against="bandit, bandit"]', 15, 3, 2)
    table.step('[fight: op="attack" with="Flame Burst" target="Bandit, Bandit 2, Ilse, Tam"]')
    assert 'reason="no-such-target"' in table.receipts[-1]
    # 3d6 thrown once (12) for both; the first bandit's Dexterity save fails (5), the second's
    # holds (15) and it takes half.
    reply = '[fight: op="attack" with="Flame Burst" target="Bandit, Bandit 2"]'
    turn = table.step(reply, 4, 4, 4, 5, 15)
    assert "dealt 12; Bandit 0/11 (down)" in table.receipts[-1]
    assert "saved, dealt 6; Bandit 2 5/11" in table.receipts[-1]
    assert "saved; damage (4 4 4) +0 = 12, halved = 6, dealt 6" in turn.receipts[0].detail
    assert table.receipts == snapshot
