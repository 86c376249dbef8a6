"""Open event streams held as plain sockets: what a thousand play pages look like to a server."""

from __future__ import annotations

import socket


def open_stream(port: int, path: str, key: str | None = None) -> tuple[int, socket.socket]:
    """A `GET` of an event stream left open: its status, and the socket (its headers and its
    first event read)."""
    sock = socket.create_connection(("127.0.0.1", port), timeout=30)
    auth = f"Authorization: Bearer {key}\r\n" if key else ""
    sock.sendall(f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\n{auth}\r\n".encode())
    head = b""
    while b"\r\n\r\n" not in head:
        piece = sock.recv(4096)
        if not piece:
            break
        head += piece
    status = int(head.split(b" ", 2)[1])
    if status == 200:
        while b"event: ready" not in head:  # the stream's first event
            head += sock.recv(4096)
    return status, sock


def read_until(sock: socket.socket, marker: bytes) -> bytes:
    seen = b""
    while marker not in seen:
        piece = sock.recv(4096)
        if not piece:
            break
        seen += piece
    return seen
