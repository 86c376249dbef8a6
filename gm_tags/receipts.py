"""A receipt: what became of one command tag, and the canonical tag written back in its place."""

from __future__ import annotations

from typing import Any, NamedTuple

from .commands import Request
from .reasons import Reason
from .text import NOW_LIMIT, clean

# Refusals whose summary line carries the detail in every family: where a tag could not be read.
# A family names its own (`gm_tags.families.family.Family.explained`).
EXPLAINED = frozenset({Reason.MALFORMED})


class Receipt(NamedTuple):
    """One command tag's outcome. `start`/`end` are its span in the reply the model wrote;
    `written` is the tag as written there; `tag` is the receipt written back in its place."""

    family: str
    request: Request
    now: str | None
    reason: Reason | None
    detail: str
    start: int
    end: int
    written: str
    tag: str
    # One line for a log or the next reminder (`summary_line`).
    summary: str = ""
    # A rolled check's: whether it succeeded (None for every other receipt).
    succeeded: bool | None = None

    @property
    def ok(self) -> bool:
        return self.reason is None

    @property
    def result(self) -> str:
        return "ok" if self.reason is None else "refused"

    def to_dict(self) -> dict[str, Any]:
        return {
            "family": self.family,
            "tag": self.tag,
            "request": dict(self.request),
            "result": self.result,
            "now": self.now,
            "reason": None if self.reason is None else str(self.reason),
            "detail": self.detail,
            "span": [self.start, self.end],
            "written": self.written,
        }


def summary_line(
    words: list[str],
    now: str | None,
    reason: Reason | None,
    detail: str,
    *,
    explained: frozenset[Reason],
) -> str:
    """A receipt's line for a log or the next reminder: `Mira spend grit -> 3/8`, `Mira spend
    grit refused (insufficient)`, `clock Alarm raised tick -> 4/6`. `words` name the request
    (its family's words, or `unread`); the refusals `explained` say their detail."""
    head = " ".join(word for word in words if word)
    if reason in explained or reason in EXPLAINED:
        return f"{head} refused ({reason}: {detail})"
    if reason is not None:
        return f"{head} refused ({reason.value})"
    return f"{head} -> {now}"


def unread(family: str) -> list[str]:
    """The words that name a tag that could not be read."""
    return [f"a {family} tag that could not be read"]


def render(family: str, request: Request, now: str | None, reason: Reason | None) -> str:
    """The canonical receipt: the request rebuilt from what was read, then the outcome."""
    parts = [key if value is None else f'{key}="{clean(value)}"' for key, value in request]
    if reason is None:
        parts.append('result="ok" now="' + clean(now or "", NOW_LIMIT) + '"')
    else:
        parts.append('result="refused" reason="' + reason + '"')  # a StrEnum: its value
    return f"[{family}: {' '.join(parts)}]"
