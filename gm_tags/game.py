"""The game snapshot: an immutable value. Applying a reply returns a new one and leaves this one
as it was, so regenerating a reply or choosing a swipe is a choice of snapshot."""

from __future__ import annotations

import copy
from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any

from .engine.clocks import Clock
from .game_document import read_document
from .pipeline import Turn, process
from .ruleset import Ruleset


@dataclass(frozen=True, slots=True)
class Game:
    """One game's state at one point of its story.

    `clocks` are the progress clocks in the order they were made (a display reads `name`, `size`,
    `filled` and `done` off each). `carried` holds the document keys later stages own, as read.
    """

    ruleset: Ruleset | None
    clocks: tuple[Clock, ...] = ()
    carried: Mapping[str, Any] = field(default_factory=lambda: MappingProxyType({}))

    @classmethod
    def new(cls, ruleset: Ruleset | None) -> Game:
        """A game nothing has happened in yet."""
        return cls(ruleset)

    @classmethod
    def from_document(cls, ruleset: Ruleset | None, document: Mapping[str, Any]) -> Game:
        """A game from its JSON document; raises `GameDocumentError` listing every problem."""
        read = read_document(document)
        carried = {key: copy.deepcopy(value) for key, value in read.carried.items()}
        return cls(ruleset, read.clocks, MappingProxyType(carried))

    def to_document(self) -> dict[str, Any]:
        """The game as a JSON-ready document; `rulesetClocks` is left out when there are none."""
        document = {key: copy.deepcopy(value) for key, value in self.carried.items()}
        if self.clocks:
            document["rulesetClocks"] = [
                {"name": clock.name, "size": clock.size, "filled": clock.filled}
                for clock in self.clocks
            ]
        return document

    def with_clocks(self, clocks: tuple[Clock, ...]) -> Game:
        return Game(self.ruleset, clocks, self.carried)

    def apply_reply(self, reply: str) -> Turn:
        """Run every command tag in `reply`, in order. Never raises for anything `reply` holds."""
        return process(self, reply)
