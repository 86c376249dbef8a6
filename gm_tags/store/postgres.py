"""The PostgreSQL store: the same tables, schema versions, migrations and statements as the
SQLite one (`SqlStore`), for several worker processes (on one or more machines) sharing one
database.

- psycopg 3 with a connection pool (`psycopg_pool`); each store operation takes a connection
  for one transaction and gives it back. `POOL_SIZE` connections at most per process.
- Migrations run in one transaction at start-up, under a transaction-scoped advisory lock, so
  workers starting at once migrate once and the others wait and find the schema current.
- Every step bumps the chat's revision in the transaction that writes it, only when the chat is
  still at the revision the step was computed on (`UPDATE ... WHERE revision = ...`, which also
  takes the row's lock until commit): two workers never both write a step built on one snapshot.
  READ COMMITTED is enough for that; a chat is read in one REPEATABLE READ snapshot.
  docs/deploy.md says what each isolation choice guarantees.

Needs the `postgres` extra: `pip install "gm-tags[postgres]"`.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager
from typing import Any, ClassVar

import psycopg
from psycopg import errors as pg_errors
from psycopg_pool import ConnectionPool, PoolTimeout

from .errors import StoreBusyError, StoreError
from .sql import SqlStore

POOL_SIZE = 8
# How long a worker waits for a pooled connection before the step is refused as busy.
POOL_WAIT = 10.0
# The advisory lock that serializes migrations between workers starting at once ("gmtg").
MIGRATION_LOCK = 0x676D7467


class PgStore(SqlStore):
    """A PostgreSQL database (a `postgresql://` URL). Safe to share between threads."""

    _driver_error: ClassVar[type[Exception]] = psycopg.Error
    # The range of `key:...` ids compared byte by byte, whatever the database's collation.
    _line_ids_sql: ClassVar[str] = (
        'SELECT chat_id, revision FROM chats WHERE chat_id = ? OR (chat_id COLLATE "C" > ? '
        'AND chat_id COLLATE "C" < ?)'
    )
    _held_revision_sql: ClassVar[str] = "SELECT revision FROM chats WHERE chat_id = ? FOR UPDATE"

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
    def _transaction(self, *, snapshot: bool = False) -> Iterator[_Statements]:
        """One transaction; a `snapshot` one reads every statement from one snapshot."""
        try:
            with (
                self._pool.connection() as connection,
                connection.transaction(),
                connection.cursor() as cursor,
            ):
                if snapshot:
                    cursor.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ READ ONLY")
                yield _Statements(cursor)
        except PoolTimeout:
            raise StoreBusyError(f"{self._where}: busy: no connection free; try again") from None
        except psycopg.Error as error:
            raise StoreError(f"{self._where}: {error}") from None

    @contextmanager
    def _reading(self, *, snapshot: bool = False) -> Iterator[_Statements]:
        with self._transaction(snapshot=snapshot) as db:
            yield db

    @contextmanager
    def _migrating(self) -> Iterator[_Statements]:
        with self._transaction() as db:
            db.execute("SELECT pg_advisory_xact_lock(?)", (MIGRATION_LOCK,))
            yield db

    def _id_taken(self, error: Exception) -> bool:
        return isinstance(error, StoreError) and isinstance(
            error.__context__, pg_errors.UniqueViolation
        )


class _Statements:
    """A cursor that takes the shared statements as written: `?` placeholders become
    psycopg's, and the text goes as bytes (psycopg takes only literal strings or bytes)."""

    def __init__(self, cursor: psycopg.Cursor[Any]) -> None:
        self._cursor = cursor

    def execute(self, sql: str, parameters: Sequence[Any] = (), /) -> psycopg.Cursor[Any]:
        if not parameters:
            return self._cursor.execute(sql.encode())
        return self._cursor.execute(sql.replace("?", "%s").encode(), parameters)

    def executemany(self, sql: str, parameters: Iterable[Sequence[Any]], /) -> None:
        rows = list(parameters)
        if rows:  # none would still cost a round trip
            self._cursor.executemany(sql.replace("?", "%s").encode(), rows)


def _without_password(url: str) -> str:
    """The URL as messages may show it: no password."""
    try:
        info = psycopg.conninfo.conninfo_to_dict(url)
    except psycopg.Error:
        return "the PostgreSQL store"
    host, name = info.get("host", "localhost"), info.get("dbname", "")
    return f"postgresql://{host}:{info.get('port', 5432)}/{name}"
