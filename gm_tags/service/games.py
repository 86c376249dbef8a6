"""The games resource: a chat started, listed, read, deleted, and what its model reads now."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Query

from ..game import Game
from ..ruleset import load_ruleset
from ..ruleset.loader import MAX_FILE_BYTES
from .depends import Installed, Tenant
from .errors import ERRORS, Refused
from .limits import within
from .models import MAX_GAME_BYTES, ChatOut, ChatsOut, GameIn, PromptOut, TitleIn, TitleOut

router = APIRouter(prefix="/games", responses=ERRORS)


@router.post("", status_code=201)
def create_game(body: GameIn, chats: Tenant, installed: Installed) -> ChatOut:
    """Start a chat: a game under a ruleset, from a game document or new."""
    if (body.ruleset is None) == (body.ruleset_id is None):
        raise Refused(400, "refused", "name a ruleset: either ruleset or rulesetId")
    if body.ruleset_id is not None:
        if body.ruleset_id not in installed:
            raise Refused(400, "ruleset_not_installed", f"no ruleset {body.ruleset_id!r}")
        path, ruleset = installed[body.ruleset_id]
        source: dict[str, object] = {"path": path}
    else:
        within("ruleset", body.ruleset, MAX_FILE_BYTES)
        ruleset, source = load_ruleset(body.ruleset or {}), {"json": body.ruleset}
    within("game", body.game, MAX_GAME_BYTES)
    start = Game.from_document(ruleset, body.game) if body.game else Game.new(ruleset)
    chat_id = chats.create(body.chat_id, source, start, body.title)
    return ChatOut.of(chat_id, chats.read(chat_id))


@router.get("")
def list_games(chats: Tenant) -> ChatsOut:
    """The ids of every chat in the store, in order, and each one's readable name."""
    titles = chats.titles()
    return ChatsOut(chats=list(titles), titles=titles)


@router.put("/{chat_id}/title")
def set_title(chat_id: str, body: TitleIn, chats: Tenant) -> TitleOut:
    """Give a chat a new readable name ("" takes it away); its id and history stay."""
    chats.set_title(chat_id, body.title)
    return TitleOut(chat_id=chat_id, title=body.title)


@router.get("/{chat_id}")
def read_game(chat_id: str, chats: Tenant) -> ChatOut:
    return ChatOut.of(chat_id, chats.read(chat_id))


@router.delete("/{chat_id}", status_code=204)
def delete_game(chat_id: str, chats: Tenant) -> None:
    chats.delete(chat_id)


@router.get("/{chat_id}/prompt")
def prompt(
    chat_id: str, chats: Tenant, budget: Annotated[int | None, Query(ge=0)] = None
) -> PromptOut:
    """What the model reads now: the system section (cut to `budget` tokens when given),
    the per-turn reminder and the world set-up prompt."""
    game = chats.read(chat_id).game
    system = game.system_prompt(budget=budget)
    return PromptOut(
        system=system.text, cut=system.cut, reminder=game.reminder(), world=game.world_prompt()
    )
