"""What every tag family's binder shares: the request a receipt writes back, the refusal a binder
returns instead of a command, dropping the attributes the engine owns, and reading integers."""

from __future__ import annotations

import re
import unicodedata
from typing import NamedTuple

from ..parse import Tag
from ..reasons import Reason
from ..text import clean

# A request as the receipt writes it back: attributes in canonical order; a value of None is a
# bare flag (`clear`).
Request = tuple[tuple[str, str | None], ...]

# Attributes only the engine writes. Whatever the model put in them is discarded before a command
# is bound, so a forged outcome can neither steer a command nor reach a receipt.
OUTCOME_KEYS = frozenset(
    {
        "result",
        "now",
        "reason",
        "raw",
        "rolls",
        "used",
        "modifier",
        "total",
        "penalty",
        "rerolled",
        "auto",
        "complication",
        "adjust",
        "effects",
        "automatic",
    }
)

_INTEGER = re.compile(r"[+-]?\d{1,9}")
# Searched in the lower-cased body: much faster than a case-insensitive search.
_OUTCOME_KEY = re.compile("|".join(sorted(OUTCOME_KEYS)))
# Everything from an outcome key's `=` to the end of its value, for cleaning a raw tag body.
_OUTCOME_IN_BODY = re.compile(
    r"\b(?:" + "|".join(sorted(OUTCOME_KEYS)) + r")\s*=\s*"
    r"(?:\"[^\"]*\"?|'[^']*'?|\u201c[^\u201d]*\u201d?|\u2018[^\u2019]*\u2019?"
    r"|\u300c[^\u300d]*\u300d?|\u300e[^\u300f]*\u300f?|[^\s\]]*)",
    re.IGNORECASE,
)


class Refused(NamedTuple):
    """A tag that binds to no command; it becomes a refusal receipt."""

    reason: Reason
    detail: str
    request: Request


def requested(tag: Tag) -> dict[str, str]:
    """The tag's attributes without the ones the engine owns."""
    return {key: value for key, value in tag.attributes if key not in OUTCOME_KEYS}


def malformed(tag: Tag, detail: str) -> Refused:
    """The Engine's receipt for a tag it cannot read: the cleaned body as `raw`."""
    return Refused(Reason.MALFORMED, detail, (("raw", raw_body(tag)),))


def raw_body(tag: Tag) -> str:
    """A tag's body, cleaned for a receipt, with any outcome the model wrote taken out."""
    body = tag.raw[tag.body :]
    if body.endswith("]"):
        body = body[:-1]
    if _OUTCOME_KEY.search(body.lower()) is not None:
        body = _OUTCOME_IN_BODY.sub(" ", body)
    return clean(body)


def integer(value: str) -> int | None:
    """A whole number as the Engine reads one (up to 9 digits, optional sign); full-width digits
    are read as the digits they are."""
    text = value.strip() if value.isascii() else unicodedata.normalize("NFKC", value).strip()
    return int(text) if _INTEGER.fullmatch(text) else None
