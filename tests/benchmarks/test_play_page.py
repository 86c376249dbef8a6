"""What the play page costs the server, for the largest fixture game (Ember Roads: three
characters, lists, catalogs), beside `GET /health` measured in the same run against the same
process: the page itself (`/play/{chatId}`), the view it reads (`/games/{chatId}/view`), and the
chats page (`/`). Reported: the median server round trip of each on loopback and its ratio to
the health check.

Run with `python -m pytest tests/benchmarks/test_play_page.py --benchmark-only -s`.
"""

from __future__ import annotations

import json
import statistics
import time
from pathlib import Path
from typing import Any

from tests.conftest import FIXTURES
from tests.service.server import Server, serving

ROUNDS = 200
EMBER = FIXTURES / "rulesets" / "reference" / "ember-roads.json"


def timed(server: Server, path: str) -> float:
    connection = server.connect()
    times = []
    for _ in range(ROUNDS):
        started = time.perf_counter()
        connection.request("GET", path)
        response = connection.getresponse()
        response.read()
        times.append(time.perf_counter() - started)
        assert response.status == 200
    connection.close()
    return statistics.median(times) * 1000


def test_play_page_loads(benchmark: Any, tmp_path: Path) -> None:
    figures: dict[str, float] = {}

    def run() -> None:
        with serving(tmp_path / "page.sqlite", str(EMBER)) as server:
            game = json.loads((FIXTURES / "games" / "ember-roads.json").read_text("utf-8"))
            body = {"chatId": "ember", "rulesetId": "ember-roads", "game": game}
            assert server.call("POST", "/games", body)[0] == 201
            for name, path in (
                ("health", "/health"),
                ("page", "/play/ember"),
                ("view", "/games/ember/view"),
                ("chats", "/"),
            ):
                figures[name] = timed(server, path)

    benchmark.pedantic(run, rounds=1, iterations=1)
    ratios = {f"{name}_ratio": figures[name] / figures["health"] for name in figures}
    benchmark.extra_info.update(figures, **ratios)
    print(json.dumps({**figures, **ratios}, indent=2))
    assert figures["view"] > 0
