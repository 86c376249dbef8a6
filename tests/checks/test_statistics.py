"""The dice, over many throws with fixed seeds (so the tests never flake): every face equally
likely, and targets, doubles, explosions, cancels and botches as often as the rules say."""

from __future__ import annotations

import json
from collections import Counter

import pytest

from gm_tags import Dice, load_ruleset
from gm_tags.checks.record import CheckRequest
from gm_tags.checks.run import roll_check
from gm_tags.pipeline import process
from tests.proxy.test_proxy import starting_game
from tests.sheet.conftest import RULESETS, one

THROWS = 60_000
# The 0.999 quantile of chi-square with 19 degrees of freedom: a fair d20 stays under it.
CHI_SQUARE_19 = 43.8


@pytest.mark.parametrize(("sides", "seed"), [(6, 1), (10, 2), (20, 3), (100, 4)])
def test_every_face_is_equally_likely(sides: int, seed: int) -> None:
    counts = Counter(Dice(seed).roll(THROWS, sides))
    expected = THROWS / sides
    chi_square = sum((counts[face] - expected) ** 2 / expected for face in range(1, sides + 1))
    # For d6, d10 and d100 the 0.999 quantile is lower or higher; a loose bound per size holds.
    limit = {6: 20.5, 10: 27.9, 20: CHI_SQUARE_19, 100: 148.2}[sides]
    assert set(counts) == set(range(1, sides + 1))
    assert chi_square < limit


def test_the_same_seed_throws_the_same_faces() -> None:
    assert Dice("a game:7").roll(50, 10) == Dice("a game:7").roll(50, 10)
    assert Dice(1).roll(50, 10) != Dice(2).roll(50, 10)


def test_dice_again_throw_the_faces_these_threw_seeded_or_not() -> None:
    for dice in (Dice(), Dice("a game:7")):
        thrown = dice.roll(20, 6) + dice.roll(5, 10)
        again = dice.again()
        assert again.roll(20, 6) + again.roll(5, 10) == thrown


class _Loaded(Dice):
    """Dice of the public API's own making: every die shows its highest face."""

    def roll(self, count: int, sides: int) -> list[int]:
        return [sides] * count


class _LoadedBare(_Loaded):
    def __init__(self) -> None:  # Dice.__init__ was never needed by a roll() of one's own
        pass


@pytest.mark.parametrize("dice", [_Loaded, _LoadedBare], ids=["overrides roll", "no Dice init"])
def test_a_reply_keeps_the_faces_of_any_dice_it_is_given(dice: type[Dice]) -> None:
    """A reply keeps what its dice threw whatever dice they are: the run records the faces
    around them, so a `Dice` subclass's own `roll` is recorded too (issue #29)."""
    check = 'I try. [skill_check: skill="Prowl" dc="1"] [success: Open.] [failure: Jams.]'
    turn = process(starting_game(), check, dice())
    assert turn.narration == "I try. Open."
    assert turn.thrown and {face for throw in turn.thrown for face in throw.faces} == {6}


def pool_game(**rules: object) -> tuple[object, object]:
    data = json.loads((RULESETS / "storyteller.json").read_text("utf-8"))
    for rule in ("explode", "double", "cancel", "botch", "exceptional"):
        data["resolution"].pop(rule, None)  # each test turns on only the rule it measures
    data["resolution"].update(rules)
    game = one(load_ruleset(data), {"abilities": {"dexterity": 5}})
    return game.ruleset, game


def mean_successes(seed: int, **rules: object) -> tuple[float, Counter[str]]:
    ruleset, game = pool_game(**rules)
    dice = Dice(seed)
    character = game.character()  # type: ignore[attr-defined]
    live = game.live_of(character)  # type: ignore[attr-defined]
    total, results, checks = 0, Counter[str](), 4000
    for _ in range(checks):
        record, _ = roll_check(ruleset, character, live, CheckRequest("Dexterity", dc=3), dice)  # type: ignore[arg-type]
        total += record.used  # type: ignore[union-attr]
        results[record.result] += 1  # type: ignore[union-attr]
    return total / checks, results


def test_the_target_counts_the_faces_at_or_above_it() -> None:
    mean, _ = mean_successes(11)
    assert mean == pytest.approx(5 * 5 / 10, rel=0.03)  # five dice, faces 6 to 10 succeed


def test_double_counts_its_faces_twice() -> None:
    mean, _ = mean_successes(12, double={"from": 10})
    assert mean == pytest.approx(5 * 6 / 10, rel=0.03)  # a 10 is worth two


def test_explode_throws_again_on_its_faces() -> None:
    mean, _ = mean_successes(13, explode={"from": 10})
    # Each die: 0.5 successes, plus a tenth of a chance of another die, and so on: 0.5 / 0.9.
    assert mean == pytest.approx(5 * 0.5 / 0.9, rel=0.03)


def test_cancel_takes_a_success_off_for_each_of_its_faces() -> None:
    mean, _ = mean_successes(14, cancel={"upTo": 1})
    # Each die: 0.5 successes, minus 0.1 cancelled, never below 0 in total.
    assert mean == pytest.approx(5 * 0.4, rel=0.05)


def test_botch_on_no_successes_with_a_one_among_the_dice() -> None:
    _, results = mean_successes(15, botch={"upTo": 1, "rule": "noSuccesses"})
    # P(no die of five at 6+) = 0.5**5; P(none of them a 1 given all are 1-5) = 0.8**5.
    expected = 0.5**5 * (1 - 0.8**5)
    assert results["critical_failure"] / 4000 == pytest.approx(expected, abs=0.008)
