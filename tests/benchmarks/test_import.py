"""`import gm_tags` in a fresh interpreter, grammar included (target: under 200 ms), beside the
interpreter starting and doing nothing, measured in the same run.

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


@pytest.fixture(scope="module", autouse=True)
def compiled_bytecode() -> None:
    run_python("import gm_tags")  # writes the bytecode an installed copy would have


def test_interpreter_start_baseline(benchmark: Any) -> None:
    benchmark.pedantic(run_python, args=("pass",), rounds=15, warmup_rounds=2)


def test_import_gm_tags(benchmark: Any) -> None:
    benchmark.pedantic(run_python, args=("import gm_tags",), rounds=15, warmup_rounds=2)
