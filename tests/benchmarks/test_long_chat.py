"""What the first reply on a chat costs when it is read from the store (a worker's cache miss,
or another worker changed it): a chat of 10,000 turns beside a chat of 1, measured interleaved in
the same run on one SQLite store. Each round opens the chat afresh (a new `Chats`, nothing
cached), applies a reply to the snapshot it plays from and writes the step. Target (issue #29):
at most 2x.

Run with `python -m pytest tests/benchmarks/test_long_chat.py --benchmark-only -s`.
"""

from __future__ import annotations

import statistics
import time
from pathlib import Path
from typing import Any

from gm_tags import Game, load_ruleset
from gm_tags.history import Chat
from gm_tags.store import Chats, SqliteStore
from tests.conftest import FIXTURES

RULESET = FIXTURES / "rulesets" / "crew-of-shadows.json"
TURNS = 10_000
ROUNDS = 7
REPLY = 'The patrol passes. [clock: name="Alarm" tick="1"] Mira waits.'


def long_chat(turns: int) -> Chat:
    """A chat of `turns` turns: a player's line and a reply that ticks a clock, each time."""
    game = Game.new(load_ruleset(RULESET)).apply_reply('[clock: name="Alarm" size="8"]').game
    chat = Chat(game)
    for at in range(turns):
        chat = chat.user(f"Turn {at}.")
        chat, _ = chat.reply('The night goes on. [clock: name="Alarm" tick="1"]', seed=at)
    return chat


def first_reply(store: SqliteStore, chat_id: str) -> None:
    chats = Chats(store)
    before, revision = chats.open_at(chat_id)
    after, _ = before.user("And now?").reply(REPLY, seed=1)
    chats.save(chat_id, before, after, revision)


def test_first_reply_on_a_long_chat_read_from_the_store(benchmark: Any, tmp_path: Path) -> None:
    store = SqliteStore(tmp_path / "chats.db")
    source = {"path": str(RULESET)}
    Chats(store).put("short", source, long_chat(1), replace=False)
    Chats(store).put("long", source, long_chat(TURNS), replace=False)
    times: dict[str, list[float]] = {"short": [], "long": []}

    def rounds() -> None:
        for _ in range(ROUNDS):
            for chat_id, measured in times.items():
                began = time.perf_counter()
                first_reply(store, chat_id)
                measured.append(time.perf_counter() - began)

    benchmark.pedantic(rounds, rounds=1, iterations=1)
    short, long = (statistics.median(times[name]) for name in ("short", "long"))
    benchmark.extra_info.update(short_ms=short * 1e3, long_ms=long * 1e3, ratio=long / short)
    print(
        f"\nfirst reply read from the store: 1 turn {short * 1e3:.1f} ms, {TURNS:,} turns "
        f"{long * 1e3:.1f} ms: {long / short:.1f}x (target: at most 2x)"
    )
    store.close()
