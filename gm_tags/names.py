"""Character names as the Engine compares them.

A name is normalized by compatibility decomposition (NFKD), dropping the combining accents
U+0300-U+036F, lower-casing (without any locale's rules), turning every run of characters that are
not letters, numbers or marks into one space, and trimming. So `Éowyn` and `eowyn` are one name;
Japanese, Chinese and Devanagari names keep their letters and marks and compare as written.
The normalized name is also the key a character's live state is stored under.
"""

from __future__ import annotations

import functools
import unicodedata
from collections.abc import Sequence

PARTY = "party"


@functools.lru_cache(maxsize=4096)
def normalize_name(name: str) -> str:
    decomposed = unicodedata.normalize("NFKD", name)
    kept: list[str] = []
    for char in decomposed:
        if "\u0300" <= char <= "\u036f":
            continue
        kept.append(char if unicodedata.category(char)[0] in "LNM" else " ")
    return " ".join("".join(kept).lower().split())


def named(who: str, keys: Sequence[str]) -> tuple[int, ...]:
    """The positions in `keys` (normalized card names) that `who=` names.

    First as the Engine matches: every card whose normalized name equals `who`'s. When none does,
    one step past the Engine (docs/commands.md, "Who a tag names"): a one-word `who` names the
    cards whose name begins with that word, so `who="Agnes"` finds "Agnes Ward". Two or more
    positions mean the name is shared; the caller decides who wins a tie. This is the one place the
    rule lives, so an index over the keys can replace it whole."""
    key = normalize_name(who)
    exact = tuple(index for index, name in enumerate(keys) if name == key)
    if exact or not key or " " in key:
        return exact
    return tuple(index for index, name in enumerate(keys) if name.split(" ", 1)[0] == key)
