"""What the proxy adds to the wait of a streaming client, measured in the same run: the heavy reply
(4 KB, 40 tags) streamed in 4-character chunks by the test model server on loopback, read with
the official `openai` client straight from that server, through a bare pass-through hop (the
floor of any Python hop: `tests.benchmarks.passthrough`) and through a real `gm-tags proxy`
process, in turn, round after round. The test server sends the whole reply at once (the hop
relays it as the client waits for its first token); the paced runs have it send its chunks
`PACE` apart, as a model writes them.

Each round of the first two opens a new chat (a request of one message: the proxy's cheapest
plan); the later-turn run plays chats of `TURNS` turns, each request the whole transcript and
a new player's line, each reply a text of its own (the proxy finds the chat by its latest
replies, reads its line and walks it: what a chat's every request after its first costs), and
reports the turns after each chat's first.

Two readings of the first token, printed apart and never one for the other:
- the client's wait, from sending its request to reading the first narration token, each way,
  and what the bare hop and the proxy add to direct's (each round's less direct's in that
  round, the median of those: "paired"). The proxy's own work before the upstream call (the
  request read, the chat found and planned, the request rewritten) is in it;
- from the upstream sending its first text (the test server stamps it as it writes it,
  `first_sent`, by the machine's monotonic clock) to the client reading it as its first
  narration token: the hop's relay of the first words alone, the upstream's own time and
  whatever came before the upstream call left out. Direct's is the loopback and the client's
  own reading; the issue's "first narration token at most 2 ms after the upstream's" read
  literally is the proxy's figure of this kind.
The last token's wait is reported beside them.

Run with `python -m pytest tests/benchmarks/test_proxy.py --benchmark-only -s`.
"""

from __future__ import annotations

import statistics
import sys
import threading
import time
from collections.abc import Callable, Iterator
from typing import Any, NamedTuple

import pytest
from openai import OpenAI

from tests.benchmarks.test_grammar import HEAVY
from tests.proxy.conftest import Upstream, started, stopped
from tests.proxy.conftest import proxy_url as proxy_url  # the fixtures
from tests.proxy.conftest import upstream as upstream
from tests.service.server import free_port

ROUNDS = 15
# The later-turn run: chats of this many turns, this many of them each way.
TURNS = 12
CHATS = 2


@pytest.fixture(scope="module")
def floor_url(upstream: Upstream) -> Iterator[str]:
    """The bare pass-through hop to the same upstream, on the same server and client."""
    port = free_port()
    command = [sys.executable, "-m", "tests.benchmarks.passthrough", upstream.url, str(port)]
    process = started(command, port, "/health")
    try:
        yield f"http://127.0.0.1:{port}/v1"
    finally:
        stopped(process)


# Seconds between two chunks of the paced reply (a model writing ~100 tokens a second), and that
# reply: the heavy one's first two tags and the prose around them (~40 chunks).
PACE = 0.01
PACED = HEAVY[: HEAVY.index("there.") + len("there.")]


class Wait(NamedTuple):
    """One streamed request, in seconds: the client's wait for its first narration token and
    for its last, and the time from the upstream sending its first text to the client reading
    that first token."""

    first: float
    last: float
    after_sent: float


def waits(
    client: OpenAI, upstream: Upstream, messages: list[Any], step: dict[str, Any]
) -> tuple[Wait, str]:
    """The request of `messages` streamed, the upstream answering `step`: its `Wait`, and the
    text the client read (the reply as it shows it)."""
    upstream.reset()  # its requests listed below are this one's alone
    upstream.script(step)
    began = time.monotonic()
    read = last = 0.0
    text = []
    chunks = client.chat.completions.create(model="m", messages=messages, stream=True)
    for chunk in chunks:
        if chunk.choices and chunk.choices[0].delta.content:
            last = time.monotonic()
            read = read or last
            text.append(chunk.choices[0].delta.content)
    sent = upstream.requests()[-1]["first_sent"]
    return Wait(read - began, last - began, read - sent), "".join(text)


def test_proxy_streaming_waits(
    benchmark: Any, upstream: Upstream, proxy_url: str, floor_url: str
) -> None:
    urls = {"direct": upstream.url, "floor": floor_url, "proxy": proxy_url}
    streaming_waits(benchmark, upstream, urls, lambda *_: {"reply": HEAVY, "chunk": 4})


def test_proxy_streaming_waits_paced(
    benchmark: Any, upstream: Upstream, proxy_url: str, floor_url: str
) -> None:
    urls = {"direct": upstream.url, "floor": floor_url, "proxy": proxy_url}
    step = {"reply": PACED, "chunk": 4, "delay": PACE}
    streaming_waits(benchmark, upstream, urls, lambda *_: step)


def test_proxy_streaming_waits_paced_later_turns(
    benchmark: Any, upstream: Upstream, proxy_url: str, floor_url: str
) -> None:
    urls = {"direct": upstream.url, "floor": floor_url, "proxy": proxy_url}

    def step(chat: int, turn: int) -> dict[str, Any]:
        # A reply of its own: no two chats share one (the index would find both).
        return {"reply": f"Hour {turn} of {chat} passes. {PACED}", "chunk": 4, "delay": PACE}

    streaming_waits(benchmark, upstream, urls, step, chats=CHATS, turns=TURNS)


def streaming_waits(
    benchmark: Any,
    upstream: Upstream,
    urls: dict[str, str],
    step: Callable[[int, int], dict[str, Any]],
    *,
    chats: int = ROUNDS,
    turns: int = 1,
) -> None:
    """`chats` chats of `turns` turns each way (`urls`: direct, the bare hop, the proxy, in
    turn at each turn), the upstream answering chat `c`'s turn `n` with `step(c, n)`; the
    medians of the turns after each chat's first (of every turn, when chats are of one)
    printed and kept."""
    clients = {way: OpenAI(base_url=url, api_key="k", max_retries=0) for way, url in urls.items()}
    measured: dict[str, list[Wait]] = {way: [] for way in urls}

    def rounds() -> None:
        for chat in range(chats):
            transcripts: dict[str, list[Any]] = {way: [] for way in urls}
            for turn in range(turns):
                for way, client in clients.items():
                    said = transcripts[way]
                    said.append(
                        {"role": "user", "content": f"Benchmark {way} {chat}, turn {turn}."}
                    )
                    wait, reply = waits(client, upstream, said, step(chat, turn))
                    said.append({"role": "assistant", "content": reply})
                    if turn or turns == 1:
                        measured[way].append(wait)

    try:
        benchmark.pedantic(rounds, rounds=1, iterations=1)
    finally:
        for client in clients.values():
            client.close()
    reported(benchmark, measured)


def reported(benchmark: Any, measured: dict[str, list[Wait]]) -> None:
    """The medians of `measured`, each way, printed and kept in the benchmark's `extra_info`."""
    medians = {
        way: Wait(*map(statistics.median, zip(*got, strict=True))) for way, got in measured.items()
    }
    # Each round's first token less direct's in that round, the median of those: the load's
    # drift over a run weighs less than in the difference of the medians.
    paired = {
        way: statistics.median(
            one.first - direct.first
            for one, direct in zip(measured[way], measured["direct"], strict=True)
        )
        for way in ("floor", "proxy")
    }
    for way, median in medians.items():
        benchmark.extra_info[f"{way}_first_ms"] = median.first * 1000
        benchmark.extra_info[f"{way}_last_ms"] = median.last * 1000
        benchmark.extra_info[f"{way}_first_after_sent_ms"] = median.after_sent * 1000
    for way, added in paired.items():
        benchmark.extra_info[f"{way}_first_paired_ms"] = added * 1000
    direct, floor, proxy = (medians[way] for way in ("direct", "floor", "proxy"))
    print(
        f"\nfirst token, the client's wait: direct {direct.first * 1000:.1f} ms, bare hop "
        f"{floor.first * 1000:.1f} ms (+{(floor.first - direct.first) * 1000:.1f} ms), proxy "
        f"{proxy.first * 1000:.1f} ms (+{(proxy.first - direct.first) * 1000:.1f} ms); paired: "
        f"bare hop +{paired['floor'] * 1000:.2f} ms, proxy +{paired['proxy'] * 1000:.2f} ms"
        f"\nfirst token, from the upstream sending it to the client reading it: direct "
        f"{direct.after_sent * 1000:.2f} ms, bare hop {floor.after_sent * 1000:.2f} ms (+"
        f"{(floor.after_sent - direct.after_sent) * 1000:.2f}), proxy "
        f"{proxy.after_sent * 1000:.2f} ms (+{(proxy.after_sent - direct.after_sent) * 1000:.2f}"
        f"; issue 29's target read literally: the proxy's at most 2 ms)"
        f"\nlast token: direct {direct.last * 1000:.1f} ms, proxy {proxy.last * 1000:.1f} ms "
        f"(+{(proxy.last - direct.last) * 1000:.1f} ms, {proxy.last / direct.last:.2f}x)"
    )
    assert proxy.last >= proxy.first > 0 and proxy.after_sent > 0


CLIENTS = 8
STEPS = 15
SHORT = 'The guard nods. [clock: name="Alarm raised" tick="1"]'


def per_second(url: str, upstream: Upstream, tables: str) -> float:
    """Requests answered per second when `CLIENTS` clients each play `STEPS` short non-streamed
    turns of a chat of their own at `url`, at once."""
    upstream.script(*[{"reply": SHORT}] * (CLIENTS * STEPS))

    def play(client: int) -> None:
        with OpenAI(base_url=url, api_key="k", max_retries=0, timeout=120) as openai:
            messages: list[Any] = []
            for step in range(STEPS):
                messages.append({"role": "user", "content": f"{tables} {client}, step {step}."})
                answer = openai.chat.completions.create(model="m", messages=messages)
                messages.append({"role": "assistant", "content": answer.choices[0].message.content})

    began = time.perf_counter()
    players = [threading.Thread(target=play, args=(client,)) for client in range(CLIENTS)]
    for player in players:
        player.start()
    for player in players:
        player.join()
    return CLIENTS * STEPS / (time.perf_counter() - began)


def test_proxy_requests_per_second(benchmark: Any, upstream: Upstream, proxy_url: str) -> None:
    rates: dict[str, list[float]] = {"direct": [], "proxy": []}

    def rounds() -> None:
        for at in range(3):
            rates["direct"].append(per_second(upstream.url, upstream, f"Direct {at}, table"))
            rates["proxy"].append(per_second(proxy_url, upstream, f"Proxied {at}, table"))

    benchmark.pedantic(rounds, rounds=1, iterations=1)
    direct, proxied = (statistics.median(rates[way]) for way in ("direct", "proxy"))
    benchmark.extra_info.update(direct_per_second=direct, proxy_per_second=proxied)
    print(
        f"\nshort non-streamed replies, {CLIENTS} clients: the upstream {direct:.0f}/s, through "
        f"the proxy {proxied:.0f}/s: {proxied / direct:.2f}x (target: at least 0.5x)"
    )
    assert proxied > 0
