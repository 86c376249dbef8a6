"""What the upstream model reads: the client's messages with the game's prompt added in two
places, and nothing else changed.

- The stable system section (rules, guidance, the rules reference cut to the token budget) goes
  where a provider's prompt cache, which keys on the opening of the prompt, keeps it turn after
  turn: in chat completions, a system message of its own right after the client's leading
  system messages (`upstream_body`); in Anthropic's Messages, a block after the client's
  own `system` blocks (`gm_tags.proxy.protocols.anthropic`).
- Nothing else changes: the chat-completions body the upstream gets is the client's own text with
  those messages written in (`gm_tags.proxy.spliced`), and the outcomes lines the proxy showed
  taken off the replies (`gm_tags.proxy.outcomes`).
- The per-turn reminder (what did not happen last turn, the commands, the clocks, a sheet block
  per character and the party block) goes at the end of the latest user message, after a blank
  line, where the model reads it last (`reminded`, for either protocol: a message's
  content is text or a list of parts, and the reminder is one more text part).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from ..game import Game
from .outcomes import may_show, showing, unshown_at
from .reminders import AFTER, Reminder, kept_reminder
from .sections import section_of
from .spliced import Read, Written, encoded, unwritten

SYSTEM_ROLES = ("system", "developer")


def upstream_body(read: Read, game: Game, budget: int | None) -> bytes | dict[str, Any]:
    """The chat-completions body the upstream gets, for a request read as `read`."""
    inserted = _system(read.value["messages"], game, budget)
    return forwarded(read, kept_reminder(game), inserted)


def forwarded(
    read: Read,
    reminder: Reminder,
    inserted: Mapping[int, Mapping[str, Any] | Written] | None = None,
    fields: Mapping[str, object] | None = None,
) -> bytes | dict[str, Any]:
    """The body the upstream gets, for a request read as `read`: the latest user message with
    the `reminder`, the replies without their outcomes lines, the messages `inserted` (each
    before the message at its place) and the body's `fields` given those values. The client's
    own text with those written in (`spliced`), or, when they cannot be found in it cheaply,
    its value with them (to be written again whole)."""
    messages = read.value["messages"]
    # The model reads its replies as it wrote them (`outcomes`).
    shown = showing(messages) if may_show(read.text) else []
    replaced: dict[int, Mapping[str, Any] | Written]
    replaced = {at: unshown_at(messages[at]) for at in shown}
    replaced.update(reminded(messages, reminder))
    spliced = read.spliced(replaced, inserted or {}, fields)
    if spliced is not None:
        return spliced
    changed = _changed(messages, replaced, inserted or {})
    return {**read.value, **(fields or {}), "messages": changed}


def _system(
    messages: Sequence[Mapping[str, Any]], game: Game, budget: int | None
) -> dict[int, Written]:
    """The system section's message (written once for the ruleset: `sections`), by where it
    goes: after the client's leading system messages (none when the section is empty)."""
    system = section_of(game, budget).message
    if system is None:
        return {}
    leading = 0
    while leading < len(messages) and messages[leading].get("role") in SYSTEM_ROLES:
        leading += 1
    return {leading: system}


def _changed(
    messages: Sequence[Mapping[str, Any]],
    replaced: Mapping[int, Mapping[str, Any] | Written],
    inserted: Mapping[int, Mapping[str, Any] | Written],
) -> list[object]:
    """The messages with `replaced` ones and `inserted` ones (each before the message at its
    place) in."""
    changed: list[object] = list(messages)
    for at, message in replaced.items():
        changed[at] = unwritten(message)
    for at in sorted(inserted, reverse=True):
        changed.insert(at, unwritten(inserted[at]))
    return changed


def reminded(
    messages: Sequence[Mapping[str, Any]], reminder: Reminder
) -> dict[int, Mapping[str, Any] | Written]:
    """The latest user message with the reminder at its end, by its place (none when there is
    no user message or no reminder)."""
    latest = next(
        (at for at in range(len(messages) - 1, -1, -1) if messages[at].get("role") == "user"),
        None,
    )
    if not reminder.text or latest is None:
        return {}
    message = messages[latest]
    content = message.get("content")
    changed = {**message, "content": _with_reminder(content, reminder.text)}
    if not (isinstance(content, str | list) and content) or list(message)[-1] != "content":
        return {latest: changed}
    # Its content last, the message's JSON ends where that text (or list) ends: the reminder goes
    # there as it was written once for the game (`reminders`), not written again.
    head = encoded(message)[:-2]  # less the text's closing quote (the list's bracket) and brace
    if isinstance(content, list):
        written = f'{head},{{"type":"text","text":"{reminder.after_text}"}}]}}'
    else:
        written = f'{head}{reminder.after_text}"}}'
    return {latest: Written(changed, written)}


def _with_reminder(content: object, reminder: str) -> object:
    if isinstance(content, list):
        return [*content, {"type": "text", "text": AFTER + reminder}]
    text = content if isinstance(content, str) else ""
    return f"{text}{AFTER}{reminder}" if text else reminder
