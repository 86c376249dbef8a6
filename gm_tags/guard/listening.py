"""Where a server may listen: without keys, only on loopback, unless told `--no-auth`."""

from __future__ import annotations

import ipaddress

from ..errors import GmTagsError

# The names of this machine's own loopback interface: what a server answers to by default.
LOOPBACK_NAMES = frozenset({"localhost", "127.0.0.1", "::1"})


class ListenRefused(GmTagsError):
    """A server without keys asked to listen beyond loopback."""


def is_loopback(host: str) -> bool:
    if host.lower() in LOOPBACK_NAMES:
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False  # a name: it may resolve to anything


def check_listening(host: str, has_keys: bool, no_auth: bool) -> None:
    """Refuse to listen on `host` when that would serve every chat, unauthenticated, to anyone
    who can reach it."""
    if has_keys or no_auth or is_loopback(host):
        return
    raise ListenRefused(
        f"refusing to listen on {host} without keys: anyone who reaches it could read and change "
        "every chat. Give keys (--keys FILE or GM_TAGS_KEYS), listen on 127.0.0.1, or say "
        "--no-auth if something in front of it checks who comes in (docs/security.md)"
    )
