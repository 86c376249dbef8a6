"""What a sheet screen offers a player: a picker for each visible live state (ST-9)."""

from __future__ import annotations

from typing import NamedTuple

from ..ruleset.loader import Ruleset
from .build import hidden
from .character import Character
from .live import LiveState
from .plan_live import state_value


class StateChoice(NamedTuple):
    """One state's picker: its values with their labels, in the ruleset's order, and the value it
    holds now (its default when nothing is stored)."""

    id: str
    label: str
    values: tuple[tuple[str, str], ...]
    current: str


def state_choices(ruleset: Ruleset, character: Character, live: LiveState) -> list[StateChoice]:
    fields = ruleset.index.fields
    return [
        StateChoice(
            state.id,
            state.label,
            tuple((value, state.label_of(value)) for value in state.values),
            state_value(state, live),
        )
        for state in ruleset.definition.sheet.live.states
        if not hidden(state.hide_when, fields, character.build)
    ]
