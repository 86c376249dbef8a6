"""A game being played by several people at once: the current snapshot, changed one atomic step
at a time (a reply applied, a party sheet saved), so no step is lost to another landing first.

The snapshots themselves stay immutable; the session only decides which one is current.
"""

from __future__ import annotations

import threading
from collections.abc import Mapping
from typing import Any

from .game import Game, PartySave
from .pipeline import Turn


class GameSession:
    def __init__(self, game: Game) -> None:
        self._game = game
        self._lock = threading.Lock()

    @property
    def game(self) -> Game:
        """The current snapshot."""
        return self._game

    def apply_reply(self, reply: str, *, seed: int | str | None = None) -> Turn[Game]:
        with self._lock:
            turn = self._game.apply_reply(reply, seed=seed)
            self._game = turn.game
            return turn

    def save_party_sheet(self, draft: Mapping[str, Any], opened_at_revision: int) -> PartySave:
        """`Game.save_party_sheet` against the snapshot current when the save runs: two saves
        opened at one revision cannot both land."""
        with self._lock:
            result = self._game.save_party_sheet(draft, opened_at_revision)
            if result.saved:
                self._game = result.game
            return result
