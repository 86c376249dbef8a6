"""What a command costs in a party of 500 beside a party of 2, measured interleaved in the same
run: a reply of 40 sheet tags (pools, tracks, named and unnamed, the party), a reply of 40 clock
ticks, a reply of 40 sheet tags naming no one (each refusal names the cards it knows), and one
character's `sheet_block`. Every name lookup is an index built once per snapshot,
so the targets (issue #29) are at most 1.2x.

Run with `python -m pytest tests/benchmarks/test_party_size.py --benchmark-only -s`.
"""

from __future__ import annotations

import copy
import json
import statistics
import time
from collections.abc import Callable
from typing import Any

from gm_tags import Game, load_ruleset
from gm_tags.reasons import Reason
from tests.conftest import FIXTURES

ROUNDS = 30
SHEET_TAGS = (
    '[sheet: op="damage" track="strain" kind="stress" amount="1"]',
    '[sheet: who="Kestrel" op="damage" track="strain" kind="stress" amount="1"]',
    '[sheet: who="Vox" op="restore" pool="edge" amount="1"]',
    '[sheet: who="Kestrel" op="restore" pool="edge" amount="1"]',
    '[sheet: op="damage" track="strain" amount="-1"]',
)
SHEET_REPLY = " The job goes on. ".join(SHEET_TAGS[at % 5] for at in range(40))
REFUSED_REPLY = " No one answers. ".join(
    f'[sheet: who="Nobody {at}" op="restore" pool="edge" amount="1"]' for at in range(40)
)
CLOCK_REPLY = " Time passes. ".join(f'[clock: name="Heat" tick="{at % 3 + 1}"]' for at in range(40))


def party(size: int) -> Game:
    """The strain-runners game with `size` characters: its own two and copies of Kestrel."""
    ruleset = load_ruleset(FIXTURES / "rulesets" / "strain-runners.json")
    document = json.loads((FIXTURES / "games" / "strain-runners.json").read_text("utf-8"))
    cards = document["gameCharacterCards"]
    for at in range(size - len(cards)):
        extra = copy.deepcopy(cards[1])
        extra["name"] = f"Runner {at:03} of the crew"
        cards.append(extra)
    game = Game.from_document(ruleset, document)
    return game.apply_reply('[clock: name="Heat" size="8"]').game


def test_a_command_costs_the_same_in_a_party_of_2_and_of_500(benchmark: Any) -> None:
    small, large = party(2), party(500)
    work: dict[str, Callable[[], object]] = {}
    for label, game in (("2", small), ("500", large)):
        work[f"sheet reply, {label}"] = lambda game=game: game.apply_reply(SHEET_REPLY, seed=1)
        work[f"clock reply, {label}"] = lambda game=game: game.apply_reply(CLOCK_REPLY, seed=1)
        work[f"refused who, {label}"] = lambda game=game: game.apply_reply(REFUSED_REPLY, seed=1)
        work[f"sheet_block, {label}"] = lambda game=game: game.sheet_block("Kestrel")
    times: dict[str, list[float]] = {name: [] for name in work}

    def rounds() -> None:
        for _ in range(ROUNDS):
            for name, run in work.items():
                began = time.perf_counter()
                run()
                times[name].append(time.perf_counter() - began)

    benchmark.pedantic(rounds, rounds=1, iterations=1)
    median = {name: statistics.median(measured) for name, measured in times.items()}
    print()
    for what in ("sheet reply", "clock reply", "refused who", "sheet_block"):
        ratio = median[f"{what}, 500"] / median[f"{what}, 2"]
        benchmark.extra_info[what] = ratio
        print(
            f"{what:12} 2: {median[f'{what}, 2'] * 1e3:7.3f} ms   500: "
            f"{median[f'{what}, 500'] * 1e3:7.3f} ms   {ratio:5.2f}x (target: at most 1.2x)"
        )
    for game in (small, large):  # every tag found its character, in either party
        reasons = {receipt.reason for receipt in game.apply_reply(SHEET_REPLY, seed=1).receipts}
        assert not reasons & {Reason.UNKNOWN_CHARACTER, Reason.AMBIGUOUS_CHARACTER}, reasons
