"""A chat the proxy starts gets a readable name: the name the request gives, as given, or the first
words of the chat's opening; its id stays what finds it (issue #34: chats were opaque hashes)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from starlette.testclient import TestClient

from gm_tags.chats.transcript import Said, chat_title
from gm_tags.store import SqliteStore
from tests.proxy.inprocess import Scripted, proxy_app_for

GREETING = (
    "The lantern gutters as the rain comes down on the canals, and somewhere past the bridge "
    "a bell starts ringing."
)
TICK = 'Boots on the stairs. [clock: name="Alarm raised" tick="1"]'


@pytest.fixture
def proxy(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[tuple[TestClient, Scripted]]:
    with proxy_app_for(tmp_path / "chats.db", monkeypatch) as opened:
        yield opened


def test_a_recognised_chat_is_named_by_its_opening_words_and_a_named_one_as_given(
    proxy: tuple[TestClient, Scripted], tmp_path: Path
) -> None:
    client, upstream = proxy
    upstream.script({"reply": TICK}, {"reply": TICK})
    messages = [
        {"role": "system", "content": "You are the GM."},
        {"role": "assistant", "content": GREETING},
        {"role": "user", "content": "We climb the wall."},
    ]
    assert client.post("/v1/chat/completions", json={"model": "m", "messages": messages}).is_success
    named = client.post(
        "/v1/chat/completions",
        json={"model": "m", "messages": messages[2:]},
        headers={"X-GM-Chat": "Agnes's night: the vault"},
    )
    assert named.is_success
    store = SqliteStore(tmp_path / "chats.db")
    try:
        found = store.titles()
    finally:
        store.close()
    assert sorted(found.values()) == [
        "Agnes's night: the vault",
        "The lantern gutters as the rain comes down on the canals…",
    ]
    assert all(chat_id != title for chat_id, title in found.items())


def test_a_later_line_of_a_chat_says_which_it_is_and_control_characters_never_reach_a_title() -> (
    None
):
    opening = [Said("assistant", "Night falls.\nThe bell\tstarts.")]
    assert chat_title(None, opening, "chat-1f2e") == "Night falls. The bell starts."
    assert chat_title(None, opening, "chat-1f2e:2") == "Night falls. The bell starts. (2)"
    assert chat_title("  Table 7 ", [], "table-7") == "Table 7"
    assert chat_title(None, [], "chat-0") == ""
