from __future__ import annotations

import pytest

from gm_tags import Game, Ruleset, load_ruleset
from tests.conftest import FIXTURES

RULESETS = FIXTURES / "rulesets"


@pytest.fixture(scope="session")
def crew() -> Ruleset:
    """Clocks of 4, 6 or 8 segments, at most 6 kept."""
    return load_ruleset(RULESETS / "crew-of-shadows.json")


@pytest.fixture(scope="session")
def no_clocks() -> Ruleset:
    return load_ruleset(RULESETS / "storyteller.json")


@pytest.fixture
def game(crew: Ruleset) -> Game:
    return Game.new(crew)
