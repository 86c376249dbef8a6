"""The per-turn reminder: what did not happen last turn, the commands the ruleset can use with
their limits, the ruleset's vocabulary, the check, the clocks, the fight (`prompt/fight.py`),
`gm.sheetGuidance`, then a sheet
block per character inside `<character_sheets>`.

It goes into the last user message every turn (never the system prompt, so a provider's prompt
cache survives). A game without a ruleset gets no sheet section at all.
"""

from __future__ import annotations

from ..state import GameState
from .checks import check_lines
from .clocks import clock_section
from .commands import party_command_lines, sheet_command_lines, vocabulary_lines
from .fight import fight_section
from .inventory import inventory_command_lines, inventory_lines
from .party_block import party_block
from .sheet_block import sheet_block
from .text import safe

HEADING = "Game state and commands"


def reminder(game: GameState) -> str:
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
    section = [
        HEADING,
        *sheet_command_lines(ruleset),
        *party_command_lines(ruleset),
        *vocabulary_lines(ruleset),
        *inventory_command_lines(ruleset),
    ]
    parts.append("\n".join(section))
    parts.append("\n".join(check_lines(ruleset)))
    clocks = clock_section(definition.clocks, game.clocks)
    if clocks:
        parts.append(clocks)
    fight = fight_section(game)
    if fight:
        parts.append(fight)
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
