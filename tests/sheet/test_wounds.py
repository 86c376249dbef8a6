"""Wound tracks, from the page's own examples and sequences worked by hand."""

from __future__ import annotations

import pytest

from gm_tags import Game, Reason, Ruleset
from tests.sheet.conftest import one


def marks(game: Game, track: str = "harm") -> tuple[tuple[str, ...], int]:
    wounds = game.live_of(game.character()).wounds.get(track)
    return ((), 0) if wounds is None else (wounds.marks, wounds.overflow)


def damage(
    game: Game, kind: str | None, amount: int, track: str = "harm", box: int | None = None
) -> Game:
    kind_attribute = f' kind="{kind}"' if kind else ""
    box_attribute = f' box="{box}"' if box else ""
    tag = f'[sheet: op="damage" track="{track}"{kind_attribute} amount="{amount}"{box_attribute}]'
    turn = game.apply_reply(tag)
    assert turn.receipts[0].ok, turn.receipts[0]
    return turn.game


@pytest.mark.spec("WT-7", "WT-8", "WT-11", "WT-12", "WT-13", "WT-10")
def test_the_harm_track_sequence_worked_by_hand(gravewatch: Ruleset) -> None:
    game = one(gravewatch)
    for kind in ("tear", "knock", "knock", "knock"):
        game = damage(game, kind, 1)
    assert marks(game) == (("tear", "knock", "knock", "knock"), 0)
    game = damage(game, "knock", 1)  # full: the lightest mark goes one step up, to a tear
    assert marks(game) == (("tear", "tear", "knock", "knock"), 0)
    game = damage(game, "tear", 3)  # two more upgrades, then one that cannot go higher
    assert marks(game) == (("tear", "tear", "tear", "tear"), 1)
    game = damage(game, None, -1)  # healing clears overflow first
    assert marks(game) == (("tear", "tear", "tear", "tear"), 0)


@pytest.mark.spec("WT-8")
def test_a_mark_is_placed_in_severity_order_pushing_lighter_marks_down(gravewatch: Ruleset) -> None:
    game = damage(damage(one(gravewatch), "knock", 2), "tear", 1)
    assert marks(game) == (("tear", "knock", "knock"), 0)


@pytest.mark.spec("WT-9")
def test_the_penalty_in_force_is_the_lowest_marked_levels_never_a_sum(gravewatch: Ruleset) -> None:
    game = damage(one(gravewatch), "knock", 3)
    # Scuffed 0, Winded -1, Bleeding -3: three marks read -3, not -4.
    assert game.read(None, {"liveTrack": "harm", "read": "penalty"}) == -3
    turn = game.apply_reply('[sheet: op="damage" track="harm" kind="knock" amount="2"]')
    assert turn.receipts[0].now == "Harm 4/4 Down"
    assert turn.game.read(None, {"liveTrack": "harm", "read": "penalty"}) == -99


@pytest.mark.spec("WT-14")
def test_the_receipt_reads_as_the_engines(gravewatch: Ruleset) -> None:
    game = damage(one(gravewatch), "tear", 4)
    turn = game.apply_reply('[sheet: who="Mira" op="damage" track="Harm" kind="K" amount="1"]')
    assert turn.receipts[0].tag == (
        '[sheet: who="Mira" op="damage" track="Harm" kind="K" amount="1" result="ok" '
        'now="Harm 4/4 Down +1 over"]'
    )


@pytest.mark.spec("WT-22", "WT-23")
def test_a_heal_naming_a_kind_clears_only_that_kind_and_an_unknown_kind_the_lightest(
    storyteller: Ruleset,
) -> None:
    game = one(storyteller)
    for kind in ("bashing", "lethal", "bashing", "aggravated"):
        game = damage(game, kind, 1, "health")
    assert marks(game, "health") == (("aggravated", "lethal", "bashing", "bashing"), 0)
    healed = damage(game, "lethal", -5, "health")
    assert marks(healed, "health") == (("aggravated", "bashing", "bashing"), 0)
    lightest = damage(game, "frostbite", -3, "health")
    assert marks(lightest, "health") == (("aggravated",), 0)


@pytest.mark.spec("WT-14")
@pytest.mark.parametrize(
    ("body", "reason"),
    [
        ('track="harm" kind="burn" amount="1"', Reason.UNKNOWN_KIND),
        ('track="harm" amount="1"', Reason.MALFORMED),
        ('track="harm" kind="knock" amount="0"', Reason.BAD_AMOUNT),
        ('track="harm" kind="knock" amount="100001"', Reason.BAD_AMOUNT),
        ('track="spleen" kind="knock" amount="1"', Reason.UNKNOWN_TRACK),
        ('track="harm" pool="resolve" kind="knock" amount="1"', Reason.MALFORMED),
    ],
)
def test_wound_refusals(gravewatch: Ruleset, body: str, reason: Reason) -> None:
    assert one(gravewatch).apply_reply(f'[sheet: op="damage" {body}]').receipts[0].reason is reason


@pytest.mark.spec("WT-21")
def test_overflow_is_stored_and_survives_a_reload(gravewatch: Ruleset) -> None:
    game = damage(one(gravewatch), "tear", 6)
    document = game.to_document()
    assert document["rulesetLive"]["mira"]["wounds"]["harm"] == {
        "marks": ["tear"] * 4,
        "overflow": 2,
    }
    assert marks(Game.from_document(gravewatch, document)) == (("tear",) * 4, 2)


# Numbered boxes: Ember Roads' strain, 2 + Heart boxes, indexed, refusing when full.


@pytest.mark.spec("WB-1", "WB-4", "WB-8")
def test_indexed_boxes_take_the_named_box_or_the_next_free_one_above(ember: Ruleset) -> None:
    game = one(ember, {"abilities": {"heart": 3}})  # five boxes
    game = damage(game, "strain", 1, "strain", box=3)
    assert marks(game, "strain") == (("", "", "strain"), 0)
    game = damage(game, "strain", 2, "strain", box=3)  # 3 is taken: boxes 4 and 5
    assert marks(game, "strain") == (("", "", "strain", "strain", "strain"), 0)
    game = damage(game, "strain", 1, "strain")  # no box named: the first
    assert marks(game, "strain") == (("strain", "", "strain", "strain", "strain"), 0)


@pytest.mark.spec("WB-5")
def test_marks_that_do_not_all_fit_land_none(ember: Ruleset) -> None:
    game = damage(one(ember, {"abilities": {"heart": 3}}), "strain", 3, "strain")  # 2 free
    turn = game.apply_reply('[sheet: op="damage" track="strain" kind="strain" amount="3"]')
    assert turn.receipts[0].reason is Reason.NO_BOX
    assert marks(turn.game, "strain") == marks(game, "strain")


@pytest.mark.spec("WB-2", "WB-3")
def test_the_box_penalty_reads_the_boxes_remaining(ember: Ruleset) -> None:
    game = one(ember)  # Heart 0: two boxes; the table gives -1 when none remain
    assert game.read(None, {"liveTrack": "strain", "read": "penalty"}) == 0
    game = damage(game, "strain", 1, "strain")
    assert game.read(None, {"liveTrack": "strain", "read": "penalty"}) == 0
    turn = game.apply_reply('[sheet: op="damage" track="strain" kind="strain" amount="1"]')
    assert turn.receipts[0].now == "Strain 2/2"  # boxes are counted, not named
    assert turn.game.read(None, {"liveTrack": "strain", "read": "penalty"}) == -1


@pytest.mark.spec("WB-9")
def test_an_indexed_heal_clears_the_highest_of_the_lightest_marks(strain: Ruleset) -> None:
    track = next(t for t in strain.definition.sheet.live.tracks if t.is_wound)
    kinds = sorted(track.kinds or (), key=lambda k: k.severity)
    light, heavy = kinds[0].id, kinds[-1].id
    game = one(strain, {"abilities": {"grit": 5, "focus": 5}})  # 2 + 1 + 1 boxes
    game = damage(game, light, 1, track.id, box=1)
    game = damage(game, heavy, 1, track.id, box=2)
    game = damage(game, light, 1, track.id, box=3)
    game = damage(game, None, -1, track.id)
    assert marks(game, track.id)[0] == (light, heavy)
    game = damage(game, None, -1, track.id)
    assert marks(game, track.id)[0] == ("", heavy)


@pytest.mark.spec("WB-6", "WB-12", "WB-13")
def test_scars_lengthen_harm_and_a_deleted_scar_leaves_its_marks_as_overflow(
    gravewatch: Ruleset,
) -> None:
    scars = [{"name": "Old bite", "levels": 2, "penalty": -1}]
    game = one(gravewatch, {"lists": {"scars": scars}})
    # Two levels at -1 go after Winded (the last level at least as good as -1), named Winded.
    game = damage(game, "knock", 6)
    turn = game.apply_reply('[sheet: op="damage" track="harm" kind="knock" amount="-1"]')
    assert turn.receipts[0].now == "Harm 5/6 Bleeding"
    assert game.read(None, {"liveTrack": "harm", "read": "remaining"}) == 0
    penalties = [game.read(None, {"liveTrack": "harm", "read": "penalty"})]
    assert penalties == [-99]
    edited = Game.from_document(
        gravewatch,
        {
            **game.to_document(),
            "gameCharacterCards": [{"name": "Mira", "rulesetSheet": {"v": 1, "build": {}}}],
        },
    )
    after = edited.apply_reply('[sheet: op="damage" track="harm" kind="knock" amount="-1"]')
    assert after.receipts[0].now == "Harm 4/4 Down +1 over"


def test_winded_names_the_extra_levels_with_a_matching_penalty(gravewatch: Ruleset) -> None:
    game = one(gravewatch, {"lists": {"scars": [{"name": "Burn", "levels": 1, "penalty": -2}]}})
    turn = game.apply_reply('[sheet: op="damage" track="harm" kind="knock" amount="3"]')
    # -2 matches no level: after Winded (-1 is at least as good), named by the penalty.
    assert turn.receipts[0].now == "Harm 3/5 -2"
