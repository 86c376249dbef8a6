"""What the upstream model reads: the client's messages with the game's prompt added in two
places, and nothing else changed.

- The stable system section (rules, guidance, the rules reference cut to the token budget) goes
  where a provider's prompt cache, which keys on the opening of the prompt, keeps it turn after
  turn: in chat completions, a system message of its own right after the client's leading
  system messages (`upstream_messages`); in Anthropic's Messages, a block after the client's
  own `system` blocks (`gm_tags.proxy.protocols.anthropic`).
- The per-turn reminder (what did not happen last turn, the commands, the clocks, a sheet block
  per character and the party block) goes at the end of the latest user message, after a blank
  line, where the model reads it last (`with_reminder`, for either protocol: a message's
  content is text or a list of parts, and the reminder is one more text part).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from ..game import Game

SYSTEM_ROLES = ("system", "developer")


def upstream_messages(
    messages: Sequence[Mapping[str, Any]], game: Game, budget: int | None
) -> list[Mapping[str, Any]]:
    """The chat-completions messages the upstream gets. The client's are passed on as they are
    (no copy of a long transcript): only the latest user message is a new one, with the
    reminder."""
    forwarded = with_reminder(messages, game.reminder())
    leading = 0
    while leading < len(forwarded) and forwarded[leading].get("role") in SYSTEM_ROLES:
        leading += 1
    system = game.system_prompt(budget).text
    if system:
        forwarded.insert(leading, {"role": "system", "content": system})
    return forwarded


def with_reminder(messages: Sequence[Mapping[str, Any]], reminder: str) -> list[Mapping[str, Any]]:
    """The messages with `reminder` at the end of the latest user message (a new message; the
    others are the client's own)."""
    forwarded = list(messages)
    latest = next(
        (at for at in range(len(forwarded) - 1, -1, -1) if forwarded[at].get("role") == "user"),
        None,
    )
    if reminder and latest is not None:
        message = forwarded[latest]
        forwarded[latest] = {**message, "content": _with_reminder(message.get("content"), reminder)}
    return forwarded


def _with_reminder(content: object, reminder: str) -> object:
    if isinstance(content, list):
        return [*content, {"type": "text", "text": "\n\n" + reminder}]
    text = content if isinstance(content, str) else ""
    return f"{text}\n\n{reminder}" if text else reminder
