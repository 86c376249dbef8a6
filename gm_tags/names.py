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


class NameIndex:
    """Who `who=` names among a snapshot's cards, in one dictionary lookup: built once from the
    cards' normalized names, in card order, so a command costs the same in a party of 2 and of
    500.

    First as the Engine matches: every card whose normalized name equals `who`'s. When none does,
    one step past the Engine (docs/commands.md, "Who a tag names"): a one-word `who` names the
    cards whose name begins with that word, so `who="Agnes"` finds "Agnes Ward". Two or more
    positions mean the name is shared; the caller decides who wins a tie. This is the one place
    the rule lives."""

    def __init__(self, keys: Sequence[str]) -> None:
        exact: dict[str, list[int]] = {}
        first_word: dict[str, list[int]] = {}
        for index, key in enumerate(keys):
            exact.setdefault(key, []).append(index)
            first_word.setdefault(key.split(" ", 1)[0], []).append(index)
        self._exact = {key: tuple(found) for key, found in exact.items()}
        self._first_word = {word: tuple(found) for word, found in first_word.items()}

    def named(self, who: str) -> tuple[int, ...]:
        """The positions of the cards `who=` names."""
        return self.keyed(normalize_name(who))

    def keyed(self, key: str) -> tuple[int, ...]:
        """The positions of the cards a normalized name names."""
        exact = self._exact.get(key, ())
        if exact or not key or " " in key:
            return exact
        return self._first_word.get(key, ())

    def exactly(self, key: str) -> tuple[int, ...]:
        """The positions of the cards whose normalized name is `key`."""
        return self._exact.get(key, ())
