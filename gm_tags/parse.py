"""Reading each tag the scanner found with the Lark grammar (`grammar/tags.lark`) into a `Tag`.

What we forgive, because the meaning is plain: any case in the tag name and keys, white space
around `=` and inside the tag (line breaks included), single, double or typographic quotes or
corner brackets, a bare value, commas between attributes, the same attribute written twice with
the same value. What we refuse, because it would be a guess: the same attribute with two different
values, an unterminated tag, and anything the grammar cannot read. A refused tag keeps its place in
the reply and becomes a refusal receipt whose detail says where and what went wrong, in words a
model can act on (`at column 16: expected = after "amount"`).
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from typing import NamedTuple

from .grammar import Item, ParsedTag, read_tag, read_tags
from .scan import MAX_BODY, Candidate
from .syntax import (
    CLOSING_QUOTES,
    END,
    EQUALS,
    KEY,
    KEY_CHARACTERS,
    OPENING_QUOTES,
    TERMINAL_WORDS,
    VALUE_TERMINALS,
)
from .text import lone_surrogate, printable

_KEY_BEFORE_EQUALS = re.compile(rf"({KEY})\s*=\s*\Z")
# A key standing last before where reading stopped (not the end of a value).
_KEY_AT_END = re.compile(rf"(?<![{KEY_CHARACTERS}{re.escape(CLOSING_QUOTES)}])({KEY})\s*\Z")
# What a refusal shows of the text where reading stopped.
_WORD = re.compile(r"[^\s\]]{1,20}")


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


def parse_all(candidates: Sequence[Candidate]) -> list[Tag]:
    """The tags the candidates hold, in order. The closed ones are read in one Lark pass; when
    one of them cannot be read, each is read alone, to say which and why."""
    closed = [candidate for candidate in candidates if candidate.closed]
    together = _read_together(closed)
    # One search of all the tags' text: only when it finds a lone surrogate is each tag searched.
    surrogates = lone_surrogate("".join(candidate.text for candidate in closed)) is not None
    tags = []
    for candidate in candidates:
        if together is not None and candidate.closed:
            offset, parsed = next(together)
            tags.append(_tag(candidate, parsed.items, offset, surrogates=surrogates))
        else:
            tags.append(parse(candidate))
    return tags


def _read_together(closed: list[Candidate]) -> Iterator[tuple[int, ParsedTag]] | None:
    """Each closed candidate's reading and where its text began, from one pass; None when any
    of them cannot be read, or a value left open in one ran on into the next."""
    if not closed:
        return None
    from lark.exceptions import UnexpectedInput

    texts = [candidate.text for candidate in closed]
    try:
        parsed = read_tags(texts)
    except UnexpectedInput:
        return None
    offsets, at = [], 0
    for text in texts:
        offsets.append(at)
        at += len(text) + 1
    if len(parsed) != len(texts) or any(
        not start <= tag.name_at < start + len(text)
        for start, text, tag in zip(offsets, texts, parsed, strict=False)
    ):
        return None
    return zip(offsets, parsed, strict=True)


def parse(candidate: Candidate) -> Tag:
    """The tag one candidate holds; a tag with `problem` set when it cannot be read as one."""
    if not candidate.closed:
        return _refused(
            candidate,
            "unterminated: no closing bracket before the next opening one, a blank line or "
            f"{MAX_BODY} characters",
        )
    from lark.exceptions import UnexpectedInput

    try:
        parsed = read_tag(candidate.text)
    except UnexpectedInput as error:
        try:
            return _refused(candidate, _diagnosis(candidate.text, error))
        except Exception:  # a fault in the wording must still refuse the tag, never raise
            return _refused(candidate, "the grammar cannot read it")
    return _tag(candidate, parsed.items, 0)


def _tag(candidate: Candidate, items: list[Item], offset: int, *, surrogates: bool = True) -> Tag:
    """The tag `items` make of a candidate (`offset`: where its text began in what was parsed;
    `surrogates`: whether its text may hold a lone surrogate, which no store can keep)."""
    surrogate = lone_surrogate(candidate.text) if surrogates else None
    if surrogate:
        return _refused(candidate, f"the tag {surrogate}")
    kept: dict[str, str] = {}
    flags: list[str] = []
    for key, value, at in items:
        if value is None:
            if key not in flags:
                flags.append(key)
        elif key in kept and kept[key] != value:
            twice = f'at column {at - offset + 1}: "{key}" given twice with different values'
            return _refused(candidate, twice)
        elif value:
            kept.setdefault(key, value)
    return Tag(
        candidate.name,
        tuple(kept.items()),
        tuple(flags),
        candidate.start,
        candidate.end,
        candidate.text,
        candidate.body,
    )


def _diagnosis(text: str, error: object) -> str:
    """Where in the tag the grammar stopped, and what it expected there, in words."""
    from lark.exceptions import UnexpectedCharacters, UnexpectedToken

    if isinstance(error, UnexpectedToken):
        at, expected = error.token.start_pos or 0, set(error.expected)
    elif isinstance(error, UnexpectedCharacters):
        at, expected = error.pos_in_stream, set(error.allowed)
    else:
        return "the grammar cannot read it"
    where = f"at column {at + 1}"
    found = text[at : at + 1]
    if expected & VALUE_TERMINALS:  # right after "="
        key = _KEY_BEFORE_EQUALS.search(text, 0, at)
        named = f' of "{key.group(1).lower()}"' if key else ""
        if found in OPENING_QUOTES:
            return f"{where}: unclosed quote in the value{named}"
        if found == "]":
            return f"{where}: the value{named} is missing after ="
    key = _KEY_AT_END.search(text, 0, at)
    if EQUALS in expected and key is not None and found not in ",]":
        return f'{where}: expected = after "{key.group(1).lower()}"'
    word = _WORD.match(text, at)
    shown = f'"{printable(word.group())}"' if word else "the closing bracket"
    return f"{where}: found {shown}; expected {_expected(expected)}"


def _expected(terminals: set[str]) -> str:
    # After a tag's closing bracket the grammar expects only the end of its text (Lark names no
    # terminal for it).
    terminals = terminals - {END}
    if not terminals:
        return "the end of the tag"
    words = sorted(
        {"a value" if t in VALUE_TERMINALS else TERMINAL_WORDS.get(t, t) for t in terminals}
    )
    quoted = [word if " " in word else f'"{word}"' for word in words]
    return quoted[0] if len(quoted) == 1 else ", ".join(quoted[:-1]) + " or " + quoted[-1]


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
