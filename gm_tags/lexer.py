"""The lexer Lark's LALR parser reads tags with: contextual, as Lark's own, and lean.

In each parser state it matches only the terminals that state accepts (so `sheet` is a tag name
after `[`, a key inside the tag and a bare value after `=`), every terminal taken from
`grammar/tags.lark` with its pattern and in Lark's own order of preference. It gives exactly the
tokens Lark's contextual lexer gives (a test compares them), for less:
- white space is skipped in the same match as the token after it (as Lark skips it first: no
  terminal Lark tries before WHITE_SPACE can match white space);
- no line or column is counted, and a token carries only where it starts (a refusal names no more
  than that, and Lark's `Token` is cheapest made from its first three arguments).
Lark's parser still decides the structure: this only cuts the text into the words the grammar
names. A text it cannot cut raises Lark's own `UnexpectedCharacters`, at the position and with the
terminals Lark's lexer would name there.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Iterator
from typing import Any

from lark import Token
from lark.exceptions import UnexpectedCharacters
from lark.lexer import Lexer, LexerState, TerminalDef


class TagLexer(Lexer):
    # Lark hands a lexer of this interface the parser's state with each token it asks for.
    __future_interface__ = 2

    def __init__(self, conf: Any) -> None:
        self._terminals: dict[str, TerminalDef] = {t.name: t for t in conf.terminals}
        self._skip = "|".join(self._terminals[name].pattern.to_regexp() for name in conf.ignore)
        # Per parser state: one pattern (white space, then an accepted terminal) and the names.
        self._by_state: dict[int, tuple[re.Pattern[str], frozenset[str]]] = {}

    def lex(self, lexer_state: LexerState, parser_state: Any) -> Iterator[Token]:
        text = lexer_state.text
        source, at, end = text.text, text.start, text.end
        assert isinstance(source, str)
        table = parser_state.parse_conf.states
        by_state = self._by_state
        while True:
            state = parser_state.position
            try:
                pattern, accepted = by_state[state]
            except KeyError:
                pattern, accepted = by_state[state] = self._compile(table[state])
            found = pattern.match(source, at, end)
            assert found is not None  # every part of the pattern is optional
            kind = found.lastgroup
            if kind is None:
                if found.end() == end:
                    return
                raise _unexpected(source, found.end(), accepted, parser_state)
            at = found.end()
            yield Token(kind, found.group(kind), found.start(kind))

    def _compile(self, accepts: Collection[str]) -> tuple[re.Pattern[str], frozenset[str]]:
        # Lark's order of preference between terminals that match at the same place.
        terminals = sorted(
            (self._terminals[name] for name in accepts if name in self._terminals),
            key=lambda t: (-t.priority, -t.pattern.max_width, -len(t.pattern.value), t.name),
        )
        words = "|".join(f"(?P<{t.name}>{t.pattern.to_regexp()})" for t in terminals)
        pattern = re.compile(f"(?:{self._skip})*(?:{words})?")
        return pattern, frozenset(t.name for t in terminals)


def _unexpected(
    source: str, at: int, accepted: frozenset[str], parser_state: Any
) -> UnexpectedCharacters:
    line = source.count("\n", 0, at) + 1
    column = at - source.rfind("\n", 0, at)
    allowed = set(accepted) or {"<END-OF-FILE>"}
    # Lark's exception classes are not annotated.
    error: UnexpectedCharacters = UnexpectedCharacters(  # type: ignore[no-untyped-call]
        source, at, line, column, allowed=allowed, state=parser_state
    )
    return error
