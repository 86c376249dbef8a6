"""The check command a `[skill_check: ...]` tag binds to (`gm_tags.families.skill_check.bind`):
the check asked for, and the request its receipt writes back.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..checks.record import CheckRequest
from .common import Request


@dataclass(frozen=True, slots=True)
class CheckCommand:
    check: CheckRequest
    request: Request
