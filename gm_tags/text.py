"""Text rules shared by receipts and names: cleaning a value for a receipt, the prompt-safe test,
and the key two names are compared by."""

from __future__ import annotations

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


def clean(value: str, limit: int = VALUE_LIMIT) -> str:
    """`value` made safe to stand between double quotes in a receipt: one line, bounded."""
    one_line = _SPACES.sub(" ", _UNSAFE.sub(" ", _MACRO_BRACES.sub("", value))).strip()
    return one_line[:limit].rstrip()


def unsafe_reason(text: str) -> str | None:
    """Why `text` is not prompt-safe (one line, no control characters, brackets or macro braces)."""
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


def name_key(name: str) -> str:
    """What two names are compared by: compatibility-normalized, case-folded, spaces collapsed."""
    return _SPACES.sub(" ", unicodedata.normalize("NFKC", name).casefold()).strip()
