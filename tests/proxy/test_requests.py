"""What the proxy refuses, passes on, and keeps, in process against a scripted upstream: bad
requests and bad upstream chunks change nothing, bounds hold, and the OpenAI conventions (`n`,
usage, tool calls, content parts) come through."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient

from gm_tags.store import SqliteStore
from tests.proxy.inprocess import (
    Scripted,
    chunk,
    narration,
    proxy_app_for,
    streamed,
    summary,
)

USER = {"role": "user", "content": "We climb the wall."}
TICK = 'The bell rings. [clock: name="Alarm raised" tick="1"] Footsteps.'


@pytest.fixture
def db(tmp_path: Path) -> Path:
    return tmp_path / "chats.db"


@pytest.fixture
def proxy(db: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[tuple[TestClient, Scripted]]:
    with proxy_app_for(db, monkeypatch, max_reply=400) as opened:
        yield opened


def stored(db: Path) -> list[str]:
    store = SqliteStore(db)
    try:
        return store.chat_ids()
    finally:
        store.close()


@pytest.mark.parametrize(
    "body",
    [
        {"model": "m", "messages": []},
        {"model": "m", "messages": [{"role": "narrator", "content": "x"}]},
        {"model": "m", "messages": [{"role": "user", "content": 42}]},
        {"model": "m", "messages": [{"role": "user", "content": None}]},
        {"model": "m", "messages": [{"role": "user", "content": [{"text": "no type"}]}]},
        {"model": "m", "messages": [USER, "not a message"]},
        {"model": "m", "messages": [USER], "n": 0},
        {"model": "m", "messages": [USER], "n": 99},
        {"model": "m", "messages": [USER], "logprobs": True},
        {"model": "m", "messages": [USER], "top_logprobs": 2},
        {"model": "m", "messages": [{"role": "user", "content": "\ud800"}]},
        {"model": "m", "messages": [USER], "user": "\udfff"},
        {"model": "m", "messages": [USER], "temperature": float("nan")},
    ],
    ids=[
        "no-messages",
        "unknown-role",
        "content-42",
        "content-null",
        "part-without-type",
        "message-not-object",
        "n-0",
        "n-99",
        "logprobs",
        "top-logprobs",
        "lone-surrogate",
        "lone-surrogate-elsewhere",
        "nan",
    ],
)
def test_a_malformed_request_is_a_400_in_the_openai_shape_and_stores_nothing(
    proxy: tuple[TestClient, Scripted], db: Path, body: dict[str, Any]
) -> None:
    client, upstream = proxy
    answer = client.post(
        "/v1/chat/completions",
        content=json.dumps(body, ensure_ascii=True),
        headers={"content-type": "application/json"},
    )
    assert answer.status_code == 400
    assert set(answer.json()["error"]) == {"message", "type", "param", "code"}
    assert upstream.seen == [] and stored(db) == []


def test_a_body_over_two_megabytes_is_refused_and_stores_nothing(
    proxy: tuple[TestClient, Scripted], db: Path
) -> None:
    client, upstream = proxy
    big = {"model": "m", "messages": [{"role": "user", "content": "x" * (3 * 1024 * 1024)}]}
    answer = client.post("/v1/chat/completions", json=big)
    assert answer.status_code == 413
    assert "error" in answer.json()
    assert upstream.seen == [] and stored(db) == []


@pytest.mark.parametrize(
    "bad",
    [
        {"choices": "x"},
        {"choices": [None]},
        chunk([{"index": 0, "delta": "text", "finish_reason": None}]),
        chunk([{"index": 0, "delta": {"content": 7}, "finish_reason": None}]),
        chunk([{"index": 3, "delta": {"content": "x"}, "finish_reason": None}]),
    ],
    ids=["choices-not-a-list", "choice-null", "delta-text", "content-number", "index-past-n"],
)
def test_an_upstream_chunk_of_the_wrong_shape_ends_the_stream_with_an_error_and_changes_nothing(
    proxy: tuple[TestClient, Scripted], db: Path, bad: dict[str, Any]
) -> None:
    client, upstream = proxy
    good = chunk([{"index": 0, "delta": {"content": TICK}, "finish_reason": None}])
    upstream.script({"raw": [good, bad]})
    got = streamed(client, {"model": "m", "messages": [USER]})
    assert set(got[-1]["error"]) == {"message", "type", "param", "code"}
    assert "[DONE]" not in got
    assert stored(db) == []
    again = client.post("/v1/chat/completions", json={"model": "m", "messages": [USER]})
    assert again.json()["gm_tags"]["action"] == "reply"
    assert upstream.clocks_seen().startswith("Clocks now: Alarm raised 2/6")


def test_a_reply_over_the_cap_is_cut_and_kept_as_shown(
    proxy: tuple[TestClient, Scripted],
) -> None:
    client, upstream = proxy
    endless = TICK + " The rain goes on." * 100 + ' [clock: name="Alarm raised" tick="3"]'
    upstream.script({"reply": endless, "chunk": 9})
    got = streamed(client, {"model": "m", "messages": [USER]})
    finishes = [c["choices"][0]["finish_reason"] for c in got[:-1] if c["choices"]]
    assert finishes[-1] == "length"
    assert len(narration(got)) <= 400
    assert summary(got)["stopped"] is True
    shown = narration(got)
    messages = [USER, {"role": "assistant", "content": shown}, {"role": "user", "content": "On."}]
    client.post("/v1/chat/completions", json={"model": "m", "messages": messages})
    assert upstream.clocks_seen().startswith("Clocks now: Alarm raised 3/6")


def test_a_streamed_reply_is_cut_at_the_cap_exactly_even_inside_a_chunk(
    proxy: tuple[TestClient, Scripted],
) -> None:
    client, upstream = proxy
    # Chunks of 50: the tag closes at character 417, in the chunk that crosses the cap of 400.
    reply = "a" * 380 + '[clock: name="Alarm raised" tick="1"]' + "b" * 200
    upstream.script({"reply": reply, "chunk": 50})
    got = streamed(client, {"model": "m", "messages": [USER]})
    assert summary(got)["stopped"] is True
    assert narration(got) == summary(got)["narration"] == "a" * 380
    assert summary(got)["receipts"] == []  # the tag closed past the cut: never applied
    plain = "c" * 399 + "d" * 11
    upstream.script({"reply": plain, "chunk": 9})
    again = streamed(client, {"model": "m", "messages": [{"role": "user", "content": "Go."}]})
    assert narration(again) == plain[:400]


def test_the_usage_chunk_comes_after_the_last_content_chunk_as_it_is(
    proxy: tuple[TestClient, Scripted],
) -> None:
    client, upstream = proxy
    usage = {"prompt_tokens": 9, "completion_tokens": 3, "total_tokens": 12}
    usage["prompt_tokens_details"] = {"cached_tokens": 8}  # type: ignore[assignment]
    raw = [
        chunk([{"index": 0, "delta": {"content": TICK}, "finish_reason": None}], usage=None),
        chunk([{"index": 0, "delta": {}, "finish_reason": "stop"}], usage=None),
        chunk([], usage=usage),
    ]
    upstream.script({"raw": raw})
    got = streamed(
        client, {"model": "m", "messages": [USER], "stream_options": {"include_usage": True}}
    )
    assert got[-1] == "[DONE]"
    assert got[-2]["choices"] == [] and got[-2]["usage"] == usage
    assert "gm_tags" in got[-3] and got[-3]["choices"][0]["finish_reason"] == "stop"
    assert narration(got) == "The bell rings. Footsteps."


def test_tool_call_deltas_pass_through_untouched_and_store_nothing(
    proxy: tuple[TestClient, Scripted], db: Path
) -> None:
    client, upstream = proxy
    call = {"index": 0, "id": "call_1", "type": "function"}
    call["function"] = {"name": "roll", "arguments": '{"dice": 2}'}  # type: ignore[assignment]
    raw = [
        chunk([{"index": 0, "delta": {"role": "assistant", "tool_calls": [call]}}]),
        chunk([{"index": 0, "delta": {}, "finish_reason": "tool_calls"}]),
    ]
    upstream.script({"raw": raw})
    got = streamed(client, {"model": "m", "messages": [USER]})
    calls = [c["choices"][0]["delta"].get("tool_calls") for c in got[:-1] if c["choices"]]
    assert [call] in calls
    assert got[-2]["choices"][0]["finish_reason"] == "tool_calls"
    assert summary(got)["stored"] is False
    assert stored(db) == []


@pytest.mark.parametrize("stream", [True, False], ids=["stream", "whole"])
def test_n_choices_are_n_swipes_of_one_message_each_applied_to_the_same_snapshot(
    proxy: tuple[TestClient, Scripted], stream: bool
) -> None:
    client, upstream = proxy
    one = 'Bells. [clock: name="Alarm raised" tick="1"] One.'
    two = 'Horns. [clock: name="Alarm raised" tick="3"] Two.'
    upstream.script({"replies": [one, two], "chunk": 4})
    body = {"model": "m", "messages": [USER], "n": 2}
    if stream:
        got = streamed(client, body)
        texts = [narration(got, 0), narration(got, 1)]
        said = summary(got)
    else:
        answer = client.post("/v1/chat/completions", json=body).json()
        texts = [choice["message"]["content"] for choice in answer["choices"]]
        said = answer["gm_tags"]
    assert texts == ["Bells. One.", "Horns. Two."]
    assert (said["swipes"], said["swipe"]) == (2, 0)
    assert [[r["now"] for r in c["receipts"]] for c in said["choices"]] == [["3/6"], ["5/6"]]
    # The client shows the second choice: the next reply builds on it.
    shown = [USER, {"role": "assistant", "content": texts[1]}, {"role": "user", "content": "On."}]
    client.post("/v1/chat/completions", json={"model": "m", "messages": shown})
    assert upstream.clocks_seen().startswith("Clocks now: Alarm raised 5/6")


def test_n_choices_for_a_continue_are_refused_and_change_nothing(
    proxy: tuple[TestClient, Scripted],
) -> None:
    """SillyTavern sends `n` only for new replies (1.12.6, public/scripts/openai.js:
    `canMultiSwipe = oai_settings.n > 1 && !isContinue && !isImpersonate ...`)."""
    client, upstream = proxy
    upstream.script({"reply": TICK})
    first = client.post("/v1/chat/completions", json={"model": "m", "messages": [USER]}).json()
    shown = [USER, {"role": "assistant", "content": first["choices"][0]["message"]["content"]}]
    upstream.script({"replies": ['More. [clock: name="Alarm raised" tick="2"]'] * 2})
    refused = client.post("/v1/chat/completions", json={"model": "m", "messages": shown, "n": 2})
    assert refused.status_code == 400
    assert refused.json()["error"]["param"] == "n"
    assert "continue" in refused.json()["error"]["message"]
    # Nothing was asked of the upstream, and the continue with one choice builds on the reply.
    client.post("/v1/chat/completions", json={"model": "m", "messages": shown})
    assert len(upstream.seen) == 2
    assert upstream.clocks_seen().startswith("Clocks now: Alarm raised 3/6")


def test_content_given_as_parts_is_read_and_the_reminder_joins_them(
    proxy: tuple[TestClient, Scripted],
) -> None:
    client, upstream = proxy
    parts = [
        {"type": "text", "text": "We climb."},
        {"type": "image_url", "image_url": {"url": "x"}},
    ]
    upstream.script({"reply": TICK})
    first = client.post(
        "/v1/chat/completions",
        json={"model": "m", "messages": [{"role": "user", "content": parts}]},
    ).json()
    sent = upstream.seen[-1]["messages"][-1]["content"]
    assert sent[:2] == parts and sent[2]["type"] == "text" and "Clocks now:" in sent[2]["text"]
    shown = first["choices"][0]["message"]["content"]
    then = [
        {"role": "user", "content": parts},
        {"role": "assistant", "content": [{"type": "text", "text": shown}]},
        {"role": "user", "content": [{"type": "text", "text": "On."}]},
    ]
    after = client.post("/v1/chat/completions", json={"model": "m", "messages": then}).json()
    assert after["gm_tags"]["action"] == "reply"
    assert upstream.clocks_seen().startswith("Clocks now: Alarm raised 3/6")
