from __future__ import annotations

from typing import Any

from gm_tags import Game, Ruleset
from tests.conftest import FIXTURES, ruleset_named

RULESETS = FIXTURES / "rulesets"
__all__ = ["RULESETS", "one", "ruleset_named", "tags"]


def one(ruleset: Ruleset, build: dict[str, Any] | None = None, name: str = "Mira") -> Game:
    """A game with one character holding `build` (the blank build when None)."""
    return Game.new(ruleset, {name: build if build is not None else {}}, player=name)


def tags(game: Game, reply: str) -> list[str]:
    return [receipt.tag for receipt in game.apply_reply(reply).receipts]
