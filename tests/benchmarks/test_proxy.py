"""What the proxy adds to the wait of a streaming client, measured in the same run: the heavy reply
(4 KB, 40 tags) streamed in 4-character chunks by the test model server on loopback, read with
the official `openai` client straight from that server, through a bare pass-through hop (the
floor of any Python hop: `tests.benchmarks.passthrough`) and through a real `gm-tags proxy`
process, in turn, round after round. Reported: the median wait for the first narration token
and for the last, each way, and what the hop and the proxy add. The test server sends the whole
reply at once (the hop relays it as the client waits for its first token); the paced run has it
send its chunks `PACE` apart, as a model writes them.

Run with `python -m pytest tests/benchmarks/test_proxy.py --benchmark-only -s`.
"""

from __future__ import annotations

import statistics
import sys
import threading
import time
from collections.abc import Iterator
from typing import Any

import pytest
from openai import OpenAI

from tests.benchmarks.test_grammar import HEAVY
from tests.proxy.conftest import Upstream, started, stopped
from tests.proxy.conftest import proxy_url as proxy_url  # the fixtures
from tests.proxy.conftest import upstream as upstream
from tests.service.server import free_port

ROUNDS = 15


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


def waits(
    client: OpenAI, upstream: Upstream, opening: str, step: dict[str, Any]
) -> tuple[float, float]:
    """Seconds to the first content token and to the last one, the upstream answering `step`."""
    upstream.script(step)
    began = time.perf_counter()
    first = last = 0.0
    chunks = client.chat.completions.create(
        model="m", messages=[{"role": "user", "content": opening}], stream=True
    )
    for chunk in chunks:
        if chunk.choices and chunk.choices[0].delta.content:
            last = time.perf_counter() - began
            first = first or last
    return first, last


def test_proxy_streaming_waits(
    benchmark: Any, upstream: Upstream, proxy_url: str, floor_url: str
) -> None:
    urls = {"direct": upstream.url, "floor": floor_url, "proxy": proxy_url}
    streaming_waits(benchmark, upstream, {"reply": HEAVY, "chunk": 4}, urls)


def test_proxy_streaming_waits_paced(
    benchmark: Any, upstream: Upstream, proxy_url: str, floor_url: str
) -> None:
    urls = {"direct": upstream.url, "floor": floor_url, "proxy": proxy_url}
    streaming_waits(benchmark, upstream, {"reply": PACED, "chunk": 4, "delay": PACE}, urls)


def streaming_waits(
    benchmark: Any, upstream: Upstream, step: dict[str, Any], urls: dict[str, str]
) -> None:
    """The first and last token's waits `ROUNDS` times each way (`urls`: direct, the bare hop,
    the proxy, in turn), `upstream` answering `step`; the medians printed and kept."""
    clients = {way: OpenAI(base_url=url, api_key="k", max_retries=0) for way, url in urls.items()}
    measured: dict[str, list[tuple[float, float]]] = {way: [] for way in urls}

    def rounds() -> None:
        for at in range(ROUNDS):
            for way, client in clients.items():
                opening = f"Benchmark {way} round {at}."
                measured[way].append(waits(client, upstream, opening, step))

    try:
        benchmark.pedantic(rounds, rounds=1, iterations=1)
    finally:
        for client in clients.values():
            client.close()
    medians = {
        way: (statistics.median(f for f, _ in got), statistics.median(t for _, t in got))
        for way, got in measured.items()
    }
    added_first = medians["proxy"][0] - medians["direct"][0]
    added_last = medians["proxy"][1] - medians["direct"][1]
    floor_first = medians["floor"][0] - medians["direct"][0]
    # Each round's first token less direct's in that round, the median of those: the load's
    # drift over a run weighs less than in the difference of the medians.
    paired = {
        way: statistics.median(
            f - d for (f, _), (d, _) in zip(measured[way], measured["direct"], strict=True)
        )
        for way in ("floor", "proxy")
    }
    for way, (first, last) in medians.items():
        benchmark.extra_info[f"{way}_first_ms"] = first * 1000
        benchmark.extra_info[f"{way}_last_ms"] = last * 1000
    for way, added in paired.items():
        benchmark.extra_info[f"{way}_first_paired_ms"] = added * 1000
    print(
        f"\nfirst token: direct {medians['direct'][0] * 1000:.1f} ms, bare hop "
        f"{medians['floor'][0] * 1000:.1f} ms (+{floor_first * 1000:.1f} ms), proxy "
        f"{medians['proxy'][0] * 1000:.1f} ms (+{added_first * 1000:.1f} ms); paired: bare hop "
        f"+{paired['floor'] * 1000:.1f} ms, proxy +{paired['proxy'] * 1000:.1f} ms; last token: "
        f"direct {medians['direct'][1] * 1000:.1f} ms, proxy {medians['proxy'][1] * 1000:.1f} ms "
        f"(+{added_last * 1000:.1f} ms, {medians['proxy'][1] / medians['direct'][1]:.2f}x)"
    )
    assert medians["proxy"][1] >= medians["proxy"][0] > 0


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
