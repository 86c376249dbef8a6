"""Run the tests that depend on timing between threads and processes (marked `load`) again and
again beside a CPU-bound load, to show that none of them needs an idle machine.

    python -m tests.under_load              # 20 runs of `pytest -m load`, one busy process a core
    python -m tests.under_load --runs 3 -- -m load -x tests/service    # other pytest arguments

Every run is a fresh `python -m pytest` (so session fixtures start again too); the busy processes
spin for as long as the runs last. The exit status is 1 when any run failed, and each run's
outcome line is printed as it ends.
"""

from __future__ import annotations

import argparse
import multiprocessing
import os
import subprocess
import sys
import time

from tests.conftest import ROOT


def spin() -> None:
    """A core's worth of work that never ends: the load the tests run beside."""
    count = 0
    while True:
        count = (count * 31 + 7) % 1_000_003


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=20)
    parser.add_argument("--busy", type=int, default=os.cpu_count() or 2, help="busy processes")
    parser.add_argument("pytest_args", nargs="*", default=["-m", "load"])
    args = parser.parse_args(argv)
    busy = [multiprocessing.Process(target=spin, daemon=True) for _ in range(args.busy)]
    for process in busy:
        process.start()
    failed = 0
    try:
        for run in range(1, args.runs + 1):
            started = time.monotonic()
            command = [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider"]
            result = subprocess.run(
                [*command, *args.pytest_args], cwd=ROOT, capture_output=True, text=True
            )
            lines = result.stdout.strip().splitlines() or ["(no output)"]
            elapsed = time.monotonic() - started
            print(f"run {run}/{args.runs}: exit {result.returncode}, {elapsed:.0f} s: {lines[-1]}")
            if result.returncode != 0:
                failed += 1
                print(result.stdout[-4000:], result.stderr[-2000:], sep="\n")
    finally:
        for process in busy:
            process.kill()
    print(f"{args.runs - failed} of {args.runs} runs passed beside {args.busy} busy processes")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
