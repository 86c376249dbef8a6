"""Messages told again on a new line, and replies cut to what the client shows.

After the place a client departs from a stored line (an edited or deleted message, an older
swipe), the rest of its conversation is told again in order on the new line:

- a user message as it is (and the old line's place moves on to it: a message deleted before
  it is skipped over, an edited one takes the place of the one it replaced);
- an assistant message as the stored reply it shows, found by place first (the old line's
  reply at that place, any swipe, whole or cut) and by text second (any reply of the lines
  read): when the snapshot before it is the one it was stored on, the stored swipe itself
  (what it did stands, dice and all); else its text applied again to the snapshot now before
  it, cut where the client cut it, with the faces its dice threw (`applied_again`). A message
  the proxy never gave out (a greeting, a pasted reply) is applied as the text it is; one that
  shows no stored reply where the old line holds one is that reply, edited by the player (what
  it did stands), and so is one that keeps at least half of a reply near its place on another
  line read.

At most `RETELL_LIMIT` replies are applied again for one request; any after those are kept as
plain text with no effect, so a pasted history costs a bounded amount of work.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from itertools import chain

from ..dice import rest_from
from ..game import Game
from ..history import Chat, Message, Swipe
from ..history_pages import Growing, appended
from .cut import applied_again, cut_swipe, joins_after, shows_rest
from .transcript import Said, bare, same
from .walk import (
    EDIT_KEEPS,
    EDIT_REACH,
    edited_place,
    edited_swipe,
    edits,
    kept,
    most_alike,
    showing,
)

RETELL_LIMIT = 64
# How far on in the old line a user message is looked for (the messages between were deleted).
RESYNC_REACH = 64


def retell(
    chat: Chat,
    rest: Sequence[Said],
    old: Chat | None,
    place: int,
    elsewhere: Sequence[Chat] = (),
    answering: bool = False,
    split: tuple[Swipe, str] | None = None,
) -> Told:
    """`chat` with the messages of `rest` told again; `old` is the line they were told on
    before, `place` the position in it the first of them stands for; `elsewhere`, the other
    lines read, where a reply is looked for by its text too. `answering` when the request's
    reply answers the last message: if that is a user message standing for one of the old
    line's, the reply the old line holds after it is carried along, for the new reply to be
    another swipe of (the client keeps a message's swipes when it edits or deletes before
    it). `split`, when `chat` ends with a reply shown cut: the stored swipe and what the client
    shows of it (its rest may be the first message of `rest`)."""
    grown = Chat(chat.start, Growing(chat.messages))
    told = _retold(grown, rest, old, place, elsewhere, answering, split)
    messages = told.chat.messages
    settled = messages.settled() if isinstance(messages, Growing) else messages
    return Told(Chat(chat.start, settled), told.regenerates)


def _retold(
    chat: Chat,
    rest: Sequence[Said],
    old: Chat | None,
    place: int,
    elsewhere: Sequence[Chat],
    answering: bool,
    split: tuple[Swipe, str] | None,
) -> Told:
    budget = RETELL_LIMIT
    # `split`: the stored swipe the last message showed cut, and what it showed of it.
    for at, one in enumerate(rest):
        if one.role == "user":
            chat = chat.user(one.text)
            place = _user_place(old, place, one.text)
            split = None
            continue
        rest_of = _rest_of(chat, split, one.text) if split is not None and budget else None
        split = None
        if rest_of is not None:
            budget -= 1
            chat = _added(chat, rest_of[0])
            split = rest_of[1]  # what is left of it may be the next message
            continue
        place = _reply_place(old, place)
        found = _stored(old, place, one.text, elsewhere)
        if found is None and old is not None:
            # None shows it: the player edited a reply of the old line, and what it did stands.
            at = edited_place(old.messages, place, one.text)
            found = _edited(old, at, one.text, EDIT_KEEPS * (at != place))
            if found is None:
                found = _edited_elsewhere(elsewhere, place, one.text)
            place = at
        elif found is not None and found.line is old:
            # Found by its text further on: the messages between were deleted, and the old
            # line's place moves on with it (its reply is not told again as the next one's).
            place = max(place, found.at)
        place += 1
        if found is None:
            if budget:
                budget -= 1
                # No stored reply: no dice of its own to throw again.
                chat = chat.replied(one.text, chat.game.apply_reply(one.text))
            else:
                chat = _added(chat, Swipe(one.text, chat.game, one.text, one.text))
            continue
        following = rest[at + 1] if at + 1 < len(rest) else None
        if found.cut:
            found = _showing_rest(found, one.text, following)
        message, budget = _carried(found, one.text, chat.game, budget, following)
        chat = _with(chat, message)
        if found.cut:
            split = found.message.swipes[found.swipe], one.text
    if answering and old is not None:
        answered = _answered(chat, old, place)
        if answered is not None:
            message, _ = _carried(answered, None, chat.game, budget)
            return Told(_with(chat, message), True)
    return Told(chat, False)


@dataclass(frozen=True)
class Told:
    """A conversation told again: the chat, and whether it ends with a reply carried along for
    the request's reply to be another swipe of (`retell`'s `answering`)."""

    chat: Chat
    regenerates: bool


@dataclass(frozen=True)
class _Found:
    """The stored reply an assistant message shows: message `at` of `line`, as its swipe
    `swipe`, cut short by the client when `cut`."""

    line: Chat
    at: int
    swipe: int
    cut: bool

    @property
    def message(self) -> Message:
        return self.line.messages[self.at]


def _carried(
    found: _Found, shown: str | None, game: Game, budget: int, following: Said | None = None
) -> tuple[Message, int]:
    """The message `found` stands in, told again on `game` with every swipe the client may
    swipe back to, the one it shows (`shown`, None for the one chosen) chosen, and how many of
    `budget` applications are left. On the snapshot its swipes were applied to they are taken
    as they are (what they did stands, dice and all); on another one each is applied again,
    the shown one first and cut where the client cut it; swipes past the budget are left out,
    and the shown one past it is kept as plain text with no effect."""
    message = found.message
    same = _same_game(_before(found.line, found.at), game)
    if same and not found.cut:
        return replace(message, selected=found.swipe), budget
    text = message.swipes[found.swipe].text
    if not budget:
        plain = shown if shown is not None else message.swipe.narration
        return Message("reply", (Swipe(plain, game, plain, plain),)), budget
    budget -= 1
    stored = message.swipes[found.swipe]
    if found.cut and shown is not None:
        split = shows_rest(stored, shown, following)
        chosen = cut_swipe(game, text, shown, stored.thrown, split=split, joins=stored.joins)
    else:
        chosen = Swipe.of(text, applied_again(game, text, stored.thrown), stored.joins)
    if same:  # cut: a new swipe beside the ones stored
        return Message("reply", (*message.swipes, chosen), len(message.swipes)), budget
    swipes: list[Swipe] = []
    selected = 0
    for index, swipe in enumerate(message.swipes):
        if index == found.swipe and not found.cut:
            selected = len(swipes)
            swipes.append(chosen)
        elif budget:
            budget -= 1
            again = applied_again(game, swipe.text, swipe.thrown)
            swipes.append(Swipe.of(swipe.text, again, swipe.joins))
    if found.cut:
        selected = len(swipes)
        swipes.append(chosen)
    return Message("reply", tuple(swipes), selected), budget


def _showing_rest(found: _Found, shown: str, following: Said | None) -> _Found:
    """`found`, shown cut, as the swipe whose rest the client shows next when one of its
    message's swipes is (the player swiped back to a GM message sent with an empty box, and
    another swipe of it was joined onto another swipe of this one)."""
    swipes = found.message.swipes
    if shows_rest(swipes[found.swipe], shown, following):
        return found
    rest = (at for at, swipe in enumerate(swipes) if shows_rest(swipe, shown, following))
    return replace(found, swipe=next(rest, found.swipe))


def _rest_of(
    chat: Chat, split: tuple[Swipe, str], text: str
) -> tuple[Swipe, tuple[Swipe, str] | None] | None:
    """The rest of a stored reply that the last message of `chat` shows cut, when the client
    shows it as a message of its own (`text`): SillyTavern's send with an empty box (the GM
    speaks again) ends the request with the last reply, as a continue with a prefill does, and
    is stored as one. The reply's text after the part shown is applied on, cut where the client
    cut it: its tags count once, in order, each throwing the faces it threw. With it, when it
    is cut too, what is left of the stored reply and what this message shows of it: a reply
    continued twice may be shown as three messages."""
    stored, before = split
    told, narration = bare(before) + bare(text), bare(stored.narration)
    cut = chat.messages[-1].swipe  # the part the last message showed, as it was cut
    shown = cut.text
    if not bare(text) or not narration.startswith(told) or not stored.text.startswith(shown):
        return None
    remainder = stored.text[len(shown) :]
    # Not known for the whole, not known for the rest (the part shown threw new faces).
    thrown = (
        None if stored.thrown is None else rest_from(stored.thrown, len(shown), cut.thrown or ())
    )
    joins = joins_after(stored.joins, len(shown))
    if narration != told:
        # What is left as stored: only its text, faces, joins and narration (white space aside)
        # are read, by the next message's `_rest_of`.
        left = Swipe(remainder, chat.game, "", narration[len(bare(before)) :], (), thrown, joins)
        return cut_swipe(chat.game, remainder, text, thrown, joins=joins), (left, text)
    return Swipe.of(remainder, applied_again(chat.game, remainder, thrown), joins), None


def _added(chat: Chat, swipe: Swipe) -> Chat:
    return _with(chat, Message("reply", (swipe,)))


def _with(chat: Chat, message: Message) -> Chat:
    return Chat(chat.start, appended(chat.messages, message))


def _same_game(one: Game, other: Game) -> bool:
    return one is other or one.to_document() == other.to_document()


def _skip_events(old: Chat | None, place: int) -> int:
    if old is None:
        return place
    while place < len(old.messages) and old.messages[place].role == "event":
        place += 1
    return place


def _reply_place(old: Chat | None, place: int) -> int:
    """The old line's place for an assistant message told again: the next reply there, past
    events and one user message (the player deleted the message the reply answered)."""
    place = _skip_events(old, place)
    if old is None or place >= len(old.messages) or old.messages[place].role != "user":
        return place
    after = _skip_events(old, place + 1)
    if after < len(old.messages) and old.messages[after].role == "reply":
        return after
    return place


def _user_place(old: Chat | None, place: int, text: str) -> int:
    """The old line's place after a user message told again: just after the same message
    further on, when it is there (the messages between were deleted), else one on."""
    place = _skip_events(old, place)
    if old is None:
        return place + 1
    for at in range(place, min(len(old.messages), place + RESYNC_REACH)):
        message = old.messages[at]
        if message.role == "user" and same(message.swipe.text, text):
            return at + 1
    return place + 1


def _stored(old: Chat | None, place: int, text: str, elsewhere: Sequence[Chat]) -> _Found | None:
    """The stored reply an assistant message shows: the old line's reply at `place`, else any
    reply of the old line or of the other lines read showing exactly that text, else the one
    reply showing it cut (a reply stopped on another line, told again here; when several begin
    so, as a few words may, none is guessed)."""
    if old is None:
        return None
    messages = old.messages
    # Made as they are looked at: the reply at its place is most often the one, and a list of
    # every place of every line read cost 10,000-turn lines a second of young collections.
    candidates = chain(
        [(old, place)] if place < len(messages) else [],
        ((old, at) for at in range(len(messages)) if at != place),
        ((line, at) for line in elsewhere for at in range(len(line.messages))),
    )
    cut: dict[str, _Found] = {}
    for line, at in candidates:
        message = line.messages[at]
        shown = showing(message, text) if message.role == "reply" else None
        if shown is not None and (not shown[1] or (line, at) == (old, place)):
            return _Found(line, at, *shown)
        if shown is not None:
            cut.setdefault(message.swipes[shown[0]].text, _Found(line, at, shown[0], True))
    return next(iter(cut.values())) if len(cut) == 1 else None


def _edited(old: Chat, at: int, text: str, least: float) -> _Found | None:
    """The reply of the old line at `at` as the player edited it into `text`, if one is there
    (keeping at least `least` of it: `edits`)."""
    if at >= len(old.messages) or old.messages[at].role != "reply":
        return None
    message = old.messages[at]
    if not edits(message, text, least):
        return None  # it keeps too little of it: a reply the proxy never gave out
    return _Found(old, at, edited_swipe(message, text), False)


def _edited_elsewhere(lines: Sequence[Chat], place: int, text: str) -> _Found | None:
    """The reply of another line read, near `place`, that the player edited into `text`,
    keeping at least half of it (the one most like it; the newest line's of those that tie):
    a swipe the client kept of a message the old line holds no longer so (the request that
    regenerated it after deletions before it looked like a new reply), which the player swiped
    back to and edited. Less than half is taken for chance (`edits`)."""
    best: _Found | None = None
    most = 0.0
    for line in reversed(lines):
        messages = line.messages
        for at in range(max(0, place - EDIT_REACH), min(len(messages), place + EDIT_REACH)):
            message = messages[at]
            if message.role != "reply" or not edits(message, text, EDIT_KEEPS):
                continue
            swipe, alike = most_alike(message, text)
            if alike > most:
                best, most = _Found(line, at, swipe, False), alike
    return best


def _answered(chat: Chat, old: Chat, place: int) -> _Found | None:
    """The old line's reply at `place` when `chat` ends with the user message it answered, as
    it is or edited (keeping at least half of it)."""
    at = _skip_events(old, place)
    if not chat.messages or chat.messages[-1].role != "user" or at >= len(old.messages):
        return None
    before = at - 1
    while before >= 0 and old.messages[before].role == "event":
        before -= 1
    if old.messages[at].role != "reply" or before < 0 or old.messages[before].role != "user":
        return None
    if kept(chat.messages[-1].swipe.text, old.messages[before].swipe.text) < EDIT_KEEPS:
        return None
    return _Found(old, at, old.messages[at].selected, False)


def _before(chat: Chat, at: int) -> Game:
    return chat.messages[at - 1].swipe.game if at > 0 else chat.start
