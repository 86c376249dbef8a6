"""A JSON request body read once, with where each of its messages ends in its text, and written
again as that very text with a few messages replaced or put in.

The upstream gets the client's own text, not the value read and encoded again: for a long
transcript, encoding 20,000 messages costs about what reading them did, while putting the
game's prompt in costs the few messages it changes. What the upstream reads is the value the
proxy read (the text is the client's: its escapes, key order, spacing and numbers as written),
with those messages changed.

The body is read as `json.loads` reads it (the same decoding of the bytes, the same values, and
anything it refuses refused), its top-level object key by key and its `messages` array message
by message, each value by the json module's scanner (in C). Two differences, both refusals of
what is not JSON and that no upstream takes: `NaN` and `Infinity`, and nesting too deep to read
(Python's json raises RecursionError for it). Numbers the proxy could not write again are refused
too: a float beyond a double (json.loads reads it as infinity) and an integer over Python's
4,300 digits (json.loads raises ValueError). A body whose top level gives a key twice is read
(the last one counts, as in `json.loads`) but not spliced (`Read.splices`): an upstream that
keeps the first would read the client's messages, not the ones the proxy sends.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from json.scanner import make_scanner
from typing import Any, cast

_WHITE = re.compile(r"[ \t\n\r]*")
_BLANKS = frozenset(" \t\n\r")


class NotJSON(ValueError):
    """A body that is not JSON (or not one the proxy can read): the message says why, from
    "the body"."""


class _Unwritable(NotJSON):
    """A number the proxy could not write again."""


def _white(text: str, at: int) -> int:
    """Where the white space from `at` ends."""
    if text[at : at + 1] not in _BLANKS:
        return at  # none (a compact body has none anywhere): no pattern matched
    found = _WHITE.match(text, at)
    assert found is not None  # the pattern matches nothing too
    return found.end()


def _no_constant(name: str) -> None:
    raise NotJSON  # read() says what: the body is not JSON


def _finite(written: str) -> float:
    # json.loads reads 1e400 as infinity, which no JSON writer writes again.
    number = float(written)
    if math.isinf(number):
        raise _Unwritable(f"the body holds a number beyond a double: {written[:40]}")
    return number


_SCAN = make_scanner(cast(Any, json.JSONDecoder(parse_constant=_no_constant, parse_float=_finite)))


# How far from either end of the messages a message is looked for in the text, and how many
# places one may be tried at: further in, the body is not spliced (written again whole).
NEAR = 16
TRIES = 256


@dataclass(frozen=True)
class Read:
    """A body read: its value, its text, and (when it can be spliced) where its `messages`
    array opens and closes in the text, and where each top-level value stands."""

    value: Any
    text: str
    raw: bytes = b""
    utf8: bool = False  # the text is `raw` read as UTF-8 (no byte order mark)
    opens: int = -1
    closes: int = -1
    fields: Mapping[str, tuple[int, int]] = field(default_factory=dict)
    first: int = -1  # where the object's first key starts

    @property
    def splices(self) -> bool:
        return self.opens >= 0

    def spliced(
        self,
        replaced: Mapping[int, object],
        inserted: Mapping[int, object],
        fields: Mapping[str, object] | None = None,
    ) -> bytes | None:
        """The body's text in UTF-8 with message `i` replaced by `replaced[i]`, and
        `inserted[i]` put before message `i` (after the last one when `i` is their count), and
        each of the object's `fields` given that value (a new one put first); None when one of
        the messages is not near either end of them (`NEAR`), or not found within `TRIES` (a
        message that is not an object)."""
        if not self.splices:
            return None
        places = _Places(self)
        edits: list[tuple[int, int, str]] = []  # where, up to where, what
        for key, value in (fields or {}).items():
            if key in self.fields:
                edits.append((*self.fields[key], encoded(value)))
            else:
                member = f"{encoded(key)}:{encoded(value)},"
                edits.append((self.first, self.first, member))
        count = len(places.messages)
        for at, value in inserted.items():
            if at < count:
                start = places.start(at)
                if start < 0:
                    return None
                edits.append((start, start, encoded(value) + ","))
            elif count:
                end = places.end(count - 1)
                if end < 0:
                    return None
                edits.append((end, end, "," + encoded(value)))
            else:
                edits.append((self.opens + 1, self.opens + 1, encoded(value)))
        for at, value in replaced.items():
            start = places.start(at)
            if start < 0:
                return None
            edits.append((start, places.end(at), encoded(value)))
        edits.sort()
        if not self.utf8:  # another encoding JSON allows: written again as UTF-8
            pieces: list[str] = []
            cursor = 0
            for start, end, written in edits:
                pieces += (self.text[cursor:start], written)
                cursor = end
            return "".join([*pieces, self.text[cursor:]]).encode()
        # The client's bytes, not copied piece by piece (a long body's pieces would each be
        # new memory): where each edit is in them, counted from the text.
        view, text = memoryview(self.raw), self.text
        parts: list[bytes | memoryview] = []
        cursor = counted = 0  # a place in the text, and in the bytes
        for start, end, written in edits:
            start_byte = counted + _length(text, cursor, start)
            parts += (view[counted:start_byte], written.encode())
            counted = start_byte + _length(text, start, end)
            cursor = end
        parts.append(view[counted:])
        return b"".join(parts)


def _length(text: str, start: int, end: int) -> int:
    """How many bytes UTF-8 gives `text[start:end]`."""
    if text.isascii():
        return end - start
    return len(text[start:end].encode("utf-8", "surrogatepass"))


class _Places:
    """Where the messages near either end of the array start and end in the text: found from
    the array's opening, scanning message by message, or from its closing, backwards."""

    def __init__(self, read: Read) -> None:
        self.text, self.opens, self.closes = read.text, read.opens, read.closes
        self.messages: list[Any] = read.value["messages"]
        self._starts: dict[int, int] = {}
        self._ends: dict[int, int] = {}
        self._tries = TRIES
        # The next message a forward scan reads, and where it starts.
        self._forward_from = (0, _white(read.text, read.opens + 1))

    def start(self, at: int) -> int:
        """Where message `at` starts (-1: not found)."""
        self._find(at)
        return self._starts.get(at, -1)

    def end(self, at: int) -> int:
        """Where message `at` ends (-1: not found)."""
        self._find(at)
        return self._ends.get(at, -1)

    def _find(self, at: int) -> None:
        if at in self._starts:
            return
        count = len(self.messages)
        if at < NEAR:
            self._forward(at)
        elif count - at <= NEAR:
            self._backward(at)

    def _forward(self, upto: int) -> None:
        """Messages up to `upto`, each scanned from where the one before ends, on from where
        the last forward scan stopped."""
        text, (first, at) = self.text, self._forward_from
        for index in range(first, upto + 1):
            _, end = _SCAN(text, at)
            self._starts[index], self._ends[index] = at, end
            at = _white(text, _white(text, end) + 1)  # past the comma
        self._forward_from = (upto + 1, at)

    def _backward(self, downto: int) -> None:
        """The last messages down to `downto`, each from where the one after it starts."""
        text, end = self.text, _white_before(self.text, self.closes)
        for index in range(len(self.messages) - 1, downto - 1, -1):
            start = self._object_ending(end, self.messages[index])
            if start < 0:
                return
            self._starts[index], self._ends[index] = start, end
            end = _white_before(text, _white_before(text, start) - 1)  # before the comma

    def _object_ending(self, end: int, value: object) -> int:
        """Where the object that is `value` and ends at `end` starts (-1: not found). Tried
        at each `{` before `end`, nearest first: an object inside the message ends before it
        does; one read from inside a string reads the text between its strings as keys, so its
        keys are made of commas, colons and brackets, never a message's `role`."""
        text, at = self.text, end
        while self._tries > 0:
            at = text.rfind("{", self.opens + 1, at)
            if at < 0:
                return -1
            self._tries -= 1
            try:
                found, ends = _SCAN(text, at)
            except (StopIteration, ValueError, RecursionError):
                continue
            if ends == end and found == value:
                return at
        return -1


def _white_before(text: str, at: int) -> int:
    """Where the white space before `at` begins."""
    while at > 0 and text[at - 1] in " \t\n\r":
        at -= 1
    return at


# The writer `encoded` uses, made once (json.dumps makes one a call).
_WRITER = json.JSONEncoder(ensure_ascii=False, separators=(",", ":"), allow_nan=False)


@dataclass(frozen=True)
class Written:
    """A value with its JSON text (`encoded`'s) written once for many bodies: a splice puts the
    text in as it stands (the system section the proxy adds every turn, its rules reference up
    to 16,000 characters, is written once a ruleset, not once a request)."""

    value: object
    text: str

    @classmethod
    def of(cls, value: object) -> Written:
        return cls(value, _WRITER.encode(value))


def encoded(value: object) -> str:
    """A value as JSON, written as the proxy's upstream client writes a body (a `Written` one as
    it was written)."""
    if isinstance(value, Written):
        return value.text
    return _WRITER.encode(value)


def unwritten(value: object) -> object:
    """The value itself, for a body written again whole: a `Written`'s value."""
    return value.value if isinstance(value, Written) else value


def read(raw: bytes) -> Read:
    """The body's value, read as `json.loads` reads it (NotJSON when it is not JSON)."""
    encoding = json.detect_encoding(raw)
    try:
        text = raw.decode(encoding, "surrogatepass")
    except UnicodeDecodeError:
        raise NotJSON("the body is not text") from None
    body = Read(None, text, raw, encoding == "utf-8")
    try:
        at = _white(text, 0)
        if text.startswith("{", at):
            found, end = _object(body, at)
        else:
            value, end = _SCAN(text, at)
            found = replace(body, value=value)
    except _Unwritable:
        raise
    except (StopIteration, json.JSONDecodeError, NotJSON, RecursionError):
        raise NotJSON("the body is not JSON") from None
    except ValueError:  # Python reads no integer of over 4,300 digits
        raise _Unwritable("the body holds an integer of over 4,300 digits") from None
    if _white(text, end) != len(text):
        raise NotJSON("the body holds more than one JSON value")
    return found


def _object(body: Read, at: int) -> tuple[Read, int]:
    """The object opening at `at` in the body's text, read key by key (each value by the
    scanner), and where it ends; where its `messages` array opens and closes, and where each
    top-level value stands (none when a key is given twice)."""
    text, raw, utf8 = body.text, body.raw, body.utf8
    value: dict[str, Any] = {}
    fields: dict[str, tuple[int, int]] = {}
    twice = False
    at = _white(text, at + 1)
    if text.startswith("}", at):
        return Read(value, text, raw, utf8), at + 1
    first = at
    while True:
        if not text.startswith('"', at):
            raise NotJSON  # read() says what: the body is not JSON
        key, at = _SCAN(text, at)
        at = _white(text, at)
        if not text.startswith(":", at):
            raise NotJSON
        at = _white(text, at + 1)
        twice = twice or key in value
        start = at
        value[key], at = _SCAN(text, at)
        fields[key] = (start, at)
        at = _white(text, at)
        if text.startswith(",", at):
            at = _white(text, at + 1)
        elif text.startswith("}", at):
            break
        else:
            raise NotJSON
    opens, closes = fields.get("messages", (0, 0))
    if twice or "messages" not in fields or not text.startswith("[", opens):
        return Read(value, text, raw, utf8), at + 1
    placed = Read(value, text, raw, utf8, opens, closes - 1, fields, first)
    return placed, at + 1
