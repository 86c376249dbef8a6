"""What can go wrong with a store, as the caller can act on it:

GmTagsError
├── UnknownChatError (also LookupError)   no chat under that id
├── ChatExistsError                       a new chat asked for under a taken id
├── StaleChatError                        another worker changed the chat since it was read
└── SourceError
    └── StoreError                        the store cannot be used as it is; nothing changed
        ├── StoreBusyError                another process holds the write lock
        ├── StoreReadOnlyError            readable, not writable
        └── StoreCorruptError             damaged, or a row not as gm-tags wrote it
"""

from __future__ import annotations

from ..errors import GmTagsError, SourceError


class UnknownChatError(GmTagsError, LookupError):
    """No chat is stored under that id."""


class ChatExistsError(GmTagsError):
    """A new chat was asked for under an id that is taken."""


class StaleChatError(GmTagsError):
    """A step written on a chat that another worker changed since it was read: read it again
    and take the step again. `code` is `chat_conflict`, which an HTTP layer answers with 409
    when even that keeps failing."""

    code = "chat_conflict"


class StoreError(SourceError):
    """The store cannot be used as it is: it is not an SQLite file, another application's
    database, written by a newer gm-tags, read-only or damaged. Nothing in it was changed."""


class StoreBusyError(StoreError):
    """Another process holds the store's write lock: the step was not taken; try again."""


class StoreReadOnlyError(StoreError):
    """The store can be read but not written (file or folder permissions, a read-only disk)."""


class StoreCorruptError(StoreError):
    """The store's file is damaged: a corrupted page, a truncated file, or a row that does not
    hold what gm-tags wrote. `integrity` is SQLite's own `PRAGMA integrity_check` answer."""

    def __init__(self, message: str, integrity: str = "") -> None:
        super().__init__(message + (f" (integrity check: {integrity})" if integrity else ""))
        self.integrity = integrity
