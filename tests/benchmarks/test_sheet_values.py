"""Working out every value of a sheet with 800 derived values (target: a full recompute under
1 ms), beside a baseline measured in the same run: a plain loop that reads two numbers and adds
them once per derived value, the least any recompute could cost.

Run with `python -m pytest tests/benchmarks --benchmark-only`. A "full recompute" is a character's
permanent values and its live ones from scratch, as for a character seen for the first time; the
"live only" figure is what a turn costs once the permanent values are known.
"""

from __future__ import annotations

from typing import Any

import pytest

from gm_tags import Game, load_ruleset
from gm_tags.sheet.character import SheetView, _compute
from gm_tags.sheet.plan import plan_for
from tests.benchmarks.largest import largest_ruleset


@pytest.fixture(scope="module")
def game() -> Game:
    ruleset = load_ruleset(largest_ruleset())
    rows = [{"name": f"Row {r}", **{f"c{i}": (r + i) % 10 for i in range(23)}} for r in range(20)]
    build = {"lists": {f"table_{n}": rows for n in range(19)}}
    game = Game.new(ruleset, {"Mira": build})
    states = "".join(f'[sheet: op="state" state="state_{n}" value="v{n * 3}"]' for n in range(12))
    return game.apply_reply(states).game


def test_baseline_one_addition_per_derived_value(benchmark: Any) -> None:
    values = list(range(1600))

    def loop() -> list[int]:
        out = [0] * 800
        for i in range(800):
            out[i] = values[i] + values[i + 800]
        return out

    benchmark(loop)


def test_full_recompute_of_800_derived_values(benchmark: Any, game: Game) -> None:
    assert game.ruleset is not None
    plan = plan_for(game.ruleset)
    character = game.character()
    context = character.context(game.live_of(character))

    def full() -> list[Any]:
        return _compute(plan, context, _compute(plan, context, None))

    values = benchmark(full)
    assert len(values) >= 800


def test_live_values_only(benchmark: Any, game: Game) -> None:
    assert game.ruleset is not None
    plan = plan_for(game.ruleset)
    character = game.character()
    live = game.live_of(character)
    view = benchmark(SheetView, plan, character, live)
    assert view[("derived", "d799")] == game.read(None, {"derived": "d799"})
