"""Random command sequences on random characters: whatever the model writes, pools stay within
0..max, tracks within min..max, every state reads one of its values, and the snapshot a reply
started from is unchanged afterwards."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gm_tags import Game, Reason, Ruleset
from gm_tags.engine.pools import pools_of
from gm_tags.sheet.plan import plan_for
from gm_tags.sheet.plan_live import state_value, track_value
from tests.sheet.conftest import ruleset_named

RULESETS = {
    name: ruleset_named(name) for name in ("ember-roads", "gravewatch", "storyteller", "fifth-age")
}


@st.composite
def builds(draw: st.DrawFn, ruleset: Ruleset) -> dict[str, object]:
    sheet = ruleset.definition.sheet
    abilities = {a.id: draw(st.integers(a.min, a.max)) for a in sheet.abilities}
    fields: dict[str, object] = {}
    for field in sheet.fields:
        if field.type == "number":
            fields[field.id] = draw(st.integers(int(field.min), int(field.max)))
        elif field.type == "enum":
            fields[field.id] = draw(st.sampled_from(field.values))
        elif field.type == "boolean":
            fields[field.id] = draw(st.booleans())
    return {"abilities": abilities, "fields": fields}


def commands(ruleset: Ruleset) -> st.SearchStrategy[str]:
    live = ruleset.definition.sheet.live
    names = st.sampled_from([p.id for p in live.pools] + ["nothing"])
    tracks = st.sampled_from([t.label for t in live.tracks] + ["nothing"])
    wound = [t for t in live.tracks if t.is_wound]
    amount = st.integers(-3, 12).map(str) | st.sampled_from(["", "x", "99999999"])
    who = st.sampled_from(['who="Mira" ', 'who="Tobin" ', 'who="party" ', "", 'who="Ghost" '])
    options = [
        st.builds(
            lambda w, op, p, a: f'[sheet: {w}op="{op}" pool="{p}" amount="{a}"]',
            who,
            st.sampled_from(["spend", "restore", "damage", "temp", "heal"]),
            names,
            amount,
        ),
        st.builds(
            lambda w, t, k, v: f'[sheet: {w}op="track" track="{t}" {k}="{v}"]',
            who,
            tracks,
            st.sampled_from(["to", "by"]),
            st.integers(-20, 20),
        ),
    ]
    if wound:
        kinds = [k.id for t in wound for k in t.kinds or ()] + ["nothing"]
        options.append(
            st.builds(
                lambda w, t, k, a, b: (
                    f'[sheet: {w}op="damage" track="{t}" kind="{k}" amount="{a}"{b}]'
                ),
                who,
                st.sampled_from([t.id for t in wound]),
                st.sampled_from(kinds),
                st.integers(-5, 5),
                st.sampled_from(["", ' box="2"']),
            )
        )
    if live.states:
        values = [v for s in live.states for v in s.values] + ["nonsense"]
        options.append(
            st.builds(
                lambda w, s, v: f'[sheet: {w}op="state" state="{s}" value="{v}"]',
                who,
                st.sampled_from([s.id for s in live.states]),
                st.sampled_from(values),
            )
        )
    if live.conditions:
        options.append(
            st.builds(
                lambda w, c, s: f'[sheet: {w}op="condition" condition="{c}" state="{s}"]',
                who,
                st.sampled_from([c.id for c in live.conditions]),
                st.sampled_from(["on", "off"]),
            )
        )
    if ruleset.definition.rests:
        options.append(
            st.builds(
                lambda w, r: f'[sheet: {w}op="rest" rest="{r}"]',
                who,
                st.sampled_from([r.id for r in ruleset.definition.rests]),
            )
        )
    return st.one_of(options)


@st.composite
def scenarios(draw: st.DrawFn) -> tuple[Ruleset, Game, list[str]]:
    ruleset = RULESETS[draw(st.sampled_from(sorted(RULESETS)))]
    game = Game.new(
        ruleset, {"Mira": draw(builds(ruleset)), "Tobin": draw(builds(ruleset))}, player="Mira"
    )
    replies = draw(
        st.lists(st.lists(commands(ruleset), max_size=6).map(" ".join), min_size=1, max_size=5)
    )
    return ruleset, game, replies


def check_bounds(ruleset: Ruleset, game: Game) -> None:
    plan = plan_for(ruleset)
    for character in game.characters:
        live = game.live_of(character)
        for pool in pools_of(ruleset, character):
            value, temp = pool.now(live)
            assert 0 <= value <= pool.maximum and temp >= 0
            stored = live.pools.get(pool.key)
            assert stored is None or 0 <= stored.value <= pool.maximum
        permanent = character.permanent_values(plan)
        for track in ruleset.definition.sheet.live.tracks:
            if track.is_wound:
                continue
            high = max(track.min, int(permanent[plan.slot(("trackMax", track.id))]))
            assert track.min <= track_value(track, live, high) <= high
            stored_track = live.tracks.get(track.id)
            assert stored_track is None or track.min <= stored_track <= high
        for state in ruleset.definition.sheet.live.states:
            assert state_value(state, live) in state.values


@pytest.mark.spec("ST-3")
@settings(max_examples=150, deadline=None)
@given(scenario=scenarios())
def test_random_commands_keep_every_value_in_bounds_and_leave_the_start_alone(
    scenario: tuple[Ruleset, Game, list[str]],
) -> None:
    ruleset, game, replies = scenario
    for reply in replies:
        before = game.to_document()
        turn = game.apply_reply(reply)
        assert game.to_document() == before
        assert all(receipt.reason is not Reason.ENGINE_ERROR for receipt in turn.receipts)
        check_bounds(ruleset, turn.game)
        game = turn.game
