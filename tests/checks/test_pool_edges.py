"""A pool check off the happy path: spends that buy nothing or buy dice, and the Game Master's
per-check numbers (threshold=, bonus=, explode=, double=) at and past the ruleset's bounds. Worked
by hand with scripted dice on Gravewatch: Wren throws 3 dice of Sinew and has 4 Resolve."""

from __future__ import annotations

import json

import pytest

from gm_tags import Game, load_ruleset
from gm_tags.checks.record import CheckRequest
from tests.checks.conftest import gravewatch_with, rolled
from tests.conftest import FIXTURES

RESOLVE_ONE_SUCCESS = [{"pool": "resolve", "amount": 1, "successes": 1, "perCheck": 2}]


@pytest.mark.parametrize(
    "spend",
    [
        "grit:1",  # no spend rule for that pool
        "resolve:0",
        "resolve:-1",
        "resolve:1.5",
        "resolve:two",
        "resolve",  # no amount at all
    ],
)
def test_a_spend_that_buys_nothing_pays_nothing_and_rolls_as_without(spend: str) -> None:
    game = gravewatch_with(spend=RESOLVE_ONE_SUCCESS)
    record = rolled(game, CheckRequest("Sinew", dc=1, spend=spend), [8, 2, 3])
    assert (record.spend, record.auto, record.total, record.rolls) == (None, None, 1, (8, 2, 3))
    assert "spend=" not in record.tag


def test_a_spend_of_a_part_purchase_buys_nothing() -> None:
    game = gravewatch_with(spend=[{"pool": "resolve", "amount": 2, "successes": 1, "perCheck": 2}])
    assert rolled(game, CheckRequest("Sinew", dc=1, spend="resolve:3"), [8, 2, 3]).spend is None
    assert rolled(game, CheckRequest("Sinew", dc=1, spend="resolve:4"), [8, 2, 3]).auto == 2


def test_a_pool_too_low_to_pay_pays_nothing_and_buys_nothing() -> None:
    game = gravewatch_with(spend=[{"pool": "resolve", "amount": 1, "successes": 1, "perCheck": 8}])
    low = game.apply_reply('[sheet: op="spend" pool="Resolve" amount="3"]').game  # 1 left
    turn = low.apply_reply('[skill_check: skill="Sinew" dc="1" spend="resolve:2"]', seed=4)
    assert "spend=" not in turn.receipts[0].tag and "auto=" not in turn.receipts[0].tag
    assert turn.game.sheet_block("Wren").splitlines()[-2:][0].startswith("Resolve 1/4")
    paid = low.apply_reply('[skill_check: skill="Sinew" dc="1" spend="resolve:1"]', seed=4)
    assert 'spend="resolve:1" auto="1"' in paid.receipts[0].tag
    assert "Resolve 0/4" in paid.game.sheet_block("Wren")


def test_a_limit_per_check_clamps_what_is_bought_and_paid() -> None:
    game = gravewatch_with(spend=RESOLVE_ONE_SUCCESS)
    record = rolled(game, CheckRequest("Sinew", dc=1, spend="resolve:4"), [2, 2, 3])
    assert (record.spend, record.auto, record.total) == ("resolve:2", 2, 2)


def test_a_spend_that_buys_dice_throws_them_with_the_pool_held_to_its_max() -> None:
    game = gravewatch_with(spend=[{"pool": "resolve", "amount": 1, "dice": 2, "perCheck": 2}])
    one = rolled(game, CheckRequest("Sinew", dc=1, spend="resolve:1"), [2, 3, 4, 5, 6])
    assert (one.dice, one.spend, one.auto) == ("5d10", "resolve:1", None)
    capped = gravewatch_with(
        spend=[{"pool": "resolve", "amount": 1, "dice": 2, "perCheck": 2}],
        pool={"min": 1, "max": 6},
    )
    two = rolled(capped, CheckRequest("Sinew", dc=1, spend="resolve:2"), [2, 3, 4, 5, 6, 2])
    assert (two.dice, two.spend) == ("6d10", "resolve:2")  # 3 + 4 bought, held to 6


@pytest.mark.parametrize(
    ("threshold", "counted"),
    [(3, 5), (4, 5), (5, 5), (6, 6), (9, 9), (10, 9), (12, 9)],
)
def test_threshold_is_held_between_the_targets_min_and_max(threshold: int, counted: int) -> None:
    record = rolled(gravewatch_with(), CheckRequest("Sinew", dc=1, threshold=threshold), [5, 6, 9])
    assert record.threshold == counted
    assert record.total == sum(1 for face in (5, 6, 9) if face >= counted)


@pytest.mark.parametrize(
    ("bonus", "written", "dice"), [(2, 2, 5), (3, 3, 6), (5, 3, 6), (-9, -3, 1)]
)
def test_bonus_dice_are_held_to_the_situational_range(bonus: int, written: int, dice: int) -> None:
    record = rolled(gravewatch_with(), CheckRequest("Sinew", dc=1, bonus=bonus), [2] * dice)
    assert (record.bonus, record.dice) == (written, f"{dice}d10")


@pytest.mark.parametrize(
    ("asked", "face", "rolls"),
    [
        (9, 9, (9, 2, 3, 4)),  # above the rule's min: 9 explodes
        (8, 8, (9, 2, 3, 4)),  # at it
        (5, 8, (9, 2, 3, 4)),  # below it: held to 8
        # Past the die: held to 10, the file's own face, so the 9 does not explode and the record
        # does not claim the check moved it (issue #30).
        (12, None, (9, 2, 3)),
    ],
)
def test_explode_is_held_between_the_rules_min_and_the_top_face(
    asked: int, face: int | None, rolls: tuple[int, ...]
) -> None:
    record = rolled(gravewatch_with(), CheckRequest("Sinew", dc=1, explode=asked), [9, 2, 3, 4])
    assert (record.explode, record.rolls) == (face, rolls)


@pytest.mark.parametrize(
    ("asked", "face", "total"),
    [(9, 9, 4), (8, 8, 5), (6, 8, 5), (11, None, 3)],  # 11 is held to 10, the file's own face
)
def test_double_is_held_between_the_rules_min_and_the_top_face(
    asked: int, face: int | None, total: int
) -> None:
    game = gravewatch_with(double={"from": 10, "min": 8})
    record = rolled(game, CheckRequest("Sinew", dc=1, double=asked), [9, 8, 7])
    # Target 7: each of 9, 8, 7 succeeds; those at or above the face count twice.
    assert (record.double, record.total) == (face, total)
    plain = rolled(game, CheckRequest("Sinew", dc=1), [10, 9, 7, 2])  # the 10 explodes too
    assert (plain.double, plain.total) == (None, 4)


def test_a_check_throws_again_at_most_100_times() -> None:
    # A d10 re-thrown until above 9 that keeps showing 1: the check stops after 100 throws.
    game = gravewatch_with(reroll=[{"id": "stubborn", "upTo": 9, "mode": "until"}])
    record = rolled(game, CheckRequest("Sinew", dc=1, reroll="stubborn"), [1, 9, 9] + [1] * 100)
    assert (record.rerolled, record.rolls) == (100, (1, 9, 9))


def test_a_per_check_limit_off_the_sheet_is_held_to_100_purchases() -> None:
    data = json.loads((FIXTURES / "rulesets" / "reference" / "gravewatch.json").read_text("utf-8"))
    data["sheet"]["live"]["pools"].append(
        {"id": "purse", "label": "Coin purse", "max": {"const": 300}, "start": "full"}
    )
    data["resolution"]["spend"] = [
        {"pool": "purse", "amount": 1, "successes": 1, "perCheck": {"const": 150}}
    ]
    game = Game.new(load_ruleset(data), {"Wren": {"abilities": {"sinew": 3}}})
    record = rolled(game, CheckRequest("Sinew", dc=1, spend="purse:150"), [2, 2, 2])
    assert (record.spend, record.auto) == ("purse:100", 100)
    # A spend names its pool by label as well as by id.
    by_label = rolled(game, CheckRequest("Sinew", dc=1, spend="Coin purse:2"), [2, 2, 2])
    assert (by_label.spend, by_label.auto) == ("purse:2", 2)


@pytest.mark.parametrize(
    ("bought", "named", "thrown_by"),
    [
        ({"upTo": 6, "mode": "once"}, {"upTo": 6, "mode": "once"}, "bought"),  # a tie: bought
        ({"upTo": 6, "mode": "once"}, {"upTo": 6, "mode": "until"}, "named"),  # until wins
        ({"upTo": 6, "mode": "until"}, {"upTo": 6, "mode": "until"}, "bought"),
        ({"upTo": 7, "mode": "once"}, {"upTo": 6, "mode": "until"}, "bought"),  # reach first
    ],
)
def test_the_rethrow_thrown_is_the_wider_and_the_record_names_only_a_named_one(
    bought: dict[str, object], named: dict[str, object], thrown_by: str
) -> None:
    game = gravewatch_with(
        spend=[{"pool": "resolve", "amount": 1, "reroll": bought, "perCheck": 1}],
        reroll=[{"id": "careful", **named}],
    )
    record = rolled(
        game, CheckRequest("Sinew", dc=1, spend="resolve:1", reroll="careful"), [9, 9, 9]
    )
    assert (record.rerolled, record.reroll) == (None, None)  # nothing in reach: no name
    low = rolled(
        game, CheckRequest("Sinew", dc=1, spend="resolve:1", reroll="careful"), [2, 9, 9, 3, 8]
    )
    # until: 2 -> 3 -> 8 (two throws); once: 2 -> 3 (one throw, the 8 is never thrown).
    until = (bought if thrown_by == "bought" else named)["mode"] == "until"
    assert low.rerolled == (2 if until else 1)
    assert low.reroll == ("careful" if thrown_by == "named" else None)


@pytest.mark.parametrize(
    ("faces", "result"), [([1, 1, 8, 9], "complication"), ([1, 1, 2, 3], "botch")]
)
def test_half_or_more_counts_exactly_half_of_an_even_pool(faces: list[int], result: str) -> None:
    game = gravewatch_with(botch={"upTo": 1, "rule": "halfOrMore"}, cancel=None)
    record = rolled(game, CheckRequest("Sinew", dc=1, bonus=1), faces)  # 4 dice, two ones
    if result == "botch":
        assert record.result == "critical_failure"
    else:
        assert record.result == "success" and 'complication="true"' in record.tag
    two_low_of_five = rolled(game, CheckRequest("Sinew", dc=1, bonus=2), [1, 1, 8, 8, 8])
    assert "complication" not in two_low_of_five.tag


def test_purchases_are_counted_in_whole_prices() -> None:
    game = gravewatch_with(spend=[{"pool": "resolve", "amount": 2, "successes": 1, "perCheck": 2}])
    record = rolled(game, CheckRequest("Sinew", dc=1, spend="resolve:2"), [2, 2, 2])
    assert (record.spend, record.auto) == ("resolve:2", 1)


@pytest.mark.parametrize("limit", [0, -2])
def test_a_limit_off_the_sheet_of_none_or_less_buys_nothing(limit: int) -> None:
    game = gravewatch_with(
        spend=[{"pool": "resolve", "amount": 1, "successes": 1, "perCheck": {"const": limit}}]
    )
    record = rolled(game, CheckRequest("Sinew", dc=1, spend="resolve:1"), [2, 2, 2])
    assert (record.spend, record.auto) == (None, None)


def test_a_rethrow_of_ones_throws_the_ones_again() -> None:
    game = gravewatch_with(reroll=[{"id": "steady", "upTo": 1, "mode": "once"}])
    record = rolled(game, CheckRequest("Sinew", dc=1, reroll="steady"), [1, 9, 2, 8])
    assert (record.rolls, record.rerolled, record.reroll) == ((8, 9, 2), 1, "steady")


def test_a_limit_off_the_sheet_that_is_no_finite_number_buys_nothing() -> None:
    data = json.loads((FIXTURES / "rulesets" / "reference" / "gravewatch.json").read_text("utf-8"))
    data["sheet"].setdefault("derived", []).append(
        {"id": "huge", "label": "Huge", "op": "multiply", "of": [{"const": 1e200}] * 2}
    )
    data["resolution"]["spend"] = [
        {"pool": "resolve", "amount": 1, "successes": 1, "perCheck": {"derived": "huge"}}
    ]
    game = Game.new(load_ruleset(data), {"Wren": {"abilities": {"sinew": 3}}})
    assert game.read("Wren", {"derived": "huge"}) == float("inf")
    record = rolled(game, CheckRequest("Sinew", dc=1, spend="resolve:1"), [2, 2, 2])
    assert (record.spend, record.auto) == (None, None)


def test_a_check_with_no_character_to_pay_from_pays_nothing_and_rolls() -> None:
    game = Game.new(load_ruleset(FIXTURES / "rulesets" / "reference" / "gravewatch.json"))
    turn = game.apply_reply('[skill_check: skill="Sinew" dc="1" spend="resolve:1"]', seed=3)
    (receipt,) = turn.receipts
    assert receipt.ok and 'result="failure"' in receipt.tag and "spend=" not in receipt.tag


def test_an_until_rethrow_goes_on_while_the_face_is_at_its_reach() -> None:
    game = gravewatch_with(reroll=[{"id": "careful", "upTo": 6, "mode": "until"}])
    # 2 is in reach: thrown again, 6 is still in reach (at upTo): thrown again, 8 is out.
    record = rolled(game, CheckRequest("Sinew", dc=1, reroll="careful"), [2, 9, 9, 6, 8])
    assert (record.rolls, record.rerolled) == ((8, 9, 9), 2)
