"""The one funnel text from a game passes through on its way into the prompt, and the forms
numbers take there.

Names, notes, clock names, list cells, refusal and check lines come from game documents, players
and the model's own tags: none may end or fake a block (`</character_sheets>`), a tag, a macro or a
heading. `safe` is applied to each such value where a block writes it; `tests/prompt` feeds hostile
text through every path and checks that the blocks keep their shape."""

from __future__ import annotations

import re

from ..sheet.arithmetic import Number

_UNSAFE = re.compile(r"[\x00-\x1f\x7f-\x9f\u2028\u2029\ud800-\udfff{}\[\]<>]")
# Markdown that means something at the start of a line: a heading, a quote, a table row.
_LEADING_MARKUP = re.compile(r"[#>|\s]+")
# The faces of a check as the Engine writes them in its summary line: `[4, 2, 6]`.
_FACES = re.compile(r"(\[[0-9]+(?:, [0-9]+)*\])")

BLOCK_VALUE_LIMIT = 80


def safe(text: object, limit: int = BLOCK_VALUE_LIMIT, *, faces: bool = False) -> str:
    """One line, without braces, brackets or angle brackets (none may reach the model from a
    label or a name) and without markdown that would start a heading or a quote, white space
    collapsed, cut to `limit` characters. With `faces`, a check's faces in brackets stay."""
    text = str(text)
    if faces and "[" in text:
        pieces = _FACES.split(text)
        # Odd pieces are the faces themselves.
        text = "".join(p if at % 2 else _UNSAFE.sub(" ", p) for at, p in enumerate(pieces))
    else:
        text = _UNSAFE.sub(" ", text)
    one_line = " ".join(text.split())
    if one_line[:1] in ("#", ">", "|"):
        one_line = _LEADING_MARKUP.sub("", one_line, count=1)
    return one_line if len(one_line) <= limit else one_line[: limit - 1].rstrip() + "…"


def number(value: Number) -> str:
    return str(int(value)) if float(value).is_integer() else f"{value:g}"


def check_value(value: Number, pool: bool) -> str:
    """A check's number as the model reads it: `+5`/`-1` on a sum, `5 dice`/`1 die` on a pool."""
    if pool:
        dice = int(value)
        return f"{dice} {'die' if dice == 1 else 'dice'}"
    return f"{'+' if value >= 0 else ''}{number(value)}"
