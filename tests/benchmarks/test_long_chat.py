"""What a long chat costs when it is read from the store, beside a chat of 1 turn, in the same
run on one SQLite store (issue #29):

- the first reply on a chat of 10,000 turns read from the store (target: at most 2x the 1-turn
  chat): two service workers (`create_app` on one store file) take the replies in turn, so each
  reply is one the worker answering it must read the chat again for, as when another worker
  changed it;
- a full garbage collection with the 10,000-turn chat open (`gc.collect()`, beside none open,
  and beside the chat with every message read, as reading back its whole story leaves it);
- the write of one turn (a player's line and a reply) on each: one transaction of its new rows.

The 10,000-turn chat is written straight through the store API (one real turn's rows, repeated:
building it by playing every turn takes minutes here); what is measured is the real path.

Run with `python -m pytest tests/benchmarks/test_long_chat.py --benchmark-only -s`.
"""

from __future__ import annotations

import gc
import statistics
import time
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import Any

from fastapi.testclient import TestClient

from gm_tags.service import create_app
from gm_tags.store import Chats, SqliteStore, StoredChat, StoredMessage
from tests.conftest import FIXTURES, LOOPBACK

RULESET = FIXTURES / "rulesets" / "crew-of-shadows.json"
TURNS = 10_000
ROUNDS = 9
REPLY = 'The patrol passes. [clock: name="Alarm" tick="1"] Mira waits.'


def long_chat(store: SqliteStore, short: str, chat_id: str, turns: int) -> None:
    """A chat of `turns` turns (a player's line and a reply each) made of the rows of `short`'s
    last turn, each player's line its own."""
    chat = store.load(short)
    line, reply = chat.messages[-2:]
    messages: list[StoredMessage] = []
    for at in range(turns):
        said = replace(line, swipes=({**line.swipes[0], "text": f"Turn {at}."},))
        messages += [said, reply]
    store.put(chat_id, StoredChat(chat.ruleset, chat.start, tuple(messages)), replace=False)


def median_ms(times: list[float]) -> float:
    return statistics.median(times) * 1e3


def timed(times: list[float], work: Callable[..., object], *arguments: Any) -> None:
    began = time.perf_counter()
    work(*arguments)
    times.append(time.perf_counter() - began)


def test_a_long_chat_read_from_the_store(benchmark: Any, tmp_path: Path) -> None:
    db = tmp_path / "chats.db"
    workers = [
        TestClient(create_app(db, [RULESET]), base_url=LOOPBACK).__enter__() for _ in range(2)
    ]
    for chat_id in ("short", "long"):
        workers[0].post("/games", json={"chatId": chat_id, "rulesetId": "crew-of-shadows"})
        workers[0].post(
            f"/games/{chat_id}/replies", json={"text": '[clock: name="Alarm" size="8"]'}
        )
        workers[0].post(f"/games/{chat_id}/user", json={"text": "We wait."})
        workers[0].post(f"/games/{chat_id}/replies", json={"text": REPLY})
    store = SqliteStore(db)
    store.delete("long")
    long_chat(store, "short", "long", TURNS)
    first: dict[str, list[float]] = {"short": [], "long": []}
    write: dict[str, list[float]] = {"short": [], "long": []}
    collect: dict[str, list[float]] = {"none": [], "open": [], "read": []}

    def reply(worker: TestClient, chat_id: str) -> None:
        answer = worker.post(f"/games/{chat_id}/replies", json={"text": REPLY})
        assert answer.status_code == 200, answer.text

    def turn(chats: Chats, chat_id: str) -> None:
        before, revision = chats.open_at(chat_id)
        after, _ = before.user("And now?").reply(REPLY, seed=1)
        timed(write[chat_id], chats.save, chat_id, before, after, revision)

    chats = Chats(store)  # one for the garbage collections: the ruleset is read in both

    def rounds() -> None:
        for number in range(ROUNDS):
            # The other worker wrote each chat last: this one reads it again from the store.
            worker = workers[number % 2]
            for chat_id in ("short", "long"):
                timed(first[chat_id], reply, worker, chat_id)
                turn(Chats(store), chat_id)
            held = chats.open("long")
            timed(collect["open"], gc.collect)
            del held
            timed(collect["none"], gc.collect)
            if number < 3:  # every message read: a page at a time, kept with the chat
                whole = chats.open("long")
                assert len([m.swipe.narration for m in whole.messages]) > 2 * TURNS
                timed(collect["read"], gc.collect)
                del whole

    benchmark.pedantic(rounds, rounds=1, iterations=1)
    for worker in workers:
        worker.__exit__(None, None, None)
    store.close()
    figures = {
        "first_reply_short_ms": median_ms(first["short"]),
        "first_reply_long_ms": median_ms(first["long"]),
        "turn_write_short_ms": median_ms(write["short"]),
        "turn_write_long_ms": median_ms(write["long"]),
        **{f"gc_{name}_ms": median_ms(times) for name, times in collect.items()},
    }
    benchmark.extra_info.update(figures)
    ratio = figures["first_reply_long_ms"] / figures["first_reply_short_ms"]
    print(
        f"\nfirst reply read from the store: 1 turn {figures['first_reply_short_ms']:.1f} ms, "
        f"{TURNS:,} turns {figures['first_reply_long_ms']:.1f} ms: {ratio:.2f}x (target: at most "
        f"2x)\nturn write: 1 turn {figures['turn_write_short_ms']:.2f} ms, {TURNS:,} turns "
        f"{figures['turn_write_long_ms']:.2f} ms\ngc.collect(): none open "
        f"{figures['gc_none_ms']:.1f} ms, the {TURNS:,}-turn chat open {figures['gc_open_ms']:.1f} "
        f"ms, with every message read {figures['gc_read_ms']:.1f} ms"
    )
