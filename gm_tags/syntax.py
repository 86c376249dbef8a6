"""The tag syntax, said once: the quotes a value may stand in, what a key is, the tag names, and
the names Lark gives the grammar's terminals. The grammar (`grammar/tags.lark`) spells the same
facts for Lark; `tests/reply/test_syntax.py` checks that the two agree. Every other pattern over
tag text (the scanner's, the lexer's, the binders', the narration's, the stream's) is built from
what is here, so a quote or a tag name added in one place reaches all of them.

The tag names are the grammar file's `TAG_NAME` (the families shipped with gm-tags, so anyone can
parse a tag with the grammar file alone) and the names of the families registered beyond them
(`gm_tags.families.registry.register`), which the parser adds to `TAG_NAME` (docs/architecture.md).
This module imports no other module of the package, and no Lark.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable
from importlib import resources
from pathlib import Path

GRAMMAR_FILE = "tags.lark"

# Each quote a value may stand in, with its closing quote: double and single, typographic double
# and single, Japanese corner brackets and white corner brackets.
QUOTES = (
    ('"', '"'),
    ("'", "'"),
    ("\u201c", "\u201d"),
    ("\u2018", "\u2019"),
    ("\u300c", "\u300d"),
    ("\u300e", "\u300f"),
)
CLOSING_QUOTE = dict(QUOTES)
OPENING_QUOTES = "".join(opening for opening, _ in QUOTES)
CLOSING_QUOTES = "".join(sorted({closing for _, closing in QUOTES}))
# The quotes that hide a `]` from the scanner: an ASCII `'` is too often an apostrophe.
BRACKET_QUOTES = tuple(pair for pair in QUOTES if pair[0] != "'")

# A key (and a bare flag): a letter or underscore, then letters, digits, `_` and `-`.
KEY = r"[A-Za-z_][A-Za-z0-9_-]*"
KEY_CHARACTERS = r"A-Za-z0-9_\-"

# The names Lark gives the grammar's terminals, and each in the words a refusal uses ("=", ","
# and "]" are written in place in the grammar, so Lark names them itself).
TAG_NAME = "TAG_NAME"
COLON = "COLON"
OUTCOME = "OUTCOME"
EQUALS = "EQUAL"
END = "$END"  # the end of the text: Lark names no terminal for it
VALUE_TERMINALS = frozenset(
    {
        "DOUBLE_QUOTED",
        "SINGLE_QUOTED",
        "CURLY_DOUBLE_QUOTED",
        "CURLY_SINGLE_QUOTED",
        "CORNER_BRACKETED",
        "WHITE_CORNER_BRACKETED",
        "BARE",
    }
)
TERMINAL_WORDS = {
    "KEY": "a key",
    EQUALS: "=",
    "COMMA": ",",
    "RSQB": "the closing bracket",
    TAG_NAME: "a tag name",
    COLON: ":",
}

_TAG_NAME_RULE = re.compile(r"^TAG_NAME: /\(\?i:([a-z_|]+)\)/$", re.MULTILINE)
_TAG_NAME_SHAPE = re.compile(r"[a-z][a-z_]*")
# Tag names registered beyond the grammar file's, in the order they came.
_registered: list[str] = []
_names: tuple[str, ...] | None = None  # every tag name, worked out on first use
_forgetters: list[Callable[[], None]] = []


def quoted(pairs: tuple[tuple[str, str], ...] = QUOTES, *, open_ended: bool = False) -> str:
    """A pattern for a value in any of the quotes `pairs` (its closing quote optional when
    `open_ended`)."""
    optional = "?" if open_ended else ""
    return "|".join(
        f"{re.escape(opening)}[^{re.escape(closing)}]*{re.escape(closing)}{optional}"
        for opening, closing in pairs
    )


@functools.cache
def grammar_text() -> str:
    """The grammar, from inside the wheel (`grammar/` is mapped to `gm_tags/grammar/`), or from
    beside the package in a source checkout."""
    packaged = resources.files("gm_tags").joinpath("grammar", GRAMMAR_FILE)
    if packaged.is_file():
        return packaged.read_text(encoding="utf-8")
    checkout = Path(__file__).resolve().parent.parent / "grammar" / GRAMMAR_FILE
    return checkout.read_text(encoding="utf-8")


@functools.cache
def grammar_tag_names() -> tuple[str, ...]:
    """The tag names the grammar file spells (its `TAG_NAME` terminal)."""
    found = _TAG_NAME_RULE.search(grammar_text())
    if found is None:
        raise RuntimeError(f"{GRAMMAR_FILE} has no TAG_NAME: /(?i:name|...)/ terminal")
    return tuple(found.group(1).split("|"))


def tag_names() -> tuple[str, ...]:
    """Every tag name a reply's tags may have: the grammar file's, then the registered ones."""
    global _names
    if _names is None:
        shipped = grammar_tag_names()
        _names = shipped + tuple(name for name in _registered if name not in shipped)
    return _names


def when_tag_names_change(forget: Callable[[], None]) -> None:
    """Call `forget` whenever a tag name is added or removed: what is built from the names (the
    parser, the scanner's opening) is cached without arguments, as it is asked for at every chunk
    of a stream, and built again after a change."""
    _forgetters.append(forget)


def _changed() -> None:
    global _names
    _names = None
    for forget in _forgetters:
        forget()


def add_tag_name(name: str) -> None:
    """A family's tag name, for the parser and the scanner to read from now on."""
    if not _TAG_NAME_SHAPE.fullmatch(name):
        raise ValueError(f"a tag name is lower-case letters and underscores, not {name!r}")
    if name not in _registered:
        _registered.append(name)
        _changed()


def remove_tag_name(name: str) -> None:
    if name in _registered:
        _registered.remove(name)
        _changed()
