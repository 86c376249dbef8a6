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
