"""The PostgreSQL store: the same tables, schema versions and migrations as the SQLite one, for
several worker processes (on one or more machines) sharing one database.

- psycopg 3 with a connection pool (`psycopg_pool`); each store operation takes a connection
  for one transaction and gives it back. `POOL_SIZE` connections at most per process.
- Migrations run in one transaction at start-up, under a transaction-scoped advisory lock, so
  workers starting at once migrate once and the others wait and find the schema current.
- Every step bumps the chat's revision in the transaction that writes it, only when the chat is
  still at the revision the step was computed on (`UPDATE ... WHERE revision = %s`, which also
  takes the row's lock until commit): two workers never both write a step built on one snapshot.
  READ COMMITTED is enough for that; a chat is read in one REPEATABLE READ snapshot.
  docs/deploy.md says what each isolation choice guarantees.

Needs the `postgres` extra: `pip install "gm-tags[postgres]"`.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from typing import Any

import psycopg
from psycopg import errors as pg_errors
from psycopg_pool import ConnectionPool, PoolTimeout

from .store import (
    FIND_SHOWN_SQL,
    MIGRATIONS,
    REPLY_NARRATIONS_SQL,
    SHOWN_HITS,
    SHOWN_VERSION,
    ChatExistsError,
    Shown,
    StaleChatError,
    StoreBusyError,
    StoredChat,
    StoredMessage,
    StoreError,
    UnknownChatError,
    game_text,
    shown_rows,
    stored_chat,
)
from .tenants import tenant_of

POOL_SIZE = 8
# How long a worker waits for a pooled connection before the step is refused as busy.
POOL_WAIT = 10.0
# The advisory lock that serializes migrations between workers starting at once ("gmtg").
MIGRATION_LOCK = 0x676D7467


class PgStore:
    """A PostgreSQL database (a `postgresql://` URL). Safe to share between threads."""

    def __init__(self, url: str, *, pool_size: int = POOL_SIZE) -> None:
        self.url = url
        self._where = _without_password(url)
        try:
            self._pool = ConnectionPool(
                url,
                min_size=1,
                max_size=pool_size,
                timeout=POOL_WAIT,
                kwargs={"autocommit": False},
                open=True,
            )
            self._pool.wait(timeout=POOL_WAIT)
        except (psycopg.Error, PoolTimeout) as error:
            raise StoreError(f"{self._where}: cannot be opened: {error}") from None
        try:
            self._migrate()
        except StoreError:
            self._pool.close()
            raise

    def close(self) -> None:
        self._pool.close()

    @contextmanager
    def _transaction(self, *, snapshot: bool = False) -> Iterator[psycopg.Cursor[Any]]:
        """One transaction; a `snapshot` one reads every statement from one snapshot."""
        try:
            with (
                self._pool.connection() as connection,
                connection.transaction(),
                connection.cursor() as cursor,
            ):
                if snapshot:
                    cursor.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ READ ONLY")
                yield cursor
        except (ChatExistsError, StaleChatError, UnknownChatError, StoreError):
            raise
        except PoolTimeout:
            raise StoreBusyError(f"{self._where}: busy: no connection free; try again") from None
        except psycopg.Error as error:
            raise StoreError(f"{self._where}: {error}") from None

    def _migrate(self) -> None:
        with self._transaction() as db:
            db.execute("SELECT pg_advisory_xact_lock(%s)", (MIGRATION_LOCK,))
            db.execute("CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL)")
            row = db.execute("SELECT version FROM schema_version").fetchone()
            version = row[0] if row else 0
            if version > len(MIGRATIONS):
                raise StoreError(
                    f"{self._where}: written by a newer gm-tags (store schema {version}, this one "
                    f"reads up to {len(MIGRATIONS)})"
                )
            for script in MIGRATIONS[version:]:
                for statement in script.split(";"):
                    if statement.strip():
                        db.execute(statement.encode())
            if version < SHOWN_VERSION <= len(MIGRATIONS):
                rows = db.execute(REPLY_NARRATIONS_SQL.encode()).fetchall()
                _insert_shown(db, shown_rows(rows))
            if row is None:
                db.execute("INSERT INTO schema_version VALUES (%s)", (len(MIGRATIONS),))
            else:
                db.execute("UPDATE schema_version SET version = %s", (len(MIGRATIONS),))

    @property
    def schema_version(self) -> int:
        with self._transaction() as db:
            row = db.execute("SELECT version FROM schema_version").fetchone()
        return int(row[0]) if row else 0

    def create(self, chat_id: str, ruleset: dict[str, Any], start: dict[str, Any]) -> None:
        try:
            with self._transaction() as db:
                db.execute(
                    "INSERT INTO chats (chat_id, ruleset, start, tenant) VALUES (%s, %s, %s, %s)",
                    (chat_id, _json(ruleset), _json(start), tenant_of(chat_id)),
                )
        except StoreError as error:
            if isinstance(error.__context__, pg_errors.UniqueViolation):
                raise ChatExistsError(f"a chat {chat_id!r} exists already") from None
            raise

    def load(self, chat_id: str) -> StoredChat:
        # Three statements, one snapshot: a step committed between them cannot tear the chat.
        with self._transaction(snapshot=True) as db:
            row = db.execute(
                "SELECT ruleset, start, revision FROM chats WHERE chat_id = %s", (chat_id,)
            ).fetchone()
            if row is None:
                raise UnknownChatError(f"no chat {chat_id!r}")
            messages = db.execute(
                "SELECT position, role, selected FROM messages WHERE chat_id = %s "
                "ORDER BY position",
                (chat_id,),
            ).fetchall()
            swipes = db.execute(
                "SELECT position, text, reply, narration, receipts, game FROM swipes "
                "WHERE chat_id = %s ORDER BY position, swipe",
                (chat_id,),
            ).fetchall()
        return stored_chat(row, messages, swipes)

    def revision(self, chat_id: str) -> int:
        with self._transaction() as db:
            row = db.execute("SELECT revision FROM chats WHERE chat_id = %s", (chat_id,)).fetchone()
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
        with self._transaction() as db:
            bumped = db.execute(
                "UPDATE chats SET revision = revision + 1 WHERE chat_id = %s "
                "AND (%s::integer IS NULL OR revision = %s::integer) RETURNING revision",
                (chat_id, revision, revision),
            ).fetchone()
            if bumped is None:
                raise StaleChatError(f"chat {chat_id!r} changed since it was read")
            if kept:
                for table in ("swipes", "shown"):
                    db.execute(
                        f"DELETE FROM {table} WHERE chat_id = %s AND "  # a fixed name
                        "(position > %s OR (position = %s AND swipe >= %s))".encode(),
                        (chat_id, first, first, kept),
                    )
                db.execute(
                    "DELETE FROM messages WHERE chat_id = %s AND position > %s", (chat_id, first)
                )
                head, *rest = messages
                db.execute(
                    "UPDATE messages SET selected = %s WHERE chat_id = %s AND position = %s",
                    (head.selected, chat_id, first),
                )
                _insert_swipes(db, chat_id, first, head, kept)
                _insert_messages(db, chat_id, first + 1, rest)
            else:
                for table in ("swipes", "shown", "messages"):
                    db.execute(
                        f"DELETE FROM {table} WHERE chat_id = %s AND position >= %s".encode(),
                        (chat_id, first),
                    )
                _insert_messages(db, chat_id, first, messages)
            return int(bumped[0])

    def put(self, chat_id: str, chat: StoredChat, *, replace: bool) -> None:
        try:
            with self._transaction() as db:
                revision = chat.revision
                if replace:
                    held = db.execute(
                        "SELECT revision FROM chats WHERE chat_id = %s FOR UPDATE", (chat_id,)
                    ).fetchone()
                    revision = max(revision, int(held[0]) + 1) if held else revision
                    for table in ("shown", "swipes", "messages", "chats"):
                        db.execute(
                            f"DELETE FROM {table} WHERE chat_id = %s".encode(),  # a fixed name
                            (chat_id,),
                        )
                db.execute(
                    "INSERT INTO chats (chat_id, ruleset, start, revision, tenant) "
                    "VALUES (%s, %s, %s, %s, %s)",
                    (chat_id, _json(chat.ruleset), _json(chat.start), revision, tenant_of(chat_id)),
                )
                _insert_messages(db, chat_id, 0, chat.messages)
        except StoreError as error:
            if isinstance(error.__context__, pg_errors.UniqueViolation):
                raise ChatExistsError(f"a chat {chat_id!r} exists already") from None
            raise

    def keep_ruleset(self, fingerprint: str, ruleset_id: str, document: dict[str, Any]) -> None:
        with self._transaction() as db:
            db.execute(
                "INSERT INTO rulesets VALUES (%s, %s, %s) ON CONFLICT (fingerprint) DO NOTHING",
                (fingerprint, ruleset_id, _json(document)),
            )

    def kept_ruleset(self, fingerprint: str) -> dict[str, Any] | None:
        with self._transaction() as db:
            row = db.execute(
                "SELECT document FROM rulesets WHERE fingerprint = %s", (fingerprint,)
            ).fetchone()
        if row is None:
            return None
        document: dict[str, Any] = json.loads(row[0])
        return document

    def kept_rulesets(self) -> list[tuple[str, str, dict[str, Any]]]:
        with self._transaction() as db:
            rows = db.execute(
                "SELECT fingerprint, ruleset_id, document FROM rulesets ORDER BY fingerprint"
            ).fetchall()
        return [(fingerprint, ruleset_id, json.loads(doc)) for fingerprint, ruleset_id, doc in rows]

    def delete(self, chat_id: str) -> None:
        with self._transaction() as db:
            for table in ("shown", "swipes", "messages", "chats"):
                db.execute(f"DELETE FROM {table} WHERE chat_id = %s".encode(), (chat_id,))

    def chat_ids(self, tenant: str | None = None) -> list[str]:
        with self._transaction() as db:
            if tenant is None:
                rows = db.execute("SELECT chat_id FROM chats ORDER BY chat_id")
            else:
                rows = db.execute(
                    "SELECT chat_id FROM chats WHERE tenant = %s ORDER BY chat_id", (tenant,)
                )
            return [row[0] for row in rows]

    def revisions(self, chat_ids: Sequence[str]) -> dict[str, int]:
        with self._transaction() as db:
            rows = db.execute(
                "SELECT chat_id, revision FROM chats WHERE chat_id = ANY(%s)", (list(chat_ids),)
            ).fetchall()
        return {chat_id: int(revision) for chat_id, revision in rows}

    def line_ids(self, key: str) -> list[str]:
        with self._transaction() as db:
            rows = db.execute(_LINE_IDS_BYTEWISE, (key, key + ":", key + ";")).fetchall()
        return [row[0] for row in rows]

    def find_shown(self, digest: str, tenant: str | None = None) -> list[Shown]:
        with self._transaction() as db:
            rows = db.execute(_pg(FIND_SHOWN_SQL), (digest, tenant, tenant, SHOWN_HITS)).fetchall()
        return [Shown(chat_id, position, swipe) for chat_id, position, swipe in rows]


def _insert_messages(
    db: psycopg.Cursor[Any], chat_id: str, first: int, messages: Sequence[StoredMessage]
) -> None:
    for offset, message in enumerate(messages):
        position = first + offset
        db.execute(
            "INSERT INTO messages VALUES (%s, %s, %s, %s)",
            (chat_id, position, message.role, message.selected),
        )
        _insert_swipes(db, chat_id, position, message, 0)


def _insert_swipes(
    db: psycopg.Cursor[Any],
    chat_id: str,
    position: int,
    message: StoredMessage,
    first: int,
) -> None:
    swipes = message.swipes[first:]
    if message.role == "reply":
        shown = [(chat_id, position, first + n, s["narration"]) for n, s in enumerate(swipes)]
        _insert_shown(db, shown_rows(shown))
    rows = [
        (
            chat_id,
            position,
            number,
            swipe["text"],
            swipe["reply"],
            swipe["narration"],
            _json(swipe["receipts"]),
            game_text(swipe["game"]),
        )
        for number, swipe in enumerate(swipes, start=first)
    ]
    if rows:
        db.executemany("INSERT INTO swipes VALUES (%s, %s, %s, %s, %s, %s, %s, %s)", rows)


def _insert_shown(db: psycopg.Cursor[Any], rows: Sequence[tuple[str, str, int, int]]) -> None:
    if rows:
        db.executemany("INSERT INTO shown VALUES (%s, %s, %s, %s)", rows)


# The range of `key:...` ids compared byte by byte, whatever the database's collation.
_LINE_IDS_BYTEWISE = (
    b'SELECT chat_id FROM chats WHERE chat_id = %s OR (chat_id COLLATE "C" > %s '
    b'AND chat_id COLLATE "C" < %s)'
)


def _pg(statement: str) -> bytes:
    """A statement of the SQLite store's with PostgreSQL's placeholders."""
    return statement.replace("?", "%s").encode()


def _json(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False)


def _without_password(url: str) -> str:
    """The URL as messages may show it: no password."""
    try:
        info = psycopg.conninfo.conninfo_to_dict(url)
    except psycopg.Error:
        return "the PostgreSQL store"
    host, name = info.get("host", "localhost"), info.get("dbname", "")
    return f"postgresql://{host}:{info.get('port', 5432)}/{name}"
