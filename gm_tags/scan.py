"""Finding command tags in free text, in linear time.

A candidate starts where a tag opens: `[`, a tag name and a colon, as the grammar's TAG_NAME and
COLON terminals spell them. It ends at the first `]` that stands outside a quoted value (double,
typographic or corner quotes; an ASCII `'` is too often an apostrophe to hide a bracket), within
`MAX_BODY` characters and without a blank line. When there is no such `]` before the next `[`, a
blank line or `MAX_BODY` characters, the candidate ends there, *unterminated*. Either way it is a
candidate (so it becomes a refusal, never silently dropped); what is inside is Lark's to read
(`gm_tags/parse.py`). Everything else in the reply, other square brackets included, is not a
candidate and is never touched.

Every search is bounded by `MAX_BODY` from its candidate's start, and the next search starts
where the last candidate ended, so a reply costs time in proportion to its length.
"""

from __future__ import annotations

import functools
import re
from typing import NamedTuple

from .grammar import opening
from .syntax import BRACKET_QUOTES, quoted

MAX_BODY = 1500

# A body read with its quoted values whole, so a bracket inside quotes (`name="The [Red] Door"`)
# does not end the tag; possessive, so a failed match costs linear time, and unquoted text taken
# a run at a time rather than a character at a time.
_QUOTE_AWARE_BODY = re.compile(
    rf"(?:[^{re.escape(''.join(q for q, _ in BRACKET_QUOTES))}\[\]]++|{quoted(BRACKET_QUOTES)})*+\]"
)
_BLANK_LINE = re.compile(r"\n[ \t\u3000]*\r?\n")


class Candidate(NamedTuple):
    """A stretch of the reply that asks to be a command tag. `body` is where its attributes start,
    as an offset into `text`; `closed` is false when it has no `]`."""

    name: str
    start: int
    end: int
    text: str
    body: int
    closed: bool


def scan(reply: str, start: int = 0) -> list[Candidate]:
    """Every command-tag candidate in `reply`, in order, none overlapping; from `start` on (the
    end of a candidate found before, or 0), the same ones a scan from 0 finds there."""
    found: list[Candidate] = []
    at = start
    opens = opening()
    while (opened := opens.search(reply, at)) is not None:
        start, body = opened.start(), opened.end()
        end, closed = _end_of(reply, body)
        found.append(
            Candidate(name_in(opened.group()), start, end, reply[start:end], body - start, closed)
        )
        at = end
    return found


@functools.lru_cache(maxsize=64)
def name_in(opening: str) -> str:
    """The tag name in an opening such as `[Clock :`; models write a handful of spellings."""
    return opening[1:-1].strip(" \t").lower()


def _end_of(reply: str, body_start: int) -> tuple[int, bool]:
    limit = min(len(reply), body_start + MAX_BODY)
    close = reply.find("]", body_start, limit + 1)
    if close == -1:
        return _unterminated_end(reply, body_start, limit), False
    end = closed_end(reply, body_start)
    if end != -1:
        return end, True
    bracket = reply.find("[", body_start, close)
    if bracket == -1 and not _holds_blank_line(reply, body_start, close):
        return close + 1, True
    stop = close if bracket == -1 else bracket
    return _unterminated_end(reply, body_start, stop), False


def closed_end(reply: str, body_start: int) -> int:
    """Where a tag whose attributes start at `body_start` ends when a `]` outside quotes closes
    it within `MAX_BODY` and before any blank line, else -1. Such an end is the one `scan` finds,
    and it is settled: no text after it can move it."""
    quoted = _QUOTE_AWARE_BODY.match(reply, body_start, body_start + MAX_BODY + 1)
    if quoted is None:
        return -1
    end = quoted.end()
    return -1 if _holds_blank_line(reply, body_start, end) else end


def _holds_blank_line(reply: str, start: int, end: int) -> bool:
    return reply.find("\n", start, end) != -1 and _BLANK_LINE.search(reply, start, end) is not None


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


def settled(text: str, candidate: Candidate) -> bool:
    """Whether `candidate`, found in `text`, is found the same in any text that goes on from it:
    it is closed by a `]` outside quotes (what follows cannot move that), or `text` reaches past
    the bound of its search. Otherwise a quote still open, or a `]` still to come, could change
    where it ends."""
    body_start = candidate.start + candidate.body
    if len(text) > body_start + MAX_BODY:
        return True
    return candidate.closed and closed_end(text, body_start) == candidate.end
