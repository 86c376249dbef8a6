"""Which snapshot of a chat a tool acts on, and what a chat's messages look like to a tool.

A chat keeps, for every swipe of every message, the game that swipe left (gm_tags.history). A
tool that reads names one by `message` (an index into the chat's messages) and `swipe` (an index
into that message's swipes): the message's chosen swipe when no swipe is named, the last message
when a swipe is named without one, the chat's current game when neither is."""

from __future__ import annotations

from dataclasses import dataclass

from ..game import Game
from ..history import Chat, HistoryError, Message, Swipe
from ..service.models import ReceiptOut
from .models import SwipeOut, SwipesResult


@dataclass(frozen=True)
class Picked:
    """A snapshot and where it stands: `message` and `swipe` are None for the chat's start."""

    game: Game
    message: int | None
    swipe: int | None


def pick(chat: Chat, message: int | None, swipe: int | None) -> Picked:
    """The game message `message`'s swipe `swipe` left (see the module's note); `HistoryError`
    when the chat has no such message or swipe."""
    if message is None and swipe is None and not chat.messages:
        return Picked(chat.start, None, None)
    at = _message_at(chat, len(chat.messages) - 1 if message is None else message)
    chosen = chat.messages[at]
    which = chosen.selected if swipe is None else swipe
    if not 0 <= which < len(chosen.swipes):
        raise HistoryError(f"message {at} has swipes 0 to {len(chosen.swipes) - 1}, not {which}")
    return Picked(chosen.swipes[which].game, at, which)


def _message_at(chat: Chat, message: int) -> int:
    if not chat.messages:
        raise HistoryError("the chat has no message yet")
    if not 0 <= message < len(chat.messages):
        raise HistoryError(f"the chat has messages 0 to {len(chat.messages) - 1}, not {message}")
    return message


def last_reply(chat: Chat) -> int | None:
    """The index of the chat's last reply, None when it has none."""
    # From the newest back: a chat opened from the store reads only the pages it walks through.
    messages = chat.messages
    return next((at for at in reversed(range(len(messages))) if messages[at].role == "reply"), None)


def swipes_of(chat_id: str, chat: Chat, message: int | None) -> SwipesResult:
    """The swipes of message `message` (the last reply when None)."""
    at = last_reply(chat) if message is None else _message_at(chat, message)
    if at is None:
        return SwipesResult(chat=chat_id, message=None, role=None, selected=None, swipes=[])
    shown: Message = chat.messages[at]
    return SwipesResult(
        chat=chat_id,
        message=at,
        role=shown.role,
        selected=shown.selected,
        swipes=[_swipe_out(n, n == shown.selected, s) for n, s in enumerate(shown.swipes)],
    )


def _swipe_out(number: int, selected: bool, swipe: Swipe) -> SwipeOut:
    return SwipeOut(
        swipe=number,
        selected=selected,
        text=swipe.text,
        reply=swipe.reply,
        narration=swipe.narration,
        receipts=[ReceiptOut(**receipt) for receipt in swipe.receipts],
    )
