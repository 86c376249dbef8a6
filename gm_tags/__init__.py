"""gm-tags: the command tags a language-model Game Master writes, parsed, applied and rewritten."""

from .checks.record import CheckRecord
from .dice import Dice
from .engine.clocks import Clock
from .errors import GameDocumentError, GmTagsError, Problem, RulesetError, SourceError
from .game import CheckRefused, ColumnRoll, Game, PartySave, SheetEdit, UnknownCharacterError
from .pipeline import Turn
from .reasons import Reason
from .receipts import Receipt
from .ruleset import Ruleset, load_ruleset
from .session import GameSession
from .sheet.columns import ColumnRollError
from .sheet.pickers import StateChoice

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
