"""How far a request's conversation matches a stored line, and where in the line it starts.

A conversation is walked against a line from a starting place, message by message:

- a user message matches the line's user message at that place when their text is the same
  (white space aside);
- an assistant message matches the line's reply at that place when it shows one of its swipes
  (the narration the proxy gave out, or the rewritten or raw reply), whole or cut short (the
  client kept less than it was sent), which chooses that swipe; an assistant message that
  shows none of them is taken as the chosen swipe, edited by the player (what it did stands);
- events the line recorded (a party save, a rest) come along with the message before them.

The starting places tried are the line's start, and for each of the request's assistant
messages the store found in the line (`anchors`), the place the window starts at when counted
back from it: a client whose context window slid past the opening, or whose old turns a summary
replaced, is matched from where its window begins.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass

from ..history import Chat, Message, Swipe
from ..store import SHOWN_HITS
from .transcript import Said, bare, key_of, same

# How far on in a line the reply an edited message stands for is looked for.
EDIT_REACH = 64
# How much of one of the line's user messages (`kept`) a message keeps to be taken as its edit.
EDIT_KEEPS = 0.5
# How many of a window's user messages the line does not hold as they are are looked for as
# edits, the latest first. An edit is a player's rare act; a line that holds few of the window's
# user messages tells another story (it shares a short reply with it, found in the index), and
# likening every message of the window to every one of the line's would cost their product.
EDITS_LOOKED_FOR = 16


@dataclass(frozen=True)
class Matched:
    """An assistant message matched to the line's reply at `position`, as its swipe `swipe`;
    `cut` when the client shows less of it than the proxy gave out."""

    position: int
    swipe: int
    shown: str
    cut: bool


@dataclass(frozen=True)
class Walk:
    """A conversation walked against a line: from message `first` of the conversation, matched
    to the line from `at`, `matched` messages on; `end`, the line's messages up to the last one
    matched and `reached` with the events after it; the replies matched; how many were taken as
    edited; `reworded` when the first is a user message the player edited (a window that begins
    with it: the line is the client's up to there)."""

    line: str
    chat: Chat
    first: int
    at: int
    matched: int
    end: int
    reached: int
    replies: Sequence[Matched]
    edited: int
    reworded: bool = False
    # Every reply matched before the line's last message is the one the line chose, shown
    # whole (known when it was found): none departs.
    as_chosen: bool = False
    # The replies shown whole whose text is the stored narration but for white space.
    respaced: Sequence[Matched] = ()

    @property
    def begins(self) -> int:
        """The line position the first message is matched at (past the events at `at`)."""
        return past_events(self.chat.messages, self.at)

    @property
    def to_the_end(self) -> bool:
        return self.reached == len(self.chat.messages)

    @property
    def departs(self) -> Matched | None:
        """The first matched reply before the line's last message whose swipe the client shows
        another way than the line holds it (another swipe, or cut short): from there the line
        the client shows is not this one."""
        if self.as_chosen:
            return None
        last = len(self.chat.messages) - 1
        for reply in self.replies:
            if reply.position == last:
                break
            message = self.chat.messages[reply.position]
            if reply.cut or reply.swipe != message.selected:
                return reply
        return None

    def score(self) -> tuple[int, int, int]:
        """Which walk decides: the one that matches furthest into the conversation (the latest
        messages are the strongest anchors), then the most messages matched and the fewest
        taken as edited; of walks that tie, `best_walk` takes the newest line, then one matched
        to its end."""
        return (self.first + self.matched, self.matched, -self.edited)


def walk(
    line: str,
    chat: Chat,
    said: Sequence[Said],
    first: int = 0,
    at: int = 0,
    held: Collection[int] = (),
    passed: set[tuple[int, int]] | None = None,
    newest: bool = True,
) -> Walk:
    """`said` walked against the line from conversation index `first` and line position `at`;
    `held` are the conversation indexes of assistant messages the store holds as replies (in
    any line): such a message is never taken as an edit of the reply at another place. Each
    place the walk stands at (a conversation index and a line position) is added to `passed`.
    On the `newest` line read of its chat, an edited reply keeps anything of the one at its
    place; on an older line, half of it (`edits`)."""
    messages = chat.messages
    index, position, end = first, at, at
    replies: list[Matched] = []
    respaced: list[Matched] = []
    edited = 0
    reworded = False
    while True:
        position = past_events(messages, position)
        if passed is not None:
            passed.add((index, position))
        if index == len(said) or position == len(messages):
            break
        message, one = messages[position], said[index]
        if one.role == "user":
            if message.role != "user":
                break
            if not same(message.swipe.text, one.text):
                # Only where the walk begins: further on, the fork tells an edit again.
                if index != first or kept(one.text, message.swipe.text) < EDIT_KEEPS:
                    break
                reworded = True
                edited += 1
        else:
            if message.role != "reply":
                break
            shown = showing(message, one.text)
            if shown is None and index in held:
                break  # a reply stored at another place: this one was deleted, not edited
            if shown is None and not edits(message, one.text, EDIT_KEEPS * (not newest)):
                break  # it keeps too little of the reply here: another reply (cut), or new text
            if shown is None and edited_place(messages, position, one.text) != position:
                break  # an edit of a later reply: the messages between were deleted
            edited += shown is None
            swipe, cut = shown or (edited_swipe(message, one.text), False)
            replies.append(Matched(position, swipe, one.text, cut))
            if shown is not None and not cut and respaced_from(message.swipes[swipe], one.text):
                respaced.append(replies[-1])
        index += 1
        position += 1
        end = position
    matched = index - first
    return Walk(
        line,
        chat,
        first,
        at,
        matched,
        end,
        position,
        tuple(replies),
        edited,
        reworded,
        respaced=tuple(respaced),
    )


def past_events(messages: Sequence[Message], position: int) -> int:
    while position < len(messages) and messages[position].role == "event":
        position += 1
    return position


def showing(message: Message, text: str) -> tuple[int, bool] | None:
    """The swipe of `message` the client shows as `text`, and whether it shows it cut short:
    the selected swipe first, whole before cut."""
    shown = bare(text)
    order = [message.selected, *(i for i in range(len(message.swipes)) if i != message.selected)]
    for index in order:
        swipe = message.swipes[index]
        if shown in (bare(swipe.narration), bare(swipe.reply), bare(swipe.text)):
            return index, False
    if shown:
        for index in order:
            if bare(message.swipes[index].narration).startswith(shown):
                return index, True
    return None


def respaced_from(swipe: Swipe, text: str) -> bool:
    """Whether the client shows `swipe`'s narration as `text`, white space aside but not as
    stored (a continue it joined with a space of its own): a text it then stores."""
    return text != swipe.narration and bare(text) == bare(swipe.narration)


def edited_swipe(message: Message, text: str) -> int:
    """The swipe of `message` the player edited into `text` (see `most_alike`)."""
    return most_alike(message, text)[0]


def most_alike(message: Message, text: str) -> tuple[int, float]:
    """The swipe of `message` most like `text` (an edit keeps most of what it changes), the
    selected one of those that tie (the client may have swiped to another with no request the
    proxy saw), and how alike they are (`likeness`)."""
    alike = [likeness(text, swipe.narration) for swipe in message.swipes]
    most = max(alike)
    return (message.selected if alike[message.selected] == most else alike.index(most)), most


def edits(message: Message, text: str, least: float = 0.0) -> bool:
    """Whether `text` can be `message` edited: it keeps at least `least` of one of its swipes
    (and something). Anything, for the reply at the message's own place (a player may rewrite a
    reply nearly whole and what it did stands); half, for a reply at another place or on another
    line: unrelated replies share a few runs of four characters by chance (`ther`, `ing,`)."""
    return any(
        (share := kept(text, swipe.narration)) > 0 and share >= least for swipe in message.swipes
    )


def edited_place(messages: Sequence[Message], position: int, text: str) -> int:
    """The reply of the line, from `position` on, that the player edited into `text`: the one
    most like it, `position` of those that tie. A later one when the messages between were
    deleted (the edit does not stand at the place the deletion moved it to)."""
    best, most = position, -1.0
    for at in range(position, min(len(messages), position + EDIT_REACH)):
        message = messages[at]
        if message.role == "reply":
            alike = most_alike(message, text)[1]
            if alike > most:
                best, most = at, alike
    return best


def likeness(one: str, other: str) -> float:
    """How alike two texts are, from 0 to 1: the runs of `_RUN` characters they share (white
    space aside, as everywhere: a continuation is joined on with or without a space), of the
    longer one's."""
    runs, others = _runs(one), _runs(other)
    longer = max(runs.total(), others.total())
    return (runs & others).total() / longer if longer else 1.0


def kept(edited: str, original: str) -> float:
    """How much of `original` the text `edited` keeps, from 0 to 1 (runs as for `likeness`)."""
    runs = _runs(original)
    return (runs & _runs(edited)).total() / runs.total()


_RUN = 4


def _runs(text: str) -> Counter[str]:
    shown = bare(text)
    return Counter(shown[at : at + _RUN] for at in range(max(1, len(shown) - _RUN + 1)))


def starts(
    chat: Chat, said: Sequence[Said], anchors: Iterable[tuple[int, int]]
) -> set[tuple[int, int]]:
    """The places to walk from: the line's start, and for each anchor (a conversation index and
    the line position the store found it at) every place counted back from it, over messages of
    the same roles, to where the window may begin (a summary may stand before it)."""
    places = {(0, 0)}
    messages = chat.messages
    for index, position in anchors:
        places.add((index, position))
        while index > 0:
            before = position - 1
            while before >= 0 and messages[before].role == "event":
                before -= 1
            role = "user" if said[index - 1].role == "user" else "reply"
            if before < 0 or messages[before].role != role:
                break
            # A walk never passes a user message it does not hold as it is: from further back it
            # would stop there, short of the anchor the walk from the anchor itself reaches.
            if role == "user" and not same(messages[before].swipe.text, said[index - 1].text):
                break
            index, position = index - 1, before
            places.add((index, position))
    return places


def best_walk(
    lines: Sequence[tuple[str, Chat]],
    said: Sequence[Said],
    anchors: Iterable[tuple[str, int, int]],
) -> Walk | None:
    """The walk that decides, of every line from every starting place: one after whose end
    the window shows no reply the store holds on other chats alone (`_held_elsewhere`), then
    the best `Walk.score`. Of walks that tie, the line started last wins (lines come in the
    order they were started: the newest holds the latest story the client told, and knows the
    deletions an older line matched to its end does not), then one matched to its end, and in
    a line the earliest place."""
    anchors = list(anchors)
    by_line: dict[str, list[tuple[int, int]]] = {}
    for line, index, position in anchors:
        by_line.setdefault(line, []).append((index, position))
    held = {index for found in by_line.values() for index, _ in found}
    newest = {key_of(line): line for line, _ in lines}  # each chat's line started last
    elsewhere = _held_elsewhere(newest, anchors)
    best: Walk | None = None
    best_rank: tuple[bool, tuple[int, int, int], int, bool, int] | None = None
    for order, (line, chat) in enumerate(lines):
        found = by_line.get(line, [])
        known = _users_found(chat, said, found, held)
        places = {(index, position) for index, positions in known.items() for position in positions}
        for index, position in found:
            known.setdefault(index, set()).add(position)
        # A walk from a place an earlier walk of this line passed would end where that one ends
        # with fewer messages matched, so it cannot decide: it is not walked again. A window of
        # the whole line is walked once, not once from every place counted back from an anchor.
        passed: set[tuple[int, int]] = set()
        for rank, (first, at) in enumerate(sorted(starts(chat, said, found) | places)):
            if (first, past_events(chat.messages, at)) in passed:
                continue
            if _skips(chat, first, at, known, held):
                continue
            tried = walk(line, chat, said, first, at, held, passed, newest[key_of(line)] == line)
            own = tried.first + tried.matched > elsewhere.get(key_of(line), -1)
            ranked = (own, tried.score(), order, tried.to_the_end, -rank)
            if best_rank is None or ranked > best_rank:
                best, best_rank = tried, ranked
    return best


def _held_elsewhere(keys: Iterable[str], anchors: Sequence[tuple[str, int, int]]) -> dict[str, int]:
    """For each chat of `keys`, the latest conversation index of a reply the store holds on
    other chats' lines and on none of this chat's: a window shows its own chat's replies, so a
    walk of this chat that ends before it would tell another chat's reply on a fork of its
    line. Only a text the index gave every holder of counts (fewer hits than it gives at most:
    a short reply many chats hold, `W`, may be this chat's too)."""
    holders: dict[int, list[str]] = {}
    for line, index, _ in anchors:
        holders.setdefault(index, []).append(key_of(line))
    latest: dict[str, int] = {}
    for index, holding in holders.items():
        if len(holding) < SHOWN_HITS:
            for key in keys:
                if key not in holding:
                    latest[key] = max(latest.get(key, -1), index)
    return latest


def _users_found(
    chat: Chat, said: Sequence[Said], anchors: Collection[tuple[int, int]], held: Collection[int]
) -> dict[int, set[int]]:
    """Where the line holds the window's messages before its first anchor (`anchors`: the
    conversation indexes and line positions of the replies found), or, on a line the index
    found none of them on, before the first reply it found on any line (`held`, those it found
    on any line: a window begins before the replies the store holds; a walk that began after
    one, on a line that holds none of them, would match the window's last message or two on
    another story and reach furthest): a user message by its text, else (edited) the one the
    edit keeps most of, at least half, before where the window's next message found is (the
    latest of those that tie), and an assistant message so too, unless the store holds it on
    another line (it is that reply, never an edit of this line's: another chat's greeting is
    not this chat's edited): places to start from, and to tell a deletion there."""
    before = min((index for index, _ in anchors), default=min(held, default=len(said)))
    after = max((position for index, position in anchors if index == before), default=None)
    by_text: dict[str, set[int]] = {}
    for position, message in enumerate(chat.messages):
        if message.role == "user":
            by_text.setdefault(bare(message.swipe.text), set()).add(position)
    found = {}
    looked_for = 0
    for index in reversed(range(min(before, len(said)))):
        if said[index].role == "user":
            text = said[index].text
            places = by_text.get(bare(text))
            if places is None and looked_for < EDITS_LOOKED_FOR:
                looked_for += 1
                places = _edited_at(chat, text, after, "user")
        elif index not in held and looked_for < EDITS_LOOKED_FOR:
            # An assistant message the store does not hold: a reply the player edited (or a
            # front-end's own text, which keeps half of none).
            looked_for += 1
            places = _edited_at(chat, said[index].text, after, "reply")
        else:
            places = None
        if places:
            found[index] = set(places)
            after = max(places)
    return found


def _edited_at(chat: Chat, text: str, before: int | None, role: str) -> set[int]:
    """The line's message of `role` before position `before` (anywhere when None) the player
    edited into `text`: the one the edit keeps most of (of a reply, of one of its swipes), when
    it keeps at least half (players' messages are often alike, `I look around.`: where the
    window's next message is held tells which)."""
    end = len(chat.messages) if before is None else before
    kept_most = (
        (
            max(
                kept(text, swipe.narration if role == "reply" else swipe.text) for swipe in m.swipes
            ),
            at,
        )
        for at, m in enumerate(chat.messages[:end])
        if m.role == role
    )
    most, position = max(kept_most, default=(0.0, -1))
    return {position} if position >= 0 and most >= EDIT_KEEPS else set()


def _skips(
    chat: Chat, first: int, at: int, known: Mapping[int, set[int]], held: Collection[int]
) -> bool:
    """Whether walking from (`first`, `at`) would pass over what the window shows before it: a
    reply the store holds (`held`) that this line does not hold before `at` (the window belongs
    to another story), or, between two messages the line holds (`known`: its replies the store
    found, its user messages by text) or the latest and `at`, another number of messages than
    the line holds (messages were deleted there, so the window did not begin at `at`)."""
    index, place = first, at
    for older in range(first - 1, -1, -1):
        places = [found for found in known.get(older, ()) if found < place]
        if not places:
            if older in held:
                return True
            continue
        between = sum(1 for m in chat.messages[max(places) + 1 : place] if m.role != "event")
        if between != index - older - 1:
            return True
        index, place = older, max(places)
    return False
