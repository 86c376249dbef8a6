"""The Messages relay in this process, in front of a scripted Anthropic upstream that sends the
events each test gives, as they are: text held back and released across blocks, a reply cut at
the cap, events no real server sends in that order or shape."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import Any

import httpx2
import pytest
from starlette.testclient import TestClient

from gm_tags.proxy.protocols.anthropic import with_section
from tests.proxy.inprocess import proxy_app_for
from tests.proxy.test_outcomes import REPLY
from tests.proxy.test_proxy import starting_game, tick
from tests.proxy.test_requests import stored

TOOL = {"type": "tool_use", "id": "toolu_1", "name": "roll", "input": {}}


class Scripted(httpx2.AsyncBaseTransport):
    """Answers each `POST v1/messages` with the next queued answer: a list of events (streamed
    as they are) or a message (as JSON)."""

    def __init__(self) -> None:
        self.queue: list[Any] = []
        self.headers: list[dict[str, str]] = []
        self.bodies: list[dict[str, Any]] = []

    async def handle_async_request(self, request: httpx2.Request) -> httpx2.Response:
        self.headers.append(dict(request.headers))
        self.bodies.append(json.loads(await request.aread()))
        answer = self.queue.pop(0) if self.queue else message([text_block(".")])
        if isinstance(answer, dict):
            return httpx2.Response(200, json=answer)
        return httpx2.Response(
            200, headers={"content-type": "text/event-stream"}, content=_sent(answer)
        )


async def _sent(events: list[Any]) -> AsyncIterator[bytes]:
    for event in events:
        data = event if isinstance(event, str) else json.dumps(event)
        name = "x" if isinstance(event, str) else event["type"]
        yield f"event: {name}\ndata: {data}\n\n".encode()


def message(content: list[dict[str, Any]]) -> dict[str, Any]:
    usage = {"input_tokens": 1, "output_tokens": 1}
    return {
        "id": "m",
        "type": "message",
        "role": "assistant",
        "model": "x",
        "content": content,
        "stop_reason": "end_turn",
        "stop_sequence": None,
        "usage": usage,
    }


def text_block(text: str) -> dict[str, Any]:
    return {"type": "text", "text": text}


def streamed(*blocks: tuple[dict[str, Any], list[str]], stop: str = "end_turn") -> list[Any]:
    """The events of a message made of `blocks`, each its start block and its text pieces (a
    tool call's pieces are its JSON)."""
    events: list[Any] = [{"type": "message_start", "message": message([])}]
    for index, (block, pieces) in enumerate(blocks):
        events.append({"type": "content_block_start", "index": index, "content_block": block})
        for piece in pieces:
            kind = (
                ("text_delta", "text")
                if block["type"] == "text"
                else ("input_json_delta", "partial_json")
            )
            delta = {"type": kind[0], kind[1]: piece}
            events.append({"type": "content_block_delta", "index": index, "delta": delta})
        events.append({"type": "content_block_stop", "index": index})
    delta = {"type": "message_delta", "delta": {"stop_reason": stop, "stop_sequence": None}}
    return [*events, {**delta, "usage": {"output_tokens": 5}}, {"type": "message_stop"}]


@pytest.fixture
def proxied(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> Iterator[tuple[TestClient, Scripted]]:
    options = {"anthropic_upstream": "http://up.invalid", "max_reply": 400}
    with proxy_app_for(tmp_path / "c.db", monkeypatch, Scripted(), **options) as opened:
        yield opened


def events(client: TestClient, said: str | list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The events of a streamed answer to `said` (one user message's text, or the messages)."""
    messages = [{"role": "user", "content": said}] if isinstance(said, str) else said
    body = {"model": "m", "max_tokens": 9, "messages": messages, "stream": True}
    got = []
    with client.stream("POST", "/v1/messages", json=body) as answer:
        for line in answer.iter_lines():
            if line.startswith("data: "):
                got.append(json.loads(line[6:]))
    return got


def shown(got: list[dict[str, Any]], index: int | None = None) -> str:
    return "".join(
        e["delta"]["text"]
        for e in got
        if e["type"] == "content_block_delta"
        and e["delta"]["type"] == "text_delta"
        and index in (None, e["index"])
    )


def test_text_in_two_blocks_is_one_reply_whose_tag_may_close_in_the_second(
    proxied: tuple[TestClient, Scripted],
) -> None:
    client, upstream = proxied
    first, second = 'The bell [clock: name="Alarm ', 'raised" tick="1"] rings. Then'
    upstream.queue.append(
        streamed((text_block(""), [first]), (text_block(""), [second, " quiet."]))
    )
    got = events(client, "We go in.")
    blocks = [(e["type"], e.get("index")) for e in got if e["type"] != "content_block_delta"]
    assert blocks == [
        ("message_start", None),
        ("content_block_start", 0),
        ("content_block_stop", 0),
        ("content_block_start", 1),
        ("content_block_stop", 1),
        ("message_delta", None),
        ("message_stop", None),
    ]
    assert shown(got, 0) == "The bell"
    assert shown(got) == starting_game().apply_reply(first + second + " quiet.").narration
    assert [r["now"] for r in got[-2]["gm_tags"]["receipts"]] == ["3/6"]


def test_narration_held_when_a_tool_call_starts_comes_in_a_text_block_after_it(
    proxied: tuple[TestClient, Scripted],
) -> None:
    client, upstream = proxied
    upstream.queue.append(
        streamed((text_block(""), ["He rolls. ["]), (TOOL, ["{}"]), stop="tool_use")
    )
    got = events(client, "Roll.")
    assert shown(got, 0) == "He rolls."
    assert [e["type"] for e in got[-6:]] == [
        "content_block_stop",  # the tool call's
        "content_block_start",
        "content_block_delta",
        "content_block_stop",
        "message_delta",
        "message_stop",
    ]
    assert got[-5] == {"type": "content_block_start", "index": 2, "content_block": text_block("")}
    assert shown(got, 2) == " ["
    assert got[-2]["delta"]["stop_reason"] == "tool_use"


def test_a_reply_over_the_cap_is_cut_and_kept_as_shown(
    proxied: tuple[TestClient, Scripted],
) -> None:
    client, upstream = proxied
    long = tick(1, "The guard turns.") + " He walks on." * 60
    upstream.queue.append(
        streamed((text_block(""), [long[at : at + 20] for at in range(0, len(long), 20)]))
    )
    got = events(client, "Wait.")
    assert [e["type"] for e in got[-3:]] == ["content_block_stop", "message_delta", "message_stop"]
    assert got[-2]["delta"]["stop_reason"] == "max_tokens"
    summary = got[-2]["gm_tags"]
    assert summary["stopped"] is True and summary["narration"] == shown(got)
    assert len(shown(got)) < 420


def test_a_streamed_reply_is_cut_at_the_cap_exactly_even_inside_an_event(
    proxied: tuple[TestClient, Scripted],
) -> None:
    client, upstream = proxied
    # The tag closes at character 417, in the event that crosses the cap of 400.
    reply = "a" * 380 + '[clock: name="Alarm raised" tick="1"]' + "b" * 200
    pieces = [reply[at : at + 50] for at in range(0, len(reply), 50)]
    upstream.queue.append(streamed((text_block(""), pieces)))
    got = events(client, "Wait.")
    summary = got[-2]["gm_tags"]
    assert summary["stopped"] is True
    assert shown(got) == summary["narration"] == "a" * 380
    assert summary["receipts"] == []  # the tag closed past the cut: never applied
    # A block that starts with text already past the cap.
    upstream.queue.append(streamed((text_block("c" * 399 + "d" * 11), [])))
    got = events(client, "Go.")
    starts = [e["content_block"].get("text", "") for e in got if e["type"] == "content_block_start"]
    assert "".join(starts) + shown(got) == "c" * 399 + "d"


@pytest.mark.parametrize(
    "wrong",
    [
        "{not json",
        {"type": "content_block_delta", "index": 5, "delta": {"type": "text_delta", "text": "[x]"}},
        {"type": "content_block_start", "index": "one", "content_block": text_block("")},
        {"type": "error", "error": {"type": "overloaded_error", "message": "busy"}},
    ],
    ids=["not-json", "text-for-no-text-block", "bad-index", "upstream-error"],
)
def test_a_wrong_event_ends_the_stream_with_an_error_event_and_keeps_nothing(
    proxied: tuple[TestClient, Scripted], wrong: Any
) -> None:
    client, upstream = proxied
    events_sent = streamed((text_block(""), [tick(1)]))
    upstream.queue.append([*events_sent[:3], wrong, *events_sent[3:]])
    got = events(client, "Break.")
    assert got[-1]["type"] == "error"
    assert "[x]" not in json.dumps(got)
    upstream.queue.append(streamed((text_block(""), ["."])))
    again = events(client, "Break.")
    assert again[-2]["gm_tags"]["action"] == "reply"  # the broken reply was never stored


def test_a_whole_message_gives_its_narration_in_its_first_text_block(
    proxied: tuple[TestClient, Scripted],
) -> None:
    client, upstream = proxied
    upstream.queue.append(message([text_block(tick(1, "A")), TOOL, text_block(" and B.")]))
    body = {"model": "m", "max_tokens": 9, "messages": [{"role": "user", "content": "Go."}]}
    answer = client.post("/v1/messages", json=body).json()
    narration = starting_game().apply_reply(tick(1, "A") + " and B.").narration
    assert answer["content"] == [text_block(narration), TOOL]
    assert answer["gm_tags"]["narration"] == narration


def test_the_proxys_own_key_goes_as_x_api_key_in_place_of_the_clients(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("GM_TEST_ANTHROPIC_KEY", "sk-ant-proxy")
    upstream = Scripted()
    options = {
        "anthropic_upstream": "http://up.invalid",
        "anthropic_key_env": "GM_TEST_ANTHROPIC_KEY",
    }
    with proxy_app_for(tmp_path / "k.db", monkeypatch, upstream, **options) as (client, _):
        body = {"model": "m", "max_tokens": 9, "messages": [{"role": "user", "content": "Hi."}]}
        sent = {"x-api-key": "client", "authorization": "Bearer client", "anthropic-beta": "b1"}
        assert client.post("/v1/messages", json=body, headers=sent).status_code == 200
    got = upstream.headers[-1]
    assert (got["x-api-key"], got.get("authorization")) == ("sk-ant-proxy", None)
    assert (got["anthropic-beta"], got["anthropic-version"]) == ("b1", "2023-06-01")


@pytest.mark.parametrize("stream", [True, False], ids=["stream", "whole"])
def test_with_outcomes_shown_a_continue_starts_a_line_of_its_own(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, stream: bool
) -> None:
    more = 'Dogs bark. [clock: name="Alarm raised" tick="1"] They run.'
    upstream = Scripted()
    upstream.queue += [
        message([text_block(REPLY)]),
        streamed((text_block(""), [more[:9], more[9:]])),
    ]
    if not stream:
        upstream.queue[1] = message([text_block(more)])
    options = {"anthropic_upstream": "http://up.invalid", "show_outcomes": True}
    with proxy_app_for(tmp_path / "o.db", monkeypatch, upstream, **options) as (client, _):
        first = [{"role": "user", "content": "We climb the wall."}]
        body = {"model": "m", "max_tokens": 9, "messages": first}
        told = client.post("/v1/messages", json=body).json()["content"][0]["text"]
        assert told.endswith("\n\n\u2699 Alarm raised 3/6 \u00b7 Mira: Stress 7/9")
        again = [*first, {"role": "assistant", "content": told}]
        if stream:
            added = shown(events(client, again))
        else:
            body = {"model": "m", "max_tokens": 9, "messages": again}
            added = client.post("/v1/messages", json=body).json()["content"][0]["text"]
    assert added == "\n\nDogs bark. They run.\n\n\u2699 Alarm raised 4/6"
    # The model reads its reply as it wrote it: the line was the player's only.
    assert upstream.bodies[-1]["messages"][-1]["content"] == "The bell rings. Mira stumbles."


HELLO = {"role": "user", "content": "Hello."}


@pytest.mark.parametrize(
    ("body", "param"),
    [
        ({"messages": []}, "messages"),
        ({"messages": [{"role": "system", "content": "x"}]}, "messages.0.role"),
        ({"messages": [{"role": "user", "content": 42}]}, "messages.0.content"),
        (
            {"messages": [HELLO, {"role": "user", "content": [{"text": "no type"}]}]},
            "messages.1.content",
        ),
        (
            {"messages": [{"role": "user", "content": [{"type": "text", "text": 7}]}]},
            "messages.0.content",
        ),
        ({"messages": [HELLO], "system": 42}, "system"),
        ({"messages": [HELLO], "system": [{"type": "text"}]}, "system"),
        ({"messages": [HELLO], "stream": "yes"}, "stream"),
        ({"messages": [HELLO], "metadata": "table-7"}, "metadata"),
        ({"messages": [{"role": "user", "content": "\ud800"}]}, "messages.0.content"),
        ({"messages": [HELLO], "system": "\udfff"}, "system"),
    ],
    ids=[
        "no-messages",
        "system-role",
        "content-42",
        "block-without-type",
        "text-not-text",
        "system-42",
        "system-block-without-text",
        "stream-yes",
        "metadata-text",
        "lone-surrogate",
        "lone-surrogate-in-system",
    ],
)
def test_a_malformed_request_is_a_400_in_anthropics_shape_and_nothing_is_asked_or_stored(
    proxied: tuple[TestClient, Scripted], tmp_path: Path, body: dict[str, Any], param: str
) -> None:
    client, upstream = proxied
    sent = json.dumps({"model": "m", "max_tokens": 9, **body}, ensure_ascii=True)
    answer = client.post("/v1/messages", content=sent, headers={"content-type": "application/json"})
    assert answer.status_code == 400
    error = answer.json()
    assert (error["type"], error["error"]["type"]) == ("error", "invalid_request_error")
    assert error["error"]["message"].startswith(param)
    assert upstream.headers == []
    assert not (tmp_path / "c.db").exists() or stored(tmp_path / "c.db") == []


def test_a_body_over_two_megabytes_is_a_413_request_too_large(
    proxied: tuple[TestClient, Scripted],
) -> None:
    client, upstream = proxied
    big = {
        "model": "m",
        "max_tokens": 9,
        "messages": [{"role": "user", "content": "x" * 3_000_000}],
    }
    answer = client.post("/v1/messages", json=big)
    assert (answer.status_code, answer.json()["error"]["type"]) == (413, "request_too_large")
    assert upstream.headers == []


@pytest.mark.parametrize(
    ("system", "section", "sent"),
    [
        (None, "GM.", [text_block("GM.")]),
        ("", "GM.", [text_block("GM.")]),
        ("Be brief.", "GM.", [text_block("Be brief."), text_block("GM.")]),
        ([text_block("A")], "GM.", [text_block("A"), text_block("GM.")]),
        (None, "", None),  # a ruleset with no system section: no system is made up
        ("Be brief.", "", "Be brief."),
    ],
)
def test_the_gm_section_is_one_more_system_block(system: Any, section: str, sent: Any) -> None:
    assert with_section(system, section) == sent
