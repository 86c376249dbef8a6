"""The tag grammar (`grammar/tags.lark`): where it lives, the Lark parser built from it, and the
patterns of its pieces compiled for the scanner and the attribute splitter.

The grammar ships inside the wheel (`grammar/` is mapped to `gm_tags/grammar/`); a source checkout
reads it from beside the package.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from importlib import resources
from pathlib import Path
from typing import cast

from lark import Lark, Token, Transformer
from lark.common import LexerConf
from lark.lexer import Lexer

GRAMMAR_FILE = "tags.lark"


def grammar_text() -> str:
    packaged = resources.files("gm_tags").joinpath("grammar", GRAMMAR_FILE)
    if packaged.is_file():
        return packaged.read_text(encoding="utf-8")
    checkout = Path(__file__).resolve().parent.parent / "grammar" / GRAMMAR_FILE
    return checkout.read_text(encoding="utf-8")


class _TagTexts(Transformer[Token, list[str]]):
    """Run inline while parsing (no tree is built): the text of every TAG token, in order."""

    def start(self, tokens: list[Token]) -> list[str]:
        return [str(token) for token in tokens]


class _ScannedTags(Lexer):
    """The scanner is the lexer: it has already matched every tag against the grammar's TAG
    pattern in the free text around it (which Lark's own lexers cannot skip), so the parser is
    handed those tags as TAG tokens."""

    def __init__(self, conf: LexerConf) -> None:
        pass

    def lex(self, tags: Iterable[str]) -> Iterator[Token]:  # type: ignore[override]
        for text in tags:
            yield Token("TAG", text)


PARSER = Lark(grammar_text(), parser="lalr", lexer=_ScannedTags, transformer=_TagTexts())


def read_tags(tags: list[str]) -> list[str]:
    """The tags the parser reads, in order; raises `lark.exceptions.LarkError` if it cannot."""
    # Lark types its input as text and its output as a tree; here the input is the scanner's tags
    # and the inline transformer makes the output their texts.
    return cast(list[str], PARSER.parse(cast(str, tags)))


def _pattern(terminal: str) -> str:
    return PARSER.get_terminal(terminal).pattern.to_regexp()


TAG = re.compile(_pattern("TAG"))
BRANCH = re.compile(_pattern("BRANCH"))
OPENING = re.compile(_pattern("OPENING"))
NAME = re.compile(_pattern("NAME"))
# One attribute (its key and value as groups) or one flag, as ATTRIBUTE and FLAG define them.
ITEM = re.compile(
    f"(?P<key>{_pattern('KEY')}){_pattern('EQUALS')}(?P<value>{_pattern('VALUE')})"
    f"|(?P<flag>{_pattern('FLAG')})"
)
