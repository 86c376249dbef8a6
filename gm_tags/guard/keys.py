"""API keys, each naming the tenant whose chats it opens.

Written one entry a line (`--keys FILE`) or separated by commas (`GM_TAGS_KEYS`):
`TENANT=KEY`. Several keys may name one tenant (to rotate one without a gap); one key names one
tenant. A key is at least `MIN_KEY_LENGTH` characters without white space or commas; `#` starts
a comment line. Keys are held as SHA-256 digests and looked up by digest, so no comparison of a
key's characters leaks how much of it was right.
"""

from __future__ import annotations

import hashlib
import os
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from ..errors import SourceError
from ..settings import KEYS_ENVIRONMENT as ENVIRONMENT
from ..tenants import tenant_problem

MIN_KEY_LENGTH = 16


class KeysError(SourceError):
    """The keys cannot be read: a missing file, or an entry that is not `TENANT=KEY`."""


@dataclass(frozen=True)
class Keys:
    """The tenants by the digest of their keys."""

    tenants: Mapping[bytes, str]

    def tenant(self, key: str) -> str | None:
        """The tenant `key` names, or None for a key that is not one of these."""
        return self.tenants.get(_digest(key))

    @property
    def names(self) -> frozenset[str]:
        return frozenset(self.tenants.values())


def parse_keys(text: str, where: str) -> Keys:
    """The keys written in `text` (from `where`, for messages)."""
    tenants: dict[bytes, str] = {}
    entries = [
        entry.strip()
        for line in text.splitlines()
        if not line.lstrip().startswith("#")
        for entry in line.split(",")
    ]
    for number, entry in enumerate((e for e in entries if e), start=1):
        tenant, equals, key = entry.partition("=")
        tenant, key = tenant.strip(), key.strip()
        problem = tenant_problem(tenant) if equals else "an entry is TENANT=KEY"
        if problem is None and (len(key) < MIN_KEY_LENGTH or len(key.split()) != 1):
            problem = f"a key is at least {MIN_KEY_LENGTH} characters, with no white space"
        if problem is None and tenants.get(_digest(key), tenant) != tenant:
            problem = "this key names another tenant already"
        if problem is not None:
            raise KeysError(f"{where}: entry {number}: {problem}")
        tenants[_digest(key)] = tenant
    if not tenants:
        raise KeysError(f"{where}: holds no key")
    return Keys(tenants)


def load_keys(path: str | None, environ: Mapping[str, str] = os.environ) -> Keys | None:
    """The keys of the file at `path`, else of `GM_TAGS_KEYS`; None when neither is given."""
    if path is not None:
        try:
            text = Path(path).read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as error:
            raise KeysError(f"{path}: cannot read the keys: {error}") from None
        return parse_keys(text, path)
    if environ.get(ENVIRONMENT, "").strip():
        return parse_keys(environ[ENVIRONMENT], ENVIRONMENT)
    return None


def _digest(key: str) -> bytes:
    return hashlib.sha256(key.encode("utf-8", "surrogatepass")).digest()
