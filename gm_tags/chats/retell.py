"""Messages told again on a new line, and replies cut to what the client shows.

After the place a client departs from a stored line (an edited or deleted message, an older
swipe), the rest of its conversation is told again in order on the new line:

- a user message as it is (and the old line's place moves on to it: a message deleted before
  it is skipped over, an edited one takes the place of the one it replaced);
- an assistant message as the stored reply it shows, found by place first (the old line's
  reply at that place, any swipe, whole or cut) and by text second (any reply of the lines
  read): when the snapshot before it is the one it was stored on, the stored swipe itself
  (what it did stands, dice and all); else its text applied again to the snapshot now before
  it, cut where the client cut it. A message the proxy never gave out (a greeting, a pasted
  reply) is applied as the text it is; one that shows no stored reply where the old line holds
  one is that reply, edited by the player (what it did stands).

At most `RETELL_LIMIT` replies are applied again for one request; any after those are kept as
plain text with no effect, so a pasted history costs a bounded amount of work.
"""

from __future__ import annotations

from collections.abc import Sequence

from ..game import Game
from ..history import Chat, Message, Swipe
from .transcript import Said, bare, same
from .walk import edited_place, edited_swipe, edits, showing

RETELL_LIMIT = 64
# How far on in the old line a user message is looked for (the messages between were deleted).
RESYNC_REACH = 64


def retell(
    chat: Chat,
    rest: Sequence[Said],
    old: Chat | None,
    place: int,
    elsewhere: Sequence[Chat] = (),
) -> Chat:
    """`chat` with the messages of `rest` told again; `old` is the line they were told on
    before, `place` the position in it the first of them stands for; `elsewhere`, the other
    lines read, where a reply is looked for by its text too."""
    applied = 0
    for one in rest:
        if one.role == "user":
            chat = chat.user(one.text)
            place = _user_place(old, place, one.text)
            continue
        place = _reply_place(old, place)
        stored = _stored(old, place, one.text, elsewhere)
        if stored is None and old is not None:
            # None shows it: the player edited a reply of the old line, and what it did stands.
            place = edited_place(old.messages, place, one.text)
            stored = _edited(old, place, one.text)
        place += 1
        if stored is not None and not stored[2] and _same_game(stored[0], chat.game):
            chat = _added(chat, stored[1])
            continue
        if applied == RETELL_LIMIT:
            chat = _added(chat, Swipe(one.text, chat.game, one.text, one.text))
            continue
        applied += 1
        if stored is None:
            chat = chat.replied(one.text, chat.game.apply_reply(one.text))
        elif stored[2]:
            chat = _added(chat, cut_swipe(chat.game, stored[1].text, one.text))
        else:
            chat = chat.replied(stored[1].text, chat.game.apply_reply(stored[1].text))
    return chat


def cut_swipe(before: Game, text: str, shown: str) -> Swipe:
    """A reply cut to what the client shows of it (`shown`, a prefix of its narration, white
    space aside), applied to `before`: the reply is read as it would stream until its narration
    holds what the client shows, and stopped there; the tags that closed by then apply and none
    after. The swipe's narration is the client's text."""
    need = len(bare(shown))
    stream = before.stream()
    got = at = 0
    while got < need and at < len(text):
        # A piece of text gives at most as many characters of narration: never past `need`.
        piece = text[at : at + max(1, need - got)]
        at += len(piece)
        got += len(bare(stream.feed(piece)))
    turn = stream.stop()
    return Swipe(
        stream.text,
        turn.game,
        turn.reply,
        shown,
        tuple(receipt.to_dict() for receipt in turn.receipts),
    )


def _added(chat: Chat, swipe: Swipe) -> Chat:
    return Chat(chat.start, (*chat.messages, Message("reply", (swipe,))))


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


def _stored(
    old: Chat | None, place: int, text: str, elsewhere: Sequence[Chat]
) -> tuple[Game, Swipe, bool] | None:
    """The stored reply an assistant message shows, with the snapshot it was applied to and
    whether the client cut it: the old line's reply at `place`, else any reply of the old line
    or of the other lines read showing exactly that text, else the one reply showing it cut (a
    reply stopped on another line, told again here; when several begin so, as a few words may,
    none is guessed)."""
    if old is None:
        return None
    messages = old.messages
    candidates = [(old, place)] if place < len(messages) else []
    candidates += [(old, at) for at in range(len(messages)) if at != place]
    candidates += [(line, at) for line in elsewhere for at in range(len(line.messages))]
    cut: dict[str, tuple[Game, Swipe, bool]] = {}
    for line, at in candidates:
        message = line.messages[at]
        shown = showing(message, text) if message.role == "reply" else None
        if shown is not None and (not shown[1] or (line, at) == (old, place)):
            return _before(line, at), message.swipes[shown[0]], shown[1]
        if shown is not None:
            swipe = message.swipes[shown[0]]
            cut.setdefault(swipe.text, (_before(line, at), swipe, True))
    return next(iter(cut.values())) if len(cut) == 1 else None


def _edited(old: Chat, at: int, text: str) -> tuple[Game, Swipe, bool] | None:
    """The reply of the old line at `at` as the player edited it into `text`, if one is there."""
    if at >= len(old.messages) or old.messages[at].role != "reply":
        return None
    message = old.messages[at]
    if not edits(message, text):
        return None  # it keeps nothing of it: a reply the proxy never gave out
    return _before(old, at), message.swipes[edited_swipe(message, text)], False


def _before(chat: Chat, at: int) -> Game:
    return chat.messages[at - 1].swipe.game if at > 0 else chat.start
