"""Answers the proxy takes no turn from (a front-end's impersonate, a request with no story): sent
on as they came, nothing applied or stored, and no tag the model wrote reaches the player, streamed
or not, over chat completions and Messages."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient

from tests.proxy.inprocess import Scripted, chunk, narration, proxy_app_for, streamed, summary
from tests.proxy.test_anthropic_stream import Scripted as AnthropicScripted
from tests.proxy.test_anthropic_stream import events, message, shown, text_block
from tests.proxy.test_anthropic_stream import streamed as anthropic_streamed
from tests.proxy.test_requests import stored

USER = {"role": "user", "content": "We climb the wall."}
# What SillyTavern 1.12.6 sends after the story for an impersonate (../shared/reference/clients).
IMPERSONATE = {
    "role": "system",
    "content": "[Write your next reply from the point of view of User, using the chat history "
    "so far as a guideline for the writing style of User. Don't write as Ash or system.]",
}
# A player's line as a model that forgot its role writes it: a clock, a sheet mark and a check
# with both its branches.
LINE = (
    'I vault the wall. [clock: name="Alarm raised" tick="2"] **[sheet: who="Mira" op="spend" '
    'pool="stress" amount="3"]** I try the lock. [skill_check: skill="Tinker" dc="8"] '
    "[success: It clicks open.] [failure: It jams.] Quietly."
)
SHOWN = "I vault the wall. I try the lock. Quietly."


@pytest.fixture
def proxy(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> Iterator[tuple[TestClient, Scripted, Path]]:
    """The proxy in process, its scripted upstream, and its store's file."""
    db = tmp_path / "c.db"
    with proxy_app_for(db, monkeypatch, max_reply=400) as (client, upstream):
        yield client, upstream, db


def _asked(client: TestClient, body: dict[str, Any], stream: bool) -> tuple[list[str], Any]:
    """Each choice's text as the client got it, and `gm_tags`."""
    if stream:
        got = streamed(client, body)
        return [narration(got, index) for index in range(body.get("n", 1))], summary(got)
    answer = client.post("/v1/chat/completions", json=body).json()
    return [choice["message"]["content"] for choice in answer["choices"]], answer["gm_tags"]


@pytest.mark.parametrize("chunk_size", [1, 4, 1000], ids=["1", "4", "whole-chunk"])
@pytest.mark.parametrize("stream", [True, False], ids=["stream", "whole"])
def test_an_impersonated_line_reaches_the_player_without_its_tags_and_changes_nothing(
    proxy: tuple[TestClient, Scripted, Path], stream: bool, chunk_size: int
) -> None:
    client, upstream, db = proxy
    upstream.script({"reply": 'The gate. [clock: name="Alarm raised" tick="1"] Dogs.'})
    first = client.post("/v1/chat/completions", json={"model": "m", "messages": [USER]}).json()
    gm = {"role": "assistant", "content": first["choices"][0]["message"]["content"]}
    chats = stored(db)
    upstream.script({"reply": LINE, "chunk": chunk_size})
    body = {"model": "m", "messages": [USER, gm, IMPERSONATE]}
    texts, said = _asked(client, body, stream)
    assert texts == [SHOWN]
    assert said["action"] == "impersonate" and said["stored"] is False
    assert said["narration"] == SHOWN
    assert {receipt["reason"] for receipt in said["receipts"]} == {"not-applied"}
    assert len(said["receipts"]) == 3
    assert upstream.seen[-1]["messages"] == body["messages"]  # sent on as it came
    # The player sends the line as the input box holds it: the GM's reply builds on the game
    # the visible chat implies (the first reply's tick, none of the impersonated line's).
    player = {"role": "user", "content": texts[0]}
    client.post("/v1/chat/completions", json={"model": "m", "messages": [USER, gm, player]})
    assert upstream.clocks_seen().startswith("Clocks now: Alarm raised 3/6")
    assert stored(db) == chats


@pytest.mark.parametrize("stream", [True, False], ids=["stream", "whole"])
def test_a_request_with_no_story_gets_its_answer_without_tags_and_stores_nothing(
    proxy: tuple[TestClient, Scripted, Path], stream: bool
) -> None:
    client, upstream, db = proxy
    body = {"model": "m", "messages": [{"role": "system", "content": "Be brief."}], "n": 2}
    upstream.script({"replies": [LINE, "Plain [words] stay."], "chunk": 3})
    texts, said = _asked(client, body, stream)
    assert texts == [SHOWN, "Plain [words] stay."]
    assert said["action"] == "none" and said["stored"] is False
    assert "no user or assistant message" in said["why"]
    assert [one["narration"] for one in said["choices"]] == texts
    assert upstream.seen[-1]["messages"] == body["messages"]
    assert stored(db) == []


def test_a_wrong_chunk_in_a_passed_on_stream_ends_it_with_an_error_event(
    proxy: tuple[TestClient, Scripted, Path],
) -> None:
    client, upstream, _ = proxy
    good = chunk([{"index": 0, "delta": {"content": LINE[:30]}, "finish_reason": None}])
    upstream.script({"raw": [good, {"choices": "x"}]})
    got = streamed(client, {"model": "m", "messages": [USER, IMPERSONATE]})
    assert set(got[-1]["error"]) == {"message", "type", "param", "code"}
    assert "[clock" not in narration(got)


def test_a_passed_on_answer_over_the_cap_is_cut_without_its_tags(
    proxy: tuple[TestClient, Scripted, Path],
) -> None:
    client, upstream, _ = proxy
    upstream.script({"reply": LINE * 20, "chunk": 7})
    got = streamed(client, {"model": "m", "messages": [USER, IMPERSONATE]})
    finishes = [c["choices"][0]["finish_reason"] for c in got[:-1] if c["choices"]]
    assert finishes[-1] == "length" and summary(got)["stopped"] is True
    assert SHOWN in narration(got) and len(narration(got)) <= 400
    assert "[" not in narration(got)


@pytest.fixture
def anthropic(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> Iterator[tuple[TestClient, AnthropicScripted]]:
    options = {"anthropic_upstream": "http://up.invalid"}
    with proxy_app_for(tmp_path / "c.db", monkeypatch, AnthropicScripted(), **options) as opened:
        yield opened


# A Messages request with no story: its one user message only gives a tool's result.
TOOL_RESULT = [
    {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "t", "content": "4"}]}
]


def test_a_messages_stream_with_no_story_comes_without_tags_and_stores_nothing(
    anthropic: tuple[TestClient, AnthropicScripted], tmp_path: Path
) -> None:
    client, upstream = anthropic
    pieces = [LINE[at : at + 4] for at in range(0, len(LINE), 4)]
    upstream.queue.append(anthropic_streamed((text_block(""), pieces)))
    got = events(client, TOOL_RESULT)
    assert shown(got) == SHOWN
    said = got[-2]["gm_tags"]
    assert said["action"] == "none" and said["stored"] is False
    assert stored(tmp_path / "c.db") == []


def test_a_whole_message_with_no_story_comes_without_tags(
    anthropic: tuple[TestClient, AnthropicScripted],
) -> None:
    client, upstream = anthropic
    upstream.queue.append(message([text_block(LINE)]))
    body = {"model": "m", "max_tokens": 9, "messages": TOOL_RESULT}
    answer = client.post("/v1/messages", json=body).json()
    assert answer["content"] == [text_block(SHOWN)]
    assert answer["gm_tags"]["stored"] is False
