"""The three clock commands a `[clock: ...]` tag binds to (`gm_tags.families.clock.bind`):
create, tick, clear."""

from __future__ import annotations

from dataclasses import dataclass

from .common import Request

NAME_LIMIT = 100


@dataclass(frozen=True, slots=True)
class CreateClock:
    name: str
    size: int

    @property
    def request(self) -> Request:
        return (("name", self.name), ("size", str(self.size)))


@dataclass(frozen=True, slots=True)
class TickClock:
    name: str
    amount: int

    @property
    def request(self) -> Request:
        return (("name", self.name), ("tick", str(self.amount)))


@dataclass(frozen=True, slots=True)
class ClearClock:
    name: str

    @property
    def request(self) -> Request:
        return (("name", self.name), ("clear", None))


ClockCommand = CreateClock | TickClock | ClearClock
