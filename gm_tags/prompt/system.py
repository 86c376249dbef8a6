"""The stable system section (the same bytes every turn, so a provider's prompt cache hits): the
paragraph on asking for checks, or `gm.checkGuidance` in its place, then the ruleset's rules
reference under its heading, once. And the world set-up prompt, the only place
`gm.worldGuidance` goes.

With a token budget, the rules reference is shortened first, at a word, with a marked cut; the core
instructions are never cut.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import NamedTuple

from ..ruleset.loader import Ruleset

CHECK_PARAGRAPH = (
    "When the outcome of something a character attempts is uncertain, do not decide it yourself: "
    'ask for a check with a [skill_check: skill="..." dc="N"] tag. Name only the skill and how '
    "hard it is. The engine rolls the dice and does the arithmetic from the character's sheet; "
    "narrate what the result decides."
)
REFERENCE_HEADING = "Game Master rules reference"
CUT_MARK = "(The rest of the rules reference is left out here to fit the context.)"

TokenCounter = Callable[[str], int]


def estimate_tokens(text: str) -> int:
    """A rough count that needs no tokenizer: about four characters a token."""
    return math.ceil(len(text) / 4)


class SystemPrompt(NamedTuple):
    """The system section, its size by the counter used, and how many characters of the rules
    reference were cut to fit (0 when nothing was)."""

    text: str
    tokens: int
    cut: int


def system_prompt(
    ruleset: Ruleset | None, budget: int | None = None, count: TokenCounter = estimate_tokens
) -> SystemPrompt:
    guidance = CHECK_PARAGRAPH
    reference = None
    if ruleset is not None:
        guidance = ruleset.definition.gm.check_guidance or CHECK_PARAGRAPH
        reference = ruleset.definition.gm_reference
    if not reference:
        return SystemPrompt(guidance, count(guidance), 0)
    full = f"{guidance}\n\n{REFERENCE_HEADING}\n{reference}"
    if budget is None or count(full) <= budget:
        return SystemPrompt(full, count(full), 0)
    kept = _longest_prefix(reference, lambda part: count(_with_cut(guidance, part)) <= budget)
    text = _with_cut(guidance, kept)
    return SystemPrompt(text, count(text), len(reference) - len(kept))


def _with_cut(guidance: str, kept: str) -> str:
    body = f"{kept} {CUT_MARK}" if kept else CUT_MARK
    return f"{guidance}\n\n{REFERENCE_HEADING}\n{body}"


def _longest_prefix(text: str, fits: Callable[[str], bool]) -> str:
    """The longest prefix of `text` that ends at a word and `fits` (a binary search over the
    word ends, so a long reference costs a few dozen counts, not one a word)."""
    ends = [at for at, char in enumerate(text) if char == " "] + [len(text)]
    low, high = 0, len(ends)
    while low < high:
        middle = (low + high) // 2
        if fits(text[: ends[middle]].rstrip()):
            low = middle + 1
        else:
            high = middle
    return text[: ends[low - 1]].rstrip() if low else ""


def world_prompt(ruleset: Ruleset | None) -> str:
    """What the world set-up prompt adds: `gm.worldGuidance`, read once when the world is made."""
    if ruleset is None:
        return ""
    return ruleset.definition.gm.world_guidance or ""
