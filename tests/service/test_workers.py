"""Three real `gm-tags serve` workers on one PostgreSQL database, eight clients posting replies,
regenerations and party saves to shared and separate chats, any request to any worker, and one
worker killed with SIGKILL mid-burst: every answered step is stored exactly once, each chat's
history is one line (every reply applied to the snapshot just before it), and the party revision
counts every save that landed."""

from __future__ import annotations

import http.client
import random
import signal
import threading
from collections import Counter
from typing import Any

import pytest

from gm_tags.store import Chats, open_store
from tests.conftest import FIXTURES
from tests.service.server import Server, serving

# One PostgreSQL cluster per worker: the files that start one share a worker.
pytestmark = [pytest.mark.slow, pytest.mark.xdist_group("postgres")]

CREW = str(FIXTURES / "rulesets" / "crew-of-shadows.json")
CLIENTS = 8
STEPS = 30
SHARED = ("shared-a", "shared-b")


def tick(client: int, step: int) -> str:
    return f'Client {client} moves, step {step}. [clock: name="Plan" tick="1"]'


class Answered:
    """What the workers said yes to."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.replies: Counter[tuple[str, str]] = Counter()
        self.saves: Counter[str] = Counter()


def call(server: Server, method: str, path: str, body: Any = None) -> tuple[int, Any]:
    return server.call(method, path, body)


def client(number: int, workers: list[Server], answered: Answered, killed: threading.Event) -> None:
    rng = random.Random(number)
    own = f"own-{number}"
    for step in range(STEPS):
        alive = [w for w in workers if not (killed.is_set() and w is workers[2])]
        worker = workers[2] if step % 3 == 2 and not killed.is_set() else rng.choice(alive)
        kind = rng.choice(["reply", "reply", "regenerate", "party"])
        chat = own if kind == "regenerate" else rng.choice([own, *SHARED])
        try:
            if kind == "party":
                chat = rng.choice(SHARED)
                status, game = call(worker, "GET", f"/games/{chat}")
                revision = game["game"].get("gamePartySheetRevision", 0)
                lair = f"Lair {number}.{step}"
                status, _ = call(
                    worker,
                    "POST",
                    f"/games/{chat}/party-sheet",
                    {"draft": {"fields": {"lair": lair}}, "revision": revision},
                )
                if status == 200:
                    with answered.lock:
                        answered.saves[chat] += 1
                continue
            text = tick(number, step)
            path = "regenerate" if kind == "regenerate" else "replies"
            status, _ = call(worker, "POST", f"/games/{chat}/{path}", {"text": text})
            if status == 200:
                with answered.lock:
                    answered.replies[(chat, text)] += 1
        except (OSError, http.client.HTTPException):
            continue  # the killed worker: no answer, so nothing to keep


def test_three_workers_one_database_and_one_killed_mid_burst(postgres: Any) -> None:
    url = postgres.new_database()
    with (
        serving(url, CREW) as one,
        serving(url, CREW) as two,
        serving(url, CREW) as three,
    ):
        workers = [one, two, three]
        for chat in (*SHARED, *(f"own-{n}" for n in range(CLIENTS))):
            status, _ = call(
                one, "POST", "/games", {"chatId": chat, "rulesetId": "crew-of-shadows"}
            )
            assert status == 201
            call(two, "POST", f"/games/{chat}/replies", {"text": '[clock: name="Plan" size="8"]'})
        answered = Answered()
        killed = threading.Event()
        threads = [
            threading.Thread(target=client, args=(n, workers, answered, killed))
            for n in range(CLIENTS)
        ]
        for thread in threads:
            thread.start()
        threading.Event().wait(1.0)
        three.process.send_signal(signal.SIGKILL)
        killed.set()
        for thread in threads:
            thread.join(timeout=300)
        assert call(one, "GET", "/health")[0] == 200 and call(two, "GET", "/health")[0] == 200

    store = open_store(url)
    try:
        chats = Chats(store)
        stored: Counter[tuple[str, str]] = Counter()
        for chat_id in store.chat_ids():
            chat = chats.open(chat_id)
            before = chat.start
            for message in chat.messages:
                if message.role == "reply":
                    for swipe in message.swipes:
                        stored[(chat_id, swipe.text)] += 1
                        # One line: each reply was applied to the snapshot just before it.
                        expected = before.apply_reply(swipe.text).game.to_document()
                        assert swipe.game.to_document() == expected
                before = message.swipe.game
            party = chat.game.party_revision
            events = sum(1 for m in chat.messages if m.swipe.text == "party sheet saved")
            assert party == events >= answered.saves[chat_id]
        for key, count in answered.replies.items():
            assert count == 1 and stored[key] == 1, key
        assert sum(answered.replies.values()) > CLIENTS * STEPS // 3
        assert sum(answered.saves.values()) > 0
    finally:
        store.close()
