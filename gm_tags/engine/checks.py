"""Running a check tag in a reply: who rolls, the dice, the receipt and the line the Game Master
reads next turn. A check paid for from a pool (`spend=`) changes that character's live state."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, NamedTuple

from ..checks.record import CheckRecord, CheckRequest
from ..checks.run import Untrained, names_nothing, roll_check, unknown_difficulty
from ..commands.common import Request
from ..dice import Dice
from ..reasons import Reason
from ..sheet.character import Character
from ..sheet.live import LiveState
from ..state import Draft, StateReads
from .outcome import Outcome


@dataclass(frozen=True, slots=True)
class CheckCommand:
    """What a `[skill_check: ...]` tag binds to (`gm_tags.families.skill_check.bind`): the check
    asked for (a `CheckRequest`, the same that `Game.check` rolls), and the request its receipt
    writes back. It stands here, with the check it carries, rather than in `commands/`."""

    check: CheckRequest
    request: Request


class Rolled(NamedTuple):
    """A check thrown: its record (or why the character could not attempt it untrained), who
    threw it (None: nobody the check could name), and their live state before and after (a
    check paid for from a pool changes it)."""

    result: CheckRecord | Untrained
    character: Character | None
    before: LiveState
    after: LiveState


def roll(game: StateReads, request: CheckRequest, dice: Dice) -> Rolled | Outcome:
    """The check thrown as the sheet stands in `game`, which it does not change, or its refusal.

    A character nobody can name rolls plain dice with no modifier on a sum (never a guessed
    sheet), and its receipt and the line the Game Master reads next say so, with the names it can
    use; on a dice pool, where that would throw no dice, a check naming nothing is refused."""
    if game.ruleset is None:
        return Outcome.refused(Reason.NO_SHEET, "this game has no ruleset to check against")
    unknown = unknown_difficulty(game.ruleset.definition.resolution, request)
    if unknown:
        return Outcome.refused(Reason.UNKNOWN_DIFFICULTY, unknown)
    try:
        character: Character | None = game.character(request.who)
    except LookupError:
        character = None
    nothing = names_nothing(game.ruleset, request, character, game.characters)
    if nothing:
        return Outcome.refused(Reason(nothing[0]), nothing[1])
    before = game.live_of(character) if character is not None else LiveState()
    result, after = roll_check(game.ruleset, character, before, request, dice)
    return Rolled(result, character, before, after)


def run_check(command: CheckCommand, game: Draft[Any], dice: Dice) -> Outcome:
    """A check tag in a reply, thrown on the draft: a spend it pays changes the draft."""
    rolled = roll(game, command.check, dice)
    if isinstance(rolled, Outcome):
        return rolled
    result, character = rolled.result, rolled.character
    if character is not None and rolled.after is not rolled.before:
        game.set_live(character.key, rolled.after)
    if isinstance(result, Untrained):
        return Outcome(None, Reason.UNTRAINED, result.summary, None, result.tag)
    summary = result.summary
    if result.sheet == "none":
        summary += " " + usable_names(game)
    return Outcome(now=summary, tag=result.tag, detail=_parts(result), succeeded=result.succeeded)


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
