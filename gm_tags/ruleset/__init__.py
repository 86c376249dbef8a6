"""The ruleset format: typed models, import checks, capability gates, loading."""

from .capabilities import FEATURES, derived_limit
from .document import RulesetFile
from .loader import Manifest, Ruleset, load_ruleset, validate

__all__ = [
    "FEATURES",
    "Manifest",
    "Ruleset",
    "RulesetFile",
    "derived_limit",
    "load_ruleset",
    "validate",
]
