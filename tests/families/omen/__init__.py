"""A toy tag family, in one package: `[ill_omen_rising: sign="Crows"]` sets a four-step clock
named for the sign going, or ticks it once when it runs already. It is registered by the tests
that use it (`gm_tags.families.registry.registered`), and by nothing else."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from gm_tags.commands.common import Refused, Request, malformed, requested
from gm_tags.dice import Dice
from gm_tags.engine.outcome import Outcome
from gm_tags.families.family import Family
from gm_tags.parse import Tag
from gm_tags.prompt.reminder import Teaching
from gm_tags.sheet.clocks import Clock
from gm_tags.state import Draft, GameState

# Longer than any shipped tag name, so a stream must hold back more of an opening.
NAME = "ill_omen_rising"
LESSON = f'- When a bad sign shows: [{NAME}: sign="Crows"] (the engine keeps its count)'


@dataclass(frozen=True)
class Omen:
    sign: str

    @property
    def request(self) -> Request:
        return (("sign", self.sign),)


def bind(tag: Tag) -> Omen | Refused:
    sign = requested(tag).get("sign", "").strip()
    return Omen(sign) if sign else malformed(tag, "an omen names its sign with sign=")


def run(command: Omen, draft: Draft[Any], dice: Dice) -> Outcome:
    others = [clock for clock in draft.clocks if clock.name != command.sign]
    found = next((clock for clock in draft.clocks if clock.name == command.sign), None)
    clock = Clock(command.sign, 4, found.filled + 1 if found else 0)
    draft.set_clocks((*others, clock))
    return Outcome(now=f"{clock.filled}/{clock.size}")


def words(request: Mapping[str, str | None]) -> list[str]:
    return ["omen", request.get("sign") or ""]


def teach(game: GameState) -> Teaching:
    return Teaching([LESSON])


FAMILY = Family(NAME, bind, run, words, teach=teach)
