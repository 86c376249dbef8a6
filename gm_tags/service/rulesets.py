"""The service's own operations: whether it is up (`/health`, open without a key) and checking a
ruleset without starting a game (`/rulesets/validate`)."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter

from ..ruleset import load_ruleset
from ..ruleset.loader import MAX_FILE_BYTES
from .errors import ERRORS
from .limits import within
from .models import ValidOut

router = APIRouter()


@router.get("/health")
def health() -> dict[str, str]:
    return {"status": "ok"}


@router.post("/rulesets/validate", responses=ERRORS)
def validate_ruleset(ruleset: dict[str, Any]) -> ValidOut:
    """Check a ruleset (the JSON of a ruleset file) completely: 422 with every problem."""
    within("ruleset", ruleset, MAX_FILE_BYTES)
    checked = load_ruleset(ruleset)
    return ValidOut(ok=True, id=checked.id, name=checked.name)
