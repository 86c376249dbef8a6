"""Progress clocks: the party's and the scene's, never a character's.

A clock is a name, a size (segments) and a fill. A full clock is done; it stays, counts toward
`max` and can be reopened by a negative tick, until it is cleared. Names are compared by
`name_key` (case-insensitive, Unicode-aware); a clock keeps the name it was created with.
"""

from __future__ import annotations

from ..commands.clock import ClearClock, ClockCommand, CreateClock, TickClock
from ..reasons import Reason
from ..ruleset.document import Clocks as ClockSettings
from ..sheet.clocks import Clock
from ..text import name_key
from .outcome import Outcome


def run_clock(
    command: ClockCommand, clocks: tuple[Clock, ...], settings: ClockSettings | None
) -> tuple[tuple[Clock, ...], Outcome]:
    """The clocks after `command`, and its outcome; `clocks` is returned as it was on a refusal."""
    if settings is None:
        return clocks, Outcome.refused(
            Reason.NO_CLOCKS, "this ruleset has no clocks block, so clock commands are off"
        )
    at = _index_of(clocks, name_key(command.name))
    if isinstance(command, CreateClock):
        return _create(command, clocks, settings, exists=at is not None)
    if at is None:
        return clocks, Outcome.refused(Reason.UNKNOWN_CLOCK, f"no clock is named {command.name!r}")
    clock = clocks[at]
    # Written back under the name the clock was created with.
    request = (("name", clock.name), *command.request[1:])
    if isinstance(command, ClearClock):
        return clocks[:at] + clocks[at + 1 :], Outcome(now="cleared", request=request)
    ticked = _ticked(clock, command)
    return (*clocks[:at], ticked, *clocks[at + 1 :]), Outcome(now=ticked.fill, request=request)


def _index_of(clocks: tuple[Clock, ...], key: str) -> int | None:
    for at, clock in enumerate(clocks):
        if clock.key == key:
            return at
    return None


def _ticked(clock: Clock, command: TickClock) -> Clock:
    return Clock(clock.name, clock.size, max(0, min(clock.size, clock.filled + command.amount)))


def _create(
    command: CreateClock, clocks: tuple[Clock, ...], settings: ClockSettings, *, exists: bool
) -> tuple[tuple[Clock, ...], Outcome]:
    if command.size not in settings.sizes:
        offered = ", ".join(map(str, settings.sizes))
        return clocks, Outcome.refused(
            Reason.BAD_SIZE, f"size {command.size} is not offered; sizes are {offered}"
        )
    if exists:
        return clocks, Outcome.refused(
            Reason.CLOCK_EXISTS, f"a clock named {command.name!r} already exists"
        )
    if len(clocks) >= settings.max:
        return clocks, Outcome.refused(
            Reason.CLOCKS_FULL,
            f"{len(clocks)} clocks are kept, the most this ruleset allows; clear one first",
        )
    created = Clock(command.name, command.size)
    return (*clocks, created), Outcome(now=created.fill)
