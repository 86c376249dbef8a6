"""Finding a sheet entry (track, condition, state, note field, rest) by the name a command uses:
its id exactly, else its id or label in any case."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any


def by_name(entries: Sequence[Any], name: str) -> Any:
    exact = next((entry for entry in entries if entry.id == name), None)
    if exact is not None:
        return exact
    folded = name.strip().casefold()
    return next((e for e in entries if folded in (e.id.casefold(), e.label.casefold())), None)
