"""A new line forked from a long stored one (the last exchange deleted, the last line edited)
has the messages it shares copied in the store, not written again from the process's memory: a
process that never read the line's past forks it, and another process reads the new line back
whole, finds its replies by what they show and plays on from its snapshot."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient

from gm_tags import Game, load_ruleset
from gm_tags.chats.shown import Indexes
from gm_tags.history import Chat
from gm_tags.history_pages import PAGE
from gm_tags.store import Chats, open_store, shown_digest
from tests.proxy.conftest import RULESET
from tests.proxy.inprocess import Scripted, proxy_app_for

TURNS = PAGE  # twice a page of messages: a process that opens the line reads its last page only


def start() -> Game:
    return Game.new(load_ruleset(RULESET)).apply_reply('[clock: name="Alarm raised" size="6"]').game


def told(turn: int) -> str:
    # The first reply and the last (the one the fork deletes) raise the alarm.
    tick = ' [clock: name="Alarm raised" tick="1"]' if turn in (0, TURNS - 1) else ""
    return f"Hour {turn} passes.{tick}"


def asked(client: TestClient, messages: list[dict[str, str]]) -> dict[str, Any]:
    answer = client.post("/v1/chat/completions", json={"model": "m", "messages": messages})
    assert answer.status_code == 200, answer.text
    body: dict[str, Any] = answer.json()
    messages.append({"role": "assistant", "content": body["choices"][0]["message"]["content"]})
    return body["gm_tags"]  # type: ignore[no-any-return]


def played(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> tuple[Path, list[dict[str, str]], str]:
    """A line of `TURNS` turns played in a process of its own: its store, transcript and id."""
    db = tmp_path / "chats.db"
    messages: list[dict[str, str]] = []
    with proxy_app_for(db, monkeypatch) as (client, upstream):
        assert isinstance(upstream, Scripted)
        upstream.script(*({"reply": told(turn)} for turn in range(TURNS)))
        for turn in range(TURNS):
            messages.append({"role": "user", "content": f"Turn {turn}: we wait."})
            line: str = asked(client, messages)["chat"]
    return db, messages, line


def test_a_line_forked_in_one_process_reads_back_whole_and_plays_on_in_another(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    db, messages, line = played(tmp_path, monkeypatch)
    with proxy_app_for(db, monkeypatch) as (client, upstream):  # reads the line's last page
        assert isinstance(upstream, Scripted)
        upstream.script({"reply": "The dogs sleep on."})
        del messages[-2:]  # the last exchange deleted, another line written
        messages.append({"role": "user", "content": "Instead, we hide."})
        forked = asked(client, messages)
        assert forked["action"] == "reply" and forked["chat"] == f"{line}:2"
        # The new line's index (its source's, for the messages they share) places the next
        # request, the whole transcript or a window of it, on the new line.
        upstream.script({"reply": "Still."}, {"reply": "Quiet."})
        messages.append({"role": "user", "content": "We wait."})
        went_on = asked(client, messages)
        assert went_on["chat"] == forked["chat"] and went_on["action"] == "reply"
        window = [*messages[6:], {"role": "user", "content": "We wait on."}]
        went_on = asked(client, window)
        assert went_on["chat"] == forked["chat"] and went_on["action"] == "reply"
        messages += window[-2:]
    store = open_store(str(db))
    try:
        old, new = store.load(line), store.load(forked["chat"])
        # Every swipe, selection and game of the messages before the fork, as the line holds them.
        assert new.messages[: 2 * TURNS - 2] == old.messages[:-2]
        assert new.messages[2 * TURNS - 1].swipes[0]["narration"] == "The dogs sleep on."
        assert (new.ruleset, new.start, new.revision) == (old.ruleset, old.start, 2)  # 2 steps
        assert store.titles()[forked["chat"]] == f"{store.titles()[line]} (2)"
        copied = {hit.chat_id for hit in store.find_shown(shown_digest("Hour 1 passes."))}
        assert copied == {line, forked["chat"]}
        back = Chats(store).open(forked["chat"])
        shown = [m.swipe.narration if m.role == "reply" else m.swipe.text for m in back.messages]
        assert shown == [m["content"] for m in messages]
    finally:
        store.close()
    with proxy_app_for(db, monkeypatch) as (client, upstream):
        assert isinstance(upstream, Scripted)
        # A window that slid past the opening: found by the replies the new line copied.
        window = [*messages[10:], {"role": "user", "content": "We wait on."}]
        went_on = asked(client, window)
        assert went_on["chat"] == forked["chat"] and went_on["action"] == "reply"
        # The game's 2 and the first reply's tick: the deleted reply's is gone with it.
        assert upstream.clocks_seen().startswith("Clocks now: Alarm raised 3/6")


def test_a_forked_lines_index_made_from_its_sources_is_the_one_made_from_the_line() -> None:
    line = Chat(start())
    for turn in range(12):
        line = line.user("We wait." if turn % 3 else f"Turn {turn}.").reply(told(turn))[0]
    line = line.select(0)
    source = Indexes()
    source.of("k", line)
    for shared in (0, 1, 6, 7, len(line.messages)):
        forked = Chat(line.start, line.messages[:shared]).user("We wait.").reply("Rain.")[0]
        copied = source.of(f"k:{shared}", forked, ("k", line, shared))
        made = Indexes().of(f"k:{shared}", forked)
        assert (copied.positions, copied.roles, copied.texts, copied.bares, copied.users) == (
            made.positions,
            made.roles,
            made.texts,
            made.bares,
            made.users,
        )


@pytest.mark.parametrize("then", ["deleted", "its id reused"])
def test_a_forked_line_held_in_memory_plays_from_its_own_rows_when_its_source_goes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, then: str
) -> None:
    # The process that forks holds the new line; another worker then deletes the line it forked
    # from (or writes another chat under its id, as long and at no higher a revision). An edit
    # of the forked line's past reads the games of the messages it shares: its own rows', not
    # the gone line's (a 500, stale for good) nor the other chat's (its clocks, silently).
    db, messages, line = played(tmp_path, monkeypatch)
    with proxy_app_for(db, monkeypatch) as (client, upstream):  # reads the line's last page
        assert isinstance(upstream, Scripted)
        upstream.script({"reply": "The dogs sleep on."}, {"reply": "We edit."})
        forked = asked(client, [*messages[:-2], {"role": "user", "content": "Instead, we hide."}])
        assert forked["chat"] == f"{line}:2"
        store = open_store(str(db))
        try:
            store.delete(line)
            if then == "its id reused":
                other = Chat(start())
                for turn in range(TURNS):
                    tick = '[clock: name="Alarm raised" tick="-2"]'
                    other = other.user(f"Turn {turn}.").reply(tick if turn < 2 else "Rain.")[0]
                Chats(store).put(line, {"path": str(RULESET)}, other, replace=False)
        finally:
            store.close()
        edited = [*messages[: 2 * TURNS - 10], {"role": "user", "content": "Turn 59, edited."}]
        assert asked(client, edited)["chat"] == f"{line}:3"
        # The game's 2 and the first reply's tick, as the forked line holds them.
        assert upstream.clocks_seen().startswith("Clocks now: Alarm raised 3/6")
