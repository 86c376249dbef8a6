"""The two texts a processed reply becomes: the rewritten reply, where each command tag is its
receipt, and the narration the player reads, where command tags are gone without a trace (no
doubled space, no empty line where a tag stood)."""

from __future__ import annotations

from collections.abc import Sequence

from .grammar import opening
from .receipts import Receipt

# Punctuation a tag may stand just before: the space before the tag goes, not the punctuation.
_CLOSING = frozenset(
    ".,;:!?)]}\u00bb\u201d\u2019\u2026\u0964\u0965\u3001\u3002\uff0c\uff01\uff1f\u300d\u300f\uff09"
)


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

_WRAPPER_OPENINGS = frozenset(left[0] for left, _ in _WRAPPERS)


def rewrite(reply: str, receipts: Sequence[Receipt]) -> str:
    pieces: list[str] = []
    at = 0
    for receipt in receipts:
        pieces += [reply[at : receipt.start], receipt.tag]
        at = receipt.end
    pieces.append(reply[at:])
    return "".join(pieces)


def narrate(reply: str, spans: Sequence[tuple[int, int]]) -> str:
    """`reply` with every span removed, each taking one adjacent space with it; a line that held
    nothing but tags goes, and so does a blank line its going would double. Where the text on
    the two sides of a removed span would join into a new tag opening, that opening's `[` is
    left out too: the narration never holds a tag nobody applied."""
    if not spans:
        return reply
    kept_pieces: list[str] = []
    at = 0
    for start, end in spans:
        start, end = unwrapped(reply, start, end, floor=at)
        kept_pieces.append(reply[at:start])
        at = end
    kept_pieces.append(reply[at:])
    ends_with_newline = kept_pieces[-1].endswith("\n")
    if ends_with_newline:
        kept_pieces[-1] = kept_pieces[-1][:-1]
    kept: list[str] = []
    dropped_since_kept = False
    for parts in _lines(kept_pieces):
        if len(parts) > 1:
            line = _joined(parts)
            if not line.strip():
                dropped_since_kept = True
                continue
        else:
            line = parts[0]
            if dropped_since_kept and not line.strip() and (not kept or not kept[-1].strip()):
                continue
        kept.append(line)
        dropped_since_kept = dropped_since_kept and not line.strip()
    if dropped_since_kept:
        while kept and not kept[-1].strip():
            kept.pop()
    narration = _without_formed_openings("\n".join(kept))
    return narration + "\n" if ends_with_newline and narration else narration


def _lines(pieces: list[str]) -> list[list[str]]:
    """The text between removed spans, line by line: each line as the parts a removed span
    separated (a line of one part had nothing removed from it)."""
    lines: list[list[str]] = [[]]
    for at, piece in enumerate(pieces):
        if at:
            lines[-1].append("")  # a removed span stood here: start the line's next part
        first, *rest = piece.split("\n")
        lines[-1][-1:] = [(lines[-1][-1] if lines[-1] else "") + first]
        lines += [[line] for line in rest]
    return lines


def _without_formed_openings(narration: str) -> str:
    """The narration with the `[` of every tag opening left out. Every opening in the reply was a
    candidate and is gone, so any found here was formed by joining the text around a removed
    span; leaving out its `[` can only form another where `[` and white space stood before it,
    so those go too, walking back."""
    if "[" not in narration:
        return narration
    drop: list[int] = []
    for opened in opening().finditer(narration):
        at = opened.start()
        while at >= 0 and narration[at] == "[":
            drop.append(at)
            at -= 1
            while at >= 0 and narration[at] in " \t":
                at -= 1
    if not drop:
        return narration
    dropped = set(drop)
    return "".join(char for at, char in enumerate(narration) if at not in dropped)


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


def _spaceless(char: str) -> bool:
    """A character of a script written without spaces between words (Chinese, Japanese)."""
    code = ord(char)
    return 0x3000 <= code <= 0x30FF or 0x3400 <= code <= 0x9FFF or 0xF900 <= code <= 0xFFEF


def _joined(parts: list[str]) -> str:
    """A line's parts joined where removed spans stood, mending the space around each."""
    text = parts[0]
    blank = not text.strip()  # nothing but white space so far on this line
    for after in parts[1:]:
        rest = after.rstrip("\r")
        if text.endswith(" ") and after.startswith(" "):
            after = after[1:]
        elif text.endswith(" ") and (not rest or rest[0] in _CLOSING):
            text = text[:-1]
        elif after.startswith(" ") and (blank or _spaceless(text[-1])):
            after = after[1:]
        text += after
        blank = blank and not after.strip()
    return text
