"""Where chats are kept: an embedded SQLite file by default (WAL, one transaction per step,
the schema versioned with migrations), behind the small `Store` interface so a server database
can take its place.

A chat is stored as its ruleset (a path, or the ruleset's JSON), the document it started from, and
its messages: each swipe with its text, its rewritten reply, narration and receipts, and the game
document it left. Every step writes only what changed (the messages from the first one that did)
in one transaction, so a crash leaves the last committed step whole and no step half-written.
"""

from __future__ import annotations

import hashlib
import json
import sqlite3
import threading
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

from .errors import GameDocumentError, GmTagsError, SourceError
from .game import Game
from .history import Chat, HistoryError, Message, StoredSwipe, chat_id_problem
from .ruleset import Ruleset, load_ruleset
from .ruleset.loader import load_stored
from .settings import DEFAULT_DB
from .tenants import chat_part, tenant_of

MIGRATIONS: Sequence[str] = (
    """
    CREATE TABLE chats (
        chat_id TEXT PRIMARY KEY,
        ruleset TEXT NOT NULL,
        start TEXT NOT NULL
    );
    CREATE TABLE messages (
        chat_id TEXT NOT NULL REFERENCES chats(chat_id),
        position INTEGER NOT NULL,
        role TEXT NOT NULL,
        selected INTEGER NOT NULL,
        PRIMARY KEY (chat_id, position)
    );
    CREATE TABLE swipes (
        chat_id TEXT NOT NULL,
        position INTEGER NOT NULL,
        swipe INTEGER NOT NULL,
        text TEXT NOT NULL,
        reply TEXT NOT NULL,
        narration TEXT NOT NULL,
        receipts TEXT NOT NULL,
        game TEXT NOT NULL,
        PRIMARY KEY (chat_id, position, swipe)
    );
    """,
    # The rulesets chats are played with, kept whole (by content fingerprint), so a chat opens
    # wherever the store goes, whatever became of the ruleset's file.
    """
    CREATE TABLE rulesets (
        fingerprint TEXT PRIMARY KEY,
        ruleset_id TEXT NOT NULL,
        document TEXT NOT NULL
    );
    """,
    # Each step on a chat counts one revision, so a worker knows when another one changed it
    # and two workers never both write a step built on one snapshot.
    """
    ALTER TABLE chats ADD COLUMN revision INTEGER NOT NULL DEFAULT 0;
    """,
    # Each stored reply's shown text (its narration, white space aside) by digest, so the proxy
    # finds the chat a client's window belongs to by looking its replies up, not by reading
    # every chat. Written with the swipes; filled for the replies stored before (`shown_rows`).
    """
    CREATE TABLE shown (
        digest TEXT NOT NULL,
        chat_id TEXT NOT NULL,
        position INTEGER NOT NULL,
        swipe INTEGER NOT NULL,
        PRIMARY KEY (chat_id, position, swipe)
    );
    CREATE INDEX shown_by_digest ON shown (digest);
    """,
    # Each chat belongs to one tenant (gm_tags.tenants); the chats stored before are the default
    # tenant's. A tenant's chats are listed by this index.
    """
    ALTER TABLE chats ADD COLUMN tenant TEXT NOT NULL DEFAULT 'default';
    CREATE INDEX chats_by_tenant ON chats (tenant, chat_id);
    """,
)
# The schema version that added the `shown` table: a store migrated past it from below has its
# replies' digests filled in the same transaction.
SHOWN_VERSION = 4
# At most this many stored replies answer one digest (the newest): a text many chats share (a
# front-end's greeting) cannot make a lookup read them all.
SHOWN_HITS = 8


def shown_digest(text: str) -> str:
    """The digest a reply's shown text is found by: its characters without any white space
    (front-ends trim, re-wrap and join with a space of their own)."""
    bare = "".join(text.split())
    return hashlib.sha256(bare.encode("utf-8", "surrogatepass")).hexdigest()[:32]


@dataclass(frozen=True)
class Shown:
    """Where a stored reply's swipe is: a chat, a message position and a swipe."""

    chat_id: str
    position: int
    swipe: int


class UnknownChatError(GmTagsError, LookupError):
    """No chat is stored under that id."""


class ChatExistsError(GmTagsError):
    """A new chat was asked for under an id that is taken."""


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


# The tables every gm-tags store holds (a newer one may hold more); a database without them is
# another application's.
_OWN_TABLES = frozenset({"schema_version", "chats"})
_SQLITE_HEADER = b"SQLite format 3\x00"
# How long a step waits for another process's write lock before it is refused as busy.
BUSY_TIMEOUT = 2.0
# How many chats one statement of `revisions` asks about (SQLite allows 32,766 parameters).
REVISIONS_AT_ONCE = 500


@dataclass(frozen=True)
class StoredMessage:
    role: str
    selected: int
    swipes: tuple[dict[str, Any], ...]


@dataclass(frozen=True)
class StoredChat:
    ruleset: dict[str, Any]
    start: dict[str, Any]
    messages: tuple[StoredMessage, ...]
    revision: int = 0


class Store(Protocol):
    """Where chats are kept: `SqliteStore`, or `gm_tags.pgstore.PgStore` for PostgreSQL."""

    def create(self, chat_id: str, ruleset: dict[str, Any], start: dict[str, Any]) -> None: ...

    def load(self, chat_id: str) -> StoredChat: ...

    def revision(self, chat_id: str) -> int: ...

    def write_tail(
        self,
        chat_id: str,
        first: int,
        messages: Sequence[StoredMessage],
        kept: int = 0,
        revision: int | None = None,
    ) -> int: ...

    def chat_ids(self, tenant: str | None = None) -> list[str]: ...

    def revisions(self, chat_ids: Sequence[str]) -> dict[str, int]: ...

    def line_ids(self, key: str) -> list[str]: ...

    def find_shown(self, digest: str, tenant: str | None = None) -> list[Shown]: ...

    def put(self, chat_id: str, chat: StoredChat, *, replace: bool) -> None: ...

    def keep_ruleset(self, fingerprint: str, ruleset_id: str, document: dict[str, Any]) -> None: ...

    def kept_ruleset(self, fingerprint: str) -> dict[str, Any] | None: ...

    def kept_rulesets(self) -> list[tuple[str, str, dict[str, Any]]]: ...

    def delete(self, chat_id: str) -> None: ...

    def close(self) -> None: ...


class StaleChatError(GmTagsError):
    """A step written on a chat that another worker changed since it was read: read it again
    and take the step again. `code` is `chat_conflict`, which an HTTP layer answers with 409
    when even that keeps failing."""

    code = "chat_conflict"


class SqliteStore:
    """One SQLite file. Safe to share between threads: writes are serialized."""

    def __init__(self, path: str | Path = DEFAULT_DB) -> None:
        self.path = str(path)
        self._lock = threading.Lock()
        _check_before_opening(self.path)
        try:
            self._connection = sqlite3.connect(
                self.path, check_same_thread=False, isolation_level=None, timeout=BUSY_TIMEOUT
            )
        except sqlite3.Error as error:
            raise StoreError(f"{self.path}: cannot be opened: {error}") from None
        try:
            with self._errors_said():
                self._connection.execute("PRAGMA journal_mode=WAL")
                self._connection.execute("PRAGMA synchronous=FULL")
                self._connection.execute("PRAGMA foreign_keys=ON")
                self._migrate()
        except StoreError:
            self._connection.close()
            raise

    def close(self) -> None:
        with self._lock:
            self._connection.close()

    @contextmanager
    def _transaction(self) -> Iterator[sqlite3.Connection]:
        with self._lock, self._errors_said():
            self._connection.execute("BEGIN IMMEDIATE")
            try:
                yield self._connection
            except BaseException:
                if self._connection.in_transaction:
                    self._connection.execute("ROLLBACK")
                raise
            self._connection.execute("COMMIT")

    @contextmanager
    def _errors_said(self) -> Iterator[None]:
        """SQLite's errors as the store errors they mean."""
        try:
            yield
        except sqlite3.IntegrityError:
            raise  # a constraint a caller answers (a taken chat id)
        except sqlite3.OperationalError as error:
            text = str(error)
            if "locked" in text or "busy" in text:
                raise StoreBusyError(
                    f"{self.path}: busy: another process is writing to it; try again"
                ) from None
            if "readonly" in text or "read-only" in text:
                raise StoreReadOnlyError(f"{self.path}: read-only: {text}") from None
            raise StoreError(f"{self.path}: {text}") from None
        except sqlite3.DatabaseError as error:
            raise StoreCorruptError(
                f"{self.path}: damaged: {error}", _integrity(self._connection)
            ) from None

    def _migrate(self) -> None:
        # A store at the current schema needs no write to open, so one that another process is
        # busy writing to opens all the same.
        if self._current_version() == len(MIGRATIONS):
            return
        with self._transaction() as db:
            db.execute("CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL)")
            row = db.execute("SELECT version FROM schema_version").fetchone()
            version = row[0] if row else 0
            if version > len(MIGRATIONS):
                raise StoreError(
                    f"{self.path}: written by a newer gm-tags (store schema {version}, this one "
                    f"reads up to {len(MIGRATIONS)})"
                )
            for number, script in enumerate(MIGRATIONS[version:], start=version + 1):
                try:
                    for statement in script.split(";"):
                        if statement.strip():
                            db.execute(statement)
                except sqlite3.Error as error:
                    raise StoreError(
                        f"{self.path}: migrating to store schema {number} failed ({error}); "
                        "nothing was changed"
                    ) from None
            if version < SHOWN_VERSION <= len(MIGRATIONS):
                rows = db.execute(REPLY_NARRATIONS_SQL).fetchall()
                db.executemany("INSERT INTO shown VALUES (?, ?, ?, ?)", shown_rows(rows))
            if row is None:
                db.execute("INSERT INTO schema_version VALUES (?)", (len(MIGRATIONS),))
            else:
                db.execute("UPDATE schema_version SET version = ?", (len(MIGRATIONS),))

    def _current_version(self) -> int | None:
        exists = self._connection.execute(
            "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'schema_version'"
        ).fetchone()
        if exists is None:
            return None
        row = self._connection.execute("SELECT version FROM schema_version").fetchone()
        return int(row[0]) if row else None

    @property
    def schema_version(self) -> int:
        row = self._connection.execute("SELECT version FROM schema_version").fetchone()
        return int(row[0])

    def create(self, chat_id: str, ruleset: dict[str, Any], start: dict[str, Any]) -> None:
        """Store a new chat; raises `ChatExistsError` when the id is taken."""
        row = (
            chat_id,
            json.dumps(ruleset, ensure_ascii=False),
            json.dumps(start, ensure_ascii=False),
            tenant_of(chat_id),
        )
        try:
            with self._transaction() as db:
                db.execute(
                    "INSERT INTO chats (chat_id, ruleset, start, tenant) VALUES (?, ?, ?, ?)", row
                )
        except sqlite3.IntegrityError:
            raise ChatExistsError(f"a chat {chat_id!r} exists already") from None

    def load(self, chat_id: str) -> StoredChat:
        with self._lock, self._errors_said():
            # One read transaction: another process's step cannot land between the statements.
            self._connection.execute("BEGIN")
            try:
                return self._load(chat_id)
            except (ValueError, TypeError) as error:
                raise StoreCorruptError(
                    f"{self.path}: a row of chat {chat_id!r} cannot be read: {error}"
                ) from None
            finally:
                if self._connection.in_transaction:
                    self._connection.execute("COMMIT")

    def _load(self, chat_id: str) -> StoredChat:
        db = self._connection
        row = db.execute(
            "SELECT ruleset, start, revision FROM chats WHERE chat_id = ?", (chat_id,)
        ).fetchone()
        if row is None:
            raise UnknownChatError(f"no chat {chat_id!r}")
        messages = db.execute(
            "SELECT position, role, selected FROM messages WHERE chat_id = ? ORDER BY position",
            (chat_id,),
        ).fetchall()
        swipes = db.execute(
            "SELECT position, text, reply, narration, receipts, game FROM swipes "
            "WHERE chat_id = ? ORDER BY position, swipe",
            (chat_id,),
        ).fetchall()
        return stored_chat(row, messages, swipes)

    def revision(self, chat_id: str) -> int:
        """The chat's revision as stored now (`UnknownChatError` when there is none)."""
        with self._lock, self._errors_said():
            row = self._connection.execute(
                "SELECT revision FROM chats WHERE chat_id = ?", (chat_id,)
            ).fetchone()
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
            bumped = db.execute(
                "UPDATE chats SET revision = revision + 1 WHERE chat_id = ? "
                "AND (? IS NULL OR revision = ?) RETURNING revision",
                (chat_id, revision, revision),
            ).fetchone()
            if bumped is None:
                raise StaleChatError(f"chat {chat_id!r} changed since it was read")
            self._write_tail(db, chat_id, first, messages, kept)
            return int(bumped[0])

    def _write_tail(
        self,
        db: sqlite3.Connection,
        chat_id: str,
        first: int,
        messages: Sequence[StoredMessage],
        kept: int,
    ) -> None:
        if kept:
            for table in ("swipes", "shown"):
                db.execute(
                    f"DELETE FROM {table} WHERE chat_id = ? AND "  # a fixed name
                    "(position > ? OR (position = ? AND swipe >= ?))",
                    (chat_id, first, first, kept),
                )
            db.execute("DELETE FROM messages WHERE chat_id = ? AND position > ?", (chat_id, first))
            head, *rest = messages
            db.execute(
                "UPDATE messages SET selected = ? WHERE chat_id = ? AND position = ?",
                (head.selected, chat_id, first),
            )
            self._insert_swipes(db, chat_id, first, head, kept)
            self._insert_messages(db, chat_id, first + 1, rest)
            return
        for table in ("swipes", "shown", "messages"):
            db.execute(f"DELETE FROM {table} WHERE chat_id = ? AND position >= ?", (chat_id, first))
        self._insert_messages(db, chat_id, first, messages)

    def _insert_messages(
        self,
        db: sqlite3.Connection,
        chat_id: str,
        first: int,
        messages: Sequence[StoredMessage],
    ) -> None:
        for offset, message in enumerate(messages):
            position = first + offset
            db.execute(
                "INSERT INTO messages VALUES (?, ?, ?, ?)",
                (chat_id, position, message.role, message.selected),
            )
            self._insert_swipes(db, chat_id, position, message, 0)

    def _insert_swipes(
        self,
        db: sqlite3.Connection,
        chat_id: str,
        position: int,
        message: StoredMessage,
        first: int,
    ) -> None:
        swipes = message.swipes[first:]
        if message.role == "reply":
            rows = [(chat_id, position, first + n, s["narration"]) for n, s in enumerate(swipes)]
            db.executemany("INSERT INTO shown VALUES (?, ?, ?, ?)", shown_rows(rows))
        for number, swipe in enumerate(swipes, start=first):
            db.execute(
                "INSERT INTO swipes VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                (
                    chat_id,
                    position,
                    number,
                    swipe["text"],
                    swipe["reply"],
                    swipe["narration"],
                    json.dumps(swipe["receipts"], ensure_ascii=False),
                    game_text(swipe["game"]),
                ),
            )

    def put(self, chat_id: str, chat: StoredChat, *, replace: bool) -> None:
        """Store a whole chat in one transaction; a taken id is `ChatExistsError` unless
        `replace`, when the chat there is replaced (at a revision past the one it had, so every
        worker holding it reads it again)."""
        try:
            with self._transaction() as db:
                revision = chat.revision
                if replace:
                    held = db.execute(
                        "SELECT revision FROM chats WHERE chat_id = ?", (chat_id,)
                    ).fetchone()
                    revision = max(revision, int(held[0]) + 1) if held else revision
                    for table in ("shown", "swipes", "messages", "chats"):
                        db.execute(f"DELETE FROM {table} WHERE chat_id = ?", (chat_id,))
                row = (
                    chat_id,
                    json.dumps(chat.ruleset, ensure_ascii=False),
                    json.dumps(chat.start, ensure_ascii=False),
                    revision,
                    tenant_of(chat_id),
                )
                db.execute(
                    "INSERT INTO chats (chat_id, ruleset, start, revision, tenant) "
                    "VALUES (?, ?, ?, ?, ?)",
                    row,
                )
                self._insert_messages(db, chat_id, 0, chat.messages)
        except sqlite3.IntegrityError:
            raise ChatExistsError(f"a chat {chat_id!r} exists already") from None

    def keep_ruleset(self, fingerprint: str, ruleset_id: str, document: dict[str, Any]) -> None:
        """Keep a ruleset's document under its fingerprint (once: the content is the key)."""
        with self._transaction() as db:
            db.execute(
                "INSERT OR IGNORE INTO rulesets VALUES (?, ?, ?)",
                (fingerprint, ruleset_id, json.dumps(document, ensure_ascii=False)),
            )

    def kept_ruleset(self, fingerprint: str) -> dict[str, Any] | None:
        with self._lock, self._errors_said():
            row = self._connection.execute(
                "SELECT document FROM rulesets WHERE fingerprint = ?", (fingerprint,)
            ).fetchone()
        if row is None:
            return None
        try:
            document: dict[str, Any] = json.loads(row[0])
        except ValueError as error:
            raise StoreCorruptError(
                f"{self.path}: ruleset {fingerprint} cannot be read: {error}"
            ) from None
        return document

    def kept_rulesets(self) -> list[tuple[str, str, dict[str, Any]]]:
        """Every ruleset kept: fingerprint, id and document (what a store copy carries over)."""
        with self._lock, self._errors_said():
            rows = self._connection.execute(
                "SELECT fingerprint, ruleset_id, document FROM rulesets ORDER BY fingerprint"
            ).fetchall()
        return [(fingerprint, ruleset_id, json.loads(doc)) for fingerprint, ruleset_id, doc in rows]

    def delete(self, chat_id: str) -> None:
        """Forget a chat and all its messages, in one transaction."""
        with self._transaction() as db:
            for table in ("shown", "swipes", "messages", "chats"):
                db.execute(f"DELETE FROM {table} WHERE chat_id = ?", (chat_id,))

    def chat_ids(self, tenant: str | None = None) -> list[str]:
        """The ids of every chat, or of one tenant's (as stored: see gm_tags.tenants)."""
        with self._lock, self._errors_said():
            if tenant is None:
                rows = self._connection.execute("SELECT chat_id FROM chats ORDER BY chat_id")
            else:
                rows = self._connection.execute(
                    "SELECT chat_id FROM chats WHERE tenant = ? ORDER BY chat_id", (tenant,)
                )
            return [r[0] for r in rows]

    def revisions(self, chat_ids: Sequence[str]) -> dict[str, int]:
        """The stored revision of each of `chat_ids` that exists, in one read."""
        found: dict[str, int] = {}
        with self._lock, self._errors_said():
            for at in range(0, len(chat_ids), REVISIONS_AT_ONCE):
                some = chat_ids[at : at + REVISIONS_AT_ONCE]
                marks = ", ".join("?" * len(some))
                found.update(
                    self._connection.execute(
                        f"SELECT chat_id, revision FROM chats WHERE chat_id IN ({marks})", some
                    ).fetchall()
                )
        return found

    def line_ids(self, key: str) -> list[str]:
        """The ids `key` and `key:...` (a chat's lines), read by a range of the primary key."""
        with self._lock, self._errors_said():
            rows = self._connection.execute(LINE_IDS_SQL, (key, key + ":", key + ";")).fetchall()
        return [row[0] for row in rows]

    def find_shown(self, digest: str, tenant: str | None = None) -> list[Shown]:
        """The stored replies whose shown text has this digest (`shown_digest`), of one
        tenant's chats when given, furthest into their chats first, at most `SHOWN_HITS`."""
        with self._lock, self._errors_said():
            found = FIND_SHOWN_SQL, (digest, tenant, tenant, SHOWN_HITS)
            rows = self._connection.execute(*found).fetchall()
        return [Shown(chat_id, position, swipe) for chat_id, position, swipe in rows]


REPLY_NARRATIONS_SQL = (
    "SELECT s.chat_id, s.position, s.swipe, s.narration FROM swipes s JOIN messages m "
    "ON m.chat_id = s.chat_id AND m.position = s.position WHERE m.role = 'reply'"
)
LINE_IDS_SQL = "SELECT chat_id FROM chats WHERE chat_id = ? OR (chat_id > ? AND chat_id < ?)"
# A tenant's hits are found among its own chats before the limit, so another tenant's stored
# replies can never crowd them out.
FIND_SHOWN_SQL = (
    "SELECT s.chat_id, s.position, s.swipe FROM shown s JOIN chats c ON c.chat_id = s.chat_id "
    "WHERE s.digest = ? AND (CAST(? AS TEXT) IS NULL OR c.tenant = ?) "
    "ORDER BY s.position DESC, s.chat_id DESC, s.swipe DESC LIMIT ?"
)


def stored_chat(
    chat: Sequence[Any], messages: Iterable[Sequence[Any]], swipes: Iterable[Sequence[Any]]
) -> StoredChat:
    """A chat as read: its row (ruleset, start, revision), its messages (position, role,
    selected) and its swipes (position, text, reply, narration, receipts, game) in order. Each
    swipe's game stays the JSON text it was stored as, made into a game when asked for
    (`Chats.open`), so a chat of many turns opens without reading each one's snapshot."""
    by_position: dict[int, list[dict[str, Any]]] = {}
    for position, text, reply, narration, receipts, game in swipes:
        by_position.setdefault(position, []).append(
            {
                "text": text,
                "reply": reply,
                "narration": narration,
                "receipts": json.loads(receipts),
                "game": game,
            }
        )
    return StoredChat(
        json.loads(chat[0]),
        json.loads(chat[1]),
        tuple(
            StoredMessage(role, selected, tuple(by_position.get(position, [])))
            for position, role, selected in messages
        ),
        int(chat[2]),
    )


def game_text(game: str | dict[str, Any]) -> str:
    """A swipe's game as stored: JSON text (a chat as read keeps it so)."""
    return game if isinstance(game, str) else json.dumps(game, ensure_ascii=False)


def shown_rows(
    rows: Iterable[tuple[str, int, int, str]],
) -> list[tuple[str, str, int, int]]:
    """`shown` rows for stored replies given as (chat, position, swipe, narration)."""
    return [
        (shown_digest(narration), chat_id, position, swipe)
        for chat_id, position, swipe, narration in rows
    ]


def _check_before_opening(path: str) -> None:
    """Refuse, untouched, a file gm-tags must not open: one that is not an SQLite database, or
    another application's (a database with tables of its own). An empty or missing file becomes
    a new store."""
    file = Path(path)
    if not file.exists():
        if not file.parent.is_dir():
            raise StoreError(f"{path}: cannot be created: the folder {file.parent} does not exist")
        return
    if file.is_dir():
        raise StoreError(f"{path}: is a folder, not a store file")
    try:
        with file.open("rb") as opened:
            header = opened.read(len(_SQLITE_HEADER))
    except OSError as error:
        raise StoreError(f"{path}: cannot be read: {error}") from None
    if not header:
        return
    if header != _SQLITE_HEADER:
        raise StoreError(f"{path}: not a gm-tags store (not an SQLite database); nothing changed")
    try:
        reader = sqlite3.connect(f"{file.resolve().as_uri()}?mode=ro", uri=True, timeout=0.5)
        try:
            tables = {
                row[0]
                for row in reader.execute("SELECT name FROM sqlite_master WHERE type = 'table'")
            }
        finally:
            reader.close()
    except sqlite3.OperationalError as error:
        if "locked" in str(error) or "busy" in str(error):
            return  # busy while another process writes: a store it is, opened below
        raise StoreError(f"{path}: cannot be read: {error}") from None
    except sqlite3.DatabaseError as error:
        raise StoreCorruptError(f"{path}: damaged: {error}") from None
    if tables and not tables >= _OWN_TABLES:
        shown = ", ".join(sorted(tables))
        raise StoreError(
            f"{path}: another application's database (tables: {shown}); gm-tags opens only an "
            "empty file or its own store, and changed nothing"
        )


def _integrity(connection: sqlite3.Connection) -> str:
    try:
        rows = connection.execute("PRAGMA integrity_check").fetchall()
    except sqlite3.Error as error:
        return str(error)
    return "; ".join(str(row[0]) for row in rows[:5])


def ruleset_from(source: dict[str, Any]) -> Ruleset:
    """A stored ruleset: `{"path": ...}` (a file or package folder) or `{"json": {...}}`."""
    if "path" in source:
        return load_ruleset(source["path"])
    return load_ruleset(source["json"])


class Chats:
    """Chats kept in a store: opened from it whole, and each step written back as it lands."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self._rulesets: dict[str, Ruleset] = {}
        self._lock = threading.Lock()

    def create(self, chat_id: str, ruleset: dict[str, Any], start: Game) -> Chat:
        _check_id(chat_id)
        self.store.create(chat_id, self._kept(ruleset, start), start.to_document())
        return Chat(start)

    def _kept(self, source: dict[str, Any], start: Game) -> dict[str, Any]:
        """The ruleset as a chat records it: where it came from, and its fingerprint in the
        store's own copy."""
        if start.ruleset is None:
            return source
        ruleset = start.ruleset
        self.store.keep_ruleset(ruleset.fingerprint, ruleset.id, ruleset.document)
        where = {key: value for key, value in source.items() if key == "path"}
        return {"id": ruleset.id, "fingerprint": ruleset.fingerprint, **where}

    def put(self, chat_id: str, ruleset: dict[str, Any], chat: Chat, *, replace: bool) -> None:
        """Store a whole chat at once (a replayed session), replacing one there if `replace`."""
        _check_id(chat_id)
        stored = StoredChat(
            self._kept(ruleset, chat.start),
            chat.start.to_document(),
            tuple(_stored(m) for m in chat.messages),
        )
        self.store.put(chat_id, stored, replace=replace)

    def open(self, chat_id: str) -> Chat:
        return self.open_at(chat_id)[0]

    def open_at(self, chat_id: str) -> tuple[Chat, int]:
        """The chat and the revision it was read at."""
        try:
            return self._open(chat_id)
        except GameDocumentError as error:
            raise StoreCorruptError(
                f"chat {chat_id!r}: a game it stored does not read back: {error}"
            ) from None

    def _open(self, chat_id: str) -> tuple[Chat, int]:
        stored = self.store.load(chat_id)
        ruleset = self._ruleset(stored.ruleset)

        def made(stored: str | dict[str, Any]) -> Callable[[], Game]:
            def make() -> Game:
                try:
                    document = json.loads(stored) if isinstance(stored, str) else stored
                except ValueError as error:
                    raise StoreCorruptError(
                        f"chat {chat_id!r}: a game it stored cannot be read: {error}"
                    ) from None
                try:
                    return Game.from_document(ruleset, document)
                except GameDocumentError as error:
                    raise StoreCorruptError(
                        f"chat {chat_id!r}: a game it stored does not read back: {error}"
                    ) from None

            return make

        messages = tuple(
            Message(
                message.role,  # type: ignore[arg-type]
                tuple(
                    StoredSwipe.read(
                        swipe["text"],
                        made(swipe["game"]),
                        swipe["reply"],
                        swipe["narration"],
                        tuple(swipe["receipts"]),
                    )
                    for swipe in message.swipes
                ),
                message.selected,
            )
            for message in stored.messages
        )
        chat = Chat(Game.from_document(ruleset, stored.start), messages)
        chat.game  # noqa: B018 - the snapshot it plays from is read now: a bad one is said here
        return chat, stored.revision

    def save(self, chat_id: str, before: Chat, after: Chat, revision: int | None = None) -> int:
        """Write what `after` changed from `before`: the messages from the first one that is not
        the same, in one transaction; with `revision`, only if the chat is still at it
        (`StaleChatError`). Returns the chat's revision after."""
        first = 0
        for old, new in zip(before.messages, after.messages, strict=False):
            if old is not new:
                break
            first += 1
        if first == len(before.messages) == len(after.messages):
            return revision if revision is not None else self.store.revision(chat_id)
        kept = 0
        if first < len(before.messages) and first < len(after.messages):
            old, new = before.messages[first], after.messages[first]
            if old.role == new.role:
                # The swipes a step left as they were (a regenerate adds one, a selection none).
                while (
                    kept < min(len(old.swipes), len(new.swipes))
                    and old.swipes[kept] is new.swipes[kept]
                ):
                    kept += 1
        tail = after.messages[first:]
        stored = [_stored(m, skip=kept if at == 0 else 0) for at, m in enumerate(tail)]
        return self.store.write_tail(chat_id, first, stored, kept, revision)

    def _ruleset(self, source: dict[str, Any]) -> Ruleset:
        key = json.dumps(source, sort_keys=True)
        with self._lock:
            if key not in self._rulesets:
                kept = (
                    self.store.kept_ruleset(source["fingerprint"])
                    if "fingerprint" in source
                    else None
                )
                self._rulesets[key] = (
                    load_stored(kept) if kept is not None else ruleset_from(source)
                )
            return self._rulesets[key]


def _check_id(chat_id: str) -> None:
    # A chat of a tenant other than the default is stored as `tenant/id`: its id is the part
    # the tenant chose (gm_tags.tenants).
    problem = chat_id_problem(chat_part(chat_id))
    if problem:
        raise HistoryError(f"{chat_id!r}: {problem}")


def _stored(message: Message, *, skip: int = 0) -> StoredMessage:
    """A message as the store keeps it; the first `skip` swipes (already stored) are left as
    placeholders, never serialized again."""
    return StoredMessage(
        message.role,
        message.selected,
        tuple({} for _ in message.swipes[:skip])
        + tuple(
            {
                "text": swipe.text,
                "reply": swipe.reply,
                "narration": swipe.narration,
                "receipts": list(swipe.receipts),
                "game": swipe.game.to_document(),
            }
            for swipe in message.swipes[skip:]
        ),
    )
