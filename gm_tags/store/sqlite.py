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

    def _reading(self, *, snapshot: bool = False) -> _Read:
        return _Read(self, snapshot)

    def _reader(self) -> sqlite3.Connection:
        """A reader connection for this thread's read alone (`_given_back` when it is done)."""
        with self._readers_lock:
            if self._closed:
                raise sqlite3.ProgrammingError("Cannot operate on a closed database.")
            reader = self._readers.pop() if self._readers else None
        if reader is None:
            reader = sqlite3.connect(
                self.path, check_same_thread=False, isolation_level=None, timeout=BUSY_TIMEOUT
            )
            reader.execute("PRAGMA query_only=ON")
        return reader

    def _given_back(self, reader: sqlite3.Connection) -> None:
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
        except sqlite3.Error as error:
            said = self._said(error)
            if said is error:
                raise
            raise said from None

    def _said(self, error: sqlite3.Error) -> Exception:
        """The store error an SQLite error means (a constraint a caller answers, such as a taken
        chat id, as it is)."""
        if isinstance(error, sqlite3.IntegrityError):
            return error
        if isinstance(error, sqlite3.OperationalError):
            text = str(error)
            if "locked" in text or "busy" in text:
                return StoreBusyError(
                    f"{self.path}: busy: another process is writing to it; try again"
                )
            if "readonly" in text or "read-only" in text:
                return StoreReadOnlyError(f"{self.path}: read-only: {text}")
            return StoreError(f"{self.path}: {text}")
        if isinstance(error, sqlite3.ProgrammingError):
            # Closed: a chat opened from it reads its older messages from it (docs/history.md).
            return StoreError(f"{self.path}: {error}")
        if isinstance(error, sqlite3.DatabaseError):
            return StoreCorruptError(f"{self.path}: damaged: {error}", _integrity(self._connection))
        return error

    def _schema_now(self) -> int | None:
        exists = self._connection.execute(
            "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'schema_version'"
        ).fetchone()
        if exists is None:
            return None
        row = self._connection.execute("SELECT version FROM schema_version").fetchone()
        return int(row[0]) if row else None


class _Read:
    """One read on a reader connection of this thread's alone until it is done (with
    `snapshot`, in one read transaction: a step committed meanwhile cannot land between its
    statements), SQLite's errors said as store errors (`SqliteStore._said`). A class, not
    generator-made context managers: each lookup a request makes went through three of those,
    a fifth of the Python the proxy's plan of a chat's next request runs."""

    def __init__(self, store: SqliteStore, snapshot: bool) -> None:
        self._store, self._snapshot = store, snapshot
        self._taken: sqlite3.Connection | None = None

    def __enter__(self) -> sqlite3.Connection:
        try:
            self._taken = reader = self._store._reader()
            if self._snapshot:
                reader.execute("BEGIN")
        except sqlite3.Error as error:
            self._done()
            said = self._store._said(error)
            if said is error:
                raise
            raise said from None
        return reader

    def __exit__(
        self, kind: type[BaseException] | None, error: BaseException | None, trace: object
    ) -> None:
        failed: sqlite3.Error | None = None
        try:
            if self._taken is not None and self._taken.in_transaction:
                self._taken.execute("COMMIT")
        except sqlite3.Error as committing:
            failed = committing
        finally:
            self._done()
        if isinstance(error, sqlite3.Error):
            failed = error
        if failed is None:
            return  # the read's own exception, if any, goes on as it is
        said = self._store._said(failed)
        if said is failed and failed is error:
            return
        raise said from None

    def _done(self) -> None:
        if self._taken is not None:
            self._store._given_back(self._taken)
            self._taken = None


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
