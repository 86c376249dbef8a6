"""What streaming a reply costs beside applying it whole (`apply_reply`), measured interleaved in
the same run (each round times every workload once, in turn, so a machine whose speed drifts slows
them alike): the heavy reply (4 KB, 40 tags) in 4- and 1-character chunks, the 64 KB reply (400
tags, stray brackets) in 4-character chunks, and what that stream's chunks in the last eighth of
the text cost beside those in the first (a stream whose work grows with the text so far shows it
there). Reported: medians and their ratios beside issue #29's targets. The same work is also
counted in Python opcodes run, which no load on a shared machine changes.

Run with `python -m pytest tests/benchmarks/test_stream.py --benchmark-only -s`.
"""

from __future__ import annotations

import statistics
import sys
import time
from collections.abc import Callable
from typing import Any

from gm_tags import Game, load_ruleset
from tests.benchmarks.test_pipeline import CLOCKS, REPLIES
from tests.conftest import FIXTURES

HEAVY = REPLIES["heavy-4KB-40-tags"]
LARGE = REPLIES["64KB-400-tags-stray-brackets"]
ROUNDS = 15


def clock_game() -> Game:
    ruleset = load_ruleset(FIXTURES / "rulesets" / "crew-of-shadows.json")
    made = "".join(f'[clock: name="{name}" size="8"]' for name in CLOCKS)
    return Game.new(ruleset).apply_reply(made).game


def streamed(game: Game, text: str, size: int) -> list[float]:
    """Stream `text` in chunks of `size`; the seconds each eighth of the chunks' `feed`s took
    (timed a block at a time: a clock read around every chunk would cost about as much as the
    chunk), and last the `finish`."""
    chunks = [text[at : at + size] for at in range(0, len(text), size)]
    eighth = -(-len(chunks) // 8)
    stream = game.stream(seed=1)
    feed = stream.feed
    costs = []
    clock = time.perf_counter
    for block in range(0, len(chunks), eighth):
        fed = chunks[block : block + eighth]
        began = clock()
        for chunk in fed:
            feed(chunk)
        costs.append(clock() - began)
    began = clock()
    stream.finish()
    costs.append(clock() - began)
    return costs


def timed(work: Callable[[], object]) -> float:
    began = time.perf_counter()
    work()
    return time.perf_counter() - began


def test_streaming_costs_what_applying_whole_does(benchmark: Any) -> None:
    game = clock_game()
    times: dict[str, list[float]] = {
        name: [] for name in ("heavy", "heavy-4", "heavy-1", "large", "large-4", "first", "last")
    }

    def rounds() -> None:
        for _ in range(ROUNDS):
            times["heavy"].append(timed(lambda: game.apply_reply(HEAVY, seed=1)))
            times["heavy-4"].append(sum(streamed(game, HEAVY, 4)))
            times["heavy-1"].append(sum(streamed(game, HEAVY, 1)))
            times["large"].append(timed(lambda: game.apply_reply(LARGE, seed=1)))
            eighths = streamed(game, LARGE, 4)
            times["large-4"].append(sum(eighths))
            times["first"].append(eighths[0])
            times["last"].append(eighths[7])

    benchmark.pedantic(rounds, rounds=1, iterations=1)
    median = {name: statistics.median(measured) for name, measured in times.items()}
    ratios = {
        "heavy 4-char / batch": (median["heavy-4"] / median["heavy"], 2.0),
        "heavy 1-char / batch": (median["heavy-1"] / median["heavy"], 4.0),
        "64KB 4-char / batch": (median["large-4"] / median["large"], 2.0),
        "64KB last eighth / first eighth": (median["last"] / median["first"], 1.5),
    }
    benchmark.extra_info.update({name: value * 1e3 for name, value in median.items()})
    benchmark.extra_info.update({name: ratio for name, (ratio, _) in ratios.items()})
    print()
    for name, value in median.items():
        print(f"{name:8} {value * 1e3:9.2f} ms")
    for name, (ratio, target) in ratios.items():
        print(f"{name:32} {ratio:5.2f}x (target: at most {target}x)")
    # What must hold on any machine: the cost of a chunk does not grow with the text before it.
    assert ratios["64KB last eighth / first eighth"][0] < 3, ratios


def opcodes(work: Callable[[], object]) -> int:
    """How many Python opcodes `work` runs outside this module: a count of the stream's work
    that is the same on any machine, however loaded (time is not, on a shared one)."""
    count = 0
    here = __file__

    def trace(frame: Any, event: str, _: object) -> Any:
        nonlocal count
        if event == "call":
            frame.f_trace_opcodes, frame.f_trace_lines = True, False
        elif event == "opcode" and frame.f_code.co_filename != here:
            count += 1
        return trace

    sys.settrace(trace)
    try:
        work()
    finally:
        sys.settrace(None)
    return count


def fed(game: Game, text: str, size: int, chunks: slice = slice(None)) -> Callable[[], object]:
    """Stream `text` in chunks of `size` to the end; only the `chunks` counted."""
    cut = [text[at : at + size] for at in range(0, len(text), size)]
    stream = game.stream(seed=1)
    for chunk in cut[: chunks.start or 0]:
        stream.feed(chunk)

    def counted() -> None:
        for chunk in cut[chunks]:
            stream.feed(chunk)
        if chunks.stop is None:
            stream.finish()

    return counted


def test_streaming_work_counted_in_opcodes(benchmark: Any) -> None:
    game = clock_game()
    counts: dict[str, int] = {}

    def count() -> None:
        counts["heavy"] = opcodes(lambda: game.apply_reply(HEAVY, seed=1))
        counts["heavy-4"] = opcodes(fed(game, HEAVY, 4))
        counts["heavy-1"] = opcodes(fed(game, HEAVY, 1))
        counts["large"] = opcodes(lambda: game.apply_reply(LARGE, seed=1))
        counts["large-4"] = opcodes(fed(game, LARGE, 4))
        eighth = len(LARGE) // 4 // 8
        counts["first"] = opcodes(fed(game, LARGE, 4, slice(0, eighth)))
        counts["last"] = opcodes(fed(game, LARGE, 4, slice(7 * eighth, 8 * eighth)))

    benchmark.pedantic(count, rounds=1, iterations=1)
    ratios = {
        "heavy 4-char / batch": counts["heavy-4"] / counts["heavy"],
        "heavy 1-char / batch": counts["heavy-1"] / counts["heavy"],
        "64KB 4-char / batch": counts["large-4"] / counts["large"],
        "64KB last eighth / first eighth": counts["last"] / counts["first"],
    }
    benchmark.extra_info.update(counts)
    benchmark.extra_info.update(ratios)
    print()
    for name, value in counts.items():
        print(f"{name:8} {value:>12,} opcodes")
    for name, ratio in ratios.items():
        print(f"{name:32} {ratio:5.2f}x")
    # Counted, not timed: a chunk's work does not grow with the text before it, on any machine.
    assert ratios["64KB last eighth / first eighth"] < 1.5, ratios
