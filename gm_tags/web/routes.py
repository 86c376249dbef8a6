"""The play page's routes on the service app: `/` (the chats in the store), `/play/{chatId}` (the
page), `/static/...` (its script and styles), and what the page reads and does through the API:
`GET /games/{chatId}/view`, `GET /games/{chatId}/events` (server-sent events: `changed` whenever
the chat's stored revision moves, whichever worker or proxy moved it), `POST .../box` and
`POST .../state`. Replies, regenerations, swipes and party saves use the API's own operations."""

from __future__ import annotations

import asyncio
import html
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any
from urllib.parse import quote

import anyio
from fastapi import FastAPI, Request
from fastapi.responses import HTMLResponse, StreamingResponse
from starlette.staticfiles import StaticFiles

from ..service.chats import ServedChats
from ..service.models import BoxIn, EditOut, StateIn
from .view import chat_view

STATIC = Path(__file__).parent / "static"
# How often an open page's event stream looks at the chat's stored revision, in seconds.
WATCH_EVERY = 0.5
HEARTBEAT_EVERY = 15.0


def install_play_page(app: FastAPI, served: ServedChats) -> None:
    app.mount("/static", StaticFiles(directory=STATIC), name="static")

    @app.get("/", response_class=HTMLResponse, include_in_schema=False)
    def chats_page() -> HTMLResponse:
        links = "\n".join(
            f'<li><a href="/play/{quote(chat_id)}">{html.escape(chat_id)}</a></li>'
            for chat_id in served.chat_ids()
        )
        body = (STATIC / "index.html").read_text(encoding="utf-8")
        return HTMLResponse(body.replace("<!--chats-->", links or "<li>No chats yet.</li>"))

    @app.get("/play/{chat_id}", response_class=HTMLResponse, include_in_schema=False)
    def play_page(chat_id: str) -> HTMLResponse:
        served.read(chat_id)  # 404 for a chat that does not exist
        page = (STATIC / "play.html").read_text(encoding="utf-8")
        return HTMLResponse(page.replace("{{chat}}", html.escape(chat_id, quote=True)))

    @app.get("/games/{chat_id}/view")
    def view(chat_id: str) -> dict[str, Any]:
        """What the play page shows of a chat (docs/play.md)."""
        chat, revision = served.read_at(chat_id)
        return chat_view(chat_id, chat, revision)

    @app.get("/games/{chat_id}/events", include_in_schema=False)
    async def events(chat_id: str, request: Request) -> StreamingResponse:
        start = await anyio.to_thread.run_sync(served.revision, chat_id)
        return StreamingResponse(
            _changes(served, chat_id, start, request),
            media_type="text/event-stream",
            headers={"cache-control": "no-cache"},
        )

    @app.post("/games/{chat_id}/box")
    def set_box(chat_id: str, body: BoxIn) -> EditOut:
        """Mark or clear one wound box by hand (on an indexed track any clear box, WB-10); a
        refused one changes nothing and is answered 200 with its reason."""
        chat, edit = served.step(
            chat_id, lambda chat: chat.set_box(body.who, body.track, body.box, body.kind)
        )
        return EditOut.of(chat, edit)

    @app.post("/games/{chat_id}/state")
    def set_state(chat_id: str, body: StateIn) -> EditOut:
        """Pick a live state's value (ST-9); a refused pick changes nothing."""
        chat, edit = served.step(
            chat_id, lambda chat: chat.set_state(body.who, body.state, body.value)
        )
        return EditOut.of(chat, edit)


async def _changes(
    served: ServedChats, chat_id: str, seen: int, request: Request
) -> AsyncIterator[str]:
    yield f"event: ready\ndata: {seen}\n\n"
    quiet = 0.0
    while not await request.is_disconnected():
        await asyncio.sleep(WATCH_EVERY)
        try:
            now = await anyio.to_thread.run_sync(served.revision, chat_id)
        except Exception:  # the chat was deleted, or the store went away: end the stream
            return
        if now != seen:
            seen, quiet = now, 0.0
            yield f"event: changed\ndata: {now}\n\n"
        else:
            quiet += WATCH_EVERY
            if quiet >= HEARTBEAT_EVERY:
                quiet = 0.0
                yield ": still here\n\n"
