"""A stored reply read again: whole, with the faces its dice threw, or cut to what the client
shows of it, and where in its text that cut falls."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from ..dice import Dice, Thrown, ThrownAgain
from ..families.registry import FAMILIES
from ..game import Game
from ..history import Swipe
from ..pipeline import Turn, branch_spans, commands_in, process
from ..receipts import Receipt
from ..rewrite import rewrite, unwrapped
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
    before: Game, text: str, shown: str, thrown: Thrown | None, *, split: bool = False
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
    shown go with the part shown too."""
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
    """`at`, moved on past white space and branches, and when `tags`, closed tags of families
    with no branches, for as long as they follow one another."""
    passable = {start: end for start, end, branch in hidden if branch}
    while True:
        while at < len(text) and text[at].isspace():
            at += 1
        if at in passable:
            at = passable[at]
            continue
        if not tags or not text.startswith("[", at):
            return at
        following = commands_in(text, at)[:1]
        if not following or following[0].start != at or not following[0].closed:
            return at
        if FAMILIES[following[0].name].branches:
            return at
        at = following[0].end
