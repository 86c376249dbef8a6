from __future__ import annotations

from typing import Any

import pytest

from gm_tags import Game, Ruleset, load_ruleset
from tests.conftest import FIXTURES

RULESETS = FIXTURES / "rulesets"


def ruleset_named(name: str) -> Ruleset:
    path = RULESETS / "reference" / f"{name}.json"
    return load_ruleset(path if path.exists() else RULESETS / f"{name}.json")


@pytest.fixture(scope="session")
def ember() -> Ruleset:
    return ruleset_named("ember-roads")


@pytest.fixture(scope="session")
def gravewatch() -> Ruleset:
    return ruleset_named("gravewatch")


@pytest.fixture(scope="session")
def storyteller() -> Ruleset:
    return ruleset_named("storyteller")


@pytest.fixture(scope="session")
def fifth() -> Ruleset:
    return ruleset_named("fifth-age")


@pytest.fixture(scope="session")
def strain() -> Ruleset:
    return ruleset_named("strain-runners")


def one(ruleset: Ruleset, build: dict[str, Any] | None = None, name: str = "Mira") -> Game:
    """A game with one character holding `build` (the blank build when None)."""
    return Game.new(ruleset, {name: build if build is not None else {}}, player=name)


def tags(game: Game, reply: str) -> list[str]:
    return [receipt.tag for receipt in game.apply_reply(reply).receipts]
