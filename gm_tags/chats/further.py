"""The fast path (`aligned`) a few messages further back than the last exchange, up to
`REACH_BACK` from the transcript's end: the player edited one of their lines before their last,
or the client deleted messages before the last exchange. The walk found is exactly the one
`best.best_walk` would choose, and is only taken when that can be shown cheaply: by the
argument of `aligned`'s note for a window, and what `places` tells from a line's index (where
the full walk begins its walks, and which it passes over: `best._skips`, with the messages it
knows before the first reply found on a line, by their text; a message it would look for as
edited there leaves the request to the full walk):

- a player's line edited (one no line read holds), then a reply, a regenerate or a continue:
  the full walk chooses the window after it, walked as a window that slid (`aligned`'s note, with
  the window's messages), when it does not pass over that walk. No walk passes the edited line: a
  walk matches a user message by its text, or, edited, only where it begins; and none begins
  there: the places counted back from a reply found pass only user messages of the same text,
  and an edited one is looked for only before the first reply found on each line (the edited
  line is not before it, nor the transcript's first). So every walk that reaches as far
  begins at the window or after it, as in `aligned`'s note;
- messages deleted, then a new line or a continue: the full walk chooses the stretch of a line
  before the deletion (from the line's start, or where a window that slid begins, as there).
  No walk matches the messages on both sides of the deletion one right after the other, on
  any line read (a reply as it shows one, or, not held, as one it keeps anything of, then a
  user message by its text; a user message then a held reply as shown; two user messages by
  their texts; two replies are not told), the stretch's own walk included, which so ends
  there. So a walk that reaches further begins after the deletion: at a place counted back
  from a reply found there (none is looked for as edited: each line's first reply found is
  before the deletion), and each such place is one the full walk passes over, or a walk from
  it matches nothing (each walked here: at most `REACH_BACK` messages). Of walks that reach as
  far, one matches as many messages only from the transcript's start, and the ties go as
  for a window (a line started later, a walk from an earlier place or to the line's end).

The full walk ranks last a walk after whose end the transcript shows a reply the store holds
on other chats alone (`best._held_elsewhere`): the window after an edit has none after its end
(nothing but the new line), and the stretch before a deletion is taken only when none is after
it; a walk so ranked only ranks lower than the one found.
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Collection, Iterable, Sequence
from dataclasses import dataclass, replace

from .aligned import counted_back, decides, ends_alone, later_holds, shapes, window_walk
from .best import _held_elsewhere
from .places import first_found, known_places, skipped, starts_from
from .shown import Shown
from .transcript import Said, bare, key_of
from .walk import Walk, walk

# How far back from the transcript's end (in messages) an edit or a deletion is looked for: the
# places after it are walked one by one.
REACH_BACK = 32


@dataclass(frozen=True)
class Read:
    """What a request read: the lines (in the order they were started, each with its index),
    its transcript, and the replies of it the store's index found, by line (conversation index,
    line position) and together (`held`)."""

    lines: Sequence[tuple[str, Shown]]
    said: Sequence[Said]
    found: dict[str, set[tuple[int, int]]]
    held: Collection[int]
    # By chat, the latest index of a reply the store holds on other chats alone: the full walk
    # ranks last a walk that ends before it (`best._held_elsewhere`).
    elsewhere: dict[str, int]

    @classmethod
    def of(
        cls,
        lines: Sequence[tuple[str, Shown]],
        said: Sequence[Said],
        anchors: Iterable[tuple[str, int, int]],
    ) -> Read:
        """What a request read, from the lines and the anchors the store's index found (line,
        conversation index, line position)."""
        anchors = list(anchors)
        found: dict[str, set[tuple[int, int]]] = {}
        for line, index, position in anchors:
            found.setdefault(line, set()).add((index, position))
        held = {index for here in found.values() for index, _ in here}
        newest = {key_of(line) for line, _ in lines}
        return cls(lines, said, found, held, _held_elsewhere(newest, anchors))

    def own(self, found: Walk) -> bool:
        """Whether no reply after the end of `found` is one the store holds on other chats
        alone (the full walk would rank it last)."""
        return found.first + found.matched > self.elsewhere.get(key_of(found.line), -1)


def further_walk(
    lines: Sequence[tuple[str, Shown]],
    said: Sequence[Said],
    anchors: Iterable[tuple[str, int, int]],
) -> Walk | None:
    """The walk `best_walk(lines' chats, said, anchors)` chooses, when `said` is a line as shown
    with one of the player's lines before their last edited, or messages before the last
    exchange deleted (see the module's note); None when it cannot be told this way. `lines`
    and `anchors` as for `aligned.aligned_walk`."""
    if not said:
        return None
    read = Read.of(lines, said, anchors)
    return _edited_back(read) or _deleted_back(read)


def _edited_back(read: Read) -> Walk | None:
    """The walk the full walk chooses when the player edited one of their messages further back
    than their last, then asked for a reply, a regenerate or a continue: the window after the
    edited message, walked as a window that slid (see the module's note)."""
    edited = _edited_user(read.lines, read.said)
    if edited is None or not _found_by(edited, read):
        return None
    first = edited + 1
    window = read.said[first:]
    here = {
        line: {(index - first, position) for index, position in at if index >= first}
        for line, at in read.found.items()
    }
    window_held = {index - first for index in read.held if index >= first}
    for order in range(len(read.lines) - 1, -1, -1):
        line, shown = read.lines[order]
        for skip, matched in dict.fromkeys(shapes(shown, window)):
            walk = window_walk(line, shown, window, skip, matched)
            if walk is None or not counted_back(shown, here.get(line, ()), skip, matched):
                continue
            if not decides(walk, skip, order, read.lines, window, here, window_held):
                continue
            known = known_places(shown, read.said, read.found.get(line, ()), read.held)
            at = shown.positions[skip]
            if known is None or skipped(shown, first, at, known, read.held):
                return None  # the full walk may pass over it
            walk = replace(walk, first=first, at=at)
            return walk if read.own(walk) else None
    return None


def _edited_user(lines: Sequence[tuple[str, Shown]], said: Sequence[Said]) -> int | None:
    """The latest of the player's messages before the last, and not the first, that no line
    read holds (an edited one), up to `REACH_BACK` messages back."""
    for index in range(len(said) - 2, max(0, len(said) - 2 - REACH_BACK), -1):
        one = said[index]
        if one.role == "user" and not any(shown.holds_user(one.text) for _, shown in lines):
            return index
    return None


def _found_by(index: int, read: Read) -> bool:
    """Whether the full walk looks for no message from conversation index `index` on as one the
    player edited (a place to begin at: `best._users_found`): on every line read, the store's
    index found a reply at `index` or before (on a line it found none on, on any line)."""
    # With nothing held, the full walk looks on every line before the transcript's end.
    firsts = (first_found(read.found.get(line, ()), read.held, 0) for line, _ in read.lines)
    return bool(read.held) and all(first <= index for first in firsts)


def _deleted_back(read: Read) -> Walk | None:
    """The walk the full walk chooses when the client deleted messages further back than the
    last exchange, up to `REACH_BACK` messages back (then the player wrote a new line, or asked
    for more): the stretch of a line before the deletion, from the line's start or from where a
    window that slid begins (see the module's note)."""
    said = read.said
    sent = len(said) - (said[-1].role == "user")  # a new line after the line's messages
    for order in range(len(read.lines) - 1, -1, -1):
        line, shown = read.lines[order]
        # Where a window that slid begins, counted back from a reply found on the line.
        slid = [bisect_left(shown.positions, at) - index for index, at in read.found.get(line, ())]
        for skip in dict.fromkeys(one for one in [0, *slid] if one >= 0):
            for deleted in range(sent - 1, max(0, sent - 1 - REACH_BACK), -1):
                if not _parts_at(shown, said, skip, deleted):
                    continue
                walk = window_walk(line, shown, said, skip, deleted)
                if walk is not None and _decides_deleted(walk, skip, order, read):
                    return walk
    return None


def _parts_at(shown: Shown, said: Sequence[Said], skip: int, at: int) -> bool:
    """Whether `said` may depart from the line at conversation index `at` (its window leaving
    `skip` of the line's shown messages out before it): the message before is the line's, the
    one at `at` another than the line's there, which is not its last."""
    place = skip + at
    if place >= len(shown.texts) - 1 or at > len(said) - 1:
        return False
    before, there = said[at - 1], said[at]
    return (
        before.role == shown.roles[place - 1]
        and bare(before.text) == shown.bares[place - 1]
        and (there.role != shown.roles[place] or bare(there.text) != shown.bares[place])
    )


def _decides_deleted(found: Walk, skip: int, order: int, read: Read) -> bool:
    """Whether the full walk chooses `found`, the stretch of line `order` before a deletion (it
    ends before the line's end), leaving `skip` of its shown messages out before it: no walk
    reaches further into the transcript (none matches the messages on both sides of the
    deletion one right after the other, none that begins after it is walked and matches
    anything), and none that reaches as far wins the tie (the module's note)."""
    shown, deleted = read.lines[order][1], found.matched
    stretch = read.said[:deleted]
    if not read.own(found):
        return False
    if skip and not counted_back(shown, read.found.get(found.line, ()), skip, deleted):
        return False
    if later_holds(order, read.lines, stretch) or not ends_alone(shown, skip, stretch):
        return False
    if not _found_by(deleted - 1, read) or _joined(deleted, read):
        return False
    return not _overtaken(deleted, read)


def _joined(after: int, read: Read) -> bool:
    """Whether a walk may match the transcript's messages at `after - 1` and `after` one right
    after the other on a line read (or cannot be told): a reply as it shows one (or, not held,
    as one it keeps anything of, edited) and a user message by its text; a user message by its
    text and a held reply as shown; two user messages by their texts. Two replies are not
    told."""
    before, then, lines = read.said[after - 1], read.said[after], read.lines
    if before.role == "assistant" and then.role == "user":
        edited = after - 1 not in read.held
        return any(shown.says_after(before.text, then.text, edited=edited) for _, shown in lines)
    if before.role == "user" and then.role == "assistant" and after in read.held:
        return any(shown.answered(before.text, then.text, besides=-1) for _, shown in lines)
    if before.role == then.role == "user":
        return any(_in_a_row(shown, before.text, then.text) for _, shown in lines)
    return True


def _in_a_row(shown: Shown, user: str, then: str) -> bool:
    """Whether the line shows a user message of text `then` right after one of text `user`."""
    earlier = bare(user)
    return any(
        at and shown.roles[at - 1] == "user" and shown.bares[at - 1] == earlier
        for at in shown.users.get(bare(then), ())
    )


def _overtaken(deleted: int, read: Read) -> bool:
    """Whether a walk the full walk takes that begins after the deletion (at conversation index
    `deleted` or later, counted back from the replies found there on any line read) matches
    anything, or may (the line's places cannot be told from its index)."""
    newest = {key_of(line): line for line, _ in read.lines}
    for line, shown in read.lines:
        here = read.found.get(line, set())
        places = starts_from(shown, read.said, here, deleted)
        known = known_places(shown, read.said, here, read.held) if places else {}
        if known is None:
            return True
        for first, at in places:
            if skipped(shown, first, at, known, read.held):
                continue
            newest_line = newest[key_of(line)] == line
            tried = walk(line, shown.chat, read.said, first, at, read.held, None, newest_line)
            if tried.first + tried.matched > deleted:
                return True
    return False
