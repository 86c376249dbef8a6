"""What a wound command costs does not follow its amount: the heavy reply (4 KB, 40 tags) of
damage and healing at the largest amount a command takes (100000, and `who="party"`) beside the
same reply with ordinary amounts, in the same run. Target: at most twice the ordinary reply.

Run with `python -m pytest tests/benchmarks/test_damage_amounts.py --benchmark-only`.
"""

from __future__ import annotations

from typing import Any

import pytest

from gm_tags import Game
from gm_tags.commands.sheet import AMOUNT_LIMIT
from tests.benchmarks.test_pipeline import PROSE
from tests.fuzzing import fixture_game


def wound_reply(amount: int) -> str:
    """40 wound tags in 4 KB of prose: marks and heals on each character and the whole party."""
    tags = []
    for at in range(40):
        who = ("Mira", "Tobin Vell", "party")[at % 3]
        sign = -1 if at % 4 == 3 else 1
        tags.append(
            f'[sheet: who="{who}" op="damage" track="Harm" kind="lesser" amount="{sign * amount}"]'
        )
    gap = (4_000 - sum(len(tag) + 1 for tag in tags)) // len(tags)
    filler = PROSE * (4_000 // len(PROSE) + 1)
    return " ".join(filler[at * gap : (at + 1) * gap] + tag for at, tag in enumerate(tags))


REPLIES = {"ordinary-amounts": wound_reply(2), "largest-amounts": wound_reply(AMOUNT_LIMIT)}


@pytest.fixture(scope="module")
def game() -> Game:
    return fixture_game("crew-of-shadows.json", "crew-mid-heist.json")


@pytest.mark.parametrize("reply", list(REPLIES))
def test_wound_reply(benchmark: Any, game: Game, reply: str) -> None:
    turn = benchmark(game.apply_reply, REPLIES[reply])
    assert all(receipt.ok for receipt in turn.receipts)
