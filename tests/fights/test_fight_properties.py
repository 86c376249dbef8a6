"""Any sequence of fight tags keeps every track and pool in bounds, never lets anyone act out of
turn, and leaves the same game whether the reply is applied at once or streamed."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from gm_tags import Game, Ruleset
from tests.conftest import ruleset_named
from tests.fights.conftest import TRAVELLER, WARDEN, variant
from tests.fights.test_fifth_fight import ILSE, _fragment

GRAVEWATCH: Ruleset = ruleset_named("gravewatch")
EMBER: Ruleset = ruleset_named("ember-roads")
# The 5e fragment: saves both ways, leans, standard actions, dying, concentration and buffs.
FIFTH: Ruleset = variant("fifth-age", _fragment)
_SPELLS = ("Hold Fast", "Fire Burst", "Ward", "Bless", "Quicken", "Snare", "Fear", "Flame Burst")
_CASTER = {
    **ILSE,
    "lists": {
        **ILSE["lists"],
        "spells": [
            {"name": name, "_catalog": f"spells/{name.lower().replace(' ', '-')}"}
            for name in _SPELLS
        ],
    },
}
RULESETS = {"gravewatch": GRAVEWATCH, "ember": EMBER, "fifth": FIFTH}

_WHO = [
    "",
    ' who="Wren"',
    ' who="Ash"',
    ' who="Juno"',
    ' who="Ilse"',
    ' who="Tam"',
    ' who="Hollow warden"',
    ' who="Nobody"',
]
_TARGET = [
    "",
    ' target="Wren"',
    ' target="Ash"',
    ' target="Hollow warden"',
    ' target="rust jackal"',
    ' target="Ilse"',
    ' target="Tam"',
    ' target="Bandit"',
    ' target="Bandit, Spore-caller, Bandit"',
]
_WITH = [
    "",
    ' with="Nail"',
    ' with="Cudgel"',
    ' with="Road axe"',
    ' with="Cold grip"',
    ' with="x"',
    ' with="Dagger"',
    *(f' with="{name}"' for name in _SPELLS),
    *(f' with="{name}"' for name in ("dodge", "help", "dash", "Grab", "Break free", "Shove back")),
]

fight_tags = st.one_of(
    st.builds(
        lambda against, boss: f'[fight: op="begin" against="{against}"{boss}]',
        st.sampled_from(
            [
                "hollow-warden",
                "grave-rats, dread",
                "nuisance",
                "rust-jackal",
                "pack, stray",
                "Cinder Moth",
                "bandit",
                "spore-caller, bandit",
            ]
        ),
        st.sampled_from(["", ' boss="hollow-warden"', ' boss="dread"']),
    ),
    st.builds(
        lambda who, target, with_: f'[fight: op="attack"{who}{target}{with_}]',
        st.sampled_from(_WHO),
        st.sampled_from(_TARGET),
        st.sampled_from(_WITH),
    ),
    st.builds(
        lambda who, target, with_: f'[fight: op="act"{who}{target}{with_}]',
        st.sampled_from(_WHO),
        st.sampled_from(_TARGET),
        st.sampled_from(_WITH),
    ),
    st.builds(
        lambda who, target, amount: f'[fight: op="heal"{who}{target} amount="{amount}"]',
        st.sampled_from(_WHO),
        st.sampled_from(_TARGET),
        st.sampled_from(["1", "3", "0", "x"]),
    ),
    st.just('[fight: op="next"]'),
    st.just('[fight: op="next"]'),
    st.just('[fight: op="end"]'),
    st.just('[sheet: who="Wren" op="damage" track="harm" kind="tear" amount="2"]'),
    st.just('[sheet: who="Ilse" op="damage" pool="hp" amount="9"]'),
)


def _game(ruleset: Ruleset, opposition_gm: bool) -> Game:
    party = {"Wren": WARDEN, "Ash": WARDEN} if ruleset is GRAVEWATCH else {"Juno": TRAVELLER}
    if ruleset is FIFTH:
        party = {"Ilse": _CASTER, "Tam": ILSE}
    return Game.new(ruleset, party, gm_bosses=opposition_gm)


def _in_bounds(game: Game) -> None:
    for character in game.characters:
        sheet = game.sheet(character.name)
        live = game.live_of(character)
        for track, wounds in live.wounds.items():
            capacity = int(sheet[("trackMax", track)])
            assert len([m for m in wounds.marks if m]) <= capacity
        for pool in game.ruleset.definition.sheet.live.pools if game.ruleset else ():
            value = int(game.read(character.name, {"livePool": pool.id}))
            assert 0 <= value <= int(sheet[("poolMax", pool.id)])
    if game.fight is not None:
        for member in game.fight.combatants:
            assert 0 <= member.health <= member.most
        assert 0 <= game.fight.turn < len(game.fight.order)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    tags=st.lists(fight_tags, min_size=1, max_size=14),
    seed=st.integers(0, 2**16),
    rules=st.sampled_from(sorted(RULESETS)),
    gm=st.booleans(),
)
def test_any_fight_stays_in_bounds_and_in_turn(
    tags: list[str], seed: int, rules: str, gm: bool
) -> None:
    game = _game(RULESETS[rules], gm)
    for at, tag in enumerate(tags):
        actor = game.fight.actor if game.fight is not None else None
        turn = game.apply_reply(f"Blow {at}. {tag}", seed=f"{seed}:{at}")
        receipt = turn.receipts[0]
        assert receipt.reason != "engine-error", receipt.detail
        if receipt.ok and any(f'op="{op}"' in tag for op in ("attack", "act", "heal")):
            # Only whoever was on turn acted, and the receipt says so first.
            assert actor is not None and (receipt.now or "").startswith(actor.name)
        game = turn.game
        _in_bounds(game)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    tags=st.lists(fight_tags, min_size=1, max_size=12),
    seed=st.integers(0, 2**16),
    cut=st.integers(1, 40),
    rules=st.sampled_from(sorted(RULESETS)),
)
def test_a_fight_streamed_is_the_fight_applied_at_once(
    tags: list[str], seed: int, cut: int, rules: str
) -> None:
    game = _game(RULESETS[rules], False)
    reply = " And then. ".join(tags)
    whole = game.apply_reply(reply, seed=seed)
    stream = game.stream(seed=seed)
    for start in range(0, len(reply), cut):
        stream.feed(reply[start : start + cut])
    _, streamed = stream.finish()
    assert [r.tag for r in streamed.receipts] == [r.tag for r in whole.receipts]
    assert streamed.game.to_document() == whole.game.to_document()
