"""Placing a client's transcript on a stored line (`chats/best.best_walk`) costs the transcript's
length, not its square: per turn, a transcript of sixteen times the turns costs at most 5x as much
(a square would cost 16x; issue #29). Before, a walk was started from every place counted back
from an anchor and walked on from each: 100 turns took 0.46 s here, 1,000 turns 25 s. Each size
is timed in the same run and the per-turn cost compared.

Run with `python -m pytest tests/benchmarks/test_walk.py --benchmark-only -s`.
"""

from __future__ import annotations

import statistics
import time
from typing import Any

from gm_tags.chats.best import best_walk
from gm_tags.chats.transcript import Said
from gm_tags.history import Chat
from tests.benchmarks.test_proxy_costs import played

SMALL, LARGE = 100, 1600
ROUNDS = 5


def shown(chat: Chat) -> tuple[list[Said], list[tuple[str, int, int]]]:
    """The whole transcript as a client shows it, with a new line, and the anchors the store's
    index finds for it (its latest six replies, at their places in the line)."""
    said = [
        Said("user", m.swipe.text) if m.role == "user" else Said("assistant", m.swipe.narration)
        for m in chat.messages
    ]
    said.append(Said("user", "And now?"))
    replies = [at for at, one in enumerate(said) if one.role == "assistant"]
    return said, [("line", at, at) for at in replies[-6:]]


def per_turn(turns: int) -> float:
    chat = played(turns, str(turns))
    said, anchors = shown(chat)
    times = []
    for _ in range(ROUNDS):
        began = time.perf_counter()
        found = best_walk([("line", chat)], said, anchors)
        times.append(time.perf_counter() - began)
        assert found is not None and found.matched == 2 * turns  # the whole line, once
    return statistics.median(times) / turns


def test_a_transcript_is_placed_at_a_cost_that_grows_with_its_length(benchmark: Any) -> None:
    figures: dict[str, float] = {}
    benchmark.pedantic(
        lambda: figures.update(small=per_turn(SMALL), large=per_turn(LARGE)), rounds=1
    )
    ratio = figures["large"] / figures["small"]
    benchmark.extra_info.update(ratio=ratio)
    print(
        f"\nper turn: {SMALL} turns {figures['small'] * 1e6:.1f} us, {LARGE} turns "
        f"{figures['large'] * 1e6:.1f} us: {ratio:.2f}x (a square would be {LARGE / SMALL:.0f}x)"
    )
    assert ratio < 5  # a square: 16x
