"""A reply read as it streams in: each command tag applied the moment it closes, the narration
given out as soon as nothing still to come can change it.

`ReplyStream.feed(chunk)` returns the narration that became safe; `finish()` returns the rest and
the `Turn`, which equals `process` on the whole text (same receipts, state, rewritten reply and
narration), and the pieces given out join into that narration exactly.

What is held back, and why (see docs/proxy.md):
- a tag that has not closed, from its `[` (a closed tag is final once its `]` stands outside
  quotes; one that is still unterminated is held up to the scanner's bound, `MAX_BODY`);
- a `[` at the end that could still open a tag (`[cl`, `[ sheet `), and markup just before it
  (`**`, `(`) that a tag would take with it;
- after a check, the white space and branches that may follow it, until they are written or
  something else is (`[success: ...]` is kept or hidden by the roll);
- two characters after a removed tag (the markup it may stand wrapped in, `**[...]**`);
- white space at the end (removing the next tag may take it) and a line still empty.

A tag is parsed and applied once. A chunk of plain prose after settled text costs its own length;
any other chunk scans on from the last tag applied and narrates the text so far again.
Measured in tests/benchmarks/test_proxy.py.
"""

from __future__ import annotations

import re
from dataclasses import replace
from typing import Generic

from .dice import Dice
from .grammar import branch_pattern
from .parse import parse_all
from .pipeline import ReplyRun, Turn, branch_spans, commands_in
from .receipts import Receipt
from .rewrite import narrate, unwrapped
from .scan import Candidate, settled
from .state import S

# A `[` at the end that could still become a tag opening (`[`, a tag name, a colon). Tag names
# are at most 11 letters and underscores (`skill_check`), in any case.
_OPENING_SO_FAR = re.compile(r"\[[ \t]*[A-Za-z_]{0,11}[ \t]*\Z")
# The run of `[` and blanks an opening formed in the narration takes back with it.
_BRACKETS_BEFORE = re.compile(r"[\[ \t]*\Z")
_AFTER_CHECK = re.compile(r"[ \t]*\n?[ \t]*")
# Markup that a tag may stand wrapped in starts with one of these (see `rewrite.unwrapped`).
_WRAPPER_STARTS = frozenset("*_~`[(\uff08\u3010")
# A chunk that cannot open, close or wrap a tag, nor end a line.
_PLAIN = re.compile(r"[^\[\]\n\r*_~`(\uff08\u3010]*")
# The longest closing markup `unwrapped` looks for after a removed span.
_CLOSING_MARKUP = 2


class ReplyStream(Generic[S]):
    """Feed it a reply's chunks in order; read back narration as it becomes safe."""

    def __init__(self, game: S, dice: Dice | None = None, *, continues: bool = False) -> None:
        self._run = ReplyRun(game, dice, continues=continues)
        self._text = ""
        self._scanned_to = 0  # where the last tag applied ends: the scan goes on from there
        self._shown = ""
        # The narration of the whole text so far, when plain text added to the reply can only
        # add itself to it (nothing held, a last line with words and no bracket); else None.
        self._plain: str | None = None
        self._turn: Turn[S] | None = None

    @property
    def text(self) -> str:
        """The reply as received so far (after `stop()`, the part the turn kept)."""
        return self._text

    @property
    def receipts(self) -> tuple[Receipt, ...]:
        """The receipts of the tags applied so far, in reply order."""
        return tuple(self._run.receipts)

    def feed(self, chunk: str) -> str:
        """Take the next piece of the reply; return the narration that became safe to show."""
        if self._turn is not None:
            raise RuntimeError("the stream has finished")
        self._text += chunk
        if self._plain is not None and _PLAIN.fullmatch(chunk):
            self._plain += chunk
            return self._show(_without_open_end(self._plain))
        pending = commands_in(self._text, self._scanned_to)
        while pending and settled(self._text, pending[0]):
            self._apply(pending.pop(0))
        return self._show(self._safe_narration(pending))

    def finish(self) -> tuple[str, Turn[S]]:
        """The reply has ended: apply what is left, and return the rest of the narration and the
        turn. The narration already given out is a prefix of the turn's."""
        if self._turn is None:
            for candidate in commands_in(self._text, self._scanned_to):
                self._apply(candidate)
            self._turn = self._run.finish(self._text)
        narration, rest = self._turn.narration, ""
        if narration.startswith(self._shown):
            rest, self._shown = narration[len(self._shown) :], narration
        return rest, self._turn

    def stop(self) -> Turn[S]:
        """The reply was cut off here: the tags that closed apply and none after. The turn's
        reply is the text up to where the first tag still open begins, and its narration is
        exactly what was given out (what the player saw)."""
        if self._turn is None:
            pending = commands_in(self._text, self._scanned_to)
            cut = pending[0].start if pending else len(self._text)
            self._text = self._text[:cut]
            self._turn = replace(self._run.finish(self._text), narration=self._shown)
        return self._turn

    def _apply(self, candidate: Candidate) -> None:
        (tag,) = parse_all([candidate])
        self._run.apply(tag)
        self._scanned_to = candidate.end

    def _show(self, safe: str) -> str:
        if len(safe) <= len(self._shown) or not safe.startswith(self._shown):
            return ""
        new, self._shown = safe[len(self._shown) :], safe
        return new

    def _safe_narration(self, pending: list[Candidate]) -> str:
        """The narration of the text so far that nothing still to come can change."""
        text = self._text
        held = pending[0].start if pending else len(text)
        receipts = self._run.receipts
        spans: list[tuple[int, int]] = []
        for at, receipt in enumerate(receipts):
            spans.append((receipt.start, receipt.end))
            if receipt.family != "skill_check":
                continue
            following = receipts[at + 1].start if at + 1 < len(receipts) else held
            if following == len(text) and not _branches_written(text, receipt.end):
                held = min(held, receipt.end)
                break
            spans += branch_spans(text, receipt, following)
        if held == len(text):
            bracket = text.rfind("[")
            if bracket != -1 and _OPENING_SO_FAR.match(text, bracket):
                held = bracket
        spans.sort()
        while True:
            while held > 0 and text[held - 1] in _WRAPPER_STARTS:
                held -= 1
            kept, settled_to = _settled_spans(text, spans, held)
            if settled_to == held:
                break
            held = settled_to
        narration = narrate(text[:held], kept)
        last_line = narration[narration.rfind("\n") + 1 :]
        plain = held == len(text) and last_line.strip() and "[" not in last_line
        self._plain = narration if plain and not text.endswith(("\n", "\r")) else None
        return _without_open_end(narration)


def _branches_written(text: str, at: int) -> bool:
    """Whether the branches after a check ending at `at` (none, one or two) are all written:
    something other than white space or a branch follows, or two branches do."""
    for _ in range(2):
        gap = _AFTER_CHECK.match(text, at)
        after = gap.end() if gap else at
        if after >= len(text):
            return False
        if text[after] != "[":
            return True
        found = branch_pattern().match(text, after)
        if found is None:
            rest = text[after:]
            return "]" in rest or "\n" in rest
        at = found.end()
    return True


def _settled_spans(
    text: str, spans: list[tuple[int, int]], held: int
) -> tuple[list[tuple[int, int]], int]:
    """The spans before `held` whose extent is settled (the narration widens a span over the
    markup it stands wrapped in, which the text after it may still close), and where to hold
    from: `held`, or the widened start of the first span not settled."""
    kept: list[tuple[int, int]] = []
    floor = 0
    for start, end in spans:
        if start >= held:
            break
        wide_start, wide_end = unwrapped(text, start, end, floor=floor)
        if wide_end + _CLOSING_MARKUP > held:
            return kept, wide_start
        kept.append((start, end))
        floor = wide_end
    return kept, held


def _without_open_end(narration: str) -> str:
    """The narration less what its end may still become: trailing white space (removing a tag
    takes a space with it), and a `[` that could still form a tag opening with what follows."""
    safe = narration.rstrip()
    bracket = safe.rfind("[")
    if bracket != -1 and _OPENING_SO_FAR.match(safe, bracket):
        brackets = _BRACKETS_BEFORE.search(safe, 0, bracket)
        safe = safe[: brackets.start() if brackets else bracket].rstrip()
    return safe
