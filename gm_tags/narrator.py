"""The narration of a reply built front to back, as its text and the spans removed from it
arrive, in time proportional to what arrives.

The rules (the narration a player reads, with command tags gone without a trace):
- a removed span takes one adjacent space with it: where the two sides join, a doubled space
  becomes one, a space before closing punctuation goes, and a space after a removed span at the
  start of a line (or after a character of a script written without spaces) goes;
- a line that held nothing but removed spans and white space goes, and so does a blank line its
  going would double; blank lines that end the narration after such a line go too;
- where the text on the two sides of a removed span joins into a new tag opening, that opening's
  `[` is left out (and any `[` that leaving it out would bring to an opening, walking back):
  the narration never holds a tag nobody applied.

Every rule looks at one line, one join or the end, so the narration of what has arrived is final
except for its end: white space (a join or the end may drop it) and a `[` that may still become
an opening. `Narrator.take` gives out what is final; `finish` gives the rest. `rewrite.narrate` is
this fed a whole reply, so a stream and a batch narration agree by construction.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterable
from typing import Any

from .grammar import opening
from .syntax import tag_names, when_tag_names_change

# Punctuation a tag may stand just before: the space before the tag goes, not the punctuation.
_CLOSING = frozenset(
    ".,;:!?)]}\u00bb\u201d\u2019\u2026\u0964\u0965\u3001\u3002\uff0c\uff01\uff1f\u300d\u300f\uff09"
)


@functools.cache
def opening_so_far() -> re.Pattern[str]:
    """A `[` at the end that could still become a tag opening (`[`, a tag name, a colon): white
    space and the start of a tag name, or a whole one and white space, in any case as the
    grammar's TAG_NAME reads it (`[ sk`, `[CLOCK `; not `[sic`, which no more text can make
    one)."""
    # The names as a trie (`s(?:h(?:e...)?|k...)?`): a regex engine tries an alternation of
    # every prefix one by one, in any case, at every `[` (microseconds each, at many a chunk).
    return re.compile(rf"\[[ \t]*(?i:{_trie(tag_names())})?\Z")


def _trie(names: Iterable[str]) -> str:
    """A pattern matching every non-empty prefix of `names`, and a whole name followed by
    spaces or tabs, and nothing else."""
    root: dict[str, dict[str, Any]] = {}
    for name in names:
        node = root
        for char in name:
            node = node.setdefault(char, {})
        node[""] = {}  # a whole name ends here

    def after(node: dict[str, Any]) -> str:
        """What may follow a prefix that reached `node` (nothing at all, too)."""
        ways = [r"[ \t]+"] if "" in node else []
        ways += [re.escape(char) + after(child) for char, child in sorted(node.items()) if char]
        return f"(?:{'|'.join(ways)})?" if ways else ""

    return "|".join(re.escape(char) + after(child) for char, child in sorted(root.items()) if char)


when_tag_names_change(opening_so_far.cache_clear)


class Narrator:
    """Feed it kept text (`keep`) and removed spans (`remove`) in reply order."""

    def __init__(self) -> None:
        self._given: list[str] = []  # final narration not taken yet
        self._given_any = False
        self._kept = 0  # lines kept so far, the current one not counted
        self._last_kept_blank = False
        self._dropped_since_kept = False
        # Held back, in order: the white space ending the last line with text, then the blank
        # lines kept after it (each with its line break), which the end may still drop.
        self._trailing = ""
        self._blank_lines: list[str] = []
        self._ends_with_newline = False
        # `keep_and_take` may take its few steps: the current line was given out in part, no
        # removed span's join is pending and nothing waits to be taken (set by `take`).
        self._flowing = False
        self._new_line()

    def _new_line(self) -> None:
        self._parts = 1  # a removed span starts a new part of the line
        self._line = ""  # the line's text (parts joined) not given out yet
        self._line_blank = True
        self._line_given = False
        self._last = ""  # the line's last character so far
        # After a removed span: the next part's start, while it is only carriage returns (how
        # the two sides join depends on the part's first other character, or its end).
        self._join: str | None = None

    def keep(self, text: str) -> None:
        if not text:
            return
        self._flowing = False
        first, *lines = text.split("\n")
        self._add(first)
        for line in lines:
            self._end_line()
            self._add(line)
        self._ends_with_newline = text.endswith("\n")

    def keep_and_take(self, text: str) -> str:
        """`keep(text)` and then `take()`: for text going on with a line already given out in
        part, with no line break, in a few steps (a stream calls this for each chunk of prose)."""
        if self._flowing and "\n" not in text:
            line = self._line + text
            if "[" not in line:
                body = line.rstrip()
                self._line = line[len(body) :]
                if text:
                    self._last = text[-1]
                return body
            # A `[` that stays text (a stray bracket): what `take` gives out of the line, when
            # nothing held before it (white space, blank lines) goes out with it.
            cut = open_end(line)
            # Only a removed span can form an opening (see `without_formed_openings`).
            given = line[:cut] if self._parts == 1 else without_formed_openings(line[:cut])
            held_before = self._trailing or self._blank_lines
            if text and given and not given[-1].isspace() and not held_before:
                self._line = line[cut:]
                self._last = text[-1]
                self._given_any = True
                return given
        self.keep(text)
        return self.take()

    def plain_end(self) -> str | None:
        """The white space the current line holds back, when that is all it holds: the line was
        given out in part, and no join, `[` or blank line waits (what `keep_and_take` would do
        in its few steps). A caller that goes on with text holding no line break and no `[` can
        then give it out itself, `(held + text).rstrip()`, keeping the new white space end, and
        hand the line back with `went_on`: a stream does so, chunk after chunk."""
        if self._flowing and "[" not in self._line and not (self._trailing or self._blank_lines):
            return self._line
        return None

    def went_on(self, held: str, last: str, removed: int) -> None:
        """The line went on from `plain_end` by the caller: it holds back `held` now, `last` is
        its last character (empty when nothing came), and `removed` spans were removed from it
        (the caller joined the text around them, `joined`)."""
        self._line = held
        if last:
            self._last = last
        self._parts += removed

    def remove(self) -> None:
        """A removed span stands here."""
        self._flowing = False
        if self._join is not None:
            self._resolve_join()
        self._parts += 1
        self._join = ""
        self._ends_with_newline = False

    def take(self) -> str:
        """The narration that became final since the last take: the current line too, up to
        where its end may still change."""
        if not self._line_blank and self._line:
            cut = open_end(self._line)
            if cut:
                text, self._line = self._line[:cut], self._line[cut:]
                self._give_line_text(text)
        taken = self._taken()
        # Nothing waits to be taken, and the line goes on from what was given out of it.
        self._flowing = self._line_given and self._join is None
        return taken

    def finish(self) -> str:
        """The reply ended: the rest of the narration."""
        self._flowing = False
        if self._join is not None:
            self._resolve_join()
        if not self._ends_with_newline:  # a reply's last line break ends a line, not starts one
            self._end_line()
        if self._dropped_since_kept:
            self._kept -= len(self._blank_lines)
            self._blank_lines.clear()
        rest = self._trailing + "".join(self._blank_lines)
        if self._ends_with_newline and (self._given_any or rest):
            rest += "\n"
        self._given.append(rest)
        return self._taken()

    def _taken(self) -> str:
        text = "".join(self._given)
        self._given.clear()
        return text

    def _add(self, text: str) -> None:
        """More of the current part of the current line."""
        if not text:
            return
        if self._join is not None:
            text = self._join + text
            if not text.strip("\r"):
                self._join = text
                return
            self._join = None
            text = self._joined(text, ended=False)
        self._append(text)

    def _append(self, text: str) -> None:
        if text:
            self._line += text
            self._line_blank = self._line_blank and text.isspace()
            self._last = text[-1]

    def _resolve_join(self) -> None:
        """The part after a removed span ended holding nothing but carriage returns."""
        after, self._join = self._join or "", None
        self._append(self._joined(after, ended=True))

    def _joined(self, after: str, *, ended: bool) -> str:
        """`after`, the start of a part that follows a removed span, as it joins the line. The
        line's white space end is never given out, so `_line` holds its last space."""
        self._line, after = joined(
            self._line, after, blank=self._line_blank, last=self._last, ended=ended
        )
        return after

    def _end_line(self) -> None:
        if self._join is not None:
            self._resolve_join()
        blank = self._line_blank
        if self._parts > 1 and blank:
            self._dropped_since_kept = True
        elif not (
            self._parts == 1
            and blank
            and self._dropped_since_kept
            and (not self._kept or self._last_kept_blank)
        ):
            self._keep_line()
            self._dropped_since_kept = self._dropped_since_kept and blank
        self._new_line()

    def _keep_line(self) -> None:
        if self._line_blank:
            self._blank_lines.append(("\n" if self._kept else "") + self._line)
        else:
            self._give_line_text(self._line)
        self._last_kept_blank = self._line_blank
        self._kept += 1

    def _give_line_text(self, text: str) -> None:
        """Give out the next stretch of the current line (which has text, so it is kept)."""
        text = without_formed_openings(text)
        if not self._line_given:
            self._line_given = True
            text = ("\n" if self._kept else "") + text
        body = text.rstrip()
        if not body:
            self._trailing += text
            return
        self._given.append(self._trailing + "".join(self._blank_lines) + body)
        self._given_any = True
        self._blank_lines.clear()
        self._trailing = text[len(body) :]


def joined(line: str, after: str, *, blank: bool, last: str, ended: bool) -> tuple[str, str]:
    """The end of a line and `after`, the start of a part that follows a removed span on it, as
    they join: the space the span takes goes from one side or the other. `blank`: the line holds
    nothing but white space; `last`: its last character; `ended`: the part ended there."""
    rest = after.rstrip("\r") if ended else after
    space_before = line.endswith(" ")
    if space_before and after.startswith(" "):
        return line, after[1:]
    if space_before and (not rest or rest[0] in _CLOSING):
        return line[:-1], after
    if after.startswith(" ") and (blank or _spaceless(last)):
        return line, after[1:]
    return line, after


def open_end(line: str) -> int:
    """Where the end of `line` that more text may still change begins: its white space, and a
    `[` that could still form a tag opening with what follows, with the `[` and blanks before
    it (leaving out a formed opening's `[` walks back over them)."""
    end = len(line.rstrip())
    bracket = line.rfind("[", 0, end)
    if bracket == -1 or opening_so_far().match(line, bracket, end) is None:
        return end
    while bracket > 0 and line[bracket - 1] in "[ \t":
        bracket -= 1
    return len(line[:bracket].rstrip())


def without_formed_openings(narration: str) -> str:
    """The narration with the `[` of every tag opening left out. Every opening in the reply was a
    candidate and is gone, so any found here was formed by joining the text around a removed
    span; leaving out its `[` can only form another where `[` and white space stood before it,
    so those go too, walking back."""
    if "[" not in narration:
        return narration
    drop: list[int] = []
    for opened in opening().finditer(narration):
        at = opened.start()
        while at >= 0 and narration[at] == "[":
            drop.append(at)
            at -= 1
            while at >= 0 and narration[at] in " \t":
                at -= 1
    if not drop:
        return narration
    dropped = set(drop)
    return "".join(char for at, char in enumerate(narration) if at not in dropped)


def _spaceless(char: str) -> bool:
    """A character of a script written without spaces between words (Chinese, Japanese)."""
    if char < "\u3000":  # most text: one comparison
        return False
    code = ord(char)
    return code <= 0x30FF or 0x3400 <= code <= 0x9FFF or 0xF900 <= code <= 0xFFEF
