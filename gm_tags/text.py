"""Text rules shared by receipts and names: cleaning a value for a receipt, the prompt-safe test,
and the key two names are compared by."""

from __future__ import annotations

import functools
import re
import unicodedata

VALUE_LIMIT = 120
NOW_LIMIT = 240

# Control characters, the Unicode line and paragraph separators, and the characters that would end
# or fake a tag become spaces; macro braces go (a chat front end would expand `{{user}}` in the
# history it sends back to the model).
_UNSAFE = re.compile(r'[\x00-\x1f\x7f-\x9f\u2028\u2029"\[\]]')
_MACRO_BRACES = re.compile(r"\{\{+|\}\}+")
_SPACES = re.compile(r"\s+")
# Characters `clean` would change (white space other than the plain space included, and every
# brace, to be safe): most values have none, and skip the work.
_NEEDS_CLEANING = re.compile(
    r'[\x00-\x1f\x7f-\x9f\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000"\[\]{}]'
)
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
