"""A real part a test needs is missing: under CI (`CI=true`) the test fails, so CI never passes
without running it; elsewhere it is skipped with what to install."""

from __future__ import annotations

import os
from typing import NoReturn

import pytest


def missing(message: str, *, module_level: bool = False) -> NoReturn:
    if os.environ.get("CI") == "true":
        pytest.fail(message)
    pytest.skip(message, allow_module_level=module_level)
