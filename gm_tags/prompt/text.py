"""Making text safe for a prompt block, and the forms numbers take in one."""

from __future__ import annotations

import re

from ..sheet.arithmetic import Number

_UNSAFE = re.compile(r"[\x00-\x1f\x7f-\x9f\u2028\u2029{}\[\]<>]")

BLOCK_VALUE_LIMIT = 80


def safe(text: object, limit: int = BLOCK_VALUE_LIMIT) -> str:
    """One line, without braces, brackets or angle brackets (none may reach the model from a
    label or a name), white space collapsed, cut to `limit` characters."""
    one_line = " ".join(_UNSAFE.sub(" ", str(text)).split())
    return one_line if len(one_line) <= limit else one_line[: limit - 1].rstrip() + "…"


def number(value: Number) -> str:
    return str(int(value)) if float(value).is_integer() else f"{value:g}"


def check_value(value: Number, pool: bool) -> str:
    """A check's number as the model reads it: `+5`/`-1` on a sum, `5 dice`/`1 die` on a pool."""
    if pool:
        dice = int(value)
        return f"{dice} {'die' if dice == 1 else 'dice'}"
    return f"{'+' if value >= 0 else ''}{number(value)}"
