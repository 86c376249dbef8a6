"""`[fight: ...]`: a fight begun, played turn by turn and ended (`gm_tags.engine.fight`), and the
reminder's fight part (docs/fights.md)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ...commands.fight import FightCommand
from ...dice import Dice
from ...engine.fight.run import run_fight
from ...engine.outcome import Outcome
from ...prompt.fight import fight_section
from ...prompt.reminder import Teaching
from ...reasons import Reason
from ...state import Draft, GameState
from ..family import Family
from .bind import bind_fight


def run(command: FightCommand, draft: Draft[Any], dice: Dice) -> Outcome:
    return run_fight(command, draft, dice)


def words(request: Mapping[str, str | None]) -> list[str]:
    """`fight attack Mira`."""
    return ["fight", request.get("op") or "", request.get("who") or ""]


def teach(game: GameState) -> Teaching:
    return Teaching([], fight_section(game))


# A fight's refusals say whose turn it is, what the options are, or who stands.
EXPLAINED = frozenset(
    {Reason.NOT_YOUR_TURN, Reason.UNKNOWN_OPTION, Reason.NO_SUCH_TARGET, Reason.UNKNOWN_OPPONENT}
)
FAMILY = Family("fight", bind_fight, run, words, explained=EXPLAINED, teach=teach)
