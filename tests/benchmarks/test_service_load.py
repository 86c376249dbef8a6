"""A bounded load test of `gm-tags serve` on loopback: clients post the heavy reply (4 KB, 40
tags) as fast as they are answered, each a new turn committed to the store. The baseline, measured
in the same run against the same process, is `GET /health` (HTTP and uvicorn alone). Reported:
requests per second and p50/p99 latency of each, and their ratios. Every request must be
answered 200 (a client thread's failed assertion fails the test).

Run with `python -m pytest tests/benchmarks/test_service_load.py --benchmark-only -s`.
"""

from __future__ import annotations

import json
import statistics
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from tests.benchmarks.test_pipeline import CLOCKS, REPLIES
from tests.conftest import FIXTURES
from tests.service.server import Server, serving

CREW = str(FIXTURES / "rulesets" / "crew-of-shadows.json")
CLIENTS = 4
REQUESTS_PER_CLIENT = 100


def load(server: Server, method: str, path: str, body: Any) -> dict[str, float]:
    def client(_: int) -> list[float]:
        connection = server.connect()
        mine = []
        for _ in range(REQUESTS_PER_CLIENT):
            started = time.perf_counter()
            status, _ = server.call(method, path, body, connection)
            mine.append(time.perf_counter() - started)
            assert status == 200
        connection.close()
        return mine

    return clients_at_once(client, CLIENTS, "rps")


def clients_at_once(
    client: Callable[[int], list[float]], clients: int, rate: str
) -> dict[str, float]:
    """`client(number)` run in `clients` threads at once, each giving the latencies of its
    requests: how many were answered a second (named `rate`), and their p50 and p99."""
    latencies: list[float] = []
    lock = threading.Lock()

    def run(number: int) -> None:
        mine = client(number)
        with lock:
            latencies.extend(mine)

    threads = [threading.Thread(target=run, args=(n,)) for n in range(clients)]
    started = time.perf_counter()
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    elapsed = time.perf_counter() - started
    latencies.sort()
    return {
        rate: len(latencies) / elapsed,
        "p50_ms": statistics.median(latencies) * 1000,
        "p99_ms": latencies[int(len(latencies) * 0.99) - 1] * 1000,
    }


def test_posting_heavy_replies(benchmark: Any, tmp_path: Path) -> None:
    made = "".join(f'[clock: name="{name}" size="8"]' for name in CLOCKS)
    figures: dict[str, dict[str, float]] = {}

    def run() -> None:
        with serving(tmp_path / f"load-{len(figures)}.sqlite", CREW) as server:
            server.call("POST", "/games", {"chatId": "load", "rulesetId": "crew-of-shadows"})
            server.call("POST", "/games/load/replies", {"text": made})
            figures["health"] = load(server, "GET", "/health", None)
            figures["heavy"] = load(
                server, "POST", "/games/load/replies", {"text": REPLIES["heavy-4KB-40-tags"]}
            )

    benchmark.pedantic(run, rounds=1, iterations=1)
    health, heavy = figures["health"], figures["heavy"]
    benchmark.extra_info.update(
        health=health,
        heavy=heavy,
        rps_ratio=health["rps"] / heavy["rps"],
        p99_ratio=heavy["p99_ms"] / health["p99_ms"],
    )
    print(json.dumps(benchmark.extra_info, indent=2))
