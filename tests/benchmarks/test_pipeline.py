"""The whole reply pipeline (scan, Lark parse, bind, execute, rewrite, narrate) beside a baseline
measured in the same run: one compiled regex that finds the same tags, splits their attributes and
appends ` result="ok"`. Report the ratio of medians, never the raw times alone.

Run with `python -m pytest tests/benchmarks --benchmark-only --benchmark-group-by=param:reply`.
Targets: the heavy reply within 5x of its baseline; the 64 KB replies each under 20x the 4 KB one.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import pytest

from gm_tags import Game, load_ruleset
from tests.conftest import FIXTURES

PROSE = (
    "The lantern gutters and the corridor goes dark; somewhere above, boots stop on the boards "
    "and a voice asks who is there. Mira holds her breath. "
)
CLOCKS = ("Alarm raised", "Vault door", "Bluecoat patrol", "Tide turning")


def tick(at: int) -> str:
    """A different tag each time (up to 97), as in a real reply: several clocks and amounts."""
    return f'[clock: name="{CLOCKS[at % 4]}" tick="{at % 97 + 1}"]'


def prose_with_tags(size: int, tags: int, stray: str = "") -> str:
    """`size` characters: `tags` clock tags spread evenly through prose (with `stray` mixed in)."""
    filler = (PROSE + stray) * (size // len(PROSE + stray) + 1)
    gap = (size - tags * (len(tick(0)) + 2)) // tags
    return " ".join(filler[at * gap : (at + 1) * gap] + tick(at) for at in range(tags)).ljust(size)


REPLIES = {
    "typical-2KB-5-tags": prose_with_tags(2_000, 5),
    "heavy-4KB-40-tags": prose_with_tags(4_000, 40),
    "64KB-400-tags-stray-brackets": prose_with_tags(
        64_000, 400, stray="[sic] [ ] ]] [[OOC] [a](b) [ [ "
    ),
    "64KB-of-[": "[" * 64_000,
    "64KB-of-unclosed-tags": '[clock: name="Alarm raised" tick="1" ' * (64_000 // 38),
}

_TAG = re.compile(r"\[(sheet|clock|skill_check):([^\]]{0,1500})\]", re.IGNORECASE)
_ATTRIBUTE = re.compile(r"""(\w+)\s*=\s*("[^"]*"|'[^']*'|[^\s\]]+)""")


def regex_baseline(reply: str) -> str:
    def receipt(match: re.Match[str]) -> str:
        attributes = _ATTRIBUTE.findall(match.group(2))
        body = " ".join(f"{key}={value}" for key, value in attributes)
        return f'[{match.group(1)}: {body} result="ok"]'

    return _TAG.sub(receipt, reply)


@pytest.fixture(scope="module")
def game() -> Game:
    ruleset = load_ruleset(FIXTURES / "rulesets" / "crew-of-shadows.json")
    made = "".join(f'[clock: name="{name}" size="8"]' for name in CLOCKS)
    return Game.new(ruleset).apply_reply(made).game


@pytest.mark.parametrize("reply", list(REPLIES))
def test_regex_baseline(benchmark: Any, reply: str) -> None:
    benchmark(regex_baseline, REPLIES[reply])


@pytest.mark.parametrize("reply", list(REPLIES))
def test_whole_pipeline(benchmark: Any, game: Game, reply: str) -> None:
    apply: Callable[[str], Any] = game.apply_reply
    turn = benchmark(apply, REPLIES[reply])
    assert turn.reply.count('result="') == len(turn.receipts)
