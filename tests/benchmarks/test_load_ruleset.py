"""Loading the largest legal ruleset with every import check (target: under 20 ms).

Run with `python -m pytest tests/benchmarks --benchmark-only`. The baseline is pydantic's shape
validation alone on the same file, measured in the same run, so the figure to report is the ratio.
"""

from __future__ import annotations

from typing import Any

import pytest

from gm_tags import load_ruleset
from gm_tags.ruleset.document import RulesetFile
from tests.benchmarks.largest import largest_ruleset


@pytest.fixture(scope="module")
def largest() -> dict[str, Any]:
    return largest_ruleset()


def test_baseline_shape_validation_only(benchmark: Any, largest: dict[str, Any]) -> None:
    benchmark(RulesetFile.model_validate, largest)


def test_load_with_every_check(benchmark: Any, largest: dict[str, Any]) -> None:
    ruleset = benchmark(load_ruleset, largest)
    assert len(ruleset.definition.sheet.derived) == 800
