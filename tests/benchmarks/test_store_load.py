"""Steps per second and p99 latency of `gm-tags serve` on loopback, by store: one worker on an
SQLite file, one worker on PostgreSQL, three workers on one PostgreSQL database (requests in turn
across them, and with each chat kept on one worker), in the same run.
Eight clients each post short replies (a clock tick and a sentence) to a chat of their own, on
workers in turn; every step is committed before it is answered, and all must be answered 200.

Run with `python -m pytest tests/benchmarks/test_store_load.py --benchmark-only -s`.
"""

from __future__ import annotations

import json
import time
from contextlib import ExitStack
from pathlib import Path
from typing import Any

from tests.benchmarks.test_service_load import clients_at_once
from tests.conftest import FIXTURES
from tests.service.server import Server, serving

CREW = str(FIXTURES / "rulesets" / "crew-of-shadows.json")
CLIENTS = 8
STEPS = 60
REPLY = (
    'The crew moves. [clock: name="Plan" tick="1"] Somebody coughs. [clock: name="Plan" tick="-1"]'
)


def burst(workers: list[Server], *, sticky: bool = False) -> dict[str, float]:
    """Each client's steps go to the workers in turn, or (`sticky`) always to one of them, as a
    load balancer with chat affinity would send them."""
    for number in range(CLIENTS):
        workers[0].call("POST", "/games", {"chatId": f"c{number}", "rulesetId": "crew-of-shadows"})
        workers[0].call(
            "POST", f"/games/c{number}/replies", {"text": '[clock: name="Plan" size="8"]'}
        )

    def client(number: int) -> list[float]:
        connections = [worker.connect() for worker in workers]
        mine = []
        for step in range(STEPS):
            at = (number if sticky else number + step) % len(workers)
            started = time.perf_counter()
            status, _ = workers[at].call(
                "POST", f"/games/c{number}/replies", {"text": REPLY}, connections[at]
            )
            mine.append(time.perf_counter() - started)
            assert status == 200
        for connection in connections:
            connection.close()
        return mine

    return clients_at_once(client, CLIENTS, "steps_per_s")


def test_steps_by_store_and_workers(benchmark: Any, postgres: Any, tmp_path: Path) -> None:
    figures: dict[str, dict[str, float]] = {}

    def run() -> None:
        setups: dict[str, tuple[str | Path, int, bool]] = {
            "sqlite-1-worker": (tmp_path / "load.sqlite", 1, False),
            "postgres-1-worker": (postgres.new_database(), 1, False),
            "postgres-3-workers-round-robin": (postgres.new_database(), 3, False),
            "postgres-3-workers-sticky": (postgres.new_database(), 3, True),
        }
        for name, (db, count, sticky) in setups.items():
            with ExitStack() as stack:
                workers = [stack.enter_context(serving(db, CREW)) for _ in range(count)]
                figures[name] = burst(workers, sticky=sticky)

    benchmark.pedantic(run, rounds=1, iterations=1)
    benchmark.extra_info.update(figures)
    print(json.dumps(figures, indent=2))
    assert all(figure["steps_per_s"] > 0 for figure in figures.values())
