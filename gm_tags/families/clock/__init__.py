"""`[clock: ...]`: progress clocks made, ticked and cleared (`gm_tags.engine.clocks`), and the
reminder's clock section."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ...commands.clock import ClockCommand
from ...dice import Dice
from ...engine.clocks import run_clock
from ...engine.outcome import Outcome
from ...prompt.clocks import clock_section
from ...prompt.reminder import Teaching
from ...state import Draft, GameState
from ..family import Family
from .bind import bind_clock


def run(command: ClockCommand, draft: Draft[Any], dice: Dice) -> Outcome:
    settings = draft.ruleset.definition.clocks if draft.ruleset is not None else None
    clocks, outcome = run_clock(command, draft.clocks, settings)
    draft.set_clocks(clocks)
    return outcome


def words(request: Mapping[str, str | None]) -> list[str]:
    """`clock Alarm raised tick`."""
    action = next((key for key in ("size", "tick", "clear") if key in request), "")
    return ["clock", request.get("name") or "", action]


def teach(game: GameState) -> Teaching:
    assert game.ruleset is not None
    return Teaching([], clock_section(game.ruleset.definition.clocks, game.clocks))


FAMILY = Family[ClockCommand]("clock", bind_clock, run, words, teach=teach)
