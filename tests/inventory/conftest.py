"""Games to carry things in: the two reference rulesets, with characters built for each case."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from gm_tags import Game, Ruleset, Turn


def receipts_of(turn: Turn[Any]) -> list[str]:
    """Each receipt as `now` or `reason`, in reply order."""
    return [r.now if r.ok else f"refused {r.reason}" for r in turn.receipts]  # type: ignore[misc]


@pytest.fixture
def warden(gravewatch: Ruleset) -> Callable[[int], Game]:
    """A Gravewatch warden, Agnes, of the given Nerve (the player)."""
    return lambda nerve: Game.new(
        gravewatch, characters={"Agnes": {"abilities": {"sinew": 2, "nerve": nerve}}}
    )


@pytest.fixture
def traveller(ember: Ruleset) -> Game:
    """An Ember Roads traveller of Brawn 0 (Load 6, at most 12), and a friend."""
    return Game.new(ember, characters={"Wren": {"abilities": {"brawn": 0}}, "Bram": None})
