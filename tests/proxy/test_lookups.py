"""A request finds its chat in one read of the store (`Store.found`): the replies its latest
messages show, looked up by digest, its key's lines, and the revision of each, however many
replies it shows; a line held at the revision that read found is not asked for again (a step
written since is refused when the turn lands, and the turn planned again)."""

from __future__ import annotations

import threading
from contextlib import AbstractContextManager
from pathlib import Path
from typing import Any

import pytest

import gm_tags.proxy.chats as proxy_chats
from gm_tags.store import SqliteStore
from tests.proxy.inprocess import proxy_app_for
from tests.proxy.test_forks import asked


def test_a_later_turn_finds_its_chat_in_one_read_of_the_store(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    planning = threading.local()
    reads: list[int] = []
    reading = SqliteStore._reading
    plan = proxy_chats.ProxyChats.plan

    def counted(store: SqliteStore, *, snapshot: bool = False) -> AbstractContextManager[Any]:
        if getattr(planning, "on", False):
            reads[-1] += 1
        return reading(store, snapshot=snapshot)

    def planned(chats: proxy_chats.ProxyChats, *args: Any) -> Any:
        reads.append(0)
        planning.on = True
        try:
            return plan(chats, *args)
        finally:
            planning.on = False

    monkeypatch.setattr(SqliteStore, "_reading", counted)
    monkeypatch.setattr(proxy_chats.ProxyChats, "plan", planned)
    with proxy_app_for(tmp_path / "chats.db", monkeypatch) as (client, upstream):
        messages: list[dict[str, str]] = []
        for turn in range(9):
            messages.append({"role": "user", "content": f"Turn {turn}: we wait."})
            upstream.script({"reply": f"Hour {turn} passes."})  # a reply of its own each
            summary = asked(client, messages)
        assert summary["message"] == len(messages) - 1  # each on the one line
    # Before, one read for each reply shown (up to 7), one for the key's lines, one per line's
    # revision: 1, 3, 4, ... 9.
    assert reads == [1] * 9
