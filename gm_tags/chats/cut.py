"""A stored reply read again: whole, with the faces its dice threw, or cut to what the client
shows of it, and where in its text that cut falls."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from ..dice import Dice, Thrown, ThrownAgain
from ..families.registry import FAMILIES
from ..game import Game
from ..grammar import branch_pattern
from ..history import Swipe
from ..pipeline import AFTER_CHECK, Turn, branch_spans, commands_in, process
from ..receipts import Receipt
from ..rewrite import WRAPPER_MARKUP, rewrite, unwrapped
from ..stream import ReplyStream
from .transcript import Said, bare, same


def thrown_again(game: Game, thrown: Thrown | None) -> Dice:
    """Dice for a stored reply read again on `game`: each roll the faces its own roll threw
    (`Swipe.thrown`, `ThrownAgain`), then the game's dice for a reply read again (under `keep`
    seeded apart from the reply's first ones, which would throw its first faces again). A reply
    whose faces are not known (None) throws the game's dice for it, as it did before."""
    if thrown is None:
        return game.dice_for_reply()
    return ThrownAgain(thrown, game.dice_for_reply(read_again=True))


def applied_again(game: Game, text: str, thrown: Thrown | None) -> Turn[Game]:
    """A stored reply's `text` applied again to `game`, throwing the faces it threw."""
    return process(game, text, thrown_again(game, thrown))


def cut_swipe(
    before: Game,
    text: str,
    shown: str,
    thrown: Thrown | None,
    *,
    split: bool = False,
    joins: Sequence[int] | None = (),
) -> Swipe:
    """A reply cut to what the client shows of it (`shown`, a prefix of its narration, white
    space aside), applied to `before`, with the faces the whole reply threw (`thrown`: the
    client saw what they came to). The swipe's narration is the client's text.

    The reply is read as it would stream until its narration holds what the client shows, and
    stopped there: the tags that closed by then apply and none after. A stream gives out a
    check's branch only once it sees what follows, so the cut falls where the narration shown
    ends in the text (`shown_end`: after the branches of a check shown, and the white space),
    and the part before it is applied whole. When the client shows the rest of the reply as a
    message of its own (`split`: `shows_rest`), the tags that show nothing after the last words
    shown go with the part shown too.

    A cut where a continuation was joined on (`joins`, `Swipe.joins`) is the reply as it was
    given out before it: the client saw that part whole, and it is kept whole (`_at_join`)."""
    joined = _at_join(before, text, shown, thrown, joins)
    if joined is not None:
        return joined
    cut = _stopped(before, text, shown, thrown, split)
    if joins is not None and not joins:
        return cut  # never continued: it keeps no joins
    return replace(cut, joins=None if joins is None else _before(joins, len(cut.text)))


def _stopped(before: Game, text: str, shown: str, thrown: Thrown | None, split: bool) -> Swipe:
    """`cut_swipe` as a stop: read as it would stream until the narration holds `shown`."""
    need = len(bare(shown))
    stream = ReplyStream(before, thrown_again(before, thrown))
    got = at = 0
    while got < need and at < len(text):
        # A piece of text gives at most as many characters of narration: never past `need`.
        piece = text[at : at + max(1, need - got)]
        at += len(piece)
        got += len(bare(stream.feed(piece)))
    turn = stream.stop()
    end = shown_end(text, turn.receipts, need, split=split) if need else None
    if end is None or end == len(stream.text):
        return Swipe.of(stream.text, turn).narrated(shown)
    read = len(stream.text)
    if (end < read or not text[read:end].strip()) and all(r.end <= end for r in turn.receipts):
        # Only text the stream read past the cut goes (what a branch's narration waited for),
        # or white space comes: the same tags applied, the same turn, its text and reply cut.
        cut = text[:end]
        return Swipe.of(cut, replace(turn, reply=rewrite(cut, turn.receipts))).narrated(shown)
    whole = applied_again(before, text[:end], thrown)  # tags after what the stream read
    if same(whole.narration, shown):
        return Swipe.of(text[:end], whole).narrated(shown)
    return Swipe.of(stream.text, turn).narrated(shown)


def _at_join(
    before: Game,
    text: str,
    shown: str,
    thrown: Thrown | None,
    joins: Sequence[int] | None,
) -> Swipe | None:
    """`text` cut at the join where the client's message ends (`shown`, its narration, white
    space aside), applied whole to `before`: its tags after the last words shown apply too (the
    client was given them, where a stopped stream never gave them out), with the faces they
    threw; a continuation's opening tags stay with the rest. None when no join is there."""
    need = bare(shown)
    for join in joins or ():
        # Text without its tags reads at least as long as its narration: shorter, too soon.
        if join >= len(text) or len(bare(text[:join])) < len(need):
            continue
        part = applied_again(before, text[:join], thrown)
        told = bare(part.narration)
        if told == need:
            return Swipe.of(text[:join], part, _before(joins or (), join)).narrated(shown)
        if len(told) > len(need):
            return None  # past what the client shows: later parts read longer still
    return None


def _before(joins: Sequence[int], end: int) -> tuple[int, ...]:
    """The joins of a reply cut at `end` that its part before the cut keeps."""
    return tuple(at for at in joins if at < end)


def joins_after(joins: Sequence[int] | None, start: int) -> tuple[int, ...] | None:
    """The joins of the rest of a reply from `start` on, as offsets into that rest."""
    return None if joins is None else tuple(at - start for at in joins if at > start)


def shows_rest(stored: Swipe, shown: str, following: Said | None) -> bool:
    """Whether the client shows the rest of `stored`, shown cut (`shown`), as the message it
    shows next (`following`): SillyTavern's send with an empty box, stored as a continue."""
    if following is None or following.role != "assistant" or not bare(following.text):
        return False
    return bare(stored.narration).startswith(bare(shown) + bare(following.text))


def shown_end(
    text: str, receipts: Sequence[Receipt], need: int, *, split: bool = False
) -> int | None:
    """Where in `text` a client's message showing the first `need` characters of its narration
    (white space aside) ends: after those characters, then after the white space and the
    branches following them, and when the next message shows the rest (`split`), the tags that
    show nothing there too (a tag between the two messages' words goes with the first: the
    stored text does not say which it came with). `receipts` are those of the tags applied
    before that point. None if the narration is shorter."""
    hidden = _hidden(text, receipts)
    counted = at = 0
    for start, end, _ in [*hidden, (len(text), len(text), False)]:
        stretch = len(bare(text[at:start])) if start > at else 0
        if counted + stretch >= need:
            for place in range(at, start):  # the stretch it ends in, a character at a time
                counted += not text[place].isspace()
                if counted == need:
                    return _past_silent(text, place + 1, hidden, split)
        counted += stretch
        at = max(at, end)
    return None


def _hidden(text: str, receipts: Sequence[Receipt]) -> list[tuple[int, int, bool]]:
    """The spans the narration leaves out of `text`, widened as `rewrite.narrate` widens them,
    each with whether it is a branch's (a cut always goes past those: its check is before the
    cut, and the branches with it)."""
    starts = [receipt.start for receipt in receipts] + [len(text)]
    spans: list[tuple[int, int, bool]] = []
    for receipt, bound in zip(receipts, starts[1:], strict=True):
        branches = bool(FAMILIES[receipt.family].branches)
        spans.append((receipt.start, receipt.end, False))
        if branches:
            spans += [(*span, True) for span in branch_spans(text, receipt, bound)]
    widened: list[tuple[int, int, bool]] = []
    floor = 0
    for start, end, passable in sorted(spans):
        start, end = unwrapped(text, start, end, floor=floor)
        widened.append((start, end, passable))
        floor = end
    return widened


def _past_silent(text: str, at: int, hidden: Sequence[tuple[int, int, bool]], tags: bool) -> int:
    """`at`, moved on past white space and branches, and when `tags`, closed tags that show
    nothing (with the markup they stand wrapped in: `**[clock: ...]**`), for as long as they
    follow one another. A check shows nothing when no branch follows it (the form the system
    section teaches); with branches, their narration is the next message's."""
    passable = {start: end for start, end, branch in hidden if branch}
    while True:
        while at < len(text) and text[at].isspace():
            at += 1
        if at in passable:
            at = passable[at]
            continue
        if not tags or at >= len(text) or text[at] not in _TAG_OPENINGS:
            return at
        following = commands_in(text, at)[:1]
        if not following or not following[0].closed:
            return at
        start, end = unwrapped(text, following[0].start, following[0].end, floor=at)
        if start != at or (FAMILIES[following[0].name].branches and _branch_after(text, end)):
            return at
        at = end


# What a tag that shows nothing may start with: its `[`, or the markup it stands wrapped in.
_TAG_OPENINGS = frozenset("[" + WRAPPER_MARKUP)


def _branch_after(text: str, end: int) -> bool:
    """Whether a branch follows a check that ends at `end` (as `branch_spans` finds one)."""
    gap = AFTER_CHECK.match(text, end)
    return branch_pattern().match(text, gap.end() if gap else end) is not None
