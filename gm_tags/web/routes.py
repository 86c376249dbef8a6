"""The play page's routes on the service app: `/` (the chats of the page's key), `/play/{chatId}`
(the page), `/static/...` (its script and styles), and what the page reads and does through the
API: `GET /games/{chatId}/view`, `GET /games/{chatId}/story` (the story read back, a page at a
time), `GET /games/{chatId}/events` (server-sent events: `changed`
whenever the chat's stored revision moves, whichever worker or proxy moved it; see `watch`),
`POST .../box` and `POST .../state`. Replies, regenerations, swipes and party saves use the
API's own operations.

`/` and `/play/{chatId}` are shells that hold no chat: with keys, a browser's navigation carries
none, so the page asks for its key, keeps it for the tab (sessionStorage) and reads everything
through the API with it."""

from __future__ import annotations

import html
from pathlib import Path
from typing import Annotated, Any

import anyio
from fastapi import APIRouter, Depends, FastAPI, Query, Request
from fastapi.responses import HTMLResponse
from starlette.staticfiles import StaticFiles

from ..service.depends import Tenant, tenant_chats
from ..service.models import BoxIn, EditOut, StateIn
from .story import STORY_PAGE, story_page
from .view import chat_view
from .watch import EventStream, Watcher

STATIC = Path(__file__).parent / "static"
# What a browser opens without a key (the page asks for it and sends it to the API): the chats
# page, and whatever is under these.
OPEN_PATHS = frozenset({"/"})
OPEN_PREFIXES = ("/static/", "/play/")

router = APIRouter()


def install_play_page(app: FastAPI, watcher: Watcher) -> None:
    """The play page's routes on `app`, its event streams told of changes by `watcher`."""
    app.state.watcher = watcher
    app.mount("/static", StaticFiles(directory=STATIC), name="static")
    app.include_router(router)


def _watcher(request: Request) -> Watcher:
    watcher: Watcher = request.app.state.watcher
    return watcher


@router.get("/", response_class=HTMLResponse, include_in_schema=False)
def chats_page() -> HTMLResponse:
    return HTMLResponse((STATIC / "index.html").read_text(encoding="utf-8"))


@router.get("/play/{chat_id}", response_class=HTMLResponse, include_in_schema=False)
def play_page(chat_id: str, request: Request) -> HTMLResponse:
    if request.state.tenant is not None:  # known without a key: 404 for no such chat
        tenant_chats(request).read(chat_id)
    page = (STATIC / "play.html").read_text(encoding="utf-8")
    return HTMLResponse(page.replace("{{chat}}", html.escape(chat_id, quote=True)))


@router.get("/games/{chat_id}/view")
def view(chat_id: str, chats: Tenant) -> dict[str, Any]:
    """What the play page shows of a chat (docs/play.md)."""
    chat, revision = chats.read_at(chat_id)
    return chat_view(chat_id, chat, revision)


@router.get("/games/{chat_id}/story")
def story(
    chat_id: str,
    chats: Tenant,
    before: int | None = Query(default=None, ge=0),
    limit: int = Query(default=STORY_PAGE, ge=1, le=200),
) -> dict[str, Any]:
    """The story read back a page at a time: the `limit` messages before message `before`
    (the newest when left out), and where the page before them ends (docs/play.md)."""
    return story_page(chats.read(chat_id), before, limit)


@router.get("/games/{chat_id}/events", include_in_schema=False)
async def events(
    chat_id: str, chats: Tenant, watcher: Annotated[Watcher, Depends(_watcher)]
) -> EventStream:
    start = await anyio.to_thread.run_sync(chats.revision, chat_id)
    return EventStream(watcher, chats.stored(chat_id), chats.tenant, start)


@router.post("/games/{chat_id}/box")
def set_box(chat_id: str, body: BoxIn, chats: Tenant) -> EditOut:
    """Mark or clear one wound box by hand (on an indexed track any clear box, WB-10); a
    refused one changes nothing and is answered 200 with its reason."""
    chat, edit = chats.step(
        chat_id, lambda chat: chat.set_box(body.who, body.track, body.box, body.kind)
    )
    return EditOut.of(chat, edit)


@router.post("/games/{chat_id}/state")
def set_state(chat_id: str, body: StateIn, chats: Tenant) -> EditOut:
    """Pick a live state's value (ST-9); a refused pick changes nothing."""
    chat, edit = chats.step(chat_id, lambda chat: chat.set_state(body.who, body.state, body.value))
    return EditOut.of(chat, edit)
