"""The two texts a processed reply becomes: the rewritten reply, where each command tag is its
receipt, and the narration the player reads, where command tags are gone without a trace (no
doubled space, no empty line where a tag stood)."""

from __future__ import annotations

from collections.abc import Sequence

from .narrator import Narrator, without_formed_openings
from .receipts import Receipt

# Markup a tag may stand wrapped in (`**[clock: ...]**`): gone from the narration with the tag.
_WRAPPERS = (
    ("**", "**"),
    ("__", "__"),
    ("~~", "~~"),
    ("*", "*"),
    ("_", "_"),
    ("`", "`"),
    ("[", "]"),
    ("(", ")"),
    ("\uff08", "\uff09"),
    ("\u3010", "\u3011"),
)

# What markup a tag may stand wrapped in starts with, and how long its closing part may be.
WRAPPER_MARKUP = "".join(dict.fromkeys(left[0] for left, _ in _WRAPPERS))
LONGEST_CLOSING_MARKUP = max(len(right) for _, right in _WRAPPERS)
_WRAPPER_OPENINGS = frozenset(WRAPPER_MARKUP)


def rewrite(reply: str, receipts: Sequence[Receipt]) -> str:
    pieces: list[str] = []
    at = 0
    for receipt in receipts:
        pieces += [reply[at : receipt.start], receipt.tag]
        at = receipt.end
    pieces.append(reply[at:])
    return "".join(pieces)


def narrate(reply: str, spans: Sequence[tuple[int, int]]) -> str:
    """`reply` with every span removed (widened over the markup it stands wrapped in), as the
    rules in `gm_tags.narrator` say."""
    if not spans:
        # No command: an opening here is one no family takes (a shipped family unregistered),
        # whose `[` the narration leaves out as it does beside a removed tag.
        return without_formed_openings(reply)
    narrator = Narrator()
    at = 0
    for start, end in spans:
        start, end = unwrapped(reply, start, end, floor=at)
        narrator.keep(reply[at:start])
        narrator.remove()
        at = end
    narrator.keep(reply[at:])
    return narrator.finish()


def unwrapped(reply: str, start: int, end: int, *, floor: int) -> tuple[int, int]:
    """The span `start:end` widened over the markup it stands wrapped in, not below `floor`."""
    if reply[start - 1 : start] not in _WRAPPER_OPENINGS or start <= floor:
        return start, end
    widened = True
    while widened:
        widened = False
        for left, right in _WRAPPERS:
            if (
                start - len(left) >= floor
                and reply.startswith(left, start - len(left))
                and reply.startswith(right, end)
            ):
                start, end, widened = start - len(left), end + len(right), True
                break
    return start, end
