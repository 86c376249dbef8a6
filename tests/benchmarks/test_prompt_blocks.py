"""All the blocks the model reads (system section and reminder with four sheet blocks) for a
four-character party on the largest legal ruleset (target: under 5 ms), beside a baseline measured
in the same run: joining the same number of lines the blocks hold, the least any writer costs.

Run with `python -m pytest tests/benchmarks --benchmark-only`. Each round works on a snapshot read
afresh from its document (outside the timing), so no character's permanent values are cached from
the round before: every value of four 800-derived sheets is worked out inside the timing.
"""

from __future__ import annotations

from typing import Any

import pytest

from gm_tags import Game, load_ruleset
from tests.benchmarks.largest import largest_ruleset


@pytest.fixture(scope="module")
def document() -> tuple[Any, dict[str, Any]]:
    ruleset = load_ruleset(largest_ruleset())
    rows = [{"name": f"Row {r}", **{f"c{i}": (r + i) % 10 for i in range(23)}} for r in range(20)]
    build = {"lists": {f"table_{n}": rows for n in range(19)}}
    names = ("Mira", "Tobin", "灯里", "अर्जुन")
    game = Game.new(ruleset, dict.fromkeys(names, build))
    hurt = "".join(
        f'[sheet: who="{name}" op="state" state="state_{n}" value="v{n}"]'
        for name in names
        for n in range(6)
    )
    return ruleset, game.apply_reply(hurt).game.to_document()


def test_baseline_joining_as_many_lines(
    benchmark: Any, document: tuple[Any, dict[str, Any]]
) -> None:
    ruleset, stored = document
    game = Game.from_document(ruleset, stored)
    lines = (game.reminder() + game.system_prompt().text).splitlines()
    benchmark(lambda: "\n".join(list(lines)))


def test_all_blocks_for_a_party_of_four(
    benchmark: Any, document: tuple[Any, dict[str, Any]]
) -> None:
    ruleset, stored = document

    def fresh() -> tuple[tuple[Game], dict[str, Any]]:
        return (Game.from_document(ruleset, stored),), {}

    def blocks(game: Game) -> tuple[str, str]:
        return game.system_prompt().text, game.reminder()

    _, reminder = benchmark.pedantic(blocks, setup=fresh, rounds=60, warmup_rounds=2)
    assert reminder.count("\n\n") >= 4 and "<character_sheets>" in reminder
