"""Reading one command tag with the Lark grammar (`grammar/tags.lark`) into a `Tag`.

What we forgive, because the meaning is plain: any case in the tag name and keys, white space
around `=` and inside the tag (line breaks included), single, double or typographic quotes, a bare
value, commas between attributes, the same attribute written twice with the same value. What we
refuse, because it would be a guess: the same attribute with two different values, an
unterminated tag, and anything the grammar cannot read. A refused tag keeps its place in the
reply and becomes a refusal receipt.
"""

from __future__ import annotations

from dataclasses import dataclass

from lark import Lark, Token, Transformer
from lark.exceptions import LarkError

from .grammar import grammar_text
from .scan import Candidate

QUOTES = {
    '"': '"',
    "'": "'",
    "\u201c": "\u201d",
    "\u2018": "\u2019",
    "\u300c": "\u300d",
    "\u300e": "\u300f",
}

PARSER = Lark(grammar_text(), parser="lalr", maybe_placeholders=False)


@dataclass(frozen=True, slots=True)
class Tag:
    """A command tag as the model wrote it: its name, attributes in order, bare flags, and span."""

    name: str
    attributes: tuple[tuple[str, str], ...]
    flags: tuple[str, ...]
    start: int
    end: int
    raw: str
    problem: str | None = None

    def get(self, key: str) -> str | None:
        return next((value for name, value in self.attributes if name == key), None)


class _Body(Transformer[Token, tuple[list[tuple[str, str]], list[str]]]):
    def start(self, items: list[Token]) -> tuple[list[tuple[str, str]], list[str]]:
        attributes: list[tuple[str, str]] = []
        flags: list[str] = []
        for token in items[2:]:
            if token.type == "FLAG":
                flags.append(token.value.lower())
            else:
                attributes.append(_split(token.value))
        return attributes, flags


def _split(attribute: str) -> tuple[str, str]:
    key, _, value = attribute.partition("=")
    value = value.strip()
    if value[:1] in QUOTES and value.endswith(QUOTES[value[0]]) and len(value) >= 2:
        value = value[1:-1]
    return key.strip().lower(), value


def parse(candidate: Candidate) -> Tag:
    """The tag a candidate holds; a tag with `problem` set when it cannot be read as one."""
    if not candidate.closed:
        return _refused(candidate, "unterminated")
    try:
        attributes, flags = _Body().transform(PARSER.parse(candidate.text))
    except LarkError:
        return _refused(candidate, "unreadable")
    kept: dict[str, str] = {}
    for key, value in attributes:
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
        candidate.text,
    )


def _refused(candidate: Candidate, problem: str) -> Tag:
    return Tag(candidate.name, (), (), candidate.start, candidate.end, candidate.text, problem)
