"""What the proxy's own work on a request grows with (issue #29), measured in the same run with
the proxy's app in this process and a scripted upstream that answers at once (so the upstream's
time is left out), each request a short non-streamed reply:

- the next reply on a long transcript beside a 1-turn one, and what the long one adds beside a
  plain `json.loads` and `json.dumps` of its request body (the floor of any hop that reads and
  rewrites the request; target, at 10,000 turns: at most 2x). Measured at 100, 200 and 400
  turns; the doubling of the added cost from one size to the next is reported. (The walk that
  places a transcript on a line, `chats/walk.py`, once walked on from every place counted back from
  an anchor, a cost that grew with the square of the turns; it walks each place once now:
  tests/benchmarks/test_walk.py.)
- a chat on a store that holds 10,000 other chats beside one on a store that holds none (target:
  at most 1.1x).

Run with `python -m pytest tests/benchmarks/test_proxy_costs.py --benchmark-only -s`.
"""

from __future__ import annotations

import functools
import itertools
import json
import statistics
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient

from gm_tags import Game, load_ruleset
from gm_tags.chats.transcript import Said, chat_key
from gm_tags.history import Chat
from gm_tags.proxy.hop import Hop
from tests.proxy.conftest import RULESET
from tests.proxy.inprocess import proxy_app_for

SIZES = (100, 200, 400)
OTHERS = 10_000
ROUNDS = 5
REPLY = 'The patrol passes. [clock: name="Alarm" tick="1"] Mira waits.'


def played(turns: int, table: str) -> Chat:
    """A chat of `turns` turns at `table`: a player's line and a reply that ticks a clock, each
    told apart from the others (as a story's are)."""
    chat = Chat(starting_game())
    for at in range(turns):
        chat = chat.user(f"{table}, turn {at}: we wait.")
        chat, _ = chat.reply(f'{table}: hour {at} passes. [clock: name="Alarm" tick="1"]', seed=at)
    return chat


@functools.cache
def starting_game() -> Game:
    return Game.new(load_ruleset(RULESET)).apply_reply('[clock: name="Alarm" size="8"]').game


def transcript(chat: Chat) -> list[dict[str, str]]:
    """The messages a front-end shows for `chat`: each player's line and each reply's
    narration, as the proxy gave them out."""
    return [
        {"role": "user", "content": message.swipe.text}
        if message.role == "user"
        else {"role": "assistant", "content": message.swipe.narration}
        for message in chat.messages
    ]


def hop(client: TestClient) -> Hop:
    found: Hop = client.app.state.hop  # type: ignore[attr-defined]
    return found


def seeded(client: TestClient, chat: Chat) -> list[dict[str, str]]:
    """`chat` stored as the line the proxy finds for its transcript; that transcript."""
    shown = transcript(chat)
    key = chat_key(None, [Said("user", shown[0]["content"])])
    hop(client).chats.chats.put(key, {"path": "seeded"}, chat)
    return shown


def asked(client: TestClient, messages: list[dict[str, str]]) -> Callable[[], None]:
    """One request: the transcript and a new player's line; the reply is kept in the
    transcript, so the next request goes on from it, as a front-end's would."""

    def ask() -> None:
        line = {"role": "user", "content": "And now?"}
        body = {"model": "m", "messages": [*messages, line]}
        answer = client.post("/v1/chat/completions", json=body)
        assert answer.status_code == 200, answer.text
        messages.append(line)
        messages.append(answer.json()["choices"][0]["message"])

    return ask


def reread(body: bytes) -> str:
    return json.dumps(json.loads(body))


def timed(work: Callable[[], object]) -> float:
    began = time.perf_counter()
    work()
    return time.perf_counter() - began


def medians(work: dict[str, Callable[[], object]]) -> dict[str, float]:
    """Each workload's median seconds, timed in turn, round after round."""
    times: dict[str, list[float]] = {name: [] for name in work}
    for _ in range(ROUNDS):
        for name, run in work.items():
            times[name].append(timed(run))
    return {name: statistics.median(measured) for name, measured in times.items()}


def test_a_long_transcript_costs_the_proxy_what_reading_its_json_does(
    benchmark: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    with proxy_app_for(tmp_path / "chats.db", monkeypatch) as (client, upstream):
        upstream.script(*[{"reply": REPLY}] * (ROUNDS * (len(SIZES) + 1) + 1))
        work: dict[str, Callable[[], object]] = {"1": asked(client, seeded(client, played(1, "1")))}
        bodies = {}
        for size in SIZES:
            shown = seeded(client, played(size, str(size)))
            work[str(size)] = asked(client, shown)
            bodies[size] = json.dumps({"model": "m", "messages": shown}).encode()
        for size, body in bodies.items():
            work[f"json {size}"] = functools.partial(reread, body)
        figures: dict[str, float] = {}
        benchmark.pedantic(lambda: figures.update(medians(work)), rounds=1, iterations=1)
    benchmark.extra_info.update({name: value * 1e3 for name, value in figures.items()})
    print(f"\nnext reply on a 1-turn transcript: {figures['1'] * 1e3:.1f} ms")
    added = {size: figures[str(size)] - figures["1"] for size in SIZES}
    for size in SIZES:
        over_json = added[size] / figures[f"json {size}"]
        benchmark.extra_info[f"added_over_json_{size}"] = over_json
        print(
            f"{size:,} turns: {figures[str(size)] * 1e3:.1f} ms, adds {added[size] * 1e3:.1f} ms, "
            f"{over_json:.0f}x a json.loads and json.dumps of its body "
            f"({figures[f'json {size}'] * 1e3:.2f} ms; target at 10,000 turns: at most 2x)"
        )
    for smaller, larger in itertools.pairwise(SIZES):
        print(f"{smaller} -> {larger} turns: the added cost {added[larger] / added[smaller]:.1f}x")
    assert all(value > 0 for value in figures.values())


def test_other_chats_cost_a_request_nothing(
    benchmark: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    with (
        proxy_app_for(tmp_path / "alone.db", monkeypatch) as (alone, alone_upstream),
        proxy_app_for(tmp_path / "crowded.db", monkeypatch) as (crowded, crowded_upstream),
    ):
        for upstream in (alone_upstream, crowded_upstream):
            upstream.script(*[{"reply": REPLY}] * (ROUNDS + 1))
        chats = hop(crowded).chats.chats
        for number in range(OTHERS):
            chats.put(f"other-{number}", {"path": "seeded"}, played(1, f"Table {number}"))
        mine = [seeded(alone, played(1, "Mine")), seeded(crowded, played(1, "Mine"))]
        figures: dict[str, float] = {}

        def run() -> None:
            figures.update(
                medians({"none": asked(alone, mine[0]), "others": asked(crowded, mine[1])})
            )

        benchmark.pedantic(run, rounds=1, iterations=1)
    ratio = figures["others"] / figures["none"]
    benchmark.extra_info.update({name: value * 1e3 for name, value in figures.items()})
    benchmark.extra_info["ratio"] = ratio
    print(
        f"\na reply on a store of no other chats {figures['none'] * 1e3:.1f} ms, of {OTHERS:,} "
        f"others {figures['others'] * 1e3:.1f} ms: {ratio:.2f}x (target: at most 1.1x)"
    )
    assert ratio > 0
