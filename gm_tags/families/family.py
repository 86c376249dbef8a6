"""What a tag family is: everything the reply's stages need of one kind of command tag, in one
value the registry (`gm_tags.families.registry`) holds under its tag name.

A family binds a parsed tag to its typed command (or a refusal), runs the command on the reply's
draft (calling into `gm_tags.engine`, which writes only to the draft), names the receipt's line in
the next reminder, and says what the reminder teaches of it. The pipeline, the stream and the
reminder read families only through this shape, so none of them names a family.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, Generic, Protocol, TypeVar

from ..commands.common import Refused, Request
from ..dice import Dice
from ..engine.outcome import Outcome
from ..parse import Tag
from ..prompt.reminder import Teaching
from ..reasons import Reason
from ..state import Draft, GameState


class Command(Protocol):
    """A bound command: the request its receipt writes back."""

    @property
    def request(self) -> Request: ...


C = TypeVar("C", bound=Command)


def _nothing_taught(game: GameState) -> Teaching:
    return Teaching([])


def _no_roll(now: str | None, reason: Reason | None, detail: str) -> str | None:
    return None


@dataclass(frozen=True)
class Family(Generic[C]):
    """One kind of command tag, `[name: ...]`.

    - `bind`: the parsed tag to a typed command, or the refusal a malformed request becomes;
    - `run`: the command on the draft, which it changes in place, and what came of it;
    - `words`: the words that name a receipt's request in its summary line (`Mira spend grit`);
    - `explained`: refusals whose summary line carries their detail, because the model cannot
      write the command right without it;
    - `teach`: what the reminder teaches (called only for a game with a ruleset);
    - `branches`: whether `[success: ...]` and `[failure: ...]` may follow its tag, the narration
      keeping the half that happened;
    - `rolled`: the line the next reminder reads of a receipt as a roll, if it is one;
    - `unlisted`: refusals the next reminder does not list as not having happened (a roll that
      `rolled` already reports).
    """

    name: str
    bind: Callable[[Tag], C | Refused]
    run: Callable[[C, Draft[Any], Dice], Outcome]
    words: Callable[[Mapping[str, str | None]], list[str]]
    explained: frozenset[Reason] = frozenset()
    teach: Callable[[GameState], Teaching] = _nothing_taught
    branches: bool = False
    rolled: Callable[[str | None, Reason | None, str], str | None] = _no_roll
    unlisted: frozenset[Reason] = frozenset()
