"""Killing the server in the middle of a burst of replies loses no turn it answered and leaves no
turn half-written: a real uvicorn process on loopback, killed with SIGKILL."""

from __future__ import annotations

import http.client
import json
import os
import signal
import sqlite3
import threading
from pathlib import Path

import pytest

from gm_tags.store import Chats, SqliteStore
from tests.conftest import FIXTURES
from tests.service.server import serving

CREW = str(FIXTURES / "rulesets" / "crew-of-shadows.json")
HEIST = json.loads((FIXTURES / "games" / "crew-mid-heist.json").read_text("utf-8"))
CLIENTS = 8


def reply(client: int, number: int) -> str:
    # Ticks up and down so the clock never sticks at full and every turn changes the state.
    amount = 1 if number % 2 == 0 else -1
    spend = (
        '[sheet: who="Tobin Vell" op="spend" pool="stress" amount="1"]' if number % 3 == 0 else ""
    )
    return f'Client {client}, turn {number}. [clock: name="Vault door" tick="{amount}"]{spend}'


@pytest.mark.slow
@pytest.mark.load
@pytest.mark.spec("EN-3")
# A loopback socket left by an earlier test in this folder is sometimes collected while this one
# runs; its warning says nothing about this test (the leak is being traced, see issue 19's note).
@pytest.mark.filterwarnings("ignore::pytest.PytestUnraisableExceptionWarning")
def test_a_killed_server_keeps_every_answered_turn_whole(tmp_path: Path) -> None:
    db = tmp_path / "gm.sqlite"
    answered: list[str] = []
    lock = threading.Lock()
    enough = threading.Event()

    with serving(db, CREW) as server:
        status, _ = server.call(
            "POST", "/games", {"chatId": "c", "rulesetId": "crew-of-shadows", "game": HEIST}
        )
        assert status == 201

        def burst(client: int) -> None:
            connection = server.connect()
            for number in range(10_000):
                text = reply(client, number)
                try:
                    status, _ = server.call("POST", "/games/c/replies", {"text": text}, connection)
                except (OSError, http.client.HTTPException):
                    # The server is gone: killed before, or in the middle of, its answer (a cut
                    # answer is IncompleteRead or BadStatusLine, which are not OSErrors).
                    return
                assert status == 200
                with lock:
                    answered.append(text)
                    if len(answered) >= 150:
                        enough.set()

        threads = [threading.Thread(target=burst, args=(n,)) for n in range(CLIENTS)]
        for thread in threads:
            thread.start()
        assert enough.wait(timeout=120)
        os.kill(server.process.pid, signal.SIGKILL)
        for thread in threads:
            thread.join(timeout=60)
        server.process.wait(timeout=30)

    with sqlite3.connect(db) as raw:
        assert raw.execute("PRAGMA integrity_check").fetchone() == ("ok",)
        orphans = raw.execute(
            "SELECT COUNT(*) FROM messages m WHERE NOT EXISTS "
            "(SELECT 1 FROM swipes s WHERE s.chat_id = m.chat_id AND s.position = m.position)"
        ).fetchone()
        assert orphans == (0,)

    store = SqliteStore(db)  # open while the chat is read: it reads its past from the store
    try:
        chat = Chats(store).open("c")
        stored = [message.swipe.text for message in chat.messages]
        # Every answered turn is there; at most one in-flight turn per client landed unanswered.
        assert set(answered) <= set(stored)
        assert len(answered) <= len(stored) <= len(answered) + CLIENTS
        # Each stored snapshot is exactly the one its text makes from the snapshot before it.
        game = chat.start
        for message in chat.messages:
            expected = game.apply_reply(message.swipe.text).game
            assert message.swipe.game.to_document() == expected.to_document()
            game = message.swipe.game
    finally:
        store.close()
