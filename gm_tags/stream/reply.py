"""`ReplyStream`: a reply fed chunk by chunk (see `gm_tags.stream`)."""

from __future__ import annotations

from ..families.registry import FAMILIES
from ..grammar import branch_pattern
from ..pipeline import AFTER_CHECK, Turn, branch_spans, commands_in
from ..rewrite import LONGEST_CLOSING_MARKUP, narrate, unwrapped
from ..scan import MAX_BODY, Candidate, closed_end, name_in, scan, settled
from ..state import S
from .lent import LentLine
from .state import WRAPPER_STARTS, markup_start

# A chunk with none of these flows on as prose, or inside a tag still open, whatever it holds:
# one test of its characters, where a test for each (`"[" in chunk`, ...) costs a few steps more
# at every chunk (the last of a prose chunk only may not start markup; see `feed`).
_NOT_PROSE = frozenset("[\n") | WRAPPER_STARTS
_NOT_INSIDE = frozenset("[]\n")
# The longest closing markup `unwrapped` looks for after a removed span.
_CLOSING_MARKUP = LONGEST_CLOSING_MARKUP


class ReplyStream(LentLine[S]):
    """Feed it a reply's chunks in order; read back narration as it becomes safe."""

    def feed(self, chunk: str) -> str:
        """Take the next piece of the reply; return the narration that became safe to show."""
        # Most chunks take one of these ways, in as few steps as it can be done (they are what
        # a stream of 4-character chunks costs, chunk after chunk): prose going on from settled
        # text, given out here for the narrator (see `_lend`), other text that opens no tag
        # there (`_feed_lent`), and the inside of a tag still open.
        if self._prose:
            if _NOT_PROSE.isdisjoint(chunk) or (
                "[" not in chunk and "\n" not in chunk and chunk[-1:] not in WRAPPER_STARTS
            ):
                self._keep_chunk(chunk)
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
            self._keep_chunk(chunk)
            return ""
        if self._turn is not None:
            raise RuntimeError("the stream has finished")
        self._keep_chunk(chunk)
        text = self._text_now()
        if (self._open_in_lent or self._joining) and (shown := self._close_lent(text)) is not None:
            return shown
        before = len(text) - len(chunk)
        if self._lent or self._open_in_lent or self._joining:
            self._take_back(text, before)
        shown = self._feed_held(text, before)
        if self._calm:
            self._lend(text)
        return shown

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
        else:  # a reply without a command: its narration as `rewrite.narrate` makes it
            narration = narrate(text, ())
            rest = narration[sum(map(len, self._shown)) :]
        self._turn = self._run.finish(text, narration)
        return self._show(rest), self._turn

    def stop(self) -> Turn[S]:
        """The reply was cut off here: the tags that closed apply and none after. Its narration
        is exactly what was given out (what the player saw), and its text (`text`) is what
        reads again whole to that narration and those tags (`_kept`)."""
        if self._turn is None:
            text = self._text_now()
            if self._lent or self._open_in_lent or self._joining:
                self._take_back(text, len(text))
            self._quiet_left = -1  # what comes now is refused
            self._apply_settled()
            self._text = self._kept(text)
            self._turn = self._run.finish(self._text, "".join(self._shown))
        return self._turn

    def _kept(self, text: str) -> str:
        """The text a stopped reply keeps: the text the narrator was handed, then the tags that
        closed after it, which apply but show nothing (a check whose branches were held back,
        a tag the stream held for the markup that could still close round it). Not the text
        the stream held back after them: the start of a branch, a `[` that could still open a
        tag, a tag still open; nor the markup held before such a tag, which no closing markup
        will now hide. Read again whole (a continue joined onto it, a retell), it narrates
        what the client was given, with the same tags (their receipts' spans moved to match)."""
        narrated_to = self._shown_to(text)
        receipts = self._run.receipts
        pieces, at = [text[:narrated_to]], narrated_to
        moved: dict[int, int] = {}
        for index, receipt in enumerate(receipts):
            if receipt.end > narrated_to:
                pieces.append(text[receipt.start : receipt.end])
                moved[receipt.start] = at
                receipts[index] = receipt._replace(start=at, end=at + receipt.end - receipt.start)
                at = receipts[index].end
        self._run.dice.moved(moved)  # each roll is known by where its tag begins
        return "".join(pieces)

    def _shown_to(self, text: str) -> int:
        """Where the text the narration given out comes from ends: where the narrator was
        handed the text to, less the end of its line it held back (a `[` that could still form
        a tag opening with what follows it, `[SKILL_CHECK`, found back over the tags removed
        after it; white space aside). Where that cannot be found so, where it was handed to."""
        held = "".join(self._narrator.finish().split())  # the reply stopped: never given out
        at = self._narrated_to
        removed = {receipt.end: receipt.start for receipt in self._run.receipts}
        left = len(held)
        while left and at > 0:
            if at in removed:
                at = removed[at]
            elif text[at - 1].isspace():
                at -= 1
            elif text[at - 1] == held[left - 1]:
                at, left = at - 1, left - 1
            else:
                return self._narrated_to
        return at if not left else self._narrated_to

    def _feed_calm(self, text: str, before: int) -> str | None:
        """What `_settle` and `_narrate_settled` do when all was calm and no tag opened: the
        narration goes on to the end, less a `[` that could still open a tag and markup. None
        when a tag opened (the whole way must look at it)."""
        start = min(self._scan_from, before)
        if self._opening.search(text, start) is not None:
            return None
        bracket = text.rfind("[", start)
        could_open = bracket != -1 and self._could_open.match(text, bracket) is not None
        self._scan_from = bracket if could_open else len(text)
        narrated_to = self._narrated_to
        held = self._narrated_to = markup_start(text, self._scan_from, narrated_to)
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
            wide_start > floor and text[wide_start - 1] in WRAPPER_STARTS
        ):
            return None
        self._settle_closed(text, name, start, end, body)
        self._scan_from = len(text)
        held = markup_start(text, len(text), wide_end)
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
        elif self._opens_alone(text, opened):
            # A tag just opened and nothing before it waits: the scan would find it alone,
            # unterminated and not settled (most tags open so, a chunk or a few before their `]`).
            self._open_at = self._scan_from = opened.start()
            self._open_body = opened.end()
            self._quiet_left = opened.end() + MAX_BODY - len(text)
            return
        else:
            # Every candidate, commands or not: one whose name no family takes is text, but
            # while open it may still hide a `[` in a quoted value (as the scan of the whole
            # reply does), so the scan goes on from its start, not past it.
            found = scan(text, self._scan_from)
        settled_count = next(
            (at for at, candidate in enumerate(found) if not settled(text, candidate)), len(found)
        )
        self._settled += [tag for tag in found[:settled_count] if tag.name in FAMILIES]
        self._apply_when_enough()
        self._quiet_left = -1
        if settled_count < len(found):
            first_open = found[settled_count]
            self._open_at = self._scan_from = first_open.start
            if first_open.name not in FAMILIES:
                # Text, however it ends, up to a `[` in it (where it may end, and a tag of its
                # own open): given out so far while the scan still reads it from its start.
                inner = text.find("[", first_open.start + 1)
                self._open_at = len(text) if inner == -1 else inner
            elif not first_open.closed:
                self._open_body = first_open.start + first_open.body
                self._quiet_left = self._open_body + MAX_BODY - len(text)
            return
        self._open_at = -1
        if settled_count:
            self._scan_from = found[settled_count - 1].end
        bracket = text.rfind("[", self._scan_from)
        could_open = bracket != -1 and self._could_open.match(text, bracket) is not None
        self._scan_from = bracket if could_open else len(text)

    def _narrate_settled(self) -> None:
        """Hand the narrator the text up to where nothing still to come can change it, with the
        spans settled in it."""
        text = self._text
        held = self._open_at if self._open_at != -1 else len(text)
        if self._spanned < len(self._settled):
            held = self._held_for_spans(held)
        if held == len(text) and self._open_at == -1:
            held = self._scan_from  # a `[` that could still open a tag, or the end
        kept: list[tuple[int, int]] = []
        while True:
            held = markup_start(text, held, self._narrated_to)
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
            may_widen = wide_start > floor and text[wide_start - 1] in WRAPPER_STARTS
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
