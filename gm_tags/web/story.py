"""The story so far, as the play page reads it back: the chat's visible line, a page at a time
from the newest, each player message, reply (its narration and receipts, never its tags) and
event (a change made from a sheet screen) with its place in the chat."""

from __future__ import annotations

from typing import Any

from ..history import Chat

# How many messages one page of the story holds: the view carries the newest page, and the page
# asks for the ones before it (`GET /games/{chatId}/story?before=N`) as the player reads back.
STORY_PAGE = 40


def story_page(chat: Chat, before: int | None = None, limit: int = STORY_PAGE) -> dict[str, Any]:
    """The `limit` messages before message `before` (the newest when None), oldest first, and
    where the page before them ends (`earlier`, None at the start of the chat)."""
    messages = chat.messages
    end = len(messages) if before is None else max(0, min(before, len(messages)))
    start = max(0, end - limit)
    return {
        "entries": [_entry(chat, at) for at in range(start, end)],
        "earlier": start if start > 0 else None,
    }


def _entry(chat: Chat, at: int) -> dict[str, Any]:
    message = chat.messages[at]
    swipe = message.swipe
    if message.role != "reply":
        return {"message": at, "role": message.role, "text": swipe.text}
    return {
        "message": at,
        "role": "reply",
        "text": swipe.narration,
        "receipts": list(swipe.receipts),
        "swipe": message.selected,
        "swipes": len(message.swipes),
    }
