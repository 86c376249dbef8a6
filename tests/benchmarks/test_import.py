"""Start-up in a fresh interpreter, beside the interpreter starting and doing nothing, measured in
the same run: `from gm_tags import Game, load_ruleset` (target: under 200 ms more than the
baseline) and the command line's `--help` (target: at most 5x the baseline, whole process).

Compiled bytecode is allowed, as an installed copy has it (pip compiles it at install time), even
where the environment sets PYTHONDONTWRITEBYTECODE. Report the import as (median - baseline).
"""

from __future__ import annotations

import os
import subprocess
import sys
from typing import Any

import pytest

from tests.conftest import ROOT

ENVIRONMENT = {key: value for key, value in os.environ.items() if key != "PYTHONDONTWRITEBYTECODE"}


def run_python(code: str) -> None:
    subprocess.run([sys.executable, "-c", code], check=True, cwd=ROOT, env=ENVIRONMENT)


def run_help() -> None:
    subprocess.run(
        [sys.executable, "-m", "gm_tags", "--help"],
        check=True,
        cwd=ROOT,
        env=ENVIRONMENT,
        stdout=subprocess.DEVNULL,
    )


@pytest.fixture(scope="module", autouse=True)
def compiled_bytecode() -> None:
    run_python("from gm_tags import Game, load_ruleset")  # writes the bytecode an install has


def test_interpreter_start_baseline(benchmark: Any) -> None:
    benchmark.pedantic(run_python, args=("pass",), rounds=15, warmup_rounds=2)


def test_import_game_and_load_ruleset(benchmark: Any) -> None:
    code = "from gm_tags import Game, load_ruleset"
    benchmark.pedantic(run_python, args=(code,), rounds=15, warmup_rounds=2)


def test_command_line_help(benchmark: Any) -> None:
    benchmark.pedantic(run_help, rounds=15, warmup_rounds=2)
