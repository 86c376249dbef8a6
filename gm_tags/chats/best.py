"""Which walk decides: every line read is walked (`walk.walk`) from every place the client's
window may begin on it, and the walks are ranked.

The starting places tried are the line's start, and for each of the request's assistant
messages the store found in the line (`anchors`), the place the window starts at when counted
back from it: a client whose context window slid past the opening, or whose old turns a summary
replaced, is matched from where its window begins; and the places the line holds the window's
first messages (`_users_found`). A place is not taken when the window shows, before it, what the
line does not hold there (`_skips`), and a walk after whose end the window shows a reply only
other chats hold ranks last (`_held_elsewhere`).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Collection, Iterable, Mapping, Sequence

from ..history import Chat
from ..store import SHOWN_HITS
from .transcript import Said, bare, key_of, same
from .walk import EDIT_KEEPS, Walk, kept, past_events, walk

# How many of a window's user messages the line does not hold as they are are looked for as
# edits, the latest first. An edit is a player's rare act; a line that holds few of the window's
# user messages tells another story (it shares a short reply with it, found in the index), and
# likening every message of the window to every one of the line's would cost their product.
EDITS_LOOKED_FOR = 16


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
    holders = Counter(index for _, index, _ in anchors)
    # A reply the index gave as many holders as it gives at most may be this line's too (a
    # greeting every line of a chat holds, the newest past the hits): it tells no other story.
    held_apart = {index for index in held if holders[index] < SHOWN_HITS}
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
            if _skips(chat, first, at, known, held_apart):
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
    reply the store holds on other lines (`held`: those the index gave fewer holders than it
    gives at most) that this line does not hold before `at` (the window belongs to another
    story), or, between two messages the line holds (`known`: its replies the store
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
