"""A pool as a character (or the party) has it: its stored key, label and maximum, and what is
left in it in a live state. Which pools a character has, and the pool commands, are
`gm_tags.engine.pools`'."""

from __future__ import annotations

from dataclasses import dataclass

from .live import LiveState


@dataclass(frozen=True, slots=True)
class PoolSlot:
    key: str
    label: str
    maximum: int
    start_full: bool = True
    allow_temp: bool = False
    row: bool = False

    @property
    def default(self) -> int:
        return self.maximum if self.start_full else 0

    def now(self, live: LiveState) -> tuple[int, int]:
        """What is left in the pool (held within 0..maximum) and its temporary points."""
        stored = live.pools.get(self.key)
        if stored is None:
            return self.default, 0
        return min(max(stored.value, 0), self.maximum), stored.temp
