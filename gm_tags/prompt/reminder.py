"""The per-turn reminder: what did not happen last turn, what each tag family teaches (in the
registry's order: the commands the ruleset can use with their limits and its vocabulary in one
section, then the check, the clocks, the fight), `gm.sheetGuidance`, then a sheet block per
character inside `<character_sheets>`.

It goes into the last user message every turn (never the system prompt, so a provider's prompt
cache survives). A game without a ruleset gets no sheet section at all.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

from ..state import GameState
from .inventory import inventory_lines
from .party_block import party_block
from .sheet_block import sheet_block
from .text import safe

HEADING = "Game state and commands"


class Teaching(NamedTuple):
    """What the reminder teaches of one tag family: lines in the section of commands (with the
    other families' commands and the ruleset's vocabulary), and a part of its own, if any."""

    commands: list[str]
    part: str = ""


def reminder(game: GameState, taught: Sequence[Teaching]) -> str:
    """The reminder for `game`, teaching what each family's `taught` says (in the registry's
    order: `gm_tags.families.registry.taught`)."""
    parts: list[str] = []
    if game.rolled:
        # Engine lines: the faces in brackets as the Engine writes them, the rest made safe.
        lines = (safe(line, 300, faces=True) for line in game.rolled)
        parts.append("How the checks in your last reply came out: " + " ".join(lines))
    if game.recent:
        parts.append(
            "These did not happen in your last reply, so do not narrate them as if they had: "
            + "; ".join(safe(line, 200) for line in game.recent)
            + "."
        )
    ruleset = game.ruleset
    if ruleset is None:
        return "\n\n".join(parts)
    definition = ruleset.definition
    # Each family's commands in one section, then each family's part of its own.
    parts.append("\n".join([HEADING, *(line for teaching in taught for line in teaching.commands)]))
    parts += [teaching.part for teaching in taught if teaching.part]
    if definition.gm.sheet_guidance:
        parts.append(definition.gm.sheet_guidance)
    blocks = [
        sheet_block(ruleset, character, game.live_of(character), inventory_lines(game, character))
        for character in game.characters
    ]
    if blocks:
        parts.append("<character_sheets>\n" + "\n\n".join(blocks) + "\n</character_sheets>")
    party = party_block(game)
    if party:
        parts.append("<party_sheet>\n" + party + "\n</party_sheet>")
    return "\n\n".join(parts)
