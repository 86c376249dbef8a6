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
- what the narration's end may still become (`gm_tags.narrator`): white space, a `[` that may
  form an opening, blank lines.

Linear: a chunk costs its own length and the tag still open, never the text so far. The scan goes
on from the first tag not yet settled (or the last `[` that could still open one), the narrator
takes the text up to where it is held and keeps only its open end, and each tag's span is settled
and handed over once. While all is calm, the narrator lends its line to `feed`, which narrates
prose (and stray brackets) in one pass; a chunk inside an unterminated tag is taken without
scanning at all. Measured in tests/benchmarks/test_stream.py.
"""

from __future__ import annotations

import functools
import re
from typing import Generic

from .dice import Dice
from .families.registry import FAMILIES
from .grammar import branch_pattern, opening
from .narrator import Narrator, joined, open_end, opening_so_far
from .parse import parse_all
from .pipeline import AFTER_CHECK, ReplyRun, Turn, branch_spans, commands_in
from .receipts import Receipt
from .rewrite import LONGEST_CLOSING_MARKUP, WRAPPER_MARKUP, unwrapped
from .scan import MAX_BODY, Candidate, closed_end, name_in, settled
from .state import S
from .syntax import when_tag_names_change

# Markup that a tag may stand wrapped in starts with one of these (see `rewrite.unwrapped`).
_WRAPPER_STARTS = frozenset(WRAPPER_MARKUP)
# A chunk with none of these flows on as prose, or inside a tag still open, whatever it holds:
# one test of its characters, where a test for each (`"[" in chunk`, ...) costs a few steps more
# at every chunk (the last of a prose chunk only may not start markup; see `feed`).
_NOT_PROSE = frozenset("[\n") | _WRAPPER_STARTS
_NOT_INSIDE = frozenset("[]\n")
# What the line lent may not take after a tag closes in it: what the scan or the narrator's
# line rules must see.
_NOT_AFTER_LENT = frozenset("[\n\r")
# How many settled tags wait to be parsed together, at most (one Lark pass costs about as much
# for one tag as for a few: measured in tests/benchmarks/test_stream.py).
APPLY_TOGETHER = 16
# The longest closing markup `unwrapped` looks for after a removed span.
_CLOSING_MARKUP = LONGEST_CLOSING_MARKUP


@functools.cache
def _opens_or_could_open() -> re.Pattern[str]:
    """Where a tag opens (the group `opens`), or else a `[` at the end that could still open
    one: both in one search (none of the second kind comes before one of the first)."""
    return re.compile(f"(?P<opens>{opening().pattern})|{opening_so_far().pattern}")


when_tag_names_change(_opens_or_could_open.cache_clear)


class ReplyStream(Generic[S]):
    """Feed it a reply's chunks in order; read back narration as it becomes safe."""

    def __init__(
        self, game: S, dice: Dice | None = None, *, continues: bool = False, applies: bool = True
    ) -> None:
        self._run = ReplyRun(game, dice, continues=continues, applies=applies)
        self._text = ""
        # The chunks received since `_text` was last brought up to date (`_text_now`): a chunk
        # that flows on costs an append, not a longer string.
        self._chunks: list[str] = []
        # All is calm and the narrator's line holds back nothing but its white space end
        # (`_held`): `feed` narrates what comes itself, until a tag opens or anything else the
        # narrator must see (see `_lend`). Meanwhile `_narrated_to` and `_scan_from`
        # stand still: the text after `_narrated_to` that the stream holds is
        # `_pending` (markup, a `[` that could still open a tag at `_pending_scan`).
        self._lent = False
        self._prose = False  # lent and nothing pending: plain prose takes the fewest steps
        self._held = ""
        self._pending = ""
        self._pending_scan = 0
        self._lent_from = 0
        # What the narrator's line held when it was lent: the narration given out while lent
        # is recorded once, when it comes back (`_given_lent`), not a piece a chunk.
        self._held_from = ""
        # A tag opened in the line lent, alone (`_open_lent`): it stays lent across the tag,
        # `_narrated_to` standing where the tag's markup starts, until the tag closes
        # (`_close_lent`) or anything else comes. `_lent_spans`: the spans removed while lent.
        self._open_in_lent = False
        self._lent_spans = 0
        # A tag closed in the line lent, and the text after it is still to be joined to the
        # line (`_join_lent`); `_lent_last`: the line's last character before the tag.
        self._joining = False
        self._lent_last = ""
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

    def feed(self, chunk: str) -> str:
        """Take the next piece of the reply; return the narration that became safe to show."""
        # Most chunks take one of these ways, in as few steps as it can be done (they are what
        # a stream of 4-character chunks costs, chunk after chunk): prose going on from settled
        # text, given out here for the narrator (see `_lend`), other text that opens no tag
        # there (`_feed_lent`), and the inside of a tag still open.
        if self._prose:
            if _NOT_PROSE.isdisjoint(chunk) or (
                "[" not in chunk and "\n" not in chunk and chunk[-1:] not in _WRAPPER_STARTS
            ):
                self._chunks.append(chunk)
                line = self._held + chunk
                body = line.rstrip()  # the line itself when it ends in no white space
                self._held = "" if body is line else line[len(body) :]
                return body
            if (shown := self._feed_lent(chunk)) is not None:
                return shown
        elif self._lent:
            if (shown := self._feed_lent(chunk)) is not None:
                return shown
        elif len(chunk) <= self._quiet_left and _NOT_INSIDE.isdisjoint(chunk):
            # Inside an unterminated tag: the scanner would end it nowhere here.
            self._quiet_left -= len(chunk)
            self._chunks.append(chunk)
            return ""
        if self._turn is not None:
            raise RuntimeError("the stream has finished")
        self._chunks.append(chunk)
        text = self._text_now()
        before = len(text) - len(chunk)
        if self._open_in_lent or self._joining:
            if (shown := self._close_lent(text)) is not None:
                return shown
            self._take_back(text, before)
        elif self._lent:
            self._take_back(text, before)
        shown = self._feed_held(text, before)
        if self._calm:
            self._lend(text)
        return shown

    def _feed_lent(self, chunk: str) -> str | None:
        """What `_feed_held` and the narrator do with a chunk while all is calm, in one pass,
        when no line break comes and no tag opens in it, or one opens with no `]` after it (its
        `_settle` finds it alone, and the narrator takes its line back); None otherwise
        (nothing done: the whole way takes it)."""
        if "\n" in chunk:
            return None
        piece = self._pending + chunk  # the text from `_narrated_to` on
        held = scan = size = len(piece)
        opened = None
        if "[" in piece:
            found = self._opens_or_could_open.search(piece)
            if found is not None:
                if found.lastgroup is not None:  # a tag opens
                    if not self._opens_alone(piece, found):
                        return None
                    opened = found
                held = scan = found.start()
        while held and piece[held - 1] in _WRAPPER_STARTS:
            held -= 1
        line = self._held + piece[:held]
        body = line.rstrip()
        # The narrator holds back a `[` that could still form an opening with the text after a
        # tag, and the `[` and blanks before it (`narrator.open_end`): the line lent holds them
        # too. Where `body` ends where the text does, its last `[` is the one just found not to
        # be one, or one held before, which nothing but white space after it can leave open.
        if held < size or body != line:
            bracket = body.rfind("[")
            if bracket != -1 and self._could_open.match(body, bracket) is not None:
                body = line[: open_end(line)]
        self._chunks.append(chunk)
        self._held = kept = line[len(body) :]
        self._pending = pending = piece[held:]
        self._pending_scan = scan - held
        self._prose = not pending and "[" not in kept
        if opened is not None:
            self._open_lent(opened)
        return body

    @staticmethod
    def _opens_alone(piece: str, opened: re.Match[str]) -> bool:
        """Whether the tag opening at `opened` in the text lent is all a scan would find from
        there: a command, with no `]` after it (the text is far shorter than its bound)."""
        return piece.find("]", opened.end()) == -1 and name_in(opened.group()) in FAMILIES

    def _open_lent(self, opened: re.Match[str]) -> None:
        """A tag opened, alone, in the text lent (`_pending` from it, less the markup before
        it): it is noted open as `_settle` does, and the line stays lent across it."""
        text = self._text_now()
        self._narrated_to = narrated_to = len(text) - len(self._pending)
        self._open_at = self._scan_from = narrated_to + self._pending_scan
        self._open_body = self._open_at + opened.end() - opened.start()
        self._quiet_left = self._open_body + MAX_BODY - len(text)
        self._lent = self._prose = False
        self._open_in_lent = True
        self._calm = False

    def _close_lent(self, text: str) -> str | None:
        """The tag open in the line lent closes for good: it is settled with one match, and
        `feed` goes on lent from its end (`_join_lent`). None otherwise (markup before it, a
        `[` that may still form an opening with what follows it, a check), with nothing done;
        and when what follows it cannot be joined while lent (the narrator takes the line
        back, the tag removed)."""
        if self._open_in_lent:
            start, body = self._open_at, self._open_body
            if start != self._narrated_to or start == self._lent_from or "[" in self._held:
                return None
            end = closed_end(text, body)
            if end == -1:
                return None
            name = name_in(text[start:body])
            if FAMILIES[name].branches:
                return None
            self._settled.append(Candidate(name, start, end, text[start:end], body - start, True))
            self._spanned += 1
            if len(self._settled) - self._applied >= APPLY_TOGETHER:
                self._apply_settled()
            self._show(self._given_lent(text, start))
            self._lent_from = self._floor = end
            self._held_from = self._held
            self._lent_last = text[start - 1]
            self._open_at = self._quiet_left = -1
            self._open_in_lent, self._joining, self._calm = False, True, True
        return self._join_lent(text)

    def _join_lent(self, text: str) -> str | None:
        """A tag was removed from the line lent, at `_lent_from`: the text after it, up to
        markup at the end, joins the line as the narrator would join it (`narrator.joined`),
        and the line goes on lent. "" while nothing but markup follows; None when a `[` or a
        line break does (what the scan or the narrator's line rules must see)."""
        end, narrated_to = self._lent_from, len(text)
        if not _NOT_AFTER_LENT.isdisjoint(text[end:]):
            return None
        while narrated_to > end and text[narrated_to - 1] in _WRAPPER_STARTS:
            narrated_to -= 1
        written = text[end:narrated_to]
        if not written:
            return ""
        line, after = joined(self._held, written, blank=False, last=self._lent_last, ended=False)
        self._lent_from = narrated_to - len(after)
        self._held_from = line
        line += after
        given = line.rstrip()
        self._held = kept = line[len(given) :]
        self._pending = pending = text[narrated_to:]
        self._pending_scan = len(pending)
        self._lent_spans += 1
        self._joining, self._lent = False, True
        self._prose = not pending and "[" not in kept
        return given

    def _lend(self, text: str) -> None:
        """All is calm (no tag open, no span or check waiting): when the narrator's line holds
        back nothing but its white space end, the text that follows is narrated by `feed`
        itself, with that white space, until something else comes (`_take_back`)."""
        held = self._narrator.plain_end()
        if held is not None:
            self._lent, self._held, self._lent_from = True, held, self._narrated_to
            self._held_from = held
            self._lent_spans, self._lent_last = 0, ""
            self._pending = text[self._narrated_to :]
            self._pending_scan = self._scan_from - self._narrated_to
            self._prose = not self._pending

    def _take_back(self, text: str, end: int) -> None:
        """The narrator takes its line back from `feed`, which was given the text up to `end`
        (or up to the tag that opened in it, `_open_in_lent`)."""
        if self._open_in_lent:
            narrated_to = self._narrated_to
        elif self._joining:  # up to the end of the tag removed
            self._narrated_to = self._scan_from = narrated_to = self._lent_from
        else:
            self._narrated_to = narrated_to = end - len(self._pending)
            self._scan_from = narrated_to + self._pending_scan
        self._lent = self._prose = self._open_in_lent = False
        last = text[narrated_to - 1] if narrated_to > self._lent_from else self._lent_last
        self._narrator.went_on(self._held, last, self._lent_spans)
        self._show(self._given_lent(text, narrated_to))
        if self._joining:
            self._joining = False
            self._narrator.remove()

    def _given_lent(self, text: str, narrated_to: int) -> str:
        """The narration `feed` gave out while lent, up to `narrated_to`, in one piece: the
        pieces it gave and the white space it holds now are the white space it was lent and the
        text it narrated."""
        given = self._held_from + text[self._lent_from : narrated_to]
        return given[: len(given) - len(self._held)]

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

    def _feed_held(self, text: str, before: int) -> str:
        """A chunk that may open a tag, or comes after something held."""
        if self._calm:
            if (shown := self._feed_calm(text, before)) is not None:
                return shown
        elif (
            self._quiet_left >= 0
            and not self._spans
            and self._spanned == len(self._settled)
            and (shown := self._close_quiet(text)) is not None
        ):
            return shown
        self._settle()
        self._narrate_settled()
        self._calm = self._open_at == -1 and not self._spans and self._spanned == len(self._settled)
        return self._show(self._narrator.take())

    def finish(self) -> tuple[str, Turn[S]]:
        """The reply has ended: apply what is left, and return the rest of the narration and the
        turn. The narration already given out is a prefix of the turn's."""
        if self._turn is not None:
            return "", self._turn
        text = self._text_now()
        if self._lent or self._open_in_lent or self._joining:
            self._take_back(text, len(text))
        self._quiet_left = -1  # what comes now is refused
        self._settled += commands_in(text, self._scan_from)
        self._apply_settled()
        if self._settled:
            rest = self._narrate_rest()
            narration = "".join(self._shown) + rest
        else:  # a reply without a tag is its own narration, as it came
            narration = text
            rest = text[sum(map(len, self._shown)) :]
        self._turn = self._run.finish(text, narration)
        return self._show(rest), self._turn

    def stop(self) -> Turn[S]:
        """The reply was cut off here: the tags that closed apply and none after. The turn's
        reply is the text up to where the first tag still open begins, and its narration is
        exactly what was given out (what the player saw)."""
        if self._turn is None:
            text = self._text_now()
            if self._lent or self._open_in_lent or self._joining:
                self._take_back(text, len(text))
            self._quiet_left = -1  # what comes now is refused
            self._apply_settled()
            pending = commands_in(self._text, self._scan_from)
            cut = pending[0].start if pending else len(self._text)
            self._text = self._text[:cut]
            self._turn = self._run.finish(self._text, "".join(self._shown))
        return self._turn

    def _feed_calm(self, text: str, before: int) -> str | None:
        """What `_settle` and `_narrate_settled` do when all was calm and no tag opened: the
        narration goes on to the end, less a `[` that could still open a tag and markup. None
        when a tag opened (the whole way must look at it)."""
        start = min(self._scan_from, before)
        if self._opening.search(text, start) is not None:
            return None
        bracket = text.rfind("[", start)
        could_open = bracket != -1 and self._could_open.match(text, bracket) is not None
        held = self._scan_from = bracket if could_open else len(text)
        narrated_to = self._narrated_to
        while held > narrated_to and text[held - 1] in _WRAPPER_STARTS:
            held -= 1
        self._narrated_to = held
        return self._show(self._narrator.keep_and_take(text[narrated_to:held]))

    def _close_quiet(self, text: str) -> str | None:
        """What `_settle` and `_narrate_settled` do when the tag open, found unterminated with
        nothing waiting before it, closes for good and no `[` follows it: one match finds its
        end and settles it, and the narrator takes it away. None otherwise (a check, whose
        branches may follow; markup before it that the text after may still close; anything
        after it the scan must read), with nothing done."""
        start, body, floor = self._open_at, self._open_body, self._floor
        end = closed_end(text, body)
        if end == -1 or text.find("[", end) != -1:
            return None
        name = name_in(text[start:body])
        wide_start, wide_end = unwrapped(text, start, end, floor=floor)
        if FAMILIES[name].branches or (
            wide_start > floor and text[wide_start - 1] in _WRAPPER_STARTS
        ):
            return None
        self._settled.append(Candidate(name, start, end, text[start:end], body - start, True))
        self._spanned += 1
        if len(self._settled) - self._applied >= APPLY_TOGETHER:
            self._apply_settled()
        held = self._scan_from = len(text)
        while held > wide_end and text[held - 1] in _WRAPPER_STARTS:
            held -= 1
        narrator = self._narrator
        narrator.keep(text[self._narrated_to : wide_start])
        narrator.remove()
        narrator.keep(text[wide_end:held])
        self._narrated_to, self._floor = held, wide_end
        self._open_at = self._quiet_left = -1
        self._calm = True
        return self._show(narrator.take())

    def _settle(self) -> None:
        """Take the tags that closed for good into `_settled`; note the first still open."""
        text = self._text
        opened = self._opening.search(text, self._scan_from)
        if opened is None:
            found: list[Candidate] = []  # the common case, with no more work than the search
        elif self._still_unterminated(text, opened):
            # A tag just opened and nothing before it waits: the scan would find it alone,
            # unterminated and not settled (most tags open so, a chunk or a few before their `]`).
            self._open_at = self._scan_from = opened.start()
            self._open_body = opened.end()
            self._quiet_left = opened.end() + MAX_BODY - len(text)
            return
        else:
            found = commands_in(text, self._scan_from)
        settled_count = next(
            (at for at, candidate in enumerate(found) if not settled(text, candidate)), len(found)
        )
        self._settled += found[:settled_count]
        if len(self._settled) - self._applied >= APPLY_TOGETHER:
            self._apply_settled()
        self._quiet_left = -1
        if settled_count < len(found):
            first_open = found[settled_count]
            self._open_at = self._scan_from = first_open.start
            if not first_open.closed:
                self._open_body = first_open.start + first_open.body
                self._quiet_left = self._open_body + MAX_BODY - len(text)
            return
        self._open_at = -1
        if settled_count:
            self._scan_from = found[settled_count - 1].end
        bracket = text.rfind("[", self._scan_from)
        could_open = bracket != -1 and self._could_open.match(text, bracket) is not None
        self._scan_from = bracket if could_open else len(text)

    @staticmethod
    def _still_unterminated(text: str, opened: re.Match[str]) -> bool:
        """Whether the tag opening at `opened` (the first from where the scan starts) is all the
        scan would find there: a command (`commands_in` keeps it), with no `]` after it, and the
        text not past the bound of its search (so not settled, see `scan.settled`)."""
        body = opened.end()
        return (
            text.find("]", body) == -1
            and len(text) <= body + MAX_BODY
            and name_in(opened.group()) in FAMILIES
        )

    def _apply_settled(self) -> None:
        for tag in parse_all(self._settled[self._applied :]):
            self._run.apply(tag)
        self._applied = len(self._settled)

    def _show(self, new: str) -> str:
        if new:
            self._shown.append(new)
        return new

    def _narrate_settled(self) -> None:
        """Hand the narrator the text up to where nothing still to come can change it, with the
        spans settled in it."""
        text = self._text
        held = self._open_at if self._open_at != -1 else len(text)
        if self._spanned < len(self._settled):
            held = self._held_for_spans(held)
        if held == len(text):
            held = self._scan_from  # a `[` that could still open a tag, or the end
        kept: list[tuple[int, int]] = []
        while True:
            while held > self._narrated_to and text[held - 1] in _WRAPPER_STARTS:
                held -= 1
            if not self._spans:
                break
            kept, settled_to = self._settled_spans(held)
            if settled_to == held:
                break
            held = settled_to
        narrator = self._narrator
        for start, end in kept:
            narrator.keep(text[self._narrated_to : start])
            narrator.remove()
            self._narrated_to = self._floor = end
        del self._spans[: len(kept)]
        if held > self._narrated_to:
            narrator.keep(text[self._narrated_to : held])
            self._narrated_to = held

    def _narrate_rest(self) -> str:
        """The reply has ended and every tag in it is settled and applied: the narrator takes
        the rest of the text with every span still to hand over; the rest of the narration."""
        text = self._text
        self._held_for_spans(len(text), ended=True)
        narrator = self._narrator
        for start, end in self._spans:
            start, end = unwrapped(text, start, end, floor=self._floor)
            narrator.keep(text[self._narrated_to : start])
            narrator.remove()
            self._narrated_to = self._floor = end
        self._spans.clear()
        narrator.keep(text[self._narrated_to :])
        self._narrated_to = len(text)
        return narrator.finish()

    def _held_for_spans(self, held: int, *, ended: bool = False) -> int:
        """Take the spans of the settled tags not spanned yet into `_spans`, up to a check whose
        branches may still be coming (none may when the reply has `ended`); return `held`, or
        that check's start."""
        text, tags = self._text, self._settled
        while self._spanned < len(tags):
            at = self._spanned
            tag = tags[at]
            spans = [(tag.start, tag.end)]
            if FAMILIES[tag.name].branches:
                following = tags[at + 1].start if at + 1 < len(tags) else held
                if not ended and following == len(text) and not _branches_written(text, tag.end):
                    return min(held, tag.start)
                self._apply_settled()  # which branch stays follows the roll
                spans += branch_spans(text, self._run.receipts[at], following)
            self._spans += spans
            self._spanned += 1
        return held

    def _settled_spans(self, held: int) -> tuple[list[tuple[int, int]], int]:
        """The spans before `held` whose extent is settled (the narration widens a span over the
        markup it stands wrapped in, which the text after it may still close: a span with no
        markup before it is settled at once), widened, and where to hold from: `held`, or the
        widened start of the first span not settled."""
        kept: list[tuple[int, int]] = []
        floor, text = self._floor, self._text
        for start, end in self._spans:
            if start >= held:
                break
            wide_start, wide_end = unwrapped(text, start, end, floor=floor)
            # Markup before it may still be closed after it, unless none stands there.
            may_widen = wide_start > floor and text[wide_start - 1] in _WRAPPER_STARTS
            if may_widen and wide_end + _CLOSING_MARKUP > held:
                return kept, wide_start
            kept.append((wide_start, wide_end))
            floor = wide_end
        return kept, held


def _branches_written(text: str, at: int) -> bool:
    """Whether the branches after a check ending at `at` (none, one or two) are all written:
    something other than white space or a branch follows, or two branches do."""
    for _ in range(2):
        gap = AFTER_CHECK.match(text, at)
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
