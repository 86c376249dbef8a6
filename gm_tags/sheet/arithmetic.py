"""The few rules of arithmetic the ruleset format names: rounding and step tables."""

from __future__ import annotations

import bisect
import math
from collections.abc import Callable, Sequence

Number = int | float


def rounded(value: float, how: str) -> int:
    """`value` rounded `down`, `up` or to the `nearest` whole number (halves up, as the Engine's
    Math.round does: 2.5 is 3 and -2.5 is -2)."""
    if how == "up":
        return math.ceil(value)
    if how == "nearest":
        return math.floor(value + 0.5)
    return math.floor(value)


def whole(value: float) -> Number:
    """A whole-valued float as an int, so 3.0 reads and prints as 3."""
    return int(value) if isinstance(value, float) and value.is_integer() else value


def step_function(table: Sequence[Sequence[Number]]) -> Callable[[float], Number]:
    """`step_lookup` for one table, with its thresholds searched by bisection."""
    thresholds = [row[0] for row in table]
    results = [row[1] for row in table]

    def lookup(value: float) -> Number:
        at = bisect.bisect_right(thresholds, value)
        return results[at - 1] if at else 0

    return lookup


def step_lookup(table: Sequence[Sequence[Number]], value: float) -> Number:
    """The step table's entry for the highest threshold at or below `value`; 0 below the first.

    Thresholds ascend (checked at import), so `[[1, 2], [5, 3], [9, 4]]` gives 2 for levels 1 to 4
    and 3 for 5 to 8."""
    found: Number = 0
    for threshold, result in table:
        if value < threshold:
            break
        found = result
    return found
