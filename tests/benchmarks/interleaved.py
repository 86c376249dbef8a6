"""Ratios of medians measured interleaved: each round times every workload once, in turn, so a
machine whose speed drifts (a shared virtual machine) slows all of them alike. pytest-benchmark
runs one workload's rounds after another's, so on such a machine its ratios wander; run this
beside it:

    python -m tests.benchmarks.interleaved --rounds 300

It prints each workload's median and its ratio to the plain Lark parse of the same tags.
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections.abc import Callable

import pytest

import gm_tags.parse
from gm_tags import Game, load_ruleset
from tests.benchmarks.test_damage_amounts import REPLIES as WOUND_REPLIES
from tests.benchmarks.test_grammar import HEAVY, PLAIN, TAGS, naive_read_tags
from tests.benchmarks.test_pipeline import CLOCKS, REPLIES
from tests.conftest import FIXTURES
from tests.fuzzing import fixture_game


def workloads() -> dict[str, Callable[[], object]]:
    ruleset = load_ruleset(FIXTURES / "rulesets" / "crew-of-shadows.json")
    made = "".join(f'[clock: name="{name}" size="8"]' for name in CLOCKS)
    game = Game.new(ruleset).apply_reply(made).game
    wounds = fixture_game("crew-of-shadows.json", "crew-mid-heist.json")

    def naive() -> object:
        with pytest.MonkeyPatch.context() as patch:
            patch.setattr(gm_tags.parse, "read_tags", naive_read_tags)
            return game.apply_reply(HEAVY)

    return {
        "plain-lark-parse-40-tags": lambda: [PLAIN.parse(tag) for tag in TAGS],
        "pipeline-heavy-4KB": lambda: game.apply_reply(HEAVY),
        "pipeline-naive-parse": naive,
        "pipeline-64KB-400-tags": lambda: game.apply_reply(REPLIES["64KB-400-tags-stray-brackets"]),
        "wounds-ordinary-amounts": lambda: wounds.apply_reply(WOUND_REPLIES["ordinary-amounts"]),
        "wounds-largest-amounts": lambda: wounds.apply_reply(WOUND_REPLIES["largest-amounts"]),
    }


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rounds", type=int, default=200)
    rounds = parser.parse_args(argv).rounds
    work = workloads()
    times: dict[str, list[float]] = {name: [] for name in work}
    for _ in range(rounds):
        for name, run in work.items():
            started = time.perf_counter()
            run()
            times[name].append(time.perf_counter() - started)
    base = statistics.median(times["plain-lark-parse-40-tags"])
    for name, measured in times.items():
        median = statistics.median(measured)
        print(f"{name:28} {median * 1e6:10.0f} us  {median / base:5.2f}x the plain parse")


if __name__ == "__main__":
    main()
