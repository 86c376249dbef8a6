"""`[sheet: ...]`: a character's (or every character's) live state changed, and the shared party
sheet's pools and advancement (`gm_tags.engine.sheet`, `gm_tags.engine.party`); the reminder
teaches the commands with the ruleset's own words and limits, and its vocabulary."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ...commands.sheet import PartyCommand, SheetCommand
from ...dice import Dice
from ...engine.outcome import Outcome
from ...engine.party import run_party
from ...engine.sheet import run_sheet
from ...prompt.commands import party_command_lines, sheet_command_lines, vocabulary_lines
from ...prompt.reminder import Teaching
from ...state import Draft, GameState
from ..family import Family
from .bind import bind_sheet

# The attribute that names what a command works on, in the order they are looked for.
_TARGETS = ("pool", "track", "condition", "state", "field", "rest", "name")


def run(command: SheetCommand, draft: Draft[Any], dice: Dice) -> Outcome:
    if isinstance(command, PartyCommand):
        return run_party(command, draft)
    return run_sheet(command, draft)


def words(request: Mapping[str, str | None]) -> list[str]:
    """`Mira spend grit`, `party advance Tier`."""
    target = next((request[key] for key in _TARGETS if request.get(key)), "")
    who = request.get("who") or ("party" if request.get("sheet") == "party" else "")
    return [who, request.get("op") or "", target or ""]


def teach(game: GameState) -> Teaching:
    ruleset = game.ruleset
    assert ruleset is not None
    return Teaching(
        [
            *sheet_command_lines(ruleset),
            *party_command_lines(ruleset),
            *vocabulary_lines(ruleset),
        ]
    )


FAMILY = Family("sheet", bind_sheet, run, words, teach=teach)
