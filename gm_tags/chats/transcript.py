"""What a conversation says, whatever protocol carried it: its messages as `Said` values, how two
renderings of one text are told the same, and which chat it belongs to.

A chat's key comes from the request (a name the client gives) or, when it names none, from its
opening message. Under one key the store keeps one or more *lines*: linear histories
(`gm_tags.history.Chat`) with ids `key`, `key:2`, `key:3`, ... Which line and which snapshot a
conversation lands on is `plan` (with `walk` and `retell`); docs/proxy.md says it with examples.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Literal, overload

from ..history import chat_id_problem, title_from

Role = Literal["user", "assistant"]

# A key is at most this long, so a line's id (`key:12`) stays a valid chat id.
KEY_LIMIT = 90


@dataclass(frozen=True)
class Said:
    """One message of the conversation: who said it and its text as the client shows it."""

    role: Role
    text: str


class Conversation(Sequence[Said]):
    """A conversation kept as its roles and its texts, each message made a `Said` when asked for:
    a transcript of 10,000 turns is read, and compared with a line (`aligned`), at the cost of
    its texts, not of 20,000 values made for it."""

    def __init__(self, roles: list[Role], texts: list[str]) -> None:
        self.roles, self.texts = roles, texts

    def __len__(self) -> int:
        return len(self.texts)

    @overload
    def __getitem__(self, at: int) -> Said: ...

    @overload
    def __getitem__(self, at: slice) -> Conversation: ...

    def __getitem__(self, at: int | slice) -> Said | Conversation:
        if isinstance(at, slice):
            return Conversation(self.roles[at], self.texts[at])
        return Said(self.roles[at], self.texts[at])

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Sequence):
            return list(self) == list(other)
        return NotImplemented

    __hash__ = None  # type: ignore[assignment]  # as a list's: it compares by its messages

    def __repr__(self) -> str:
        return f"Conversation({list(self)!r})"


def roles_of(said: Sequence[Said]) -> list[Role]:
    """The roles of a conversation's messages (read as they are kept, for a `Conversation`)."""
    return said.roles if isinstance(said, Conversation) else [one.role for one in said]


def texts_of(said: Sequence[Said]) -> list[str]:
    """The texts of a conversation's messages."""
    return said.texts if isinstance(said, Conversation) else [one.text for one in said]


def bare(text: str) -> str:
    """The text without white space: what two renderings of one message share (front-ends
    trim, re-wrap, and join a continuation with a space of their own)."""
    return "".join(text.split())


def same(one: str, other: str) -> bool:
    return bare(one) == bare(other)


def chat_key(named: str | None, said: Sequence[Said]) -> str:
    """The key of a request's chat: the name it gives, or one made from its opening message."""
    if named:
        problem = chat_id_problem(named)
        if problem is None and len(named) <= KEY_LIMIT and ":" not in named:
            return named
        return _readable(named)
    opening = said[0] if said else Said("user", "")
    return "chat-" + _digest(f"{opening.role}\n{' '.join(opening.text.split())}")


def chat_title(named: str | None, said: Sequence[Said], line: str) -> str:
    """The readable name a new chat gets: the name the request gives, as given, else the opening
    message's first words (`The lantern gutters as the rain…`); a later line of the same chat
    (a fork, `key:2`) says which it is (`... (2)`)."""
    title = title_from(named, limit=100) if named else title_from(said[0].text if said else "")
    number = line_number(line)
    return f"{title} ({number})" if number > 1 else title


def _readable(named: str) -> str:
    """A name that cannot be a chat id as it is (`Agnes's night`, `table:7`), kept readable: what
    an id cannot hold becomes `-`, and a short digest of the whole name keeps two names that read
    alike apart (`Agnes-s night-2a4f1286`)."""
    # A character an id may hold inside it (the id rule asked of it between two letters).
    kept = "".join(c if c != ":" and chat_id_problem(f"a{c}a") is None else "-" for c in named)
    kept = "-".join(part for part in kept.split("-") if part).strip(" .-")[: KEY_LIMIT - 9]
    kept = kept.strip(" .-")
    return f"{kept}-{_digest(named)[:8]}" if kept else "named-" + _digest(named)


def _digest(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()[:20]


def key_of(line: str) -> str:
    """The key a line belongs to (`key:3` -> `key`)."""
    return line.split(":", 1)[0]


def line_number(line: str) -> int:
    _, _, number = line.partition(":")
    return int(number) if number.isdigit() else 1


def line_ids(key: str, ids: Iterable[str]) -> list[str]:
    """The ids of a key's lines among `ids`, in the order they were started."""
    numbered = []
    for chat_id in ids:
        if chat_id == key:
            numbered.append((1, chat_id))
        elif chat_id.startswith(key + ":") and chat_id[len(key) + 1 :].isdigit():
            numbered.append((int(chat_id[len(key) + 1 :]), chat_id))
    return [chat_id for _, chat_id in sorted(numbered)]


def next_line_id(key: str, taken: Sequence[str]) -> str:
    if not taken:
        return key
    return f"{key}:{max(line_number(t) for t in taken) + 1}"
