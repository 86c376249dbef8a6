"""The command-line options `gm-tags serve` and `gm-tags proxy` share for who may come in, and
what they amount to: the keys, the names the server answers to, and the refusal to listen
beyond loopback without keys. Read when the parser is built: it imports nothing heavy."""

from __future__ import annotations

import argparse
from dataclasses import dataclass
from typing import TYPE_CHECKING

from ..settings import KEYS_ENVIRONMENT

if TYPE_CHECKING:
    from .keys import Keys

_EVERY_ADDRESS = frozenset({"0.0.0.0", "::", ""})


def add_access_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--keys",
        metavar="FILE",
        help=f"API keys, one TENANT=KEY a line; each key sees only its tenant's chats (else "
        f"the environment variable {KEYS_ENVIRONMENT}, same entries separated by commas)",
    )
    parser.add_argument(
        "--no-auth",
        action="store_true",
        help="listen beyond loopback without keys (only behind something that checks who comes "
        "in; docs/security.md)",
    )
    parser.add_argument(
        "--allowed-host",
        action="append",
        metavar="NAME",
        default=[],
        help="a Host name to answer to besides the loopback names (repeat for more; * for any)",
    )


@dataclass(frozen=True)
class Access:
    keys: Keys | None
    allowed_hosts: tuple[str, ...]


def access_from(args: argparse.Namespace) -> Access:
    """The keys and host names the options give; `KeysError` for keys that do not read,
    `ListenRefused` for a non-loopback address without keys or --no-auth."""
    from .keys import load_keys
    from .listening import check_listening

    keys = load_keys(args.keys)
    check_listening(args.host, keys is not None, args.no_auth)
    hosts = list(args.allowed_host)
    if args.host not in _EVERY_ADDRESS:
        hosts.append(args.host)  # the address it was told to listen on names it too
    return Access(keys, tuple(hosts))
