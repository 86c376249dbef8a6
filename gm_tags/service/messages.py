"""A chat's messages: a model reply applied (new, regenerated, continued), a player's message,
a swipe chosen, the last message or a swipe deleted. Each is one step on the chat, written to the
store before it is answered (gm_tags.chats.served)."""

from __future__ import annotations

from collections.abc import Callable

from fastapi import APIRouter

from ..chats.tenancy import TenantChats
from ..game import Game
from ..history import Chat
from ..pipeline import Turn
from .depends import Tenant
from .errors import ERRORS
from .models import ChatOut, ReplyIn, SwipeIn, TurnOut, UserIn

router = APIRouter(prefix="/games/{chat_id}", responses=ERRORS)


def _replying(
    chats: TenantChats, chat_id: str, take: Callable[[Chat], tuple[Chat, Turn[Game]]]
) -> TurnOut:
    return TurnOut.of(*chats.step(chat_id, take))


@router.post("/replies")
def post_reply(chat_id: str, body: ReplyIn, chats: Tenant) -> TurnOut:
    """Apply a model reply to the current snapshot: the rewritten reply, the narration, the
    receipts and the snapshot it left."""
    return _replying(chats, chat_id, lambda chat: chat.reply(body.text, seed=body.seed))


@router.post("/regenerate")
def regenerate(chat_id: str, body: ReplyIn, chats: Tenant) -> TurnOut:
    """A new swipe of the last reply, applied to the snapshot from before it."""
    return _replying(chats, chat_id, lambda chat: chat.regenerate(body.text, seed=body.seed))


@router.post("/continue")
def continue_reply(chat_id: str, body: ReplyIn, chats: Tenant) -> TurnOut:
    """More of the last reply, applied to the snapshot it left."""
    return _replying(chats, chat_id, lambda chat: chat.continue_reply(body.text, seed=body.seed))


@router.post("/user")
def post_user(chat_id: str, body: UserIn, chats: Tenant) -> ChatOut:
    """A player's message: kept in the history, it changes no state."""
    chat, _ = chats.step(chat_id, lambda chat: (chat.user(body.text), None))
    return ChatOut.of(chat_id, chat)


@router.post("/swipe")
def select_swipe(chat_id: str, body: SwipeIn, chats: Tenant) -> ChatOut:
    """Choose a swipe of the last reply; its snapshot becomes the current one."""
    chat, _ = chats.step(chat_id, lambda chat: (chat.select(body.swipe), None))
    return ChatOut.of(chat_id, chat)


@router.delete("/messages/last")
def delete_last(chat_id: str, chats: Tenant) -> ChatOut:
    chat, _ = chats.step(chat_id, lambda chat: (chat.delete_last(), None))
    return ChatOut.of(chat_id, chat)


@router.delete("/swipes/{swipe}")
def delete_swipe(chat_id: str, swipe: int, chats: Tenant) -> ChatOut:
    chat, _ = chats.step(chat_id, lambda chat: (chat.delete_swipe(swipe), None))
    return ChatOut.of(chat_id, chat)
