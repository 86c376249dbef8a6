"""How the service says what went wrong: every refusal is `{"code", "detail", "problems"}` with
its status (docs/service.md lists the codes), answered by three handlers: one for the errors of
gm-tags (by a table from the error's class to its status and code), one for a request that does
not fit an operation, one for what Starlette refuses itself (a path or method there is none of).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from starlette.exceptions import HTTPException as StarletteHTTPException

from ..errors import GameDocumentError, GmTagsError, Problem, RulesetError
from ..history import HistoryError
from ..store import (
    ChatExistsError,
    StaleChatError,
    StoreBusyError,
    StoreCorruptError,
    StoreError,
    StoreReadOnlyError,
    UnknownChatError,
)
from ..web.watch import TooManyStreams
from .models import ErrorOut

# The refusals every operation may answer, for the API's description.
ERRORS: dict[int | str, dict[str, Any]] = {
    status: {"model": ErrorOut} for status in (400, 404, 409, 422)
}


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


@dataclass(frozen=True)
class Answer:
    """How an error class is answered: its status and code, a detail of its own (else the
    error's message), and how soon it is worth trying again."""

    status: int
    code: str
    detail: str | None = None
    retry_after: str | None = None


# Each error class the service answers, the more particular first. Nothing was changed by any
# of them; a busy store or a chat other workers kept changing is worth trying again soon.
ANSWERS: tuple[tuple[type[GmTagsError], Answer], ...] = (
    (RulesetError, Answer(422, "ruleset_invalid", "the ruleset was refused")),
    (GameDocumentError, Answer(422, "game_invalid", "the game document was refused")),
    (StoreBusyError, Answer(503, "store_busy", retry_after="1")),
    (StoreReadOnlyError, Answer(503, "store_read_only")),
    (StoreCorruptError, Answer(500, "store_damaged")),
    (StoreError, Answer(500, "store_unusable")),
    (UnknownChatError, Answer(404, "chat_not_found")),
    (ChatExistsError, Answer(409, "chat_exists")),
    (StaleChatError, Answer(409, "chat_conflict", retry_after="1")),
    (TooManyStreams, Answer(429, "too_many_streams", retry_after="30")),
    (HistoryError, Answer(409, "history_conflict")),
)


def error_response(
    status: int,
    code: str,
    detail: str,
    problems: Sequence[Problem] = (),
    more: dict[str, Any] | None = None,
) -> JSONResponse:
    body = ErrorOut(
        code=code,
        detail=detail,
        problems=[{"path": p.path, "message": p.message, "file": p.file} for p in problems],
    )
    dumped = body.model_dump()
    # A problem in the ruleset file itself names no file: its answer stays as it always was.
    dumped["problems"] = [
        {key: value for key, value in problem.items() if key != "file" or value is not None}
        for problem in dumped["problems"]
    ]
    return JSONResponse({**dumped, **(more or {})}, status_code=status)


def install_error_handlers(app: FastAPI) -> None:
    app.exception_handler(GmTagsError)(refusal)
    app.exception_handler(RequestValidationError)(request_invalid)
    app.exception_handler(StarletteHTTPException)(http_error)


def refusal(_: Request, error: GmTagsError) -> JSONResponse:
    """An error of gm-tags, as `ANSWERS` says; one not listed is a 400 under its own code
    (skill_check_untrained, skill_check_difficulty_unknown), else `refused`."""
    if isinstance(error, Refused):
        return error_response(error.status, error.code, error.detail, error.problems, error.more)
    answer = next(
        (answer for kind, answer in ANSWERS if isinstance(error, kind)),
        Answer(400, getattr(error, "code", "refused")),
    )
    problems = error.problems if isinstance(error, (RulesetError, GameDocumentError)) else ()
    response = error_response(answer.status, answer.code, answer.detail or str(error), problems)
    if answer.retry_after is not None:
        response.headers["Retry-After"] = answer.retry_after
    return response


def request_invalid(_: Request, error: RequestValidationError) -> JSONResponse:
    problems = [
        Problem(".".join(str(part) for part in item["loc"]), item["msg"]) for item in error.errors()
    ]
    return error_response(
        422, "request_invalid", "the request does not fit this operation", problems
    )


def http_error(_: Request, error: StarletteHTTPException) -> JSONResponse:
    # A body that is not JSON, a path or method the service does not have.
    response = error_response(error.status_code, f"http_{error.status_code}", str(error.detail))
    for name, value in (error.headers or {}).items():
        response.headers[name] = value
    return response
