"""The streamed replies of this process not yet written, so that no request is planned before
an earlier reply on its chat has landed.

A stream's reply is written when it ends, or, when the client stops it, when the proxy sees the
connection close: a moment after the client already sent its next request (regenerate, continue,
reply), which would otherwise be planned without the stopped reply. So a stream registers its
landing when it starts, and a request waits for the landings pending on its chat before it is
planned: on the chat it names, or on every chat of its tenant when it names none (then its chat
is known only from the transcript, by planning). The wait is bounded (`WAIT`): a client that
keeps a stream open and sends another request on the same chat is planned after that, as things
stand, and its write is reconciled as before.
"""

from __future__ import annotations

import threading
import weakref

import anyio

# The longest a request waits for earlier landings on its chat, in seconds.
WAIT = 3.0
# How often a waiting request looks again: landings are written in worker threads (or given up
# by a finalizer), so what they set is a plain flag, not the event loop's event.
_LOOK_AGAIN = 0.005


class Landing:
    """One stream's pending write; `done` when it is written, or will not be. Only a flag is
    set (from a worker thread, or a finalizer at any moment), no lock taken."""

    def __init__(self, tenant: str, key: str) -> None:
        self.tenant, self.key = tenant, key
        self.pending = True

    def done(self) -> None:
        self.pending = False


class Landings:
    """The pending landings of one proxy (one per process), by tenant and chat key."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._pending: list[Landing] = []

    def begin(self, tenant: str, key: str, owner: object) -> Landing:
        """A landing on `key`, pending until `done`, or until `owner` is gone (a stream the
        server dropped before it started leaves nothing to wait for)."""
        landing = Landing(tenant, key)
        weakref.finalize(owner, landing.done)
        with self._lock:
            self._pending = [one for one in self._pending if one.pending] + [landing]
        return landing

    async def settled(self, tenant: str, key: str | None, wait: float = WAIT) -> None:
        """Once the tenant's landings on `key` (on any chat when None) are written, or `wait`
        seconds have passed."""
        with self._lock:
            self._pending = [one for one in self._pending if one.pending]
            awaited = [
                one
                for one in self._pending
                if one.tenant == tenant and (key is None or one.key == key)
            ]
        if not awaited:
            return  # the common case: no timer set for a wait that cannot come
        with anyio.move_on_after(wait):
            while any(one.pending for one in awaited):
                await anyio.sleep(_LOOK_AGAIN)
