"""Every [sheet:] op with its receipt, `now=` and refusal codes."""

from __future__ import annotations

import json

import pytest

from gm_tags import Game, Reason, Ruleset, load_ruleset
from tests.sheet.conftest import RULESETS, one, tags


def sheets_of(game: Game) -> dict[str, object]:
    """The document without what the next reminder must hear (the refusals)."""
    document = game.to_document()
    document.pop("gameRecentOutcomes", None)
    return document


def test_spend_restore_and_pool_damage(ember: Ruleset) -> None:
    game = one(ember)  # Grit max 4 + toughness 2 + Brawn 0 = 6
    assert tags(
        game,
        '[sheet: op="spend" pool="Grit" amount="4"][sheet: op="heal" pool="grit" amount="1"]'
        '[sheet: op="damage" pool="GRIT" amount="9"][sheet: op="restore" pool="grit" amount="99"]',
    ) == [
        '[sheet: who="Mira" op="spend" pool="Grit" amount="4" result="ok" now="2/6"]',
        '[sheet: who="Mira" op="restore" pool="grit" amount="1" result="ok" now="3/6"]',
        '[sheet: who="Mira" op="damage" pool="GRIT" amount="9" result="ok" now="0/6"]',
        '[sheet: who="Mira" op="restore" pool="grit" amount="99" result="ok" now="6/6"]',
    ]


def test_spending_more_than_is_left_is_refused_and_changes_nothing(ember: Ruleset) -> None:
    turn = one(ember).apply_reply('[sheet: op="spend" pool="luck" amount="4"]')
    assert turn.receipts[0].reason is Reason.INSUFFICIENT
    assert sheets_of(turn.game) == sheets_of(one(ember))
    assert turn.game.recent == ("Mira spend luck refused (insufficient)",)


def test_temporary_points_are_set_and_soak_damage_first(fifth: Ruleset) -> None:
    game = one(fifth, {"abilities": {"con": 14}})  # hit points 8 + 2 = 10
    turn = game.apply_reply(
        '[sheet: op="temp" pool="hp" amount="5"][sheet: op="damage" pool="hp" amount="7"]'
        '[sheet: op="temp" pool="hp" amount="0"]'
    )
    assert [receipt.now for receipt in turn.receipts] == ["10/10 +5 temp", "8/10", "8/10"]
    assert turn.game.to_document()["rulesetLive"] == {"mira": {"pools": {"hp": {"value": 8}}}}


def test_temp_needs_a_pool_that_allows_it(ember: Ruleset) -> None:
    assert (
        one(ember).apply_reply('[sheet: op="temp" pool="grit" amount="2"]').receipts[0].reason
        is Reason.NO_TEMP
    )


@pytest.mark.parametrize(
    ("body", "reason"),
    [
        ('op="spend" pool="gold" amount="1"', Reason.UNKNOWN_POOL),
        ('op="spend" pool="grit" amount="0"', Reason.BAD_AMOUNT),
        ('op="spend" pool="grit" amount="100001"', Reason.BAD_AMOUNT),
        ('op="spend" pool="grit" amount="two"', Reason.BAD_AMOUNT),
        ('op="spend" pool="grit"', Reason.MALFORMED),
        ('op="spend" amount="1"', Reason.MALFORMED),
        ('op="juggle" pool="grit" amount="1"', Reason.MALFORMED),
        ('pool="grit" amount="1"', Reason.MALFORMED),
        ('op="track" track="heat" to="1" by="1"', Reason.MALFORMED),
        ('op="track" track="heat"', Reason.MALFORMED),
        ('op="track" track="chill" by="1"', Reason.UNKNOWN_TRACK),
        ('op="track" track="strain" by="1"', Reason.WRONG_TRACK),
        ('op="damage" track="heat" kind="strain" amount="1"', Reason.WRONG_TRACK),
        ('op="condition" condition="giddy"', Reason.UNKNOWN_CONDITION),
        ('op="condition" condition="shaken" state="maybe"', Reason.MALFORMED),
        ('op="state" state="mood" value="calm"', Reason.UNKNOWN_STATE),
        ('op="state" state="stance" value="sideways"', Reason.UNKNOWN_VALUE),
        ('op="state" state="stance"', Reason.MALFORMED),
        ('op="note" field="diary" value="x"', Reason.UNKNOWN_FIELD),
        ('op="rest" rest="nap"', Reason.UNKNOWN_REST),
        ('op="use" name="Last Ember"', Reason.UNKNOWN_ENTRY),  # never picked
    ],
)
def test_refusals_carry_the_engines_codes_and_change_nothing(
    ember: Ruleset, body: str, reason: Reason
) -> None:
    game = one(ember)
    turn = game.apply_reply(f"[sheet: {body}]")
    assert turn.receipts[0].reason is reason
    assert sheets_of(turn.game) == sheets_of(game)


@pytest.mark.spec("TR-3")
def test_a_plain_track_moves_and_is_set_within_its_range(ember: Ruleset) -> None:
    assert tags(
        one(ember),
        '[sheet: op="track" track="heat" by="2"][sheet: op="track" track="Heat" by="+9"]'
        '[sheet: op="track" track="heat" to="-3"][sheet: op="track" track="heat" to="3"]',
    ) == [
        '[sheet: who="Mira" op="track" track="heat" by="2" result="ok" now="Heat 2"]',
        '[sheet: who="Mira" op="track" track="Heat" by="9" result="ok" now="Heat 5"]',
        '[sheet: who="Mira" op="track" track="heat" to="-3" result="ok" now="Heat 0"]',
        '[sheet: who="Mira" op="track" track="heat" to="3" result="ok" now="Heat 3"]',
    ]


def test_conditions_go_on_and_off_by_id_or_label(ember: Ruleset) -> None:
    turn = one(ember).apply_reply(
        '[sheet: op="condition" condition="Shaken"]'
        '[sheet: op="condition" condition="pinned" state="add"]'
        '[sheet: op="condition" condition="shaken" state="off"]'
    )
    assert [receipt.now for receipt in turn.receipts] == ["Shaken on", "Pinned on", "Shaken off"]
    assert turn.game.to_document()["rulesetLive"]["mira"] == {"conditions": ["pinned"]}


@pytest.mark.spec("ST-5", "ST-3")
def test_a_state_is_named_by_id_or_label_and_its_value_by_itself_or_its_label(
    ember: Ruleset,
) -> None:
    turn = one(ember).apply_reply(
        '[sheet: op="state" state="Stance" value="Reckless"]'
        '[sheet: op="state" state="stance" value="guarded"]'
    )
    assert [receipt.now for receipt in turn.receipts] == ["Stance Reckless", "Stance Guarded"]
    assert turn.game.to_document()["rulesetLive"]["mira"] == {"states": {"stance": "guarded"}}
    back = turn.game.apply_reply('[sheet: op="state" state="stance" value="steady"]').game
    assert "rulesetLive" not in back.to_document()  # the default is not stored


@pytest.mark.spec("ST-4", "HW-1")
def test_a_hidden_state_is_not_set_by_a_command_and_reads_as_no_value() -> None:
    data = json.loads((RULESETS / "reference" / "ember-roads.json").read_text("utf-8"))
    data["sheet"]["fields"].append(
        {"id": "fighter", "label": "Fights", "type": "boolean", "default": False}
    )
    data["sheet"]["live"]["states"][0]["hideWhen"] = {"field": "fighter", "equals": False}
    ruleset = load_ruleset(data)
    calm = one(ruleset)
    turn = calm.apply_reply('[sheet: op="state" state="stance" value="reckless"]')
    assert turn.receipts[0].reason is Reason.UNKNOWN_STATE
    fighter = one(ruleset, {"fields": {"fighter": True}})
    reckless = fighter.apply_reply('[sheet: op="state" state="stance" value="reckless"]').game
    assert reckless.read(None, {"derived": "stance_brawn"}) == 2
    # Stored, then hidden again (the field changed): the table reads it as no value at all.
    hidden = Game.from_document(
        ruleset,
        {
            **reckless.to_document(),
            "gameCharacterCards": [{"name": "Mira", "rulesetSheet": {"v": 1, "build": {}}}],
        },
    )
    assert hidden.read(None, {"derived": "stance_brawn"}) == 0


def test_notes_set_and_clear_live_text_cut_to_its_length(storyteller: Ruleset) -> None:
    long = "x" * 130
    turn = one(storyteller).apply_reply(
        f'[sheet: op="note" field="Hunting ground" value="The docks"]'
        f'[sheet: op="note" field="hunting" value="{long}"]'
        '[sheet: op="note" field="hunting"]'
    )
    assert [receipt.now for receipt in turn.receipts] == [
        "Hunting ground: The docks",
        "Hunting ground: " + "x" * 120,
        "Hunting ground cleared",
    ]
    assert "rulesetLive" not in turn.game.to_document()


def test_list_row_pools_are_spent_by_row_name(ember: Ruleset) -> None:
    tricks = [{"name": "Last Ember", "uses": 2, "recharge": "camp"}]
    turn = one(ember, {"lists": {"tricks": tricks}}).apply_reply(
        '[sheet: op="spend" pool="last ember" amount="1"]'
        '[sheet: op="spend" pool="tricks:last ember" amount="1"]'
        '[sheet: op="spend" pool="Last Ember" amount="1"]'
    )
    assert [(receipt.now, receipt.reason) for receipt in turn.receipts] == [
        ("1/2", None),
        ("0/2", None),
        (None, Reason.INSUFFICIENT),
    ]
    assert turn.game.to_document()["rulesetLive"]["mira"] == {
        "pools": {"tricks:last ember": {"value": 0}}
    }


def test_two_list_rows_with_one_name_are_one_pool_the_first_rows(ember: Ruleset) -> None:
    tricks = [{"name": "Spark", "uses": 1}, {"name": "spark", "uses": 2}]
    # Both rows store under the same key, so they are one pool, as on the Engine: the first row's.
    turn = one(ember, {"lists": {"tricks": tricks}}).apply_reply(
        '[sheet: op="spend" pool="Spark" amount="1"]'
    )
    assert (turn.receipts[0].reason, turn.receipts[0].now) == (None, "0/1")


def test_a_pool_whose_maximum_works_out_at_zero_does_not_exist(fifth: Ruleset) -> None:
    turn = one(fifth).apply_reply('[sheet: op="spend" pool="hit_dice_d6" amount="1"]')
    assert turn.receipts[0].reason is Reason.UNKNOWN_POOL


def test_a_sheet_command_in_a_game_without_a_ruleset_is_refused() -> None:
    turn = Game.new(None, {"Mira": None}).apply_reply('[sheet: op="spend" pool="grit" amount="1"]')
    assert turn.receipts[0].reason is Reason.NO_SHEET
