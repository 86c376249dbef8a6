"""The suite runs on parallel workers (pytest-xdist): a snapshot no test reads any more must still
fail the run there, as it does on one process, or stale snapshots would pile up unseen."""

from __future__ import annotations

import pytest

pytestmark = pytest.mark.slow

TWO_SNAPSHOTS = """
import pytest

@pytest.mark.parametrize("n", [1, 2, 3, 4])
def test_square(n, snapshot):
    assert n * n == snapshot
"""


def test_an_unused_snapshot_fails_a_run_on_two_workers(
    pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Run on a worker of this suite's own parallel run, the inner run would take itself for one
    # of its workers (syrupy reads these) and never fail on an unused snapshot.
    for name in ("PYTEST_XDIST_WORKER", "PYTEST_XDIST_WORKER_COUNT", "PYTEST_XDIST_TESTRUNUID"):
        monkeypatch.delenv(name, raising=False)
    pytester.makepyfile(test_squares=TWO_SNAPSHOTS)
    pytester.runpytest_subprocess("-p", "no:cacheprovider", "--snapshot-update").assert_outcomes(
        passed=4
    )
    pytester.makepyfile(test_squares=TWO_SNAPSHOTS.replace("[1, 2, 3, 4]", "[1, 2, 3]"))
    result = pytester.runpytest_subprocess("-p", "no:cacheprovider", "-n", "2")
    result.assert_outcomes(passed=3)
    assert result.ret == pytest.ExitCode.TESTS_FAILED
    result.stdout.fnmatch_lines(["*1 snapshot unused*"])
