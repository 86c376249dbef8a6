"""Which store a `--db` names: a PostgreSQL database for a `postgresql://` (or `postgres://`)
URL, else an SQLite file. PostgreSQL's driver is imported only when one is named."""

from __future__ import annotations

from pathlib import Path

from ..settings import DEFAULT_DB
from .interface import Store
from .sqlite import SqliteStore


def open_store(db: str | Path = DEFAULT_DB) -> Store:
    """The store at `db`; PostgreSQL needs the `postgres` extra."""
    if is_database_url(db):
        from .postgres import PgStore

        return PgStore(str(db))
    return SqliteStore(db)


def is_database_url(db: str | Path) -> bool:
    return isinstance(db, str) and db.startswith(("postgresql://", "postgres://"))
