"""gm-tags: the command tags a language-model Game Master writes, parsed, applied and rewritten."""

from .engine.clocks import Clock
from .errors import GameDocumentError, GmTagsError, Problem, RulesetError, SourceError
from .game import Game
from .pipeline import Turn
from .reasons import Reason
from .receipts import Receipt
from .ruleset import Ruleset, load_ruleset

__all__ = [
    "Clock",
    "Game",
    "GameDocumentError",
    "GmTagsError",
    "Problem",
    "Reason",
    "Receipt",
    "Ruleset",
    "RulesetError",
    "SourceError",
    "Turn",
    "load_ruleset",
]
