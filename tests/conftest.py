from __future__ import annotations

from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
FIXTURES = ROOT / "fixtures"
SHARED = ROOT.parent / "shared"
REFERENCE_RULESETS = SHARED / "reference" / "rulesets"


@pytest.fixture
def reference_rulesets() -> Path:
    if not REFERENCE_RULESETS.is_dir():
        pytest.skip(f"../shared is absent here: no reference rulesets at {REFERENCE_RULESETS}")
    return REFERENCE_RULESETS
