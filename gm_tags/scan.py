"""Finding command tags in free text, in linear time.

A candidate starts at `[` + a tag name + `:` (any case, white space allowed; a full-width colon
too) and ends at the first `]` outside double quotes. Everything else in the reply, other square
brackets included, is not a candidate and is never touched. A candidate with no `]` before the
next `[`, a blank line or `MAX_BODY` characters is *unterminated*: it is still a candidate (so it
becomes a refusal, never silently dropped), ending where the search stopped.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

TAG_NAMES = ("sheet", "clock", "skill_check")
TAG_START = re.compile(r"\[[ \t]*(sheet|clock|skill_check)[ \t]*[:\uff1a]", re.IGNORECASE)
MAX_BODY = 1500


@dataclass(frozen=True, slots=True)
class Candidate:
    """A stretch of the reply that asks to be a command tag."""

    name: str
    start: int
    end: int
    text: str
    closed: bool


def scan(reply: str) -> list[Candidate]:
    """Every command-tag candidate in `reply`, in order, none overlapping."""
    found: list[Candidate] = []
    resume = 0
    for match in TAG_START.finditer(reply):
        if match.start() < resume:
            continue
        end, closed = _end_of(reply, match.end())
        found.append(
            Candidate(
                match.group(1).lower(), match.start(), end, reply[match.start() : end], closed
            )
        )
        resume = end
    return found


# A body read with its double-quoted values whole, so a bracket inside quotes (`name="The [Red]
# Door"`) does not end or break the tag; possessive, so a failed match costs linear time.
_QUOTE_AWARE_BODY = re.compile(r'(?:[^"\[\]]|"[^"]*")*+\]')


def _end_of(reply: str, body_start: int) -> tuple[int, bool]:
    limit = min(len(reply), body_start + MAX_BODY)
    whole = _QUOTE_AWARE_BODY.match(reply, body_start, limit + 1)
    if whole and "\n\n" not in whole.group():
        return whole.end(), True
    close = reply.find("]", body_start, limit + 1)
    stop = close if close != -1 else limit
    for barrier in ("[", "\n\n"):
        at = reply.find(barrier, body_start, stop)
        if at != -1:
            stop, close = at, -1
    if close != -1:
        return close + 1, True
    while stop > body_start and reply[stop - 1].isspace():
        stop -= 1
    return stop, False
