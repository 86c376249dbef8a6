"""What every way a chunk takes through a `ReplyStream` shares: the text received, the tags
settled and applied, the narrator and the narration given out, where the scan goes on."""

from __future__ import annotations

import functools
import re
from typing import Generic

from ..dice import Dice
from ..families.registry import FAMILIES
from ..grammar import opening
from ..narrator import Narrator, opening_so_far
from ..parse import parse_all
from ..pipeline import ReplyRun, Turn
from ..receipts import Receipt
from ..rewrite import WRAPPER_MARKUP
from ..scan import MAX_BODY, Candidate, name_in
from ..state import S
from ..syntax import when_tag_names_change

# Markup that a tag may stand wrapped in starts with one of these (see `rewrite.unwrapped`).
WRAPPER_STARTS = frozenset(WRAPPER_MARKUP)
# How many settled tags wait to be parsed together, at most (one Lark pass costs about as much
# for one tag as for a few: measured in tests/benchmarks/test_stream.py).
APPLY_TOGETHER = 16


@functools.cache
def _opens_or_could_open() -> re.Pattern[str]:
    """Where a tag opens (the group `opens` matched), or else a `[` at the end that could still
    open one: both in one search (none of the second kind comes before one of the first). Both
    start with `[`, written once in front, so the search skips to each `[` (an alternation in
    front makes it try both at every character: twice the time)."""
    opens, could_open = opening().pattern, opening_so_far().pattern
    if not (opens.startswith(r"\[") and could_open.startswith(r"\[")):
        raise RuntimeError("expected a tag opening and a could-open `[` to start with `\\[`")
    return re.compile(rf"\[(?:(?P<opens>{opens[2:]})|{could_open[2:]})")


when_tag_names_change(_opens_or_could_open.cache_clear)


def markup_start(text: str, end: int, floor: int) -> int:
    """Where markup a tag may stand wrapped in, ending `text` at `end`, starts (not below
    `floor`): the narration holds it back, since the text after it may show it wraps a tag."""
    while end > floor and text[end - 1] in WRAPPER_STARTS:
        end -= 1
    return end


class StreamState(Generic[S]):
    """A stream's state, and the small steps every way through it takes."""

    def __init__(
        self, game: S, dice: Dice | None = None, *, continues: bool = False, applies: bool = True
    ) -> None:
        self._run = ReplyRun(game, dice, continues=continues, applies=applies)
        self._text = ""
        # The chunks received since `_text` was last brought up to date (`_text_now`): a chunk
        # that flows on costs an append, not a longer string.
        self._chunks: list[str] = []
        self._keep_chunk = self._chunks.append  # a step fewer at every chunk
        # Where the next scan starts: the first tag found and not settled, or the last `[`
        # that could still open one; no tag opens between the last one applied and here.
        self._scan_from = 0
        self._open_at = -1  # where the first tag found and not settled starts, if any
        self._open_body = 0  # where its attributes start, while it is unterminated
        # While the first tag open is unterminated: how many more characters a chunk with no
        # `[`, `]` or line break may bring and leave everything as it was (the scanner reads
        # that far for it); -1 otherwise.
        self._quiet_left = -1
        # Nothing held but, at the end, a `[` that could still open a tag (at `_scan_from`) or
        # markup a tag may stand wrapped in: no tag open, no span or check waiting.
        self._calm = True
        # Every tag settled so far, in order; the first `_applied` are applied. The rest are
        # parsed together (one Lark pass, as a whole reply is) when anything asks for their
        # receipts (`receipts`, a check's branches, the end: no one can tell the difference) or
        # when `APPLY_TOGETHER` wait, so the end does not wait on all of them.
        self._settled: list[Candidate] = []
        self._applied = 0
        self._narrator = Narrator()
        self._opening = opening()
        self._could_open = opening_so_far()
        self._opens_or_could_open = _opens_or_could_open()
        self._narrated_to = 0  # the text before this is the narrator's
        self._floor = 0  # where the last span handed to the narrator ends, widened
        # Spans of applied tags (and of their checks' branches) not handed over yet, in order.
        self._spans: list[tuple[int, int]] = []
        self._spanned = 0  # the settled tags whose spans are in `_spans` or handed over
        self._shown: list[str] = []  # the narration given out, piece by piece
        self._turn: Turn[S] | None = None

    @property
    def text(self) -> str:
        """The reply as received so far (after `stop()`, the part the turn kept)."""
        return self._text_now()

    @property
    def narrating(self) -> bool:
        """Whether any narration was given out yet."""
        # The narrator's line is lent to `feed` only once part of it was given out (and so
        # shown) here, so what `feed` gives while lent, recorded later, never changes this.
        return bool(self._shown)

    @property
    def receipts(self) -> tuple[Receipt, ...]:
        """The receipts of the tags applied so far (each applies the moment it closes), in reply
        order."""
        self._apply_settled()
        return tuple(self._run.receipts)

    def _text_now(self) -> str:
        """The text received so far, brought up to date with the chunks since."""
        if self._chunks:
            # Grown in place: a string no one else holds is extended in its own buffer by `+=`
            # on a local name (CPython), where `self._text += ...` would copy the whole text.
            text, self._text = self._text, ""
            text += "".join(self._chunks)
            self._text = text
            self._chunks.clear()
        return self._text

    def _settle_closed(self, text: str, name: str, start: int, end: int, body: int) -> None:
        """A command found closed for good in `text` (`start` to `end`, its attributes from
        `body`) is settled, its span taken as handled."""
        self._settled.append(Candidate(name, start, end, text[start:end], body - start, True))
        self._spanned += 1
        self._apply_when_enough()

    def _apply_when_enough(self) -> None:
        """The settled commands applied once `APPLY_TOGETHER` of them wait."""
        if len(self._settled) - self._applied >= APPLY_TOGETHER:
            self._apply_settled()

    def _apply_settled(self) -> None:
        for tag in parse_all(self._settled[self._applied :]):
            self._run.apply(tag)
        self._applied = len(self._settled)

    @staticmethod
    def _opens_alone(text: str, opened: re.Match[str]) -> bool:
        """Whether the tag opening at `opened` (the first from where the scan starts) is all a
        scan would find there: a command (`commands_in` keeps it), unterminated (no `]` after
        it), and not settled (`text` not past the bound of its search, see `scan.settled`)."""
        body = opened.end()
        return (
            text.find("]", body) == -1
            and len(text) <= body + MAX_BODY
            and name_in(opened.group()) in FAMILIES
        )

    def _show(self, new: str) -> str:
        if new:
            self._shown.append(new)
        return new
