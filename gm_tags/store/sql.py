"""The `Store` interface over SQL, written once for both back-ends: every operation as the
statements it sends inside one transaction. A back-end says only how it has a transaction
(SQLite: one writing connection under a lock, reads on reader connections of their own;
PostgreSQL: a pooled connection), how a statement reaches its driver, how its driver says a chat
id is taken, and the two statements its SQL spells its own way (the line ids' byte order, the
row lock a replace takes).

Every step writes only what changed (the messages from the first one that did) in one
transaction, so a crash leaves the last committed step whole and no step half-written.
"""

from __future__ import annotations

import json
from abc import ABC, abstractmethod
from collections.abc import Sequence
from contextlib import AbstractContextManager
from typing import Any, ClassVar

from .errors import ChatExistsError, StaleChatError, StoreCorruptError, StoreError, UnknownChatError
from .interface import Fork, Found, OpenedChat, Shown, StoredChat, StoredMessage
from .rows import chat_row, shown_rows, stored_chat, stored_messages, to_json
from .schema import (
    COUNT_MESSAGES_SQL,
    FIND_SHOWN_SQL,
    GAME_SQL,
    INSERT_CHAT_SQL,
    INSERT_SHOWN_SQL,
    LINE_IDS_SQL,
    LOAD_CHAT_SQL,
    LOAD_MESSAGES_SQL,
    LOAD_SWIPES_SQL,
    MIGRATIONS,
    REPLY_NARRATIONS_SQL,
    REVISIONS_AT_ONCE,
    SHOWN_HITS,
    SHOWN_SPAN_SQL,
    SHOWN_VERSION,
    SPAN_MESSAGES_SQL,
    SPAN_SWIPES_SQL,
    found_shown_sql,
)
from .writes import Db, copy_shared, delete_chat, insert_messages, write_from_swipe


class SqlStore(ABC):
    """What both SQL stores do alike. `_where` names the store in messages (no password)."""

    _where: str
    # The driver's own error class: a migration that raises one is refused, nothing changed.
    _driver_error: ClassVar[type[Exception]]
    _line_ids_sql: ClassVar[str] = LINE_IDS_SQL
    # How a replace reads the revision of the chat it replaces (PostgreSQL locks the row).
    _held_revision_sql: ClassVar[str] = "SELECT revision FROM chats WHERE chat_id = ?"

    @abstractmethod
    def _transaction(self) -> AbstractContextManager[Db]:
        """A transaction that writes: committed at the end, rolled back whole on any error."""

    @abstractmethod
    def _reading(self, *, snapshot: bool = False) -> AbstractContextManager[Db]:
        """Reads; with `snapshot`, every statement reads one snapshot of the store."""

    @abstractmethod
    def _id_taken(self, error: Exception) -> bool:
        """Whether `error` says a row's primary key is taken."""

    def _migrating(self) -> AbstractContextManager[Db]:
        """The transaction migrations run in (one that workers starting at once take in turn)."""
        return self._transaction()

    def _schema_now(self) -> int | None:
        """The schema version when it can be read without a write; None to always migrate."""
        return None

    def _migrate(self) -> None:
        # A store at the current schema needs no write to open, so one that another process is
        # busy writing to opens all the same.
        if self._schema_now() == len(MIGRATIONS):
            return
        with self._migrating() as db:
            db.execute("CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL)")
            row = db.execute("SELECT version FROM schema_version").fetchone()
            version = row[0] if row else 0
            if version > len(MIGRATIONS):
                raise StoreError(
                    f"{self._where}: written by a newer gm-tags (store schema {version}, this one "
                    f"reads up to {len(MIGRATIONS)})"
                )
            for number, script in enumerate(MIGRATIONS[version:], start=version + 1):
                try:
                    for statement in script.split(";"):
                        if statement.strip():
                            db.execute(statement)
                except self._driver_error as error:
                    raise StoreError(
                        f"{self._where}: migrating to store schema {number} failed ({error}); "
                        "nothing was changed"
                    ) from None
            if version < SHOWN_VERSION <= len(MIGRATIONS):
                rows = db.execute(REPLY_NARRATIONS_SQL).fetchall()
                db.executemany(INSERT_SHOWN_SQL, shown_rows(rows))
            if row is None:
                db.execute("INSERT INTO schema_version VALUES (?)", (len(MIGRATIONS),))
            else:
                db.execute("UPDATE schema_version SET version = ?", (len(MIGRATIONS),))

    @property
    def schema_version(self) -> int:
        with self._reading() as db:
            row = db.execute("SELECT version FROM schema_version").fetchone()
        return int(row[0]) if row else 0

    def create(
        self, chat_id: str, ruleset: dict[str, Any], start: dict[str, Any], title: str = ""
    ) -> None:
        """Store a new chat; raises `ChatExistsError` when the id is taken."""
        chat = StoredChat(ruleset, start, (), title=title)
        try:
            with self._transaction() as db:
                db.execute(INSERT_CHAT_SQL, chat_row(chat_id, chat, 0))
        except Exception as error:
            if self._id_taken(error):
                raise ChatExistsError(f"a chat {chat_id!r} exists already") from None
            raise

    def load(self, chat_id: str) -> StoredChat:
        # Three statements, one snapshot: a step committed between them cannot tear the chat.
        with self._reading(snapshot=True) as db:
            row = db.execute(LOAD_CHAT_SQL, (chat_id,)).fetchone()
            if row is None:
                raise UnknownChatError(f"no chat {chat_id!r}")
            messages = db.execute(LOAD_MESSAGES_SQL, (chat_id,)).fetchall()
            swipes = db.execute(LOAD_SWIPES_SQL, (chat_id,)).fetchall()
        try:
            return stored_chat(row, messages, swipes)
        except (ValueError, TypeError) as error:
            raise self._damaged(chat_id, error) from None

    def open_chat(self, chat_id: str, last: int) -> OpenedChat:
        """The chat without its past: its row, its message count, its `last` messages (swipes
        without games) and the game it plays from, in one snapshot (docs/history.md)."""
        with self._reading(snapshot=True) as db:
            row = db.execute(LOAD_CHAT_SQL, (chat_id,)).fetchone()
            if row is None:
                raise UnknownChatError(f"no chat {chat_id!r}")
            count = int(db.execute(COUNT_MESSAGES_SQL, (chat_id,)).fetchone()[0])
            first = max(0, count - last)
            spans = (chat_id, first, count)
            messages = db.execute(SPAN_MESSAGES_SQL, spans).fetchall()
            swipes = db.execute(SPAN_SWIPES_SQL, spans).fetchall()
            game = None
            if messages:
                selected = (chat_id, count - 1, messages[-1][2])
                game = db.execute(GAME_SQL, selected).fetchone()
        try:
            if len(messages) != count - first:
                raise ValueError(f"{count - first} messages from {first} on, {len(messages)} read")
            return OpenedChat(
                json.loads(row[0]),
                json.loads(row[1]),
                int(row[2]),
                str(row[3]),
                count,
                first,
                stored_messages(messages, swipes),
                None if game is None else str(game[0]),
            )
        except (ValueError, TypeError) as error:
            raise self._damaged(chat_id, error) from None

    def messages(
        self, chat_id: str, first: int, end: int, revision: int
    ) -> tuple[StoredMessage, ...]:
        """Messages `first` to before `end` (swipes without games) as they were at `revision`:
        `StaleChatError` when a step since rewrote any of them."""
        with self._reading(snapshot=True) as db:
            spans = (chat_id, first, end)
            messages = db.execute(SPAN_MESSAGES_SQL, spans).fetchall()
            swipes = db.execute(SPAN_SWIPES_SQL, spans).fetchall()
            now = db.execute("SELECT revision FROM chats WHERE chat_id = ?", (chat_id,)).fetchone()
        positions = [row[0] for row in messages]
        if positions != list(range(first, end)) or any(row[3] > revision for row in messages):
            raise self._changed(chat_id, revision, now)
        try:
            return stored_messages(messages, swipes)
        except (ValueError, TypeError) as error:
            raise self._damaged(chat_id, error) from None

    def shown_span(
        self, chat_id: str, first: int, end: int, revision: int
    ) -> list[tuple[str, str]]:
        """What messages `first` to before `end` show, as they were at `revision`: each one's
        role and its selected swipe's text as the client was given it (a reply's narration),
        in one read (no swipe list, receipts or game: what indexing a long chat needs).
        `StaleChatError` as for `messages`."""
        with self._reading(snapshot=True) as db:
            rows = db.execute(SHOWN_SPAN_SQL, (chat_id, first, end)).fetchall()
            now = db.execute("SELECT revision FROM chats WHERE chat_id = ?", (chat_id,)).fetchone()
        if len(rows) != end - first or any(
            row[0] != at or row[3] > revision or row[4] > revision
            for at, row in enumerate(rows, start=first)
        ):
            raise self._changed(chat_id, revision, now)
        return [(str(role), str(shown)) for _, role, shown, *_ in rows]

    def game(self, chat_id: str, position: int, swipe: int, revision: int) -> str:
        """The game document (JSON text) swipe `swipe` of message `position` left, as it was at
        `revision`: `StaleChatError` when a step since rewrote it."""
        with self._reading(snapshot=True) as db:
            row = db.execute(GAME_SQL, (chat_id, position, swipe)).fetchone()
            now = db.execute("SELECT revision FROM chats WHERE chat_id = ?", (chat_id,)).fetchone()
        if row is None or row[1] > revision:
            raise self._changed(chat_id, revision, now)
        return str(row[0])

    def _changed(self, chat_id: str, revision: int, now: Any) -> StaleChatError | StoreCorruptError:
        """Rows a chat read at `revision` expected and did not find as they were: a step since
        changed them, or (the chat still at `revision`) the store lost them."""
        if now is None or int(now[0]) != revision:
            return StaleChatError(f"chat {chat_id!r} changed since it was read")
        return self._damaged(chat_id, ValueError("its messages are not all there"))

    def _damaged(self, chat_id: str, error: Exception) -> StoreCorruptError:
        where = f"{self._where}: a row of chat {chat_id!r}"
        return StoreCorruptError(f"{where} cannot be read: {error}")

    def revision(self, chat_id: str) -> int:
        """The chat's revision as stored now (`UnknownChatError` when there is none)."""
        with self._reading() as db:
            row = db.execute("SELECT revision FROM chats WHERE chat_id = ?", (chat_id,)).fetchone()
        if row is None:
            raise UnknownChatError(f"no chat {chat_id!r}")
        return int(row[0])

    def write_tail(
        self,
        chat_id: str,
        first: int,
        messages: Sequence[StoredMessage],
        kept: int = 0,
        revision: int | None = None,
    ) -> int:
        """Replace the messages from `first` on with `messages`, in one transaction, and return
        the chat's new revision. With `revision`, only when the chat is still at it
        (`StaleChatError` otherwise, and nothing written). With `kept`, the first message's
        first `kept` swipes are already stored as they are (a regenerated reply adds a swipe):
        only its selection and its later swipes are written."""
        with self._transaction() as db:
            # The update also takes the chat's row lock until commit, where the database has one.
            bumped = db.execute(
                "UPDATE chats SET revision = revision + 1 WHERE chat_id = ? AND "
                "(CAST(? AS INTEGER) IS NULL OR revision = CAST(? AS INTEGER)) RETURNING revision",
                (chat_id, revision, revision),
            ).fetchone()
            if bumped is None:
                raise StaleChatError(f"chat {chat_id!r} changed since it was read")
            written = int(bumped[0])
            if kept:
                write_from_swipe(db, chat_id, first, messages, kept, written)
            else:
                for table in ("swipes", "shown", "messages"):
                    db.execute(
                        f"DELETE FROM {table} WHERE chat_id = ? AND position >= ?",  # a fixed name
                        (chat_id, first),
                    )
                insert_messages(db, chat_id, first, messages, written)
            return written

    def put(
        self, chat_id: str, chat: StoredChat, *, replace: bool, fork: Fork | None = None
    ) -> None:
        """Store a whole chat in one transaction; a taken id is `ChatExistsError` unless
        `replace`, when the chat there is replaced (at a revision past the one it had, so every
        worker holding it reads it again). With `fork`, its first `fork.shared` messages are
        copied from the chat it forks from (`writes.copy_shared`) and `chat.messages` are the
        ones after them."""
        try:
            with self._transaction() as db:
                revision = chat.revision
                if replace:
                    held = db.execute(self._held_revision_sql, (chat_id,)).fetchone()
                    revision = max(revision, int(held[0]) + 1) if held else revision
                    delete_chat(db, chat_id)
                db.execute(INSERT_CHAT_SQL, chat_row(chat_id, chat, revision))
                first = 0
                if fork is not None:
                    copy_shared(db, chat_id, fork, revision, self._held_revision_sql)
                    first = fork.shared
                insert_messages(db, chat_id, first, chat.messages, revision)
        except Exception as error:
            if self._id_taken(error):
                raise ChatExistsError(f"a chat {chat_id!r} exists already") from None
            raise

    def keep_ruleset(self, fingerprint: str, ruleset_id: str, document: dict[str, Any]) -> None:
        """Keep a ruleset's document under its fingerprint (once: the content is the key)."""
        with self._transaction() as db:
            db.execute(
                "INSERT INTO rulesets VALUES (?, ?, ?) ON CONFLICT (fingerprint) DO NOTHING",
                (fingerprint, ruleset_id, to_json(document)),
            )

    def kept_ruleset(self, fingerprint: str) -> dict[str, Any] | None:
        with self._reading() as db:
            row = db.execute(
                "SELECT document FROM rulesets WHERE fingerprint = ?", (fingerprint,)
            ).fetchone()
        if row is None:
            return None
        try:
            document: dict[str, Any] = json.loads(row[0])
        except ValueError as error:
            raise StoreCorruptError(
                f"{self._where}: ruleset {fingerprint} cannot be read: {error}"
            ) from None
        return document

    def kept_rulesets(self) -> list[tuple[str, str, dict[str, Any]]]:
        """Every ruleset kept: fingerprint, id and document (what a store copy carries over)."""
        with self._reading() as db:
            rows = db.execute(
                "SELECT fingerprint, ruleset_id, document FROM rulesets ORDER BY fingerprint"
            ).fetchall()
        return [(fingerprint, ruleset_id, json.loads(doc)) for fingerprint, ruleset_id, doc in rows]

    def delete(self, chat_id: str) -> None:
        """Forget a chat and all its messages, in one transaction."""
        with self._transaction() as db:
            delete_chat(db, chat_id)

    def chat_ids(self, tenant: str | None = None) -> list[str]:
        """The ids of every chat, or of one tenant's (as stored: see gm_tags.tenants)."""
        with self._reading() as db:
            if tenant is None:
                rows = db.execute("SELECT chat_id FROM chats ORDER BY chat_id").fetchall()
            else:
                rows = db.execute(
                    "SELECT chat_id FROM chats WHERE tenant = ? ORDER BY chat_id", (tenant,)
                ).fetchall()
        return [row[0] for row in rows]

    def titles(self, tenant: str | None = None) -> dict[str, str]:
        """The title of every chat (or of one tenant's) by id, in id order ("" for none)."""
        with self._reading() as db:
            rows = db.execute(
                "SELECT chat_id, title FROM chats WHERE CAST(? AS TEXT) IS NULL OR tenant = ? "
                "ORDER BY chat_id",
                (tenant, tenant),
            ).fetchall()
        return {row[0]: row[1] for row in rows}

    def set_title(self, chat_id: str, title: str) -> None:
        """Give a chat a new readable name; its id, history and revision stay as they are."""
        with self._transaction() as db:
            changed = db.execute(
                "UPDATE chats SET title = ? WHERE chat_id = ? RETURNING chat_id", (title, chat_id)
            ).fetchone()
        if changed is None:
            raise UnknownChatError(f"no chat {chat_id!r}")

    def revisions(self, chat_ids: Sequence[str]) -> dict[str, int]:
        """The stored revision of each of `chat_ids` that exists, in one read."""
        found: dict[str, int] = {}
        with self._reading() as db:
            for at in range(0, len(chat_ids), REVISIONS_AT_ONCE):
                some = list(chat_ids[at : at + REVISIONS_AT_ONCE])
                marks = ", ".join("?" * len(some))
                rows = db.execute(
                    f"SELECT chat_id, revision FROM chats WHERE chat_id IN ({marks})", some
                ).fetchall()
                found.update((chat_id, int(revision)) for chat_id, revision in rows)
        return found

    def line_ids(self, key: str) -> list[str]:
        """The ids `key` and `key:...` (a chat's lines), read by a range of the primary key."""
        with self._reading() as db:
            rows = db.execute(self._line_ids_sql, (key, key + ":", key + ";")).fetchall()
        return [row[0] for row in rows]

    def found(self, key: str | None, digests: Sequence[str], tenant: str | None = None) -> Found:
        """`line_ids(key)` (none when `key` is None) and `find_shown` of each of `digests`, with
        the revision of every chat they name, in one read: two statements (not one snapshot:
        `Found` says why that is enough), where a request's lookups took one read each (its
        latest replies' digests, its key's lines, then each line's revision)."""
        lines, hits = [], []
        with self._reading() as db:
            if key is not None:
                lines = db.execute(self._line_ids_sql, (key, key + ":", key + ";")).fetchall()
            if digests:
                statement = found_shown_sql(len(digests))
                hits = db.execute(statement, (*digests, tenant, tenant, SHOWN_HITS)).fetchall()
        revisions = {chat_id: int(revision) for chat_id, revision in lines}
        shown: dict[str, list[Shown]] = {}
        for digest, chat_id, position, swipe, revision in hits:
            shown.setdefault(digest, []).append(Shown(chat_id, position, swipe))
            revisions[chat_id] = int(revision)
        return Found(tuple(chat_id for chat_id, _ in lines), shown, revisions)

    def find_shown(self, digest: str, tenant: str | None = None) -> list[Shown]:
        """The stored replies whose shown text has this digest (`shown_digest`), of one
        tenant's chats when given, furthest into their chats first, at most `SHOWN_HITS`."""
        with self._reading() as db:
            rows = db.execute(FIND_SHOWN_SQL, (digest, tenant, tenant, SHOWN_HITS)).fetchall()
        return [Shown(chat_id, position, swipe) for chat_id, position, swipe in rows]
