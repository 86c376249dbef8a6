"""What the HTTP service reads and answers, as pydantic models: they are its OpenAPI document."""

from __future__ import annotations

from typing import Annotated, Any

from pydantic import AfterValidator, BaseModel, ConfigDict, Field

from ..game import Game, SheetEdit
from ..history import Chat, chat_id_problem, chat_title_problem
from ..pipeline import Turn

# Bounds on what a request may carry, so no request can make the service hold unbounded text
# (docs/service.md lists them; the body's bound is settings.MAX_BODY_BYTES, the proxy's too).
MAX_REPLY = 256_000
MAX_NAME = 200
MAX_GAME_BYTES = 512 * 1024
Seed = (
    Annotated[int, Field(ge=-(2**63), lt=2**63)] | Annotated[str, Field(max_length=MAX_NAME)] | None
)


def _chat_id(chat_id: str) -> str:
    problem = chat_id_problem(chat_id)
    if problem:
        raise ValueError(problem)
    return chat_id


ChatId = Annotated[str, AfterValidator(_chat_id)]


def _chat_title(title: str) -> str:
    problem = chat_title_problem(title)
    if problem:
        raise ValueError(problem)
    return title


ChatTitle = Annotated[str, AfterValidator(_chat_title)]


class Strict(BaseModel):
    model_config = ConfigDict(extra="forbid")


class ProblemOut(BaseModel):
    """One thing wrong at a JSON path; `file` names the package file it is in (a catalog asset
    of an installed ruleset package), and is left out for the ruleset file itself."""

    path: str
    message: str
    file: str | None = None


class ErrorOut(BaseModel):
    """Every refusal: a stable `code` a pipeline can branch on, and words for a person."""

    code: str
    detail: str
    problems: list[ProblemOut] = []


class ValidOut(BaseModel):
    ok: bool
    id: str
    name: str


class GameIn(Strict):
    """A new game: its ruleset (inline JSON, or the id of one the server was started with) and
    the game document it starts from (a new game when absent)."""

    chat_id: ChatId | None = Field(default=None, alias="chatId")
    ruleset: dict[str, Any] | None = None
    ruleset_id: str | None = Field(default=None, alias="rulesetId", max_length=MAX_NAME)
    game: dict[str, Any] | None = None
    # A readable name shown beside the id (chats page, `gm-tags chats`); changed with PUT .../title.
    title: ChatTitle = ""


class ReplyIn(Strict):
    text: str = Field(max_length=MAX_REPLY)
    seed: Seed = None


class UserIn(Strict):
    text: str = Field(max_length=MAX_REPLY)


class SwipeIn(Strict):
    swipe: int = Field(ge=0, le=10_000)


class RestIn(Strict):
    rest: str = Field(min_length=1, max_length=MAX_NAME)
    who: str | None = Field(default=None, max_length=MAX_NAME)


class BoxIn(Strict):
    """A wound box marked (`kind`) or cleared (`kind` null) by hand on the sheet screen."""

    who: str | None = Field(default=None, max_length=MAX_NAME)
    track: str = Field(min_length=1, max_length=MAX_NAME)
    box: int = Field(ge=1, le=1000)
    kind: str | None = Field(default=None, max_length=MAX_NAME)


class StateIn(Strict):
    """A live state picked on the sheet screen."""

    who: str | None = Field(default=None, max_length=MAX_NAME)
    state: str = Field(min_length=1, max_length=MAX_NAME)
    value: str = Field(min_length=1, max_length=MAX_NAME)


class PartySaveIn(Strict):
    draft: dict[str, Any]
    revision: int = Field(ge=0)


class SkillCheckIn(BaseModel):
    """The Engine's `POST /game/skill-check` body, with gm-tags' own `who`, `difficulty` and
    `seed`. `messageId` is accepted and not used: the check is rolled against the chat's current
    snapshot and no stored message is rewritten, so no `updatedContent` comes back."""

    model_config = ConfigDict(extra="forbid", populate_by_name=True)

    chat_id: str = Field(alias="chatId", min_length=1, max_length=MAX_NAME)
    skill: str = Field(min_length=1, max_length=MAX_NAME)
    dc: int | None = Field(default=None, ge=1, le=40)
    difficulty: str | None = Field(default=None, max_length=MAX_NAME)
    who: str | None = Field(default=None, max_length=MAX_NAME)
    advantage: bool = False
    disadvantage: bool = False
    pre_rolled_d20: int | None = Field(default=None, alias="preRolledD20", ge=1, le=20)
    message_id: str | None = Field(default=None, alias="messageId", max_length=MAX_NAME)
    seed: Seed = None


class SkillCheckOut(BaseModel):
    result: dict[str, Any]


class ReceiptOut(BaseModel):
    family: str
    tag: str
    request: dict[str, Any]
    result: str
    now: str | None
    reason: str | None
    detail: str
    span: list[int]
    written: str


class TurnOut(BaseModel):
    reply: str
    narration: str
    receipts: list[ReceiptOut]
    game: dict[str, Any]
    message: int
    swipe: int
    swipes: int

    @classmethod
    def of(cls, chat: Chat, turn: Turn[Game]) -> TurnOut:
        """A reply's turn, and where it stands in the chat after it (message and swipe)."""
        last = chat.messages[-1]
        return cls(
            **turn.to_dict(),
            message=len(chat.messages) - 1,
            swipe=last.selected,
            swipes=len(last.swipes),
        )


class MessageOut(BaseModel):
    """One message as its chosen swipe stands: what the model wrote (`text`), the reply with
    every tag rewritten as its receipt (`reply`), what the players read, and the receipts."""

    role: str
    selected: int
    swipes: int
    text: str
    reply: str
    narration: str
    receipts: list[ReceiptOut]


class ChatOut(BaseModel):
    chat_id: str = Field(serialization_alias="chatId")
    game: dict[str, Any]
    messages: list[MessageOut]

    @classmethod
    def of(cls, chat_id: str, chat: Chat) -> ChatOut:
        """A chat as it stands: each message by its chosen swipe, and the current game."""
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
        return cls(chat_id=chat_id, game=chat.game.to_document(), messages=messages)


class ChatsOut(BaseModel):
    """The chats in the store, by id, and each one's readable name ("" for none)."""

    chats: list[str]
    titles: dict[str, str]


class TitleIn(Strict):
    title: ChatTitle


class TitleOut(BaseModel):
    model_config = ConfigDict(populate_by_name=True)

    chat_id: str = Field(alias="chatId")
    title: str


class EditOut(BaseModel):
    ok: bool
    now: str | None
    reason: str | None
    detail: str
    game: dict[str, Any]

    @classmethod
    def of(cls, chat: Chat, edit: SheetEdit) -> EditOut:
        """An edit made outside a reply, and the game the chat holds after it."""
        return cls(
            ok=edit.ok,
            now=edit.now,
            reason=None if edit.reason is None else str(edit.reason),
            detail=edit.detail,
            game=chat.game.to_document(),
        )


class PartyOut(BaseModel):
    saved: bool
    sheet: dict[str, Any]
    revision: int
    draft: dict[str, Any]


class PromptOut(BaseModel):
    system: str
    cut: int
    reminder: str
    world: str
