"""Where chats are kept, behind the small `Store` interface:

- `interface`: the `Store` protocol and the values it takes and gives (`StoredChat`, ...);
- `errors`: what can go wrong with a store (the tree is drawn there);
- `schema`: the tables, their migrations and the statements both SQL back-ends send;
- `rows`: a chat as rows and rows as a chat;
- `sql`: every store operation written once over SQL (`SqlStore`); `writes`: a step's rows;
- `sqlite` (`SqliteStore`, the default) and `postgres` (`PgStore`, the `postgres` extra): how
  each back-end has a transaction and says its driver's errors;
- `opening`: which back-end a `--db` names (`open_store`);
- `chats`: `Chats`, a history `Chat` written to a store and read back (opened from its last page,
  its past read when asked for: docs/history.md, "Opening a chat").

A chat is stored as its ruleset (a path, or the ruleset's fingerprint in the store's own copy),
the document it started from, and its messages: each swipe with its text, its rewritten reply,
narration and receipts, and the game document it left.
"""

from __future__ import annotations

from .chats import Chats, ruleset_from
from .errors import (
    ChatExistsError,
    StaleChatError,
    StoreBusyError,
    StoreCorruptError,
    StoreError,
    StoreReadOnlyError,
    UnknownChatError,
)
from .interface import Fork, Found, OpenedChat, Shown, Store, StoredChat, StoredMessage
from .opening import is_database_url, open_store
from .rows import game_text, shown_rows, stored_chat
from .schema import (
    FIND_SHOWN_SQL,
    LINE_IDS_SQL,
    MIGRATIONS,
    REPLY_NARRATIONS_SQL,
    REVISIONS_AT_ONCE,
    SHOWN_HITS,
    SHOWN_VERSION,
    shown_digest,
)
from .sqlite import BUSY_TIMEOUT, SqliteStore

__all__ = [
    "BUSY_TIMEOUT",
    "FIND_SHOWN_SQL",
    "LINE_IDS_SQL",
    "MIGRATIONS",
    "REPLY_NARRATIONS_SQL",
    "REVISIONS_AT_ONCE",
    "SHOWN_HITS",
    "SHOWN_VERSION",
    "ChatExistsError",
    "Chats",
    "Fork",
    "Found",
    "OpenedChat",
    "Shown",
    "SqliteStore",
    "StaleChatError",
    "Store",
    "StoreBusyError",
    "StoreCorruptError",
    "StoreError",
    "StoreReadOnlyError",
    "StoredChat",
    "StoredMessage",
    "UnknownChatError",
    "game_text",
    "is_database_url",
    "open_store",
    "ruleset_from",
    "shown_digest",
    "shown_rows",
    "stored_chat",
]
