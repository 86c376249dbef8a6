"""gm-tags: the command tags a language-model Game Master writes, parsed, applied and rewritten.

The names below are loaded when first used (PEP 562), so `gm-tags --help` and other light uses
of the package do not pay for pydantic, Lark and the engine.
"""

from __future__ import annotations

import importlib
import typing

if typing.TYPE_CHECKING:
    from .checks.record import CheckRecord
    from .dice import Dice
    from .errors import GameDocumentError, GmTagsError, Problem, RulesetError, SourceError
    from .game import CheckRefused, ColumnRoll, Game, PartySave, SheetEdit, UnknownCharacterError
    from .pipeline import Turn
    from .reasons import Reason
    from .receipts import Receipt
    from .ruleset import Ruleset, load_ruleset
    from .session import GameSession
    from .sheet.clocks import Clock
    from .sheet.columns import ColumnRollError
    from .sheet.pickers import StateChoice

# Where each public name lives.
_HOMES = {
    "CheckRecord": ".checks.record",
    "CheckRefused": ".game",
    "Clock": ".sheet.clocks",
    "ColumnRoll": ".game",
    "ColumnRollError": ".sheet.columns",
    "Dice": ".dice",
    "Game": ".game",
    "GameDocumentError": ".errors",
    "GameSession": ".session",
    "GmTagsError": ".errors",
    "PartySave": ".game",
    "Problem": ".errors",
    "Reason": ".reasons",
    "Receipt": ".receipts",
    "Ruleset": ".ruleset",
    "RulesetError": ".errors",
    "SheetEdit": ".game",
    "SourceError": ".errors",
    "StateChoice": ".sheet.pickers",
    "Turn": ".pipeline",
    "UnknownCharacterError": ".game",
    "load_ruleset": ".ruleset",
}

__all__ = [
    "CheckRecord",
    "CheckRefused",
    "Clock",
    "ColumnRoll",
    "ColumnRollError",
    "Dice",
    "Game",
    "GameDocumentError",
    "GameSession",
    "GmTagsError",
    "PartySave",
    "Problem",
    "Reason",
    "Receipt",
    "Ruleset",
    "RulesetError",
    "SheetEdit",
    "SourceError",
    "StateChoice",
    "Turn",
    "UnknownCharacterError",
    "load_ruleset",
]


def __getattr__(name: str) -> typing.Any:
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module 'gm_tags' has no attribute {name!r}")
    value = getattr(importlib.import_module(home, __name__), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *__all__})
