"""A throw-away PostgreSQL cluster from the Debian binaries, for the tests that need a real server:
`initdb` and `pg_ctl` in a temporary folder, listening on a free port on 127.0.0.1 with trust
authentication. Run as root (CI), the server runs as the `postgres` user (initdb refuses root).
When CI=true and no PostgreSQL is installed, the tests that need it fail; elsewhere they skip."""

from __future__ import annotations

import glob
import os
import shutil
import subprocess
import tempfile
import time
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from tests.missing import missing
from tests.service.server import free_port


def postgres_bin() -> Path | None:
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"), key=_version)
    if found:
        return Path(found[-1]).parent
    initdb = shutil.which("initdb")
    return Path(initdb).parent if initdb else None


def _version(path: str) -> int:
    part = path.split("/")[4]
    return int(part) if part.isdigit() else 0


def need_postgres() -> Path:
    """The folder of the PostgreSQL binaries; a missing one fails under CI, else skips."""
    folder = postgres_bin()
    if folder is None:
        message = "PostgreSQL is not installed (apt-get install postgresql)"
        missing(message)
    return folder


class Cluster:
    def __init__(self, port: int) -> None:
        self.port = port

    def url(self, database: str = "postgres") -> str:
        return f"postgresql://postgres@127.0.0.1:{self.port}/{database}"

    def new_database(self) -> str:
        """A new, empty database on the cluster; its URL."""
        import psycopg

        name = f"t_{uuid.uuid4().hex[:12]}"
        with psycopg.connect(self.url(), autocommit=True) as connection:
            connection.execute(f"CREATE DATABASE {name}".encode())
        return self.url(name)


@contextmanager
def cluster() -> Iterator[Cluster]:
    binaries = need_postgres()
    root = Path(tempfile.mkdtemp(prefix="gm-tags-pg-"))
    data = root / "data"
    as_root = os.geteuid() == 0
    run_as = ["setpriv", "--reuid=postgres", "--regid=postgres", "--init-groups"] if as_root else []
    if as_root:
        shutil.chown(root, "postgres", "postgres")
    port = free_port()
    log = root / "server.log"
    subprocess.run(
        [*run_as, str(binaries / "initdb"), "-D", str(data), "-U", "postgres", "-A", "trust"],
        check=True,
        capture_output=True,
    )
    options = f"-p {port} -c listen_addresses=127.0.0.1 -k {root} -c max_connections=200"
    options += " -c fsync=off -c synchronous_commit=off -c full_page_writes=off"
    subprocess.run(
        [
            *run_as,
            str(binaries / "pg_ctl"),
            "-D",
            str(data),
            "-l",
            str(log),
            "-o",
            options,
            "-w",
            "start",
        ],
        check=True,
        capture_output=True,
    )
    try:
        deadline = time.monotonic() + 30
        while (
            subprocess.run(
                [str(binaries / "pg_isready"), "-h", "127.0.0.1", "-p", str(port)],
                capture_output=True,
            ).returncode
            != 0
        ):
            if time.monotonic() > deadline:
                raise RuntimeError(f"PostgreSQL did not start: {log.read_text()}")
            time.sleep(0.1)
        yield Cluster(port)
    finally:
        subprocess.run(
            [*run_as, str(binaries / "pg_ctl"), "-D", str(data), "-m", "immediate", "stop"],
            capture_output=True,
        )
        shutil.rmtree(root, ignore_errors=True)
