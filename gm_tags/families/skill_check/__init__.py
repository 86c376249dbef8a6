"""`[skill_check: ...]`: a check rolled from the sheet (`gm_tags.engine.checks`), the branches
written after it, the line the next reminder reads of the roll, and the reminder's check part."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ...dice import Dice
from ...engine.checks import CheckCommand, run_check
from ...engine.outcome import Outcome
from ...prompt.checks import check_lines
from ...prompt.reminder import Teaching
from ...reasons import Reason
from ...state import Draft, GameState
from ..family import Family
from .bind import bind_check


def run(command: CheckCommand, draft: Draft[Any], dice: Dice) -> Outcome:
    return run_check(command, draft, dice)


def words(request: Mapping[str, str | None]) -> list[str]:
    """`Mira check`."""
    return [request.get("who") or "", "check"]


def teach(game: GameState) -> Teaching:
    assert game.ruleset is not None
    return Teaching([], "\n".join(check_lines(game.ruleset)))


def rolled(now: str | None, reason: Reason | None, detail: str) -> str | None:
    """How the check came out, for the Game Master to narrate from: a roll, or a check the
    character could not attempt untrained (a roll too, as far as the story goes)."""
    return (now or detail) if reason in (None, Reason.UNTRAINED) else None


FAMILY = Family(
    "skill_check",
    bind_check,
    run,
    words,
    explained=frozenset({Reason.UNKNOWN_DIFFICULTY, Reason.UNKNOWN_SKILL}),
    teach=teach,
    branches=True,
    rolled=rolled,
    unlisted=frozenset({Reason.UNTRAINED}),
)
