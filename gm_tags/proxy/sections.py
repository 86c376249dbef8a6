"""The system section the proxy adds to a request, written once per ruleset and token budget.

The section is the same bytes every turn by design (a provider's prompt cache keys on the
opening of the prompt), a function of the ruleset and the budget alone, and a ruleset never
changes once loaded. Writing it on every request cost the request, on its way to the upstream,
the rules reference (up to 16,000 characters) joined and counted, cut to the budget by a search
over its words when it does not fit, and written as a JSON message: 0.4 ms with a full
reference and no budget, 2.5 ms with a budget that cuts it (docs/proxy.md, "Measured"). So each
is written once and kept, the ruleset itself held with it (no other object takes its id while it
is kept).
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from typing import NamedTuple

from ..game import Game
from .spliced import Written

# The sections kept, the latest used: one per ruleset and budget a proxy plays with.
KEPT = 16


class Section(NamedTuple):
    """The system section's text, and the chat-completions system message that carries it
    written as JSON (None when the text is empty: no message is added)."""

    text: str
    message: Written | None


_kept: OrderedDict[tuple[int, int | None], tuple[object, Section]] = OrderedDict()
_lock = threading.Lock()


def section_of(game: Game, budget: int | None) -> Section:
    """`game.system_prompt(budget)`, and its message, written once for the game's ruleset."""
    ruleset = game.ruleset
    key = (id(ruleset), budget)
    with _lock:
        kept = _kept.get(key)
        if kept is not None:
            _kept.move_to_end(key)
            return kept[1]
    text = game.system_prompt(budget).text
    section = Section(text, Written.of({"role": "system", "content": text}) if text else None)
    with _lock:
        _kept[key] = (ruleset, section)
        while len(_kept) > KEPT:
            _kept.popitem(last=False)
    return section
