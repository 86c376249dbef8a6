"""The pytest plugin (entry point `pytest11`: `gm_tags`): a `gm_game` fixture that builds games
under test, and `turn_snapshot`, syrupy's `snapshot` snapshotting turns as readable text. It
offers its fixtures only when syrupy is installed (`pip install "gm-tags[test]"`); enable it
by hand with `-p gm_tags.testing.plugin` when gm-tags is not installed as a package."""

from __future__ import annotations

import importlib.util
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

if TYPE_CHECKING:
    from ..ruleset import Ruleset
    from .render import TestGame

# gm-tags itself is imported when a fixture is first used, not when pytest starts.
GameFactory = Callable[..., "TestGame"]

if importlib.util.find_spec("syrupy") is not None:

    @pytest.fixture
    def gm_game() -> GameFactory:
        """`gm_game(ruleset, game=None, *, characters=None, seed=0)`: a `TestGame` whose
        `play(reply)` applies replies with a fixed seed."""

        def build(
            ruleset: str | Path | Mapping[str, Any] | Ruleset,
            game: str | Path | Mapping[str, Any] | None = None,
            *,
            characters: list[Mapping[str, Any]] | None = None,
            seed: int | str = 0,
        ) -> TestGame:
            from .render import TestGame

            return TestGame.of(ruleset, game, characters=characters, seed=seed)

        return build

    @pytest.fixture
    def turn_snapshot(snapshot: Any) -> Any:
        """syrupy's `snapshot`, writing each `PlayedTurn` as a readable `.turn.txt` file."""
        from .snapshots import TurnSnapshotExtension

        return snapshot.use_extension(TurnSnapshotExtension)
