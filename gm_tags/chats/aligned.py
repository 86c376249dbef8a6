"""The common request recognised without the walk: a transcript that is the end of a stored
line as the proxy gave it out (the whole line, or a window that slid: a client whose context
is full keeps the system prompt and drops the oldest messages, so in a long campaign every
request is one), and a player's message more (a reply), one fewer (a regenerate), or none (a
continue of the last reply, whole or as the client stopped it); or a stretch of the line that
ends before its end, and a message more or none (the client deleted the last messages, or the
player edited their last line).

Each line read keeps an index of what it shows (`shown.Shown`: every user message's text, every
reply's chosen narration, and the bare texts of its user messages), kept from one request to
the next and brought up to date with the messages a step added, so a request compares its
messages to the line's, newest first, and builds nothing per stored turn. Where the window
begins follows from its length (the line's shown messages, less the window's, and a message
more or fewer), or, for a stretch, from where the store's index found its last reply: the same
text said many times in a long line does not make it guess.

The same holds a few messages further back (`further`): the player edited one of their lines
before their last, or the client deleted messages before the last exchange; and
(`replies_back`) replies before the last exchange shown cut, as another swipe or edited, and
the last reply edited.

The walk found this way (the window's walk, from where it begins on the line) is exactly the one
`best.best_walk` would choose, and is only taken when that can be shown cheaply; anything else
(a line edited to one a line read holds, a deletion between two replies, an edit those modules
cannot tell from a walk with none) is left to the full walk. The full
walk ranks last a walk after whose end the window shows a reply the store holds on other chats
alone (the window's walk has no reply after its end: that only ranks others lower), then walks
by how far into the transcript they reach, then how many messages they match, then the fewest
edited; then the line started last, then one matched to its end, then the earliest place. The
window's walk matches every message it can, none edited:

- it is a walk the full walk makes: from the line's start, or, for a window that slid, from
  where it begins, counted back from a reply of the window the store's index found at its
  place on the line (counting back passes messages of the same roles and user messages of the
  same text: the window's own);
- a message more: a walk that reached further would match it, and so the reply before it: as
  shown, or, when the index did not find it (a reply the client stopped, shown cut), as an
  edited reply (one the index holds is never taken as edited): no line read holds a user
  message of that text right after a reply that shows it (a player's `Go on.` said before
  follows other replies), or that it keeps anything of, when it can be an edit. No walk begins
  at the new message: the places a walk begins at are counted back from the replies the index
  found, or come before the first found on their line (on a line that holds none, before the
  first found on any);
- a regenerate or a continue matches every message: nothing reaches further;
- the walk reaches the line's end (a reply, a continue): a walk of the line from another place
  that matches as many messages does not, and loses the tie. It ends before the line's end (a
  regenerate, a deletion, an edit of the last line): a walk from an earlier place, or one to
  the line's end, would win the tie, and would match the window's last two messages one after
  the other (a user's by its text, a reply as shown: a tie takes no edit); the line holds them
  so only where the window ends (or, for a regenerate from the line's start, no place is
  earlier and the line ends with a reply, not the window's user message);
- a line started later wins a tie: none holds the transcript's latest user message (and a
  window with no user message is taken only on the line started last).

The line's last reply may be shown as another of its swipes (the client swiped back to it), or
cut short (the client stopped it): the walk chooses that swipe, whole or cut, as the full walk
does, and the plan cuts it where the client did. `tests/proxy/test_aligned.py` holds the two to
the same walk and plan on varied transcripts.
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Collection, Iterable, Iterator, Sequence
from dataclasses import dataclass
from functools import cached_property
from typing import overload

from .shown import Shown
from .transcript import Role, Said, bare, roles_of, texts_of
from .walk import Matched, Walk, past_events, respaced_from, showing


def aligned_walk(
    lines: Sequence[tuple[str, Shown]],
    said: Sequence[Said],
    anchors: Iterable[tuple[str, int, int]],
) -> Walk | None:
    """The walk `best_walk(lines' chats, said, anchors)` chooses, when `said` is the end of a
    line as shown (the whole line, or a window that slid) and one player's message more, one
    fewer or none (see the module's note); None when it cannot be told this way. `lines` are
    in the order they were started; `anchors` are what the store's index found (line,
    conversation index, line position)."""
    if not said:
        return None
    found: dict[str, set[tuple[int, int]]] = {}
    for line, index, position in anchors:
        found.setdefault(line, set()).add((index, position))
    held = {index for _, index, _ in anchors}
    for order in range(len(lines) - 1, -1, -1):
        line, shown = lines[order]
        tried = shapes(shown, said) + shapes_found(shown, said, found.get(line, ()))
        for skip, matched in dict.fromkeys(tried):
            walk = window_walk(line, shown, said, skip, matched)
            if walk is not None and decides(walk, skip, order, lines, said, found, held):
                return walk
    return None


def shapes(shown: Shown, said: Sequence[Said]) -> list[tuple[int, int]]:
    """Where on the line `said` may be its end as shown, a message more or fewer: how many of
    the line's shown messages the window leaves out before it, and how many of `said` it
    matches. A regenerate (the line's last message a reply the client dropped) is tried before
    a reply: it matches one more message."""
    count, sent = len(shown.texts), len(said)
    shapes = []
    if said[-1].role == "assistant":
        shapes.append((count - sent, sent))  # a continue of the whole last reply
    else:
        last_is_reply = bool(count) and shown.roles[-1] == "assistant"
        if last_is_reply and shown.positions[-1] == len(shown.chat.messages) - 1:
            shapes.append((count - 1 - sent, sent))  # a regenerate
        shapes.append((count - sent + 1, sent - 1))  # a reply: the line and a player's message
    return [(skip, matched) for skip, matched in shapes if skip >= 0 and matched]


def shapes_found(
    shown: Shown, said: Sequence[Said], here: Collection[tuple[int, int]]
) -> list[tuple[int, int]]:
    """Where on the line `said` may be a stretch of it that ends before the line's end, and a
    message more or none: at each place the store's index found its last reply on the line
    (the client deleted the messages after it, or edited the last user message)."""
    last = len(said) - 1
    shapes = []
    for index, position in here:
        at = bisect_left(shown.positions, position)  # the reply's place among those shown
        if index == last:
            shapes.append((at - last, last + 1))  # a continue of it
        elif index == last - 1 and said[last].role == "user":
            shapes.append((at - index, last))  # a new or edited line after it
            shapes.append((at - index, last + 1))  # the line's user message after it
    return [(skip, matched) for skip, matched in shapes if skip >= 0]


def decides(
    found: Walk,
    skip: int,
    order: int,
    lines: Sequence[tuple[str, Shown]],
    said: Sequence[Said],
    anchors: dict[str, set[tuple[int, int]]],
    held: Collection[int],
) -> bool:
    """Whether the full walk chooses `found`, the window of `said` on line `order` leaving
    `skip` of its shown messages out before it (the module's note gives the argument)."""
    shown = lines[order][1]
    if skip and not counted_back(shown, anchors.get(found.line, set()), skip, found.matched):
        return False  # the full walk starts at the line's start and counts back from anchors
    if later_holds(order, lines, said[: found.matched]):
        return False
    if found.matched < len(said) and not reaches_no_further(found, said, lines, held):
        return False
    return found.to_the_end or ends_alone(shown, skip, said[: found.matched])


def counted_back(shown: Shown, here: Collection[tuple[int, int]], skip: int, matched: int) -> bool:
    """Whether the store's index found one of the window's first `matched` replies at its place
    on the line, the window leaving `skip` of its shown messages out: the full walk counts back
    from it to where the window begins."""
    return any(
        index < matched and position == shown.positions[skip + index] for index, position in here
    )


def later_holds(order: int, lines: Sequence[tuple[str, Shown]], matched: Sequence[Said]) -> bool:
    """Whether a line started after line `order` may match every message of `matched` (the
    walk's) and win the tie: it holds the latest user message among them."""
    later = lines[order + 1 :]
    latest = next((one for one in reversed(matched) if one.role == "user"), None)
    if not later:
        return False
    return latest is None or any(index.holds_user(latest.text) for _, index in later)


def ends_alone(shown: Shown, skip: int, window: Sequence[Said]) -> bool:
    """Whether no walk of the line that matches every message of `window` (from its shown
    message `skip`, ending before the line's end) wins the tie: none can begin before the
    line's start, nor end on a message of another role than the line's last; else one from an
    earlier place, or to the line's end, would (`_alone_on_line`)."""
    if not skip and shown.roles[-1] != roles_of(window)[-1]:
        return True
    return _alone_on_line(shown, skip + len(window) - 1, window)


def reaches_no_further(
    found: Walk,
    said: Sequence[Said],
    lines: Sequence[tuple[str, Shown]],
    held: Collection[int],
) -> bool:
    """Whether no walk can match the new player's message after the line (and so reach further
    than `found`): it would match it as a line's user message by its text, or, where a window
    begins with it, as one the player edited. A walk that matches the new message from an
    earlier one matched the walk's last message, a reply, just before it: as shown, or, when
    the store's index did not find it (`held`: a reply cut short), as an edited reply. No line
    read holds the new message's text right after a reply that shows the last one (or that it
    keeps anything of). No walk begins at the new message: the places a walk begins at are
    counted back from the replies the index found, or come before the first found on their
    line (on a line that holds none, before the first found on any), and it found one."""
    last = found.matched - 1
    if said[last].role != "assistant" or not held:
        return False
    reply, user, edited = said[last].text, said[-1].text, last not in held
    return not any(index.says_after(reply, user, edited=edited) for _, index in lines)


def _alone_on_line(shown: Shown, last: int, window: Sequence[Said]) -> bool:
    """Whether no other walk of the line matches every message of `window`, whose walk ends
    before the line's end, at its shown message `last`: one from an earlier place, or to the
    line's end, would win the tie. It would match the window's last two messages, a user's by
    its text and a reply as shown (a tie takes no edit), one right after the other: the line
    holds them so only where the window ends."""
    if len(window) < 2:
        return False
    before, after = window[-2], window[-1]
    if after.role == "user":
        return before.role == "assistant" and not shown.says_after(
            before.text, after.text, besides=last
        )
    return before.role == "user" and not shown.answered(before.text, after.text, besides=last - 1)


@dataclass(frozen=True)
class Apart:
    """A reply that the client shows another way than the line chose (`replies_back`): its
    conversation index, the swipe it shows, and whether it shows it cut short, or as the player
    edited it."""

    index: int
    swipe: int
    cut: bool = False
    edited: bool = False


def window_walk(
    line: str,
    shown: Shown,
    said: Sequence[Said],
    skip: int,
    matched: int,
    aparts: Sequence[Apart] = (),
) -> Walk | None:
    """The walk of `said` on the line from its shown message `skip`, when the first `matched`
    messages are the line's from there as the line shows them (the last one may be the line's
    last reply shown as another of its swipes, or cut short: the client stopped it), but the
    replies `aparts` says, each matched as it says (the caller told them apart as a walk
    does)."""
    chat = shown.chat
    messages = chat.messages
    # Compared whole first (in C: a transcript sent back as it was given out is equal as it
    # is), then message by message, white space aside.
    roles = shown.roles[skip : skip + matched]
    texts = shown.texts[skip : skip + matched]
    if roles_of(said)[:matched] != roles:
        return None
    respaced: list[int] = []  # replies the client shows with white space of its own
    # The line's last reply, shown as another of its swipes or cut: the swipe, and whether cut.
    swiped: dict[int, tuple[int, bool]] = {}
    sent = texts_of(said)[:matched]
    told = {apart.index for apart in aparts}
    for index in told:
        sent[index] = texts[index]  # a copy: the conversation's own list is kept
    if sent != texts:
        # Only the last one differs (a reply swiped back to, or spaced): the rest are equal.
        looked = 1 if sent[:-1] == texts[:-1] else matched
        for index in range(matched - 1, matched - 1 - looked, -1):
            text, position = said[index].text, shown.positions[skip + index]
            if text == texts[index] or index in told:
                continue
            if bare(text) == shown.bares[skip + index]:
                if roles[index] == "assistant":
                    respaced.append(index)
                continue
            last = position == len(messages) - 1
            found = showing(messages[position], text) if last else None
            if roles[index] != "assistant" or found is None:
                return None
            swiped[index] = found
            if not found[1] and respaced_from(messages[position].swipes[found[0]], text):
                respaced.append(index)
    departing = None
    for apart in sorted(aparts, key=lambda one: one.index):
        swiped[apart.index] = apart.swipe, apart.cut
        position = shown.positions[skip + apart.index]
        message = messages[position]
        # Shown whole with white space of its own: a text the new line stores, as walks take it.
        whole = not (apart.cut or apart.edited)
        if whole and respaced_from(message.swipes[apart.swipe], said[apart.index].text):
            respaced.append(apart.index)
        # As `Walk.departs`: the first shown otherwise before the line's last message.
        otherwise = apart.cut or apart.swipe != message.selected
        if departing is None and otherwise and position < len(messages) - 1:
            departing = apart.index
    respaced.sort(reverse=True)
    at = shown.positions[skip]
    end = shown.positions[skip + matched - 1] + 1
    replies = _AsChosen(shown, said, skip, matched, swiped)
    respaced_replies = tuple(replies.made(index) for index in reversed(respaced))
    return Walk(
        line,
        chat,
        0,
        at if skip else 0,
        matched,
        end,
        past_events(messages, end),
        replies,
        sum(apart.edited for apart in aparts),
        as_chosen=True,
        respaced=respaced_replies,
        departing=None if departing is None else replies.made(departing),
        departing_index=departing or 0,
    )


class _AsChosen(Sequence[Matched]):
    """The replies an aligned walk matched, each the line's chosen swipe shown whole (or the
    swipe `swiped` says, by conversation index, and whether cut), made when asked for (a plan
    reads the last one). The window's messages are the line's shown ones from `skip` on."""

    def __init__(
        self,
        shown: Shown,
        said: Sequence[Said],
        skip: int,
        matched: int,
        swiped: dict[int, tuple[int, bool]],
    ) -> None:
        self._shown, self._said, self._skip = shown, said, skip
        self._matched, self._swiped = matched, swiped

    def _roles(self) -> list[Role]:
        return self._shown.roles[self._skip : self._skip + self._matched]

    @cached_property
    def _at(self) -> list[int]:
        """The conversation index of each reply."""
        return [at for at, role in enumerate(self._roles()) if role != "user"]

    def __len__(self) -> int:
        return len(self._at)

    def __reversed__(self) -> Iterator[Matched]:
        roles = self._shown.roles
        for index in range(self._matched - 1, -1, -1):
            if roles[self._skip + index] != "user":
                yield self.made(index)

    @overload
    def __getitem__(self, at: int) -> Matched: ...

    @overload
    def __getitem__(self, at: slice) -> Sequence[Matched]: ...

    def __getitem__(self, at: int | slice) -> Matched | Sequence[Matched]:
        if isinstance(at, slice):
            return [self[one] for one in range(*at.indices(len(self)))]
        return self.made(self._at[at])

    def made(self, index: int) -> Matched:
        position = self._shown.positions[self._skip + index]
        swipe, cut = self._swiped.get(index, (self._shown.chat.messages[position].selected, False))
        return Matched(position, swipe, self._said[index].text, cut)
