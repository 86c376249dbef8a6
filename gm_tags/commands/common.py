"""What every tag family's binder shares: the request a receipt writes back, the refusal a binder
returns instead of a command, dropping the attributes the engine owns, and reading integers."""

from __future__ import annotations

import re
import unicodedata
from typing import NamedTuple

from ..parse import Tag
from ..reasons import Reason
from ..syntax import quoted
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

# What a check's receipt writes beyond the outcome keys every family has.
CHECK_OUTCOME_KEYS = frozenset(
    {
        "resolution",
        "dice",
        "pool",
        "used",
        "auto",
        "rerolled",
        "penalty",
        "sheet",
        # Which conditions, levels or items changed the check: the engine's to say.
        "from",
    }
)

_INTEGER = re.compile(r"[+-]?\d{1,9}")
_MACRO_BRACES = re.compile(r"\{+|\}+")


def _outcome_pattern(keys: frozenset[str]) -> tuple[re.Pattern[str], re.Pattern[str]]:
    """A search for any of `keys` (run on the lower-cased body, much faster than a
    case-insensitive search), and one for a whole `key = value` of them, in any quoting."""
    names = "|".join(sorted(keys))
    attribute = re.compile(
        rf"(?:{names})\s*[=:]\s*(?:{quoted(open_ended=True)}|[^\s\]]*)", re.IGNORECASE
    )
    return re.compile(names), attribute


_OUTCOMES = {
    "skill_check": _outcome_pattern(OUTCOME_KEYS | CHECK_OUTCOME_KEYS),
    "": _outcome_pattern(OUTCOME_KEYS),
}


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
    """A tag's body, cleaned for a receipt, with every outcome the model wrote taken out, in any
    spelling: any case, full-width letters, macro braces inside the key (`resu{{lt`), a colon for
    the equals sign. A check's body loses the attributes its record writes too."""
    body = tag.raw[tag.body :]
    if body.endswith("]"):
        body = body[:-1]
    trigger, attribute = _OUTCOMES.get(tag.name, _OUTCOMES[""])
    folded = _MACRO_BRACES.sub("", unicodedata.normalize("NFKC", body)).lower()
    if trigger.search(folded) is not None:
        # Read as a model or a front end would read it (braces expanded away, full-width folded),
        # then take out every outcome attribute until none is left: taking one out may join the
        # text around it into another.
        body = _without(attribute, _MACRO_BRACES.sub("", unicodedata.normalize("NFKC", body)))
        # Cleaning turns quotes into spaces, which can make `pool"="x"` read as `pool = x`.
        body = _without(attribute, clean(body, len(body)))
    return clean(body)


def _without(attribute: re.Pattern[str], body: str) -> str:
    while (stripped := attribute.sub(" ", body)) != body:
        body = stripped
    return body


def integer(value: str) -> int | None:
    """A whole number as the Engine reads one (up to 9 digits, optional sign); full-width digits
    are read as the digits they are."""
    text = value.strip() if value.isascii() else unicodedata.normalize("NFKC", value).strip()
    return int(text) if _INTEGER.fullmatch(text) else None
