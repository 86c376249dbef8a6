"""gm-tags: the command tags a language-model Game Master writes, parsed, applied and rewritten."""

from .errors import GameDocumentError, GmTagsError, Problem, RulesetError, SourceError
from .ruleset import Ruleset, load_ruleset

__all__ = [
    "GameDocumentError",
    "GmTagsError",
    "Problem",
    "Ruleset",
    "RulesetError",
    "SourceError",
    "load_ruleset",
]
