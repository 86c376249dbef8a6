"""A progress clock: the party's or the scene's, never a character's (the rules of changing one
are `gm_tags.engine.clocks`'). A value the game state holds beside the cards."""

from __future__ import annotations

from dataclasses import dataclass, field

from ..text import name_key


@dataclass(frozen=True, slots=True)
class Clock:
    name: str
    size: int
    filled: int = 0
    # What the clock's name is compared by (`name_key`), worked out once: every clock command
    # compares its name with each clock's.
    key: str = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "key", name_key(self.name))

    @property
    def done(self) -> bool:
        return self.filled >= self.size

    @property
    def fill(self) -> str:
        return f"{self.filled}/{self.size}"
