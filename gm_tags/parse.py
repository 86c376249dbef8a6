"""Reading the tags the scanner found with the Lark grammar (`grammar/tags.lark`) into `Tag`s.

The tags of one reply are parsed together, one TAG token each, so the parser's fixed cost is paid
once per reply; each tag is then split into attributes and flags with the grammar's ATTRIBUTE and
FLAG patterns.

What we forgive, because the meaning is plain: any case in the tag name and keys, white space
around `=` and inside the tag (line breaks included), single, double or typographic quotes or
corner brackets, a bare value, commas between attributes, the same attribute written twice with
the same value. What we refuse, because it would be a guess: the same attribute with two different
values, an unterminated tag, and anything the grammar cannot read. A refused tag keeps its place in
the reply and becomes a refusal receipt.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

from lark.exceptions import LarkError

from .grammar import ITEM, read_tags
from .scan import Candidate
from .text import lone_surrogate

QUOTES = {
    '"': '"',
    "'": "'",
    "\u201c": "\u201d",
    "\u2018": "\u2019",
    "\u300c": "\u300d",
    "\u300e": "\u300f",
}


class Tag(NamedTuple):
    """A command tag as the model wrote it: its name, attributes in order, bare flags, and span."""

    name: str
    attributes: tuple[tuple[str, str], ...]
    flags: tuple[str, ...]
    start: int
    end: int
    raw: str
    body: int  # where the attributes start in `raw`
    problem: str | None = None

    def get(self, key: str) -> str | None:
        return next((value for name, value in self.attributes if name == key), None)


def parse(candidate: Candidate) -> Tag:
    """The tag one candidate holds; a tag with `problem` set when it cannot be read as one."""
    return parse_all([candidate])[0]


def parse_all(candidates: Sequence[Candidate]) -> list[Tag]:
    """The tags the candidates hold, in order, the readable ones parsed in one pass."""
    readable = [candidate for candidate in candidates if candidate.readable]
    confirmed = set(_confirmed(readable))
    return [_tag(candidate, confirmed) for candidate in candidates]


def _confirmed(readable: list[Candidate]) -> list[int]:
    """The starts of the candidates the parser reads as tags."""
    try:
        texts = read_tags([candidate.text for candidate in readable])
    except LarkError:
        return []
    return [candidate.start for candidate, text in zip(readable, texts, strict=True) if text]


def _tag(candidate: Candidate, confirmed: set[int]) -> Tag:
    if not candidate.closed:
        return _refused(candidate, "unterminated")
    if candidate.start not in confirmed:
        return _refused(candidate, "unreadable")
    unstorable = lone_surrogate(candidate.text)
    if unstorable:
        return _refused(candidate, f"the tag {unstorable}")
    kept: dict[str, str] = {}
    flags: list[str] = []
    text = candidate.text
    for key, value, flag in ITEM.findall(text[candidate.body : -1]):
        if flag:
            flags.append(flag.lower())
            continue
        key = key.lower()
        if len(value) >= 2 and value[0] in QUOTES and value[-1] == QUOTES[value[0]]:
            value = value[1:-1]
        if key in kept and kept[key] != value:
            return _refused(candidate, f"{key} given twice")
        if value:
            kept.setdefault(key, value)
    return Tag(
        candidate.name,
        tuple(kept.items()),
        tuple(dict.fromkeys(flags)),
        candidate.start,
        candidate.end,
        text,
        candidate.body,
    )


def _refused(candidate: Candidate, problem: str) -> Tag:
    return Tag(
        candidate.name,
        (),
        (),
        candidate.start,
        candidate.end,
        candidate.text,
        candidate.body,
        problem,
    )
