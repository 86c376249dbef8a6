"""The command line's option types: each turns one argument into its value or refuses it with a
message argparse prints as a usage error (exit 2), before anything is opened or written."""

from __future__ import annotations

import argparse
import socket
from urllib.parse import urlsplit

REPLAY = "replay:"


def port(text: str) -> int:
    """A TCP port a server can listen on: 1 to 65535."""
    number = _whole(text, "a port")
    if not 1 <= number <= 65535:
        raise argparse.ArgumentTypeError(f"a port is 1 to 65535, got {number}")
    return number


def positive(text: str) -> int:
    """A count that must be above 0 (a token budget)."""
    number = _whole(text, "a number")
    if number < 1:
        raise argparse.ArgumentTypeError(f"must be 1 or more, got {number}")
    return number


def seconds(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"seconds, as a number: got {text!r}") from None
    if not value > 0 or value == float("inf"):
        raise argparse.ArgumentTypeError(f"must be more than 0 seconds, got {text}")
    return value


def upstream(text: str) -> str:
    """A model's base URL (http or https, with a host) or `replay:SESSION.jsonl`."""
    if text.startswith(REPLAY) and len(text) > len(REPLAY):
        return text
    parts = urlsplit(text)
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise argparse.ArgumentTypeError(
            f"{text!r} is neither an http:// or https:// base URL "
            "(http://127.0.0.1:8080/v1) nor replay:SESSION.jsonl"
        )
    return text


def _whole(text: str, what: str) -> int:
    try:
        return int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{what} is a whole number, got {text!r}") from None


def taken(host: str, number: int) -> str | None:
    """Why a server cannot listen on `host:number`, asked before the store is opened (so a port
    in use leaves no new, empty store behind), or None when it can."""
    try:
        family = socket.getaddrinfo(host, number, type=socket.SOCK_STREAM)[0][0]
        with socket.socket(family, socket.SOCK_STREAM) as probe:
            probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            probe.bind((host, number))
    except OSError as error:
        return f"cannot listen on {host}:{number}: {error.strerror or error}"
    return None
