"""Finding command tags in free text, in linear time.

A candidate starts where the grammar's OPENING matches: `[`, a tag name and a colon. When the
grammar's TAG matches from there (within `MAX_BODY` characters and without a blank line), the
candidate is that tag, *readable*. Otherwise it ends at the first `]` outside double quotes, or,
when there is none before the next `[`, a blank line or `MAX_BODY` characters, where the search
stopped: *unterminated*. Either way it is still a candidate (so it becomes a refusal, never
silently dropped). Everything else in the reply, other square brackets included, is not a
candidate and is never touched.

Every search is bounded by `MAX_BODY` from its candidate's start, and the next search starts
where the last candidate ended, so a reply costs time in proportion to its length.
"""

from __future__ import annotations

import functools
import re
from typing import NamedTuple

from .grammar import OPENING, TAG

MAX_BODY = 1500

# A body read with its double-quoted values whole, so a bracket inside quotes (`name="The [Red]
# Door"`) does not end the tag; possessive, so a failed match costs linear time.
_QUOTE_AWARE_BODY = re.compile(r'(?:[^"\[\]]|"[^"]*")*+\]')
_BLANK_LINE = re.compile(r"\n[ \t\u3000]*\r?\n")


class Candidate(NamedTuple):
    """A stretch of the reply that asks to be a command tag. `body` is where its attributes start,
    as an offset into `text`; `readable` is true when the grammar's TAG matched all of it."""

    name: str
    start: int
    end: int
    text: str
    body: int
    closed: bool
    readable: bool


def scan(reply: str) -> list[Candidate]:
    """Every command-tag candidate in `reply`, in order, none overlapping."""
    found: list[Candidate] = []
    at = 0
    while (opening := OPENING.search(reply, at)) is not None:
        start, body = opening.start(), opening.end()
        name = _name_in(opening.group())
        window = min(len(reply), body + MAX_BODY + 1)
        # With no `]` ahead there is no tag to match: go straight to finding where it stops.
        close_ahead = reply.find("]", body, window) != -1
        whole = TAG.match(reply, start, window) if close_ahead else None
        if whole is not None and not _holds_blank_line(whole.group()):
            end, closed, readable = whole.end(), True, True
        elif close_ahead:
            end, closed = _end_of(reply, body)
            readable = False
        else:
            end, closed, readable = (
                _unterminated_end(reply, body, min(len(reply), body + MAX_BODY)),
                False,
                False,
            )
        found.append(Candidate(name, start, end, reply[start:end], body - start, closed, readable))
        at = end
    return found


@functools.lru_cache(maxsize=64)
def _name_in(opening: str) -> str:
    """The tag name in an opening such as `[Clock :`; models write a handful of spellings."""
    return opening[1:-1].strip(" \t").lower()


def _holds_blank_line(text: str) -> bool:
    return "\n" in text and _BLANK_LINE.search(text) is not None


def _end_of(reply: str, body_start: int) -> tuple[int, bool]:
    limit = min(len(reply), body_start + MAX_BODY)
    quoted = _QUOTE_AWARE_BODY.match(reply, body_start, limit + 1)
    if quoted and _BLANK_LINE.search(reply, body_start, quoted.end()) is None:
        return quoted.end(), True
    close = reply.find("]", body_start, limit + 1)
    stop = close if close != -1 else limit
    bracket = reply.find("[", body_start, stop)
    if bracket != -1:
        stop, close = bracket, -1
    if close != -1 and _BLANK_LINE.search(reply, body_start, stop) is None:
        return close + 1, True
    return _unterminated_end(reply, body_start, stop), False


def _unterminated_end(reply: str, body_start: int, limit: int) -> int:
    """Where a tag without its `]` stops: the next `[`, blank line or `limit`, white space left
    out."""
    stop = reply.find("[", body_start, limit)
    stop = limit if stop == -1 else stop
    if reply.find("\n", body_start, stop) != -1:
        blank = _BLANK_LINE.search(reply, body_start, stop)
        if blank is not None:
            stop = blank.start()
    while stop > body_start and reply[stop - 1].isspace():
        stop -= 1
    return stop
