"""Text rules shared by receipts and names: cleaning a value for a receipt, the prompt-safe test,
and the key two names are compared by."""

from __future__ import annotations

import functools
import re
import unicodedata
from collections.abc import Iterable, Mapping

VALUE_LIMIT = 120
NOW_LIMIT = 240

# Control characters, the Unicode line and paragraph separators, and the characters that would end
# or fake a tag become spaces; macro braces go (a chat front end would expand `{{user}}` in the
# history it sends back to the model).
_UNSAFE = re.compile(r'[\x00-\x1f\x7f-\x9f\u2028\u2029\ud800-\udfff"\[\]]')
_MACRO_BRACES = re.compile(r"\{\{+|\}\}+")
# Characters `clean` would change (white space other than the plain space included, and every
# brace, to be safe): most values have none, and skip the work.
_NEEDS_CLEANING = re.compile(
    r"[\x00-\x1f\x7f-\x9f\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000"
    r'\ud800-\udfff"\[\]{}]'
)
# Half of a UTF-16 pair standing alone: Python text can hold one, but no UTF-8 file, JSON
# document or database can store it.
_LONE_SURROGATE = re.compile("[\ud800-\udfff]")
_UNPRINTABLE = re.compile("[\x00-\x1f\x7f-\x9f\u2028\u2029\ud800-\udfff]")
# Anything that makes text unsafe for a prompt, found in one search before the detailed check.
_UNSAFE_FOR_PROMPT = re.compile(r"[\x00-\x1f\x7f-\x9f\u2028\u2029\[\]]|\{\{|\}\}")


def clean(value: str, limit: int = VALUE_LIMIT) -> str:
    """`value` made safe to stand between double quotes in a receipt: one line, bounded."""
    if (
        len(value) <= limit
        and _NEEDS_CLEANING.search(value) is None
        and "  " not in value
        and value[:1] != " "
        and value[-1:] != " "
    ):
        return value
    if "{" in value or "}" in value:
        value = _MACRO_BRACES.sub("", value)
    one_line = " ".join(_UNSAFE.sub(" ", value).split())
    return one_line[:limit].rstrip()


def unsafe_reason(text: str) -> str | None:
    """Why `text` is not prompt-safe (one line, no control characters, brackets or macro braces)."""
    if _UNSAFE_FOR_PROMPT.search(text) is None:
        return None
    for char in text:
        if char in "\r\n\u2028\u2029":
            return "must be one line, found a line break"
        if unicodedata.category(char) == "Cc":
            return f"must not contain control characters, found U+{ord(char):04X}"
        if char in "[]":
            return f"cannot contain square brackets, found {char!r}"
    if "{{" in text or "}}" in text:
        return "cannot contain macro braces {{ or }}"
    return None


@functools.lru_cache(maxsize=4096)
def name_key(name: str) -> str:
    """What two names are compared by: compatibility-normalized, case-folded, spaces collapsed."""
    if name.isascii():
        return " ".join(name.lower().split())
    return " ".join(unicodedata.normalize("NFKC", name).casefold().split())


def lone_surrogate(text: str) -> str | None:
    """Why `text` cannot be stored, when it holds a lone surrogate (`U+D800`), else None."""
    found = _LONE_SURROGATE.search(text)
    if found is None:
        return None
    return (
        f"holds a lone surrogate U+{ord(found.group()):04X} at {found.start()}, which is not text"
    )


def printable(text: str) -> str:
    """`text` with control characters and lone surrogates shown as U+FFFD, for quoting a piece of
    what a model wrote in a message."""
    return _UNPRINTABLE.sub("\ufffd", text)


def lone_surrogate_at(value: object, path: str = "(root)") -> tuple[str, str] | None:
    """The first place in a JSON-like value (its dotted path and the problem) where a key or a
    string holds a lone surrogate, or None."""
    if isinstance(value, str):
        reason = lone_surrogate(value)
        return (path, reason) if reason else None
    if isinstance(value, Mapping):
        items: Iterable[tuple[object, object]] = value.items()
    elif isinstance(value, list | tuple):
        items = enumerate(value)
    else:
        return None
    for key, item in items:
        where = str(key) if path == "(root)" else f"{path}.{key}"
        found = lone_surrogate_at(key, where) if isinstance(key, str) else None
        found = found or lone_surrogate_at(item, where)
        if found:
            return found
    return None
