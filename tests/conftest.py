from __future__ import annotations

import threading
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, settings

from gm_tags import Ruleset, load_ruleset
from tests.missing import missing

# No test may depend on the machine being idle: Hypothesis's 200 ms deadline and its health check
# on slow data generation measure the machine (two workers beside other work), not the code.
# A test's own @settings inherits these unless it names them.
settings.register_profile(
    "gm-tags", deadline=None, suppress_health_check=[HealthCheck.too_slow], print_blob=True
)
settings.load_profile("gm-tags")

ROOT = Path(__file__).resolve().parent.parent
FIXTURES = ROOT / "fixtures"
SHARED = ROOT.parent / "shared"
REFERENCE_RULESETS = SHARED / "reference" / "rulesets"
# The base URL in-process clients of the servers use: the Host header they answer to by default.
LOOPBACK = "http://127.0.0.1"


@pytest.fixture
def reference_rulesets() -> Path:
    if not REFERENCE_RULESETS.is_dir():
        missing(f"../shared is absent here: no reference rulesets at {REFERENCE_RULESETS}")
    return REFERENCE_RULESETS


def ruleset_named(name: str) -> Ruleset:
    """A fixture ruleset by name: a bundled reference ruleset, else one in fixtures/rulesets."""
    path = FIXTURES / "rulesets" / "reference" / f"{name}.json"
    return load_ruleset(path if path.exists() else FIXTURES / "rulesets" / f"{name}.json")


@pytest.fixture(scope="session")
def ember() -> Ruleset:
    return ruleset_named("ember-roads")


@pytest.fixture(scope="session")
def gravewatch() -> Ruleset:
    return ruleset_named("gravewatch")


@pytest.fixture(scope="session")
def storyteller() -> Ruleset:
    return ruleset_named("storyteller")


@pytest.fixture(scope="session")
def fifth() -> Ruleset:
    return ruleset_named("fifth-age")


@pytest.fixture(scope="session")
def strain() -> Ruleset:
    return ruleset_named("strain-runners")


def run_together(target: Callable[..., None], argument_lists: Sequence[tuple[Any, ...]]) -> None:
    """`target` once per argument tuple, each in its own thread, all started before any joins."""
    threads = [threading.Thread(target=target, args=arguments) for arguments in argument_lists]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()


@pytest.fixture(scope="session")
def postgres() -> Iterator[Any]:
    """A real PostgreSQL cluster for the session (tests/postgres.py)."""
    from tests.postgres import cluster

    with cluster() as running:
        yield running


@pytest.hookimpl(tryfirst=True)  # before pytest-xdist reads the groups
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """A test that needs a PostgreSQL cluster or the browser is slow, wherever it is written: by
    the fixture's name, or by a `postgres` parameter of a back-end fixture (tests/history's `db`).
    Such tests share one worker each, so one cluster and one Chromium start (docs: README)."""
    for item in items:
        names = set(getattr(item, "fixturenames", ()))
        callspec = getattr(item, "callspec", None)
        params = set(map(str, callspec.params.values())) if callspec is not None else set()
        for need in ("postgres", "browser"):
            if need in names or need in params:
                item.add_marker(pytest.mark.slow)
                item.add_marker(pytest.mark.xdist_group(need))
