"""The default store: an embedded SQLite file (WAL, one transaction per step, the schema
versioned with migrations). Everything it does as SQL is `SqlStore`'s; this module opens the file
(refusing, untouched, one that is not a gm-tags store) and says SQLite's errors as store errors.

Writes go through one connection, one at a time. Reads go through connections of their own: in
WAL a reader sees the last commit without waiting for a writer, so a turn's reads do not queue
behind other turns' commits (each holds the writer for its fsync).
"""

from __future__ import annotations

import sqlite3
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import ClassVar

from ..settings import DEFAULT_DB
from .errors import StoreBusyError, StoreCorruptError, StoreError, StoreReadOnlyError
from .sql import SqlStore

# The tables every gm-tags store holds (a newer one may hold more); a database without them is
# another application's.
_OWN_TABLES = frozenset({"schema_version", "chats"})
_SQLITE_HEADER = b"SQLite format 3\x00"
# How long a step waits for another process's write lock before it is refused as busy.
BUSY_TIMEOUT = 2.0


class SqliteStore(SqlStore):
    """One SQLite file. Safe to share between threads: writes are serialized."""

    _driver_error: ClassVar[type[Exception]] = sqlite3.Error

    def __init__(self, path: str | Path = DEFAULT_DB) -> None:
        self.path = self._where = str(path)
        self._lock = threading.Lock()
        # Reader connections not in use now (as many are opened as threads read at once), under
        # a lock of their own: a read must not wait for the writer's.
        self._readers: list[sqlite3.Connection] = []
        self._readers_lock = threading.Lock()
        self._closed = False
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
        with self._lock, self._readers_lock:
            self._closed = True
            self._connection.close()
            while self._readers:
                self._readers.pop().close()

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
    def _reading(self, *, snapshot: bool = False) -> Iterator[sqlite3.Connection]:
        with self._errors_said(), self._reader() as reader:
            if not snapshot:
                yield reader
                return
            # One read transaction: a step committed meanwhile cannot land between the statements.
            reader.execute("BEGIN")
            try:
                yield reader
            finally:
                if reader.in_transaction:
                    reader.execute("COMMIT")

    @contextmanager
    def _reader(self) -> Iterator[sqlite3.Connection]:
        """A reader connection of this thread's alone until the read is done."""
        with self._readers_lock:
            if self._closed:
                raise sqlite3.ProgrammingError("Cannot operate on a closed database.")
            reader = self._readers.pop() if self._readers else None
        if reader is None:
            reader = sqlite3.connect(
                self.path, check_same_thread=False, isolation_level=None, timeout=BUSY_TIMEOUT
            )
            reader.execute("PRAGMA query_only=ON")
        try:
            yield reader
        finally:
            with self._readers_lock:
                if self._closed or reader.in_transaction:
                    reader.close()
                else:
                    self._readers.append(reader)

    def _id_taken(self, error: Exception) -> bool:
        return isinstance(error, sqlite3.IntegrityError)

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
        except sqlite3.ProgrammingError as error:
            # Closed: a chat opened from it reads its older messages from it (docs/history.md).
            raise StoreError(f"{self.path}: {error}") from None
        except sqlite3.DatabaseError as error:
            raise StoreCorruptError(
                f"{self.path}: damaged: {error}", _integrity(self._connection)
            ) from None

    def _schema_now(self) -> int | None:
        exists = self._connection.execute(
            "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'schema_version'"
        ).fetchone()
        if exists is None:
            return None
        row = self._connection.execute("SELECT version FROM schema_version").fetchone()
        return int(row[0]) if row else None


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
