"""`use=` on a check: an entry the character has changes that check and is paid for whole, or
nothing happens (the Engine's `game-ruleset-check-entries` block, on Gravewatch's charms)."""

from __future__ import annotations

import json

import pytest

from gm_tags import Game, load_ruleset
from gm_tags.checks.record import CheckRecord, CheckRequest
from gm_tags.sheet.live import LiveState
from tests.checks.conftest import rolled_and_paid
from tests.conftest import FIXTURES

GRAVEWATCH = FIXTURES / "rulesets" / "reference" / "gravewatch.json"
CHARMS = [
    {"name": "Steady Hand", "_catalog": "charms/steady-hand"},
    {"name": "Sight", "_catalog": "charms/grave-sight"},
]


def warden(charms: list[dict[str, str]] = CHARMS, data: dict[str, object] | None = None) -> Game:
    """Wren (Ward 2 dice, Resolve 4/4) with the charms she picked."""
    ruleset = load_ruleset(data if data is not None else GRAVEWATCH)
    return Game.new(ruleset, {"Wren": {"lists": {"charms": charms}}}, player="Wren")


def check(game: Game, request: CheckRequest, faces: list[int]) -> tuple[CheckRecord, LiveState]:
    return rolled_and_paid(game, request, faces)


def resolve_left(game: Game, live: LiveState) -> int:
    return live.pools["resolve"].value if "resolve" in live.pools else 4


@pytest.mark.spec("EN-1")
def test_steady_hand_on_a_check_rethrows_the_ones_hands_over_a_success_and_says_so() -> None:
    """game-ruleset-check-entries: "Through the resolver: the entry is found, paid for, and
    applied" (the re-throw scripted as in its roller block)."""
    game = warden()
    record, live = check(game, CheckRequest("Ward", dc=1, use="Steady Hand"), [1, 9, 8])
    assert (record.rolls, record.rerolled, record.auto, record.total) == ((8, 9), 1, 1, 3)
    assert (record.use, record.spend, resolve_left(game, live)) == ("Steady Hand", "resolve:1", 3)
    assert 'spend="resolve:1" auto="1" use="Steady Hand" rerolled="1"' in record.tag
    assert "Steady Hand was used on it." in record.summary


def test_the_tag_names_the_charm_by_its_row_in_any_case_and_the_models_numbers_are_dropped() -> (
    None
):
    game = warden()
    turn = game.apply_reply(
        '[skill_check: skill="Ward" dc="1" use="steady hand" rolls="9|9|9" total="3" '
        'result="success"]'
    )
    tag = turn.receipts[0].tag
    assert 'use="Steady Hand"' in tag and 'spend="resolve:1"' in tag
    assert 'rolls="9|9|9"' not in tag
    assert turn.game.live_of(turn.game.character()).pools["resolve"].value == 3


def test_per_cost_step_scales_the_use_and_its_cost_and_spend_is_not_paid_twice() -> None:
    """game-ruleset-check-entries: "perCostStep is what makes it scale, and the cost scales"."""
    game = warden()
    record, live = check(
        game, CheckRequest("Ward", dc=1, use="Steady Hand", spend="resolve:2"), [9, 9]
    )
    assert (record.spend, record.auto, resolve_left(game, live)) == ("resolve:2", 2, 2)


def test_an_entry_without_per_cost_step_is_bought_once_whatever_is_offered() -> None:
    data = json.loads(GRAVEWATCH.read_text("utf-8"))
    del data["catalogs"][0]["entries"][0]["mechanics"]["perCostStep"]
    game = warden(data=data)
    record, live = check(
        game, CheckRequest("Ward", dc=1, use="Steady Hand", spend="resolve:2"), [9, 9]
    )
    assert (record.spend, record.auto, resolve_left(game, live)) == ("resolve:1", 1, 3)


def test_grave_sight_moves_the_explode_face_for_that_check() -> None:
    game = warden()
    record, _ = check(game, CheckRequest("Ward", dc=1, use="Sight"), [8, 2, 3])
    assert (record.explode, record.rolls, record.use) == (8, (8, 2, 3), "Grave Sight")


@pytest.mark.parametrize(
    ("charms", "resolve", "use"),
    [
        (CHARMS, 0, "Steady Hand"),  # a pool that cannot cover it
        ([], 4, "Steady Hand"),  # a warden who never picked it
        (CHARMS, 4, "Nonsense"),  # a name nothing answers to
    ],
    ids=["resolve-short", "not-picked", "unknown-name"],
)
def test_all_or_nothing_a_use_that_cannot_happen_changes_nothing(
    charms: list[dict[str, str]], resolve: int, use: str
) -> None:
    game = warden(charms)
    if resolve < 4:
        game = game.apply_reply(f'[sheet: op="spend" pool="resolve" amount="{4 - resolve}"]').game
    record, live = check(game, CheckRequest("Ward", dc=1, use=use), [1, 9])
    assert (record.use, record.spend, record.auto, record.rerolled) == (None, None, None, None)
    assert record.rolls == (1, 9), "the dice are the ones they would have been"
    assert live == game.live_of(game.character())
