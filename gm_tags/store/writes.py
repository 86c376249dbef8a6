"""How a step's rows are written inside its transaction (`SqlStore.write_tail` and `put`): each
message and swipe row with the revision that wrote it (`written`), and the `shown` index beside
the swipes. A message whose swipes or selection change is written again (or stamped) too, so a
message row older than a revision says its swipes are as they were then."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any, Protocol

from .errors import StaleChatError
from .interface import Fork, StoredMessage
from .rows import message_shown_rows, swipe_rows
from .schema import (
    CHAT_TABLES,
    COPY_MESSAGES_SQL,
    COPY_SHOWN_SQL,
    COPY_SWIPES_SQL,
    INSERT_MESSAGE_SQL,
    INSERT_SHOWN_SQL,
    INSERT_SWIPE_SQL,
)


class Rows(Protocol):
    def fetchone(self) -> Any: ...

    def fetchall(self) -> list[Any]: ...


class Db(Protocol):
    """One transaction's connection, as the shared code sends statements through it."""

    def execute(self, sql: str, parameters: Sequence[Any] = ..., /) -> Rows: ...

    def executemany(self, sql: str, parameters: Iterable[Sequence[Any]], /) -> object: ...


def write_from_swipe(
    db: Db, chat_id: str, first: int, messages: Sequence[StoredMessage], kept: int, written: int
) -> None:
    """Write the tail from the first message's swipe `kept` on: its earlier swipes stay."""
    for table in ("swipes", "shown"):
        db.execute(
            f"DELETE FROM {table} WHERE chat_id = ? AND "  # a fixed name
            "(position > ? OR (position = ? AND swipe >= ?))",
            (chat_id, first, first, kept),
        )
    db.execute("DELETE FROM messages WHERE chat_id = ? AND position > ?", (chat_id, first))
    head, *rest = messages
    db.execute(
        "UPDATE messages SET selected = ?, written = ? WHERE chat_id = ? AND position = ?",
        (head.selected, written, chat_id, first),
    )
    insert_swipes(db, chat_id, first, head, kept, written)
    insert_messages(db, chat_id, first + 1, rest, written)


def copy_shared(db: Db, chat_id: str, fork: Fork, written: int, revision_sql: str) -> None:
    """Copy the rows of the messages a new chat shares with the chat it forks from (messages,
    swipes with their games, the `shown` index), statement by statement inside the database: a
    line forked from one of 10,000 turns sends none of them. Only from the chat as it was read:
    `StaleChatError` when a step has changed it since (`revision_sql` reads its revision, and
    on PostgreSQL locks its row, so no step changes it before the copy commits)."""
    now = db.execute(revision_sql, (fork.source,)).fetchone()
    if now is None or int(now[0]) != fork.revision:
        raise StaleChatError(f"chat {fork.source!r} changed since it was read")
    copied = (chat_id, written, fork.source, fork.shared)
    db.execute(COPY_MESSAGES_SQL, copied)
    db.execute(COPY_SWIPES_SQL, copied)
    db.execute(COPY_SHOWN_SQL, (chat_id, fork.source, fork.shared))


def insert_messages(
    db: Db, chat_id: str, first: int, messages: Sequence[StoredMessage], written: int
) -> None:
    # Each table's rows in one statement: a whole chat put at once (a pasted history of 10,000
    # turns) is three statements, not three a message.
    placed = list(enumerate(messages, start=first))
    rows = [(chat_id, at, message.role, message.selected, written) for at, message in placed]
    db.executemany(INSERT_MESSAGE_SQL, rows)
    shown = [row for at, message in placed for row in message_shown_rows(chat_id, at, message, 0)]
    if shown:
        db.executemany(INSERT_SHOWN_SQL, shown)
    swipes = (row for at, message in placed for row in swipe_rows(chat_id, at, message, 0, written))
    db.executemany(INSERT_SWIPE_SQL, swipes)


def insert_swipes(
    db: Db, chat_id: str, position: int, message: StoredMessage, first: int, written: int
) -> None:
    shown = message_shown_rows(chat_id, position, message, first)
    if shown:
        db.executemany(INSERT_SHOWN_SQL, shown)
    db.executemany(INSERT_SWIPE_SQL, swipe_rows(chat_id, position, message, first, written))


def delete_chat(db: Db, chat_id: str) -> None:
    for table in CHAT_TABLES:
        db.execute(f"DELETE FROM {table} WHERE chat_id = ?", (chat_id,))  # a fixed name
