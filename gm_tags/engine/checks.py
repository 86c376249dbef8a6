"""Running a check tag in a reply: who rolls, the dice, the receipt and the line the Game Master
reads next turn. A check paid for from a pool (`spend=`) changes that character's live state."""

from __future__ import annotations

from typing import TypeVar

from ..checks.record import CheckRecord
from ..checks.run import Untrained, names_nothing, roll_check, unknown_difficulty
from ..commands.check import CheckCommand
from ..dice import Dice
from ..reasons import Reason
from ..sheet.live import LiveState
from ..state import StateReads
from .outcome import Outcome

State = TypeVar("State", bound=StateReads)


def run_check(command: CheckCommand, game: State, dice: Dice) -> tuple[State, Outcome]:
    """A character nobody can name rolls plain dice with no modifier on a sum (never a guessed
    sheet), and its receipt and the line the Game Master reads next say so, with the names it can
    use; on a dice pool, where that would throw no dice, a check naming nothing is refused."""
    if game.ruleset is None:
        return game, Outcome.refused(Reason.NO_SHEET, "this game has no ruleset to check against")
    unknown = unknown_difficulty(game.ruleset.definition.resolution, command.check)
    if unknown:
        return game, Outcome.refused(Reason.UNKNOWN_DIFFICULTY, unknown)
    try:
        character = game.character(command.check.who)
    except LookupError:
        character = None
    nothing = names_nothing(game.ruleset, command.check, character, game.characters)
    if nothing:
        return game, Outcome.refused(Reason(nothing[0]), nothing[1])
    live = game.live_of(character) if character is not None else LiveState()
    result, changed = roll_check(game.ruleset, character, live, command.check, dice)
    if character is not None and changed is not live:
        game = game.with_live(character.key, changed)
    if isinstance(result, Untrained):
        return game, Outcome(None, Reason.UNTRAINED, result.summary, None, result.tag)
    summary = result.summary
    if result.sheet == "none":
        summary += " " + usable_names(game)
    return game, Outcome(
        now=summary, tag=result.tag, detail=_parts(result), succeeded=result.succeeded
    )


def usable_names(game: StateReads) -> str:
    """The line that teaches the Game Master the names `who=` can use, after one named nobody."""
    names = [character.name for character in game.characters]
    if not names:
        return "This game has no characters to name."
    shown = ", ".join(names[:8]) + (", ..." if len(names) > 8 else "")
    return f"The names who= can use: {shown}."


def _parts(record: CheckRecord) -> str:
    """What each part of the sheet added, in words, for logs and `--json`."""
    parts = []
    if record.penalty:
        parts.append(f"wound penalty {record.penalty}")
    if record.adjust:
        parts.append(f"adjust {record.adjust:+d}")
    if record.spend:
        parts.append(f"paid {record.spend}")
    return ", ".join(parts)
