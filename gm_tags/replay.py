"""Recorded sessions: a JSON Lines file of chat steps, replayed into a store.

The first line sets the game up; every line after it is one step:

    {"ruleset": "../rulesets/crew-of-shadows.json", "game": "../games/crew-mid-heist.json",
     "chat": "heist", "seed": "heist"}
    {"user": "We go in through the roof."}
    {"reply": "The tiles are slick. [clock: name=\\"Alarm raised\\" tick=\\"1\\"]"}
    {"regenerate": "The tiles hold. [clock: name=\\"Alarm raised\\" tick=\\"-1\\"]"}
    {"select": 0}
    {"continue": " Then a dog barks."}
    {"delete": "last"}
    {"delete_swipe": 1}
    {"party_save": {"fields": {"lair": "The roof"}}, "revision": 0}

Paths are read from the session file's own folder. With `seed`, the dice of step N are seeded
with `seed:N`, so a replay throws the same dice every time.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .errors import SourceError
from .game import Game
from .history import Chat, HistoryError
from .pipeline import Turn
from .ruleset import load_ruleset
from .store import ChatExistsError, Chats


@dataclass(frozen=True)
class Step:
    """One step replayed: what to call it, the chat it left, and the reply's turn or a note."""

    label: str
    chat: Chat = field(repr=False)
    turn: Turn[Game] | None = None
    note: str = ""


def read_session(path: Path) -> tuple[dict[str, Any], list[tuple[int, dict[str, Any]]]]:
    """The session's header and its steps, each with the line it stands on."""
    try:
        text = path.read_text("utf-8")
    except (OSError, UnicodeDecodeError) as error:
        raise SourceError(f"{path}: cannot be read: {error}") from None
    entries: list[tuple[int, dict[str, Any]]] = []
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        try:
            entry = json.loads(line)
        except json.JSONDecodeError as error:
            raise SourceError(f"{path}: line {number}: not JSON: {error.msg}") from None
        if not isinstance(entry, dict):
            raise SourceError(f"{path}: line {number}: a session line is a JSON object")
        entries.append((number, entry))
    if not entries or "ruleset" not in entries[0][1]:
        raise SourceError(f"{path}: the first line names the ruleset (and the game)")
    return entries[0][1], entries[1:]


def replay(
    path: Path, chats: Chats, chat_id: str | None = None, *, replace: bool = False
) -> Iterator[Step]:
    """Replay a session into a chat of `chats`, yielding each step. The chat is written once,
    whole, after the last step: a session that fails half-way leaves the store as it was. A
    taken chat id is refused (`ChatExistsError`) unless `replace` is given."""
    header, steps = read_session(path)
    folder = path.parent
    ruleset_path = str((folder / header["ruleset"]).resolve())
    ruleset = load_ruleset(ruleset_path)
    if "game" in header:
        document = json.loads(_read(folder / header["game"]))
        start = Game.from_document(ruleset, document)
    else:
        start = Game.new(ruleset)
    name = chat_id or header.get("chat") or path.stem
    if not replace and name in chats.store.chat_ids():
        raise ChatExistsError(f"a chat {name!r} exists already; add --replace to replace it")
    chat = Chat(start)
    seed = header.get("seed")
    for number, (line, entry) in enumerate(steps, start=1):
        step_seed = f"{seed}:{number}" if seed is not None else None
        try:
            step = _step(chat, entry, step_seed)
        except (HistoryError, SourceError) as error:
            kind = next(iter(entry), "?")
            raise type(error)(f"{path}: line {line} ({kind}): {error}") from None
        chat = step.chat
        yield step
    chats.put(name, {"path": ruleset_path}, chat, replace=replace)


def _read(path: Path) -> str:
    try:
        return path.read_text("utf-8")
    except (OSError, UnicodeDecodeError) as error:
        raise SourceError(f"{path}: cannot be read: {error}") from None


def _step(chat: Chat, entry: dict[str, Any], seed: str | None) -> Step:
    if "user" in entry:
        return Step("player", chat.user(entry["user"]), note=entry["user"])
    if "reply" in entry:
        done, turn = chat.reply(entry["reply"], seed=seed)
        return Step("reply", done, turn)
    if "regenerate" in entry:
        done, turn = chat.regenerate(entry["regenerate"], seed=seed)
        return Step(f"regenerate (swipe {done.messages[-1].selected})", done, turn)
    if "continue" in entry:
        done, turn = chat.continue_reply(entry["continue"], seed=seed)
        return Step("continue", done, turn)
    if "select" in entry:
        return Step(f"select swipe {entry['select']}", chat.select(entry["select"]))
    if "delete_swipe" in entry:
        return Step(
            f"delete swipe {entry['delete_swipe']}", chat.delete_swipe(entry["delete_swipe"])
        )
    if "delete" in entry:
        return Step("delete the last message", chat.delete_last())
    if "party_save" in entry:
        done, result = chat.save_party_sheet(entry["party_save"], entry.get("revision", 0))
        note = "saved" if result.saved else "refused: opened at an older revision"
        return Step("party sheet save", done, note=note)
    kinds = "user, reply, regenerate, continue, select, delete, delete_swipe, party_save"
    raise SourceError(f"a session step is one of {kinds}: {entry}")
