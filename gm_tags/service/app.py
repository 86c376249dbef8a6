"""The HTTP service: `create_app(db, rulesets)` is an ASGI app; `gm-tags serve` runs it.

Every refusal is answered with `{"code", "detail", "problems"}`; docs/service.md lists the codes.
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import AsyncIterator, Callable, Collection, Sequence
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Annotated, Any

from fastapi import FastAPI, Query, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.middleware.cors import CORSMiddleware
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from ..chats.served import ServedChats
from ..chats.tenancy import TenantChats
from ..errors import GameDocumentError, GmTagsError, Problem, RulesetError
from ..game import Game
from ..guard.http import Guard, Policy, host_names
from ..guard.keys import Keys
from ..history import Chat, HistoryError
from ..pipeline import Turn
from ..ruleset import Ruleset, load_ruleset
from ..ruleset.loader import MAX_FILE_BYTES
from ..settings import DEFAULT_DB, MAX_BODY_BYTES
from ..store import (
    ChatExistsError,
    StaleChatError,
    StoreBusyError,
    StoreCorruptError,
    StoreError,
    StoreReadOnlyError,
    UnknownChatError,
    open_store,
)
from ..web.routes import OPEN_PATHS, OPEN_PREFIXES, install_play_page
from ..web.watch import StreamLimits, TooManyStreams, Watcher
from .depends import Tenant
from .models import (
    MAX_GAME_BYTES,
    ChatOut,
    ChatsOut,
    EditOut,
    ErrorOut,
    GameIn,
    MessageOut,
    PartyOut,
    PartySaveIn,
    PromptOut,
    ReceiptOut,
    ReplyIn,
    RestIn,
    SkillCheckIn,
    SkillCheckOut,
    SwipeIn,
    TurnOut,
    UserIn,
    ValidOut,
)


class Refused(GmTagsError):
    """A refusal the service answers itself; `more` is added to the error body (the newer
    party sheet beside a stale save)."""

    def __init__(
        self,
        status: int,
        code: str,
        detail: str,
        problems: Sequence[Problem] = (),
        more: dict[str, Any] | None = None,
    ) -> None:
        super().__init__(detail)
        self.status, self.code, self.detail = status, code, detail
        self.problems, self.more = problems, more or {}


def _error(
    status: int,
    code: str,
    detail: str,
    problems: Sequence[Problem] = (),
    more: dict[str, Any] | None = None,
) -> JSONResponse:
    body = ErrorOut(
        code=code,
        detail=detail,
        problems=[{"path": p.path, "message": p.message} for p in problems],
    )
    return JSONResponse({**body.model_dump(), **(more or {})}, status_code=status)


# What a browser or a load balancer reads without a key: the health check and the API's docs.
SERVICE_OPEN_PATHS = frozenset(
    {"/health", "/docs", "/docs/oauth2-redirect", "/redoc", "/openapi.json"}
)

ERRORS: dict[int | str, dict[str, Any]] = {
    status: {"model": ErrorOut} for status in (400, 404, 409, 422)
}


def _turn_out(chat: Chat, turn: Turn[Game]) -> TurnOut:
    last = chat.messages[-1]
    return TurnOut(
        **turn.to_dict(),
        message=len(chat.messages) - 1,
        swipe=last.selected,
        swipes=len(last.swipes),
    )


def _chat_out(chat_id: str, chat: Chat) -> ChatOut:
    messages = [
        MessageOut(
            role=message.role,
            selected=message.selected,
            swipes=len(message.swipes),
            text=message.swipe.text,
            reply=message.swipe.reply,
            narration=message.swipe.narration,
            receipts=[ReceiptOut(**receipt) for receipt in message.swipe.receipts],
        )
        for message in chat.messages
    ]
    return ChatOut(chat_id=chat_id, game=chat.game.to_document(), messages=messages)


def create_app(
    db: str | Path = DEFAULT_DB,
    rulesets: Sequence[str | Path] = (),
    cors_origins: Sequence[str] = (),
    *,
    keys: Keys | None = None,
    allowed_hosts: Collection[str] = (),
    stream_limits: StreamLimits | None = None,
) -> FastAPI:
    """The service over the store at `db`; `rulesets` (files or package folders) can be named
    by id when creating a game; browsers on `cors_origins` may call it (none by default). With
    `keys`, every request needs one and sees only its tenant's chats. The Host header must be a
    loopback name or one of `allowed_hosts` (`*` for any). The store is closed when the app shuts
    down."""
    installed: dict[str, tuple[str, Ruleset]] = {}
    for path in rulesets:
        ruleset = load_ruleset(path)
        installed[ruleset.id] = (str(Path(path).resolve()), ruleset)
    served = ServedChats(lambda: open_store(db))
    served.open()  # now, so a file that is not a store is refused before anything is served

    @asynccontextmanager
    async def lifespan(_: FastAPI) -> AsyncIterator[None]:
        try:
            yield
        finally:
            served.close()

    app = FastAPI(
        title="gm-tags",
        summary="Apply the command tags a language-model Game Master writes, against a ruleset.",
        version="0.1.0",
        lifespan=lifespan,
    )

    app.state.chats = served
    policy = Policy(
        keys=keys,
        allowed_hosts=host_names(allowed_hosts),
        cors_origins=frozenset(cors_origins),
        open_paths=OPEN_PATHS | SERVICE_OPEN_PATHS,
        open_prefixes=OPEN_PREFIXES,
    )
    app.add_middleware(Guard, policy=policy, refuse=_error)
    if cors_origins:
        app.add_middleware(
            CORSMiddleware,
            allow_origins=list(cors_origins),
            allow_methods=["GET", "POST", "DELETE"],
            allow_headers=["Content-Type", "Authorization"],
        )
    app.add_middleware(BodyLimit, limit=MAX_BODY_BYTES)

    _install_error_handlers(app)
    watcher = Watcher(served.revisions, stream_limits or StreamLimits(), keyed=keys is not None)
    served.changed = watcher.changed
    install_play_page(app, watcher)

    @app.get("/health")
    def health() -> dict[str, str]:
        return {"status": "ok"}

    @app.post("/rulesets/validate", responses=ERRORS)
    def validate_ruleset(ruleset: dict[str, Any]) -> ValidOut:
        """Check a ruleset (the JSON of a ruleset file) completely: 422 with every problem."""
        _within("ruleset", ruleset, MAX_FILE_BYTES)
        checked = load_ruleset(ruleset)
        return ValidOut(ok=True, id=checked.id, name=checked.name)

    @app.post("/games", status_code=201, responses=ERRORS)
    def create_game(body: GameIn, chats: Tenant) -> ChatOut:
        """Start a chat: a game under a ruleset, from a game document or new."""
        if (body.ruleset is None) == (body.ruleset_id is None):
            raise Refused(400, "refused", "name a ruleset: either ruleset or rulesetId")
        if body.ruleset_id is not None:
            if body.ruleset_id not in installed:
                raise Refused(400, "ruleset_not_installed", f"no ruleset {body.ruleset_id!r}")
            path, ruleset = installed[body.ruleset_id]
            source: dict[str, object] = {"path": path}
        else:
            _within("ruleset", body.ruleset, MAX_FILE_BYTES)
            ruleset, source = load_ruleset(body.ruleset or {}), {"json": body.ruleset}
        _within("game", body.game, MAX_GAME_BYTES)
        start = Game.from_document(ruleset, body.game) if body.game else Game.new(ruleset)
        chat_id = chats.create(body.chat_id, source, start)
        return _chat_out(chat_id, chats.read(chat_id))

    @app.get("/games", responses=ERRORS)
    def list_games(chats: Tenant) -> ChatsOut:
        """The ids of every chat in the store, in order."""
        return ChatsOut(chats=chats.chat_ids())

    @app.get("/games/{chat_id}", responses=ERRORS)
    def read_game(chat_id: str, chats: Tenant) -> ChatOut:
        return _chat_out(chat_id, chats.read(chat_id))

    @app.delete("/games/{chat_id}", status_code=204, responses=ERRORS)
    def delete_game(chat_id: str, chats: Tenant) -> None:
        chats.delete(chat_id)

    def replying(
        chats: TenantChats, chat_id: str, take: Callable[[Chat], tuple[Chat, Turn[Game]]]
    ) -> TurnOut:
        chat, turn = chats.step(chat_id, take)
        return _turn_out(chat, turn)

    @app.post("/games/{chat_id}/replies", responses=ERRORS)
    def post_reply(chat_id: str, body: ReplyIn, chats: Tenant) -> TurnOut:
        """Apply a model reply to the current snapshot: the rewritten reply, the narration, the
        receipts and the snapshot it left."""
        return replying(chats, chat_id, lambda chat: chat.reply(body.text, seed=body.seed))

    @app.post("/games/{chat_id}/regenerate", responses=ERRORS)
    def regenerate(chat_id: str, body: ReplyIn, chats: Tenant) -> TurnOut:
        """A new swipe of the last reply, applied to the snapshot from before it."""
        return replying(chats, chat_id, lambda chat: chat.regenerate(body.text, seed=body.seed))

    @app.post("/games/{chat_id}/continue", responses=ERRORS)
    def continue_reply(chat_id: str, body: ReplyIn, chats: Tenant) -> TurnOut:
        """More of the last reply, applied to the snapshot it left."""
        return replying(chats, chat_id, lambda chat: chat.continue_reply(body.text, seed=body.seed))

    @app.post("/games/{chat_id}/user", responses=ERRORS)
    def post_user(chat_id: str, body: UserIn, chats: Tenant) -> ChatOut:
        """A player's message: kept in the history, it changes no state."""
        chat, _ = chats.step(chat_id, lambda chat: (chat.user(body.text), None))
        return _chat_out(chat_id, chat)

    @app.post("/games/{chat_id}/swipe", responses=ERRORS)
    def select_swipe(chat_id: str, body: SwipeIn, chats: Tenant) -> ChatOut:
        """Choose a swipe of the last reply; its snapshot becomes the current one."""
        chat, _ = chats.step(chat_id, lambda chat: (chat.select(body.swipe), None))
        return _chat_out(chat_id, chat)

    @app.delete("/games/{chat_id}/messages/last", responses=ERRORS)
    def delete_last(chat_id: str, chats: Tenant) -> ChatOut:
        chat, _ = chats.step(chat_id, lambda chat: (chat.delete_last(), None))
        return _chat_out(chat_id, chat)

    @app.delete("/games/{chat_id}/swipes/{swipe}", responses=ERRORS)
    def delete_swipe(chat_id: str, swipe: int, chats: Tenant) -> ChatOut:
        chat, _ = chats.step(chat_id, lambda chat: (chat.delete_swipe(swipe), None))
        return _chat_out(chat_id, chat)

    @app.get("/games/{chat_id}/prompt", responses=ERRORS)
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

    @app.post("/games/{chat_id}/rest", responses=ERRORS)
    def rest(chat_id: str, body: RestIn, chats: Tenant) -> EditOut:
        """Take a rest outside a reply (`who="party"` for everyone); a refused rest changes
        nothing and is answered 200 with its reason, as its receipt would say."""
        chat, edit = chats.step(chat_id, lambda chat: chat.rest(body.rest, body.who))
        return EditOut.of(chat, edit)

    @app.post("/games/{chat_id}/party-sheet", responses=ERRORS)
    def save_party_sheet(chat_id: str, body: PartySaveIn, chats: Tenant) -> PartyOut:
        """Save a draft of the shared sheet opened at `revision`. A stale save is answered 409
        with the newer sheet and the draft kept."""
        chat, saved = chats.step(
            chat_id, lambda chat: chat.save_party_sheet(body.draft, body.revision)
        )
        answer = PartyOut(
            saved=saved.saved,
            sheet=saved.sheet,
            revision=chat.game.party_revision,
            draft=saved.draft,
        )
        if saved.problems:
            raise Refused(
                422, "party_sheet_invalid", "the draft does not fit", problems=saved.problems
            )
        if not saved.saved:
            raise Refused(
                409, "party_sheet_stale", "opened at an older revision", more=answer.model_dump()
            )
        return answer

    @app.post("/game/skill-check", responses=ERRORS)
    def skill_check(body: SkillCheckIn, chats: Tenant) -> SkillCheckOut:
        """Roll a check for a character of a chat as the sheet stands now, as the Engine's
        endpoint does. The game is not changed."""
        if body.pre_rolled_d20 is not None:
            raise Refused(400, "refused", "gm-tags rolls its own dice; send no preRolledD20")
        # Both together cancel into a normal roll, as neither does.
        mode = None
        if body.advantage != body.disadvantage:
            mode = "advantage" if body.advantage else "disadvantage"
        game = chats.read(body.chat_id).game
        record = game.check(
            body.who, body.skill, dc=body.dc, difficulty=body.difficulty, mode=mode, seed=body.seed
        )
        # The record's fields under the names its tag uses, the unset ones left out.
        fields = dataclasses.asdict(record)
        fields["with"] = fields.pop("with_")
        result = {key: value for key, value in fields.items() if value is not None}
        result.update(tag=record.tag, summary=record.summary)
        return SkillCheckOut(result=result)

    return app


def _within(what: str, value: object, limit: int) -> None:
    """Refuse (413, `{what}_too_large`) a JSON value over `limit` bytes."""
    if value is None:
        return
    size = len(json.dumps(value, ensure_ascii=False).encode("utf-8"))
    if size > limit:
        raise Refused(413, f"{what}_too_large", f"the {what} is {size} bytes; at most {limit}")


class BodyLimit:
    """Refuse a request body over `limit` bytes with 413 `request_too_large`, counting as it
    arrives (a body without a Content-Length is counted too) and reading no more of it."""

    def __init__(self, app: ASGIApp, limit: int) -> None:
        self.app, self.limit = app, limit

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        declared = dict(scope.get("headers") or []).get(b"content-length")
        if declared is not None and declared.isdigit() and int(declared) > self.limit:
            await self._refuse(scope, receive, send)
            return
        seen, over = 0, False

        async def counted() -> Message:
            # Past the limit the body is cut short here, and the answer below is the refusal.
            nonlocal seen, over
            if over:
                return {"type": "http.request", "body": b"", "more_body": False}
            message = await receive()
            seen += len(message.get("body", b""))
            if seen > self.limit:
                over = True
                return {"type": "http.request", "body": b"", "more_body": False}
            return message

        async def unless_over(message: Message) -> None:
            if not over:
                await send(message)

        await self.app(scope, counted, unless_over)
        if over:
            await self._refuse(scope, receive, send)

    async def _refuse(self, scope: Scope, receive: Receive, send: Send) -> None:
        detail = f"the request body is over {self.limit} bytes"
        await _error(413, "request_too_large", detail)(scope, receive, send)


def _install_error_handlers(app: FastAPI) -> None:
    @app.exception_handler(StarletteHTTPException)
    def http_error(_: Request, error: StarletteHTTPException) -> JSONResponse:
        # A body that is not JSON, a path or method the service does not have.
        response = _error(error.status_code, f"http_{error.status_code}", str(error.detail))
        for name, value in (error.headers or {}).items():
            response.headers[name] = value
        return response

    @app.exception_handler(RequestValidationError)
    def request_invalid(_: Request, error: RequestValidationError) -> JSONResponse:
        problems = [
            Problem(".".join(str(part) for part in item["loc"]), item["msg"])
            for item in error.errors()
        ]
        return _error(422, "request_invalid", "the request does not fit this operation", problems)

    @app.exception_handler(Refused)
    def refused(_: Request, error: Refused) -> JSONResponse:
        return _error(error.status, error.code, error.detail, error.problems, error.more)

    @app.exception_handler(RulesetError)
    def ruleset_invalid(_: Request, error: RulesetError) -> JSONResponse:
        return _error(422, "ruleset_invalid", "the ruleset was refused", error.problems)

    @app.exception_handler(GameDocumentError)
    def game_invalid(_: Request, error: GameDocumentError) -> JSONResponse:
        return _error(422, "game_invalid", "the game document was refused", error.problems)

    @app.exception_handler(StoreError)
    def store_error(_: Request, error: StoreError) -> JSONResponse:
        # Nothing was changed; a busy store is worth trying again soon.
        if isinstance(error, StoreBusyError):
            response = _error(503, "store_busy", str(error))
            response.headers["Retry-After"] = "1"
            return response
        if isinstance(error, StoreReadOnlyError):
            return _error(503, "store_read_only", str(error))
        if isinstance(error, StoreCorruptError):
            return _error(500, "store_damaged", str(error))
        return _error(500, "store_unusable", str(error))

    @app.exception_handler(UnknownChatError)
    def not_found(_: Request, error: UnknownChatError) -> JSONResponse:
        return _error(404, "chat_not_found", str(error))

    @app.exception_handler(ChatExistsError)
    def exists(_: Request, error: ChatExistsError) -> JSONResponse:
        return _error(409, "chat_exists", str(error))

    @app.exception_handler(StaleChatError)
    def stale(_: Request, error: StaleChatError) -> JSONResponse:
        # Other workers kept changing the chat while this step was taken again and again.
        response = _error(409, "chat_conflict", str(error))
        response.headers["Retry-After"] = "1"
        return response

    @app.exception_handler(TooManyStreams)
    def too_many_streams(_: Request, error: TooManyStreams) -> JSONResponse:
        response = _error(429, "too_many_streams", str(error))
        response.headers["Retry-After"] = "30"
        return response

    @app.exception_handler(HistoryError)
    def history(_: Request, error: HistoryError) -> JSONResponse:
        return _error(409, "history_conflict", str(error))

    @app.exception_handler(GmTagsError)
    def other(_: Request, error: GmTagsError) -> JSONResponse:
        # A refusal with its own code (skill_check_untrained, unknown_difficulty) keeps it.
        return _error(400, getattr(error, "code", "refused"), str(error))
