"""The narrator's line lent to `ReplyStream.feed`: while all is calm and the line holds back
nothing but its white space end, `feed` narrates what comes itself, a chunk in one pass (prose,
stray brackets, a tag that opens and closes amid them), and hands the line back when anything
else comes (see `gm_tags.stream`)."""

from __future__ import annotations

import re

from ..dice import Dice
from ..families.registry import FAMILIES
from ..narrator import joined, open_end
from ..scan import MAX_BODY, closed_end, name_in
from ..state import S
from .state import WRAPPER_STARTS, StreamState, markup_start

# What the line lent may not take after a tag closes in it: what the scan or the narrator's
# line rules must see.
_NOT_AFTER_LENT = frozenset("[\n\r")


class LentLine(StreamState[S]):
    """A stream whose narrator's line may be lent to `feed` (`_lend`, `_take_back`)."""

    def __init__(
        self, game: S, dice: Dice | None = None, *, continues: bool = False, applies: bool = True
    ) -> None:
        super().__init__(game, dice, continues=continues, applies=applies)
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
        # `markup_start(piece, held, 0)` written out: at most chunks of a stream, the call
        # cost 1.2% more opcodes (by `rstrip`, 0.2%).
        while held and piece[held - 1] in WRAPPER_STARTS:
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
        self._keep_chunk(chunk)
        self._held = kept = line[len(body) :]
        self._pending = pending = piece[held:]
        self._pending_scan = scan - held
        self._prose = not pending and "[" not in kept
        if opened is not None:
            self._open_lent(opened)
        return body

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
            self._settle_closed(text, name, start, end, body)
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
        end = self._lent_from
        if not _NOT_AFTER_LENT.isdisjoint(text[end:]):
            return None
        narrated_to = markup_start(text, len(text), end)
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
