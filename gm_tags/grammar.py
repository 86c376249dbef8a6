"""The tag grammar (`grammar/tags.lark`): where it lives, and the LALR parsers built from it, once
and only when a reply is first read.

`read_tags(texts)` parses the tags the scanner found in a reply together, with the `tags` rule
(the parser's fixed cost paid once a reply); `read_tag(text)` parses one with the `tag` rule. An
inline transformer builds each tag's items while Lark parses (no tree). `read_branch(text)` does
the same for a check's branch. The scanner's pattern for where a tag opens is composed of the
grammar's own TAG_NAME and COLON terminals. The tag names are `gm_tags.syntax.tag_names()`: the
grammar file's, and those of families registered beyond them, which the parser built for them adds
to TAG_NAME (`%override`).
"""

from __future__ import annotations

import functools
import re
from typing import TYPE_CHECKING, NamedTuple, cast

from .syntax import (
    CLOSING_QUOTE,
    COLON,
    OUTCOME,
    TAG_NAME,
    grammar_tag_names,
    grammar_text,
    tag_names,
    when_tag_names_change,
)

if TYPE_CHECKING:
    from lark import Lark

__all__ = [
    "Item",
    "ParsedBranch",
    "ParsedTag",
    "branch_pattern",
    "grammar_text",
    "opening",
    "read_branch",
    "read_tag",
    "read_tags",
    "tag_parser",
    "terminal_pattern",
    "unquoted",
]


class Item(NamedTuple):
    """An attribute (`value` set) or a flag (`value` None), its key lower-cased, its value
    unquoted, and where its key starts in the text parsed."""

    key: str
    value: str | None
    at: int


class ParsedTag(NamedTuple):
    name_at: int  # where its name starts in the text parsed
    items: list[Item]


class ParsedBranch(NamedTuple):
    outcome: str  # "success" or "failure"
    text_at: int  # where the branch's text starts in it (its closing bracket when it has none)


def unquoted(value: str) -> str:
    if len(value) >= 2 and CLOSING_QUOTE.get(value[0]) == value[-1]:
        return value[1:-1]
    return value


@functools.cache
def tag_parser() -> Lark:
    """The LALR parser of `tags`, `tag` and `branch` for the tag names known now, built on first
    use (Lark caches its analysis of the grammar on disk, so a new process builds it in a
    fraction of the time), reading the words `TagLexer` cuts from the grammar's terminals."""
    return _parser(tag_names())


def _grammar(names: tuple[str, ...]) -> str:
    """The grammar file, with TAG_NAME taking `names` where they are not the file's own."""
    text = grammar_text()
    if names == grammar_tag_names():
        return text
    return text + f"\n%override {TAG_NAME}: /(?i:{'|'.join(names)})/\n"


@functools.cache
def _parser(names: tuple[str, ...]) -> Lark:
    from lark import Lark, Token, Transformer

    class Items(Transformer[Token, object]):
        """Run inline while Lark parses: each rule's children become our values at once."""

        def tag(self, children: list[object]) -> ParsedTag:
            name = cast(Token, children[0])
            return ParsedTag(name.start_pos or 0, cast(list[Item], children[2:]))

        def tags(self, children: list[object]) -> list[ParsedTag]:
            return cast(list[ParsedTag], children)

        def attribute(self, children: list[Token]) -> Item:
            key, value = children
            return Item(key.lower(), unquoted(value), key.start_pos or 0)

        def flag(self, children: list[Token]) -> Item:
            (key,) = children
            return Item(key.lower(), None, key.start_pos or 0)

        def branch(self, children: list[Token]) -> ParsedBranch:
            outcome, colon, *text = children
            at = text[0].start_pos if text else (colon.start_pos or 0) + len(colon)
            return ParsedBranch(outcome.lower(), at or 0)

    from .lexer import TagLexer

    return Lark(
        _grammar(names),
        start=["tags", "tag", "branch"],
        parser="lalr",
        lexer=TagLexer,
        transformer=Items(),
        cache=True,
    )


when_tag_names_change(tag_parser.cache_clear)


def read_tag(text: str) -> ParsedTag:
    """One tag's text read: its items in order. Raises `lark.exceptions.UnexpectedInput` where
    the grammar cannot read it."""
    return cast(ParsedTag, tag_parser().parse(text, start="tag"))


def read_tags(texts: list[str]) -> list[ParsedTag]:
    """Tags read in one pass, joined by a space (so positions count from the start of the
    first). Raises `lark.exceptions.UnexpectedInput` when any of them cannot be read. A value
    left open in one tag can run on into the next: the caller checks that each tag read starts
    where one was given."""
    return cast(list[ParsedTag], tag_parser().parse(" ".join(texts), start="tags"))


def read_branch(text: str) -> ParsedBranch:
    return cast(ParsedBranch, tag_parser().parse(text, start="branch"))


def terminal_pattern(name: str) -> str:
    return tag_parser().get_terminal(name).pattern.to_regexp()


@functools.cache
def opening() -> re.Pattern[str]:
    """Where a tag opens: `[`, a tag name and a colon, spaces or tabs between them."""
    name, colon = terminal_pattern(TAG_NAME), terminal_pattern(COLON)
    return re.compile(rf"\[[ \t]*(?:{name})[ \t]*(?:{colon})")


@functools.cache
def branch_pattern() -> re.Pattern[str]:
    """Where a check's branch stands: as the `branch` rule reads it, on one line."""
    outcome, colon = terminal_pattern(OUTCOME), terminal_pattern(COLON)
    return re.compile(rf"\[[ \t]*(?:{outcome})[ \t]*(?:{colon})[^\]\n]*\]")


when_tag_names_change(opening.cache_clear)
