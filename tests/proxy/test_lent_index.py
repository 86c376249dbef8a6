"""A line's index is lent to one plan at a time: plans run in worker threads, and another
request on the same line that read it before a step landed (an older read) brings an index to
its own read in place. The plan that walks an index meanwhile keeps the line as it read it."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient

import gm_tags.proxy.chats as proxy_chats
from gm_tags.chats.shown import Shown
from gm_tags.history import Chat
from gm_tags.proxy.hop import Hop
from tests.proxy.inprocess import Scripted, proxy_app_for
from tests.proxy.test_forks import asked

REPLY = 'The patrol passes. [clock: name="Alarm raised" tick="1"] Mira waits.'


def played(client: TestClient, turns: int) -> list[dict[str, str]]:
    messages: list[dict[str, str]] = []
    for turn in range(turns):
        messages.append({"role": "user", "content": f"Turn {turn}: we wait."})
        asked(client, messages)
    return messages


@pytest.mark.parametrize("meanwhile", [False, True])
def test_a_plan_walks_the_line_it_read_while_an_older_read_of_it_is_indexed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, meanwhile: bool
) -> None:
    with proxy_app_for(tmp_path / "chats.db", monkeypatch) as (client, upstream):
        assert isinstance(upstream, Scripted)
        upstream.script(*[{"reply": REPLY}] * 8)
        messages = played(client, 5)
        hop: Hop = client.app.state.hop  # type: ignore[attr-defined]
        indexes = hop.chats._indexes
        walk = proxy_chats.aligned_walk

        def walked_beside_another(shown: Sequence[tuple[str, Shown]], *args: Any) -> Any:
            # Another worker's plan, on the line as it read it before the last step landed,
            # indexes it now, while this plan is between its read and its walk.
            if meanwhile:
                for line, index in shown:
                    older = Chat(index.chat.start, tuple(index.chat.messages)[:-2])
                    indexes.of(hop.chats.chats.stored(line), older)
            return walk(shown, *args)

        monkeypatch.setattr(proxy_chats, "aligned_walk", walked_beside_another)
        # The client deletes the last exchange and says something else: a new line.
        deleted = [*messages[:-2], {"role": "user", "content": "No, we run."}]
        went = asked(client, deleted)
        monkeypatch.setattr(proxy_chats, "aligned_walk", walk)
        assert went["action"] == "reply"
        assert went["chat"] != "" and ":" in went["chat"], went
        # The line the client left keeps its last exchange: another request showing it whole
        # goes on there.
        on = asked(client, [*messages, {"role": "user", "content": "We wait on."}])
        assert ":" not in on["chat"] and on["action"] == "reply", on
