"""The MCP tools: each public method of `GameTools` is one tool, its parameters the tool's
arguments (their JSON Schema is the tool's `inputSchema`) and its return model the tool's
`outputSchema`. docs/mcp.md lists them.

A tool reaches chats through the same code as the HTTP service: the served chats (each step
written to the store before it is answered, one step of a chat at a time), seen through the
tenant of the request's key (gm_tags.chats.tenancy). A refused command is an answer like any
other, with its receipt; a call whose chat, message, swipe or character does not exist, or that
the history cannot take (regenerating a message that is not the last reply), is answered as a
tool error (`isError`) saying why, and changes nothing.
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Annotated, Any, Literal

from mcp.server.mcpserver import Context
from mcp.server.mcpserver.exceptions import ToolError
from pydantic import Field

from ..chats.served import ServedChats
from ..chats.tenancy import TenantChats
from ..checks.record import CheckRecord
from ..errors import GmTagsError
from ..game import CheckNamesNothingError, CheckRefused, Game, UnknownDifficultyError
from ..history import Chat, HistoryError
from ..pipeline import Turn
from ..reasons import Reason
from ..ruleset import Ruleset
from ..service.models import MAX_GAME_BYTES, MAX_NAME, MAX_REPLY, ReceiptOut, Seed
from ..store import ChatExistsError
from ..tenants import DEFAULT_TENANT
from ..web.view import character_view
from .models import (
    ChatStarted,
    CheckResult,
    PromptResult,
    SheetResult,
    SwipesResult,
    TurnResult,
)
from .snapshots import pick, swipes_of

ChatArg = Annotated[str, Field(min_length=1, max_length=MAX_NAME, description="the chat's id")]
MessageArg = Annotated[
    int | None,
    Field(
        ge=0,
        description="the index of a message in the chat: the snapshot its swipe left (default: "
        "the current snapshot)",
    ),
]
SwipeArg = Annotated[
    int | None,
    Field(ge=0, description="the index of a swipe of that message (default: its chosen swipe)"),
]
WhoArg = Annotated[
    str | None,
    Field(max_length=MAX_NAME, description="a character's name (default: the player's)"),
]
SeedArg = Annotated[Seed, Field(description="makes the dice exact (tests, replays)")]


class GameTools:
    """The tools over the chats of one store; new chats play `ruleset` (kept as `source`)."""

    def __init__(self, served: ServedChats, ruleset: Ruleset, source: dict[str, object]) -> None:
        self.served, self.ruleset, self.source = served, ruleset, source

    def start_chat(
        self,
        ctx: Context,
        chat: Annotated[
            str | None,
            Field(max_length=MAX_NAME, description="the new chat's id (default: a made-up one)"),
        ] = None,
        game: Annotated[
            dict[str, Any] | None,
            Field(description="the game document to start from (default: a new game)"),
        ] = None,
    ) -> ChatStarted:
        """Start a chat under the server's ruleset, from a game document or a new game."""
        with _told():
            if game is not None and len(json.dumps(game).encode()) > MAX_GAME_BYTES:
                raise GmTagsError(f"the game document is over {MAX_GAME_BYTES} bytes")
            start = Game.from_document(self.ruleset, game) if game else Game.new(self.ruleset)
            try:
                chat_id = self._chats(ctx).create(chat, self.source, start)
            except ChatExistsError:
                # Said by the id the client knows, not the one the tenant's chat is stored as.
                raise GmTagsError(f"a chat {chat!r} exists already") from None
            return ChatStarted(
                chat=chat_id,
                message=None,
                swipe=None,
                ruleset=self.ruleset.id,
                characters=[character.name for character in start.characters],
                game=start.to_document(),
            )

    def apply_reply(
        self,
        ctx: Context,
        chat: ChatArg,
        reply: Annotated[
            str, Field(max_length=MAX_REPLY, description="the model's reply, command tags and all")
        ],
        message: Annotated[
            int | None,
            Field(
                ge=0,
                description="regenerate this message (the chat's last, a reply): the reply "
                "becomes a new swipe of it, applied to the snapshot before it (default: a new "
                "message after the last, applied to the current snapshot)",
            ),
        ] = None,
        seed: SeedArg = None,
    ) -> TurnResult:
        """Apply a model reply: run its command tags in order and keep the turn in the chat. The
        answer holds the rewritten reply, the narration the players read, each command's
        receipt (refused ones with their reason) and the game it left."""

        def take(before: Chat) -> tuple[Chat, Turn[Game]]:
            if message is None:
                return before.reply(reply, seed=seed)
            last = len(before.messages) - 1
            if message != last:
                raise HistoryError(f"only the last message ({last}) can be regenerated")
            return before.regenerate(reply, seed=seed)

        with _told():
            after, turn = self._chats(ctx).step(chat, take)
        last = after.messages[-1]
        receipts = [ReceiptOut(**receipt.to_dict()) for receipt in turn.receipts]
        return TurnResult(
            chat=chat,
            message=len(after.messages) - 1,
            swipe=last.selected,
            swipes=len(last.swipes),
            reply=turn.reply,
            narration=turn.narration,
            receipts=receipts,
            refused=sum(receipt.reason is not None for receipt in receipts),
            game=turn.game.to_document(),
        )

    def select_swipe(
        self,
        ctx: Context,
        chat: ChatArg,
        swipe: Annotated[int, Field(ge=0, description="the swipe of the last reply to choose")],
    ) -> SwipesResult:
        """Choose a swipe of the chat's last reply: the game it left becomes the current one."""
        with _told():
            after, _ = self._chats(ctx).step(chat, lambda before: (before.select(swipe), None))
            return swipes_of(chat, after, None)

    def list_swipes(
        self,
        ctx: Context,
        chat: ChatArg,
        message: Annotated[
            int | None, Field(ge=0, description="the message's index (default: the last reply)")
        ] = None,
    ) -> SwipesResult:
        """The swipes of one message, each with what the model wrote, the rewritten reply, the
        narration and the receipts, and which one is chosen."""
        with _told():
            return swipes_of(chat, self._chats(ctx).read(chat), message)

    def roll_check(
        self,
        ctx: Context,
        chat: ChatArg,
        skill: Annotated[
            str,
            Field(min_length=1, max_length=MAX_NAME, description="a skill, save or ability"),
        ],
        who: WhoArg = None,
        dc: Annotated[
            int | None,
            Field(ge=1, le=40, description="the number to reach (successes, on a dice pool)"),
        ] = None,
        difficulty: Annotated[
            str | None, Field(max_length=MAX_NAME, description="a step of the ruleset's ladder")
        ] = None,
        mode: Annotated[
            Literal["normal", "advantage", "disadvantage"] | None,
            Field(description="on a dice sum with advantage: roll twice, keep the better or worse"),
        ] = None,
        bonus: Annotated[
            int | None,
            Field(
                ge=-100,
                le=100,
                description="extra dice on a dice-pool ruleset, held to its range",
            ),
        ] = None,
        seed: SeedArg = None,
        message: MessageArg = None,
        swipe: SwipeArg = None,
    ) -> CheckResult:
        """Roll a check for a character as the sheet stands at a snapshot, without changing the
        chat. Give a dc or a difficulty. A check the sheet refuses comes back `refused`."""
        with _told():
            picked = pick(self._chats(ctx).read(chat), message, swipe)
            where = {"chat": chat, "message": picked.message, "swipe": picked.swipe}
            try:
                record = picked.game.check(
                    who, skill, dc=dc, difficulty=difficulty, mode=mode, bonus=bonus, seed=seed
                )
            except CheckRefused as refused:
                return CheckResult(
                    **where, refused=True, reason=Reason.UNTRAINED, detail=str(refused)
                )
            except (CheckNamesNothingError, UnknownDifficultyError) as refused:
                reason = refused.code.replace("_", "-")  # the receipt's kebab-case reason
                return CheckResult(**where, refused=True, reason=reason, detail=str(refused))
            return CheckResult(
                **where, refused=False, tag=record.tag, summary=record.summary, roll=_roll(record)
            )

    def read_sheet(
        self,
        ctx: Context,
        chat: ChatArg,
        who: WhoArg = None,
        message: MessageArg = None,
        swipe: SwipeArg = None,
    ) -> SheetResult:
        """One character's sheet at a snapshot: the block the model reads, and the values a
        sheet screen shows (sections, pools, tracks, states, conditions, notes, what they
        carry)."""
        with _told():
            picked = pick(self._chats(ctx).read(chat), message, swipe)
            character = picked.game.character(who)
            return SheetResult(
                chat=chat,
                message=picked.message,
                swipe=picked.swipe,
                who=character.name,
                player=character is picked.game.player_character,
                block=picked.game.sheet_block(character.name),
                sheet=character_view(picked.game, character),
            )

    def prompt_blocks(
        self,
        ctx: Context,
        chat: ChatArg,
        budget: Annotated[
            int | None, Field(ge=0, description="cut the rules reference to this many tokens")
        ] = None,
        message: MessageArg = None,
        swipe: SwipeArg = None,
    ) -> PromptResult:
        """What the model reads at a snapshot: the system section, the per-turn reminder (with
        every character's sheet block) and the world set-up prompt."""
        with _told():
            picked = pick(self._chats(ctx).read(chat), message, swipe)
            system = picked.game.system_prompt(budget=budget)
            return PromptResult(
                chat=chat,
                message=picked.message,
                swipe=picked.swipe,
                system=system.text,
                cut=system.cut,
                reminder=picked.game.reminder(),
                world=picked.game.world_prompt(),
            )

    def _chats(self, ctx: Context) -> TenantChats:
        return TenantChats(self.served, _tenant(ctx))


TOOLS = (
    "start_chat",
    "apply_reply",
    "select_swipe",
    "list_swipes",
    "roll_check",
    "read_sheet",
    "prompt_blocks",
)


def _tenant(ctx: Context) -> str:
    """The tenant the guard found for an HTTP request's key (gm_tags.guard.http); over stdio the
    process is its one client's own, the default tenant's."""
    request = ctx.request_context.request
    if request is None:
        return DEFAULT_TENANT
    tenant = request.scope.get("state", {}).get("tenant")
    return tenant if isinstance(tenant, str) else DEFAULT_TENANT


def _roll(record: CheckRecord) -> dict[str, Any]:
    """The record's fields under the names its tag uses, the unset ones left out."""
    fields = dataclasses.asdict(record)
    fields["with"], fields["from"] = fields.pop("with_"), fields.pop("from_")
    return {key: value for key, value in fields.items() if value not in (None, ())}


@contextmanager
def _told() -> Iterator[None]:
    """A refusal from below (an unknown chat, message or character; a step the history cannot
    take; a store that cannot be read) as the tool error the client reads."""
    try:
        yield
    except GmTagsError as error:
        raise ToolError(str(error)) from error
