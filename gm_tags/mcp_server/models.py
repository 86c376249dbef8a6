"""What the MCP tools answer, as pydantic models: the SDK publishes each one's JSON Schema as the
tool's `outputSchema`, and sends a result both as structured content and as its JSON text.

Every result says which snapshot it was read from or left (`message`, `swipe`): `message` is the
index of a message in the chat, `None` for the game the chat started with."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, Field

from ..service.models import ReceiptOut


class Snapshot(BaseModel):
    """Where in a chat a result stands: the game message `message`'s swipe `swipe` left (both
    `None`: the game the chat started with)."""

    chat: str
    message: int | None = Field(description="index of the message; null: the chat's start")
    swipe: int | None = Field(description="index of that message's swipe; null at the start")


class ChatStarted(Snapshot):
    """A new chat, under the server's ruleset."""

    ruleset: str = Field(description="the ruleset's id")
    characters: list[str]
    game: dict[str, Any] = Field(description="the game document the chat starts from")


class TurnResult(Snapshot):
    """A reply applied: the reply with every tag rewritten as its receipt, the narration the
    players read (tags hidden), the receipts (a refused command is one with `result` refused
    and its `reason`) and the game document it left."""

    swipes: int = Field(description="how many swipes the message has now")
    reply: str
    narration: str
    receipts: list[ReceiptOut]
    refused: int = Field(description="how many of the receipts are refusals")
    game: dict[str, Any]


class CheckResult(Snapshot):
    """A check rolled on a snapshot; the chat is not changed. A check the sheet refuses (a skill
    the character cannot attempt untrained, a skill or character that does not exist, an unknown
    difficulty) is `refused` with the `reason` code and no roll."""

    refused: bool
    reason: str | None = None
    detail: str = ""
    tag: str | None = Field(default=None, description="the check written as its receipt")
    summary: str | None = Field(default=None, description="the roll in words")
    roll: dict[str, Any] | None = Field(
        default=None, description="the record: skill, dc, rolls, total, result and the parts"
    )


class SheetResult(Snapshot):
    """One character's sheet: the block the model reads, and the values a sheet screen shows."""

    who: str
    player: bool = Field(description="the player's own character (the default `who`)")
    block: str
    sheet: dict[str, Any]


class PromptResult(Snapshot):
    """What the model reads: the stable system section (its rules reference cut to `budget`
    tokens when one is given; `cut` says how many were left out), the per-turn reminder (the
    sheet blocks included), and the world set-up prompt."""

    system: str
    cut: int
    reminder: str
    world: str


class SwipeOut(BaseModel):
    swipe: int
    selected: bool
    text: str = Field(description="what the model wrote")
    reply: str
    narration: str
    receipts: list[ReceiptOut]


class SwipesResult(BaseModel):
    """The swipes of one message (the last reply when none is named; none when the chat has no
    reply), each with the reply it holds and its receipts."""

    chat: str
    message: int | None
    role: str | None
    selected: int | None
    swipes: list[SwipeOut]
