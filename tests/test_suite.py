"""The suite itself: no test may depend on the machine being idle (two workers share two cores
with whatever else runs), and the parts CI must run are not skipped there."""

from __future__ import annotations

import importlib
import inspect
import pkgutil
import subprocess
import sys
from collections.abc import Iterator
from typing import Any

import pytest
from hypothesis import HealthCheck, settings

import tests
from tests.conftest import ROOT


def property_tests() -> Iterator[tuple[str, settings]]:
    """Every Hypothesis test in the suite and the settings it runs with."""
    for module_info in pkgutil.walk_packages(tests.__path__, "tests."):
        if ".benchmarks" in module_info.name or ".mutation" in module_info.name:
            continue
        module = importlib.import_module(module_info.name)
        for name, value in vars(module).items():
            found: Any = getattr(value, "_hypothesis_internal_use_settings", None)
            if found is None and inspect.isclass(value):
                found = getattr(getattr(value, "TestCase", None), "settings", None)
            if isinstance(found, settings):
                yield f"{module_info.name}.{name}", found


def test_no_property_test_has_a_deadline_or_a_speed_health_check() -> None:
    found = dict(property_tests())
    assert any(name.startswith("tests.reply.test_properties.test_") for name in found)
    timed = [name for name, chosen in found.items() if chosen.deadline is not None]
    hurried = [
        name
        for name, chosen in found.items()
        if HealthCheck.too_slow not in chosen.suppress_health_check
    ]
    assert timed == [] and hurried == []


def test_ci_runs_every_test_and_the_readme_leaves_out_only_the_slow_ones() -> None:
    ci = (ROOT / ".ci" / "run").read_text("utf-8")
    (command,) = [line for line in ci.splitlines() if "&& python -m pytest" in line]
    arguments = command.split("python -m pytest", 1)[1]
    assert "-n auto --dist loadgroup" in arguments
    assert " -m " not in arguments and " -k " not in arguments
    readme = (ROOT / "README.md").read_text("utf-8")
    assert 'python -m pytest -n auto -m "not slow"' in readme


@pytest.mark.slow  # collects the slow files in a subprocess: 50 s on a busy machine
def test_every_test_needing_a_browser_or_postgresql_is_slow() -> None:
    """The README's quick set runs on a machine without Chromium or PostgreSQL: nothing in it
    reaches for them (CI, which has them, runs the slow set too)."""
    result = subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest",
            "--collect-only",
            "-q",
            "-m",
            "not slow",
            "--snapshot-warn-unused",
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
    )
    assert result.returncode == pytest.ExitCode.OK, result.stdout[-2000:]
    collected = [line for line in result.stdout.splitlines() if "::" in line]
    assert len(collected) > 500
    # tests/web/test_view.py reads the page's data in-process, without a browser.
    browser_or_cluster = (
        "tests/web/test_play_page",
        "tests/security/test_browser",
        "tests/security/test_play_key",
    )
    needing = [
        test
        for test in collected
        if "postgres" in test
        or test.startswith((*browser_or_cluster, "tests/service/test_workers"))
    ]
    assert needing == []
