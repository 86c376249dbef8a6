"""The progress-clock section of the per-turn reminder: the three commands with every limit the
engine enforces, the ruleset's `clocks.text`, and every clock with its fill.

A ruleset without a `clocks` block gets no section at all, so the model never hears of clocks.
"""

from __future__ import annotations

from collections.abc import Sequence

from ..commands.clock import NAME_LIMIT
from ..ruleset.document import Clocks as ClockSettings
from ..sheet.clocks import Clock
from .text import safe


def clock_section(settings: ClockSettings | None, clocks: Sequence[Clock]) -> str:
    """The lines teaching clocks, or "" when the ruleset has none."""
    if settings is None:
        return ""
    sizes = _either(list(map(str, settings.sizes)))
    lines = ["Progress clocks belong to the party and the scene, never to one character."]
    if settings.text:
        lines.append(settings.text)
    lines += [
        f'- Start one: [clock: name="Alarm raised" size="6"] (size {sizes}; at most '
        f"{settings.max} clocks at once, finished ones included).",
        '- Fill it: [clock: name="Alarm raised" tick="2"] (a negative tick empties segments; '
        "a full clock is finished and stays until cleared).",
        '- Remove it: [clock: name="Alarm raised" clear]',
        f"A name is one line of 1 to {NAME_LIMIT} characters without double quotes, square "
        "brackets or {{ }}. Each tag does one thing. Leave result, now and reason out: the "
        "engine writes them.",
        "Clocks now: " + ("; ".join(_shown(clock) for clock in clocks) or "none") + ".",
    ]
    return "\n".join(lines)


def _shown(clock: Clock) -> str:
    return f"{safe(clock.name)} {clock.fill}" + (" (finished)" if clock.done else "")


def _either(words: list[str]) -> str:
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " or " + words[-1]
