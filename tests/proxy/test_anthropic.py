"""`gm-tags proxy --anthropic-upstream` through the official `anthropic` client, sync and async,
streaming and not, against a loopback Anthropic-shaped model server
(`tests.proxy.anthropic_upstream`): what the model receives, what the client sees, and which
snapshot each reply lands on when the front-end regenerates, swipes, deletes, edits and
continues (the same rules as chat completions, `tests/proxy/test_proxy.py`)."""

from __future__ import annotations

import asyncio
import itertools
import json
import os
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import anthropic
import httpx2
import pytest
from anthropic import Anthropic, AsyncAnthropic
from openai import OpenAI

from tests.proxy.conftest import Upstream, proxy_command, started, stopped
from tests.proxy.conftest import upstream as upstream  # the fixture: the same proxy serves both
from tests.proxy.test_proxy import opening, starting_game, tick
from tests.proxy.test_proxy_setup import SESSION, session_replies
from tests.service.server import free_port

pytestmark = pytest.mark.slow

GM = "You are the Game Master of a heist."
JSON = {"x-api-key": "k", "content-type": "application/json"}
_chats = itertools.count()


@pytest.fixture(scope="module")
def model() -> Iterator[Upstream]:
    """The Anthropic-shaped model server; its base URL as the Anthropic client takes it."""
    port = free_port()
    command = [sys.executable, "-m", "tests.proxy.anthropic_upstream", str(port)]
    process = started(command, port, "/control/requests")
    try:
        served = Upstream(port)
        served.url = f"http://127.0.0.1:{port}"
        yield served
    finally:
        stopped(process)


@pytest.fixture(autouse=True)
def _fresh_model(request: pytest.FixtureRequest) -> None:
    if "model" in request.fixturenames:
        request.getfixturevalue("model").reset()


@pytest.fixture(scope="module")
def proxy(
    model: Upstream, upstream: Upstream, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[str]:
    """One proxy for both protocols: chat completions to `upstream`, Messages to `model`."""
    port = free_port()
    db = tmp_path_factory.mktemp("anthropic") / "chats.db"
    more = ("--anthropic-upstream", model.url)
    process = started(
        proxy_command(upstream.url, db, port, *more), port, "/health", dict(os.environ)
    )
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        stopped(process)


@pytest.fixture
def client(proxy: str) -> Iterator[Anthropic]:
    with Anthropic(base_url=proxy, api_key="client-key", max_retries=0, timeout=30) as opened:
        yield opened


def user(text: str) -> dict[str, Any]:
    return {"role": "user", "content": text}


def said(narration: str) -> dict[str, Any]:
    return {"role": "assistant", "content": narration}


def ask(
    client: Anthropic, messages: list[dict[str, Any]], *, stream: bool, chat: str | None = None
) -> tuple[str, dict[str, Any]]:
    """The narration the client gets and the `gm_tags` summary."""
    headers = {"X-GM-Chat": chat} if chat else None
    if not stream:
        message = client.messages.create(
            model="m",
            max_tokens=500,
            messages=messages,
            extra_headers=headers,  # type: ignore[arg-type]
        )
        text = "".join(block.text for block in message.content if block.type == "text")
        return text, (message.model_extra or {})["gm_tags"]
    pieces: list[str] = []
    summary: dict[str, Any] = {}
    for event in client.messages.create(
        model="m",
        max_tokens=500,
        messages=messages,
        stream=True,
        extra_headers=headers,  # type: ignore[arg-type]
    ):
        if event.type == "content_block_delta" and event.delta.type == "text_delta":
            pieces.append(event.delta.text)
        if event.type == "message_delta":
            summary = (event.model_extra or {})["gm_tags"]
    return "".join(pieces), summary


def clocks_seen(model: Upstream) -> str:
    """The clocks the model was shown in the last request's reminder."""
    content = [m for m in model.last_messages() if m["role"] == "user"][-1]["content"]
    text = content if isinstance(content, str) else "".join(b.get("text", "") for b in content)
    return next(line for line in text.splitlines() if line.startswith("Clocks now:"))


def test_the_model_gets_the_gm_section_as_a_last_system_block_and_the_reminder(
    client: Anthropic, model: Upstream
) -> None:
    first = opening()
    cached = {"type": "text", "text": GM, "cache_control": {"type": "ephemeral"}}
    model.script({"reply": "Quiet."})
    client.messages.create(
        model="claude-x",
        max_tokens=300,
        system=[cached],  # type: ignore[list-item]
        messages=[user(first)],  # type: ignore[list-item]
        metadata={"user_id": f"table-{next(_chats)}"},
        extra_headers={"anthropic-version": "2023-06-01", "anthropic-beta": "fixture-beta"},
    )
    game = starting_game()
    seen = model.requests()[-1]
    assert seen["body"] == {
        "model": "claude-x",
        "max_tokens": 300,
        "system": [cached, {"type": "text", "text": game.system_prompt().text}],
        "messages": [user(first + "\n\n" + game.reminder())],
        "metadata": seen["body"]["metadata"],
    }
    # The client's key goes on as it sent it (the client's version decides which header), and
    # its API version with it.
    sent = {name: seen[name] for name in ("authorization", "x-api-key") if seen[name]}
    assert sent in ({"authorization": "Bearer client-key"}, {"x-api-key": "client-key"})
    assert (seen["anthropic-version"], seen["anthropic-beta"]) == ("2023-06-01", "fixture-beta")


def test_the_model_gets_the_client_s_own_text_with_the_section_and_the_reminder_put_in(
    proxy: str, model: Upstream
) -> None:
    """The body goes upstream as the client wrote it (its spacing, key order, escapes): only
    `system` and the latest user message are written again (`gm_tags.proxy.spliced`)."""
    model.script({"reply": "Quiet."})
    said = '{\n    "content": "Caf\\u00e9 \u2694",\n    "role": "user"\n  }'
    raw = (
        f'{{\n  "max_tokens": 9,\n  "messages": [\n  {said},\n  {{"role": "assistant", '
        f'"content": "Bells."}},\n  {{"role": "user", "content": "{opening()}"}}\n  ],\n'
        f'  "model": "m", "temperature": 1.0e0\n}}'
    ).encode()
    answer = httpx2.post(f"{proxy}/v1/messages", content=raw, headers=JSON)
    assert answer.status_code == 200, answer.text
    sent = model.requests()[-1]["text"]
    assert said in sent and '{"role": "assistant", "content": "Bells."}' in sent
    assert sent.startswith('{\n  "system":[{"type":"text","text":')
    assert sent.endswith('\n  ],\n  "model": "m", "temperature": 1.0e0\n}')
    assert model.requests()[-1]["body"]["messages"][0] == json.loads(said)


def test_a_system_given_as_text_becomes_the_first_of_two_blocks(
    client: Anthropic, model: Upstream
) -> None:
    model.script({"reply": "Quiet."})
    client.messages.create(model="m", max_tokens=9, system=GM, messages=[user(opening())])  # type: ignore[list-item]
    system = model.requests()[-1]["body"]["system"]
    assert system == [
        {"type": "text", "text": GM},
        {"type": "text", "text": starting_game().system_prompt().text},
    ]


@pytest.mark.parametrize("stream", [True, False], ids=["stream", "whole"])
def test_the_client_reads_narration_and_the_receipts_come_in_gm_tags(
    client: Anthropic, model: Upstream, stream: bool
) -> None:
    reply = tick(1, "The guard turns, his lantern swinging slowly across the yard.")
    model.script({"reply": reply, "chunk": 3})
    narration, summary = ask(client, [user(opening())], stream=stream)
    expected = starting_game().apply_reply(reply)
    assert narration == expected.narration == summary["narration"]
    assert "[" not in narration
    assert summary["reply"] == expected.reply
    assert [r["now"] for r in summary["receipts"]] == ["3/6"]
    assert (summary["action"], summary["message"], summary["swipe"]) == ("reply", 1, 0)


@pytest.mark.parametrize("stream", [True, False], ids=["stream", "whole"])
def test_the_async_client_gets_the_same(proxy: str, model: Upstream, stream: bool) -> None:
    reply = tick(2, "Glass breaks somewhere below.")
    model.script({"reply": reply, "chunk": 2})

    async def talk() -> tuple[str, dict[str, Any]]:
        messages: Any = [user(opening())]
        async with AsyncAnthropic(base_url=proxy, api_key="k", max_retries=0) as client:
            if not stream:
                message = await client.messages.create(model="m", max_tokens=9, messages=messages)
                text = "".join(b.text for b in message.content if b.type == "text")
                return text, (message.model_extra or {})["gm_tags"]
            pieces, summary = [], {}
            async for event in await client.messages.create(
                model="m", max_tokens=9, messages=messages, stream=True
            ):
                if event.type == "content_block_delta" and event.delta.type == "text_delta":
                    pieces.append(event.delta.text)
                if event.type == "message_delta":
                    summary = (event.model_extra or {})["gm_tags"]
            return "".join(pieces), summary

    narration, summary = asyncio.run(talk())
    assert narration == starting_game().apply_reply(reply).narration
    assert [r["now"] for r in summary["receipts"]] == ["4/6"]


def raw_events(client: Anthropic, messages: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The events of a streamed answer as they come over the wire, pings and all."""
    got = []
    with client.messages.with_streaming_response.create(
        model="m",
        max_tokens=9,
        messages=messages,
        stream=True,  # type: ignore[arg-type]
    ) as response:
        name = None
        for line in response.iter_lines():
            if line.startswith("event: "):
                name = line[7:]
            elif line.startswith("data: "):
                data = json.loads(line[6:])
                assert data["type"] == name
                got.append(data)
    return got


def test_events_keep_their_order_and_pings_unknown_events_and_tool_calls_pass(
    client: Anthropic, model: Upstream
) -> None:
    reply = tick(1, "The dice are cast.")
    model.script({"reply": reply, "chunk": 4, "tool": True})
    events = raw_events(client, [user(opening())])
    kinds = [event["type"] for event in events]
    # The text block's stop waits for the next block; the message_delta for message_stop.
    assert kinds[:4] == ["message_start", "ping", "content_block_start", "content_block_delta"]
    assert "gm_test_unknown" in kinds
    assert kinds[-6:] == [
        "content_block_stop",
        "content_block_start",
        "content_block_delta",
        "content_block_stop",
        "message_delta",
        "message_stop",
    ]
    tool = events[-5:-2]
    assert tool[0]["content_block"]["name"] == "roll_dice"
    assert tool[1]["delta"] == {"type": "input_json_delta", "partial_json": '{"sides": 6}'}
    text = "".join(
        e["delta"]["text"] for e in events if e.get("delta", {}).get("type") == "text_delta"
    )
    assert text == starting_game().apply_reply(reply).narration
    assert events[-2]["delta"]["stop_reason"] == "tool_use"
    assert [r["now"] for r in events[-2]["gm_tags"]["receipts"]] == ["3/6"]


def test_a_whole_message_keeps_its_tool_call(client: Anthropic, model: Upstream) -> None:
    model.script({"reply": tick(1, "Roll."), "tool": True})
    message = client.messages.create(model="m", max_tokens=9, messages=[user(opening())])  # type: ignore[list-item]
    assert [block.type for block in message.content] == ["text", "tool_use"]
    narration = starting_game().apply_reply(tick(1, "Roll.")).narration
    assert message.content[0].text == narration  # type: ignore[union-attr]
    tool = message.content[1]
    assert (tool.id, tool.name, tool.input) == ("toolu_fixture", "roll_dice", {"sides": 6})  # type: ignore[union-attr]
    assert message.stop_reason == "tool_use"


@pytest.mark.parametrize("named", [False, True], ids=["transcript", "header"])
def test_regenerate_then_swipe_back_each_land_on_the_snapshot_the_history_says(
    client: Anthropic, model: Upstream, named: bool
) -> None:
    chat = f"heist-{next(_chats)}" if named else None
    first = user(opening())
    model.script({"reply": tick(1)}, {"reply": tick(2)}, {"reply": "Quiet."}, {"reply": "."})
    one, _ = ask(client, [first], stream=True, chat=chat)
    assert clocks_seen(model).startswith("Clocks now: Alarm raised 2/6")
    two, regenerated = ask(client, [first], stream=True, chat=chat)  # regenerate
    assert clocks_seen(model).startswith("Clocks now: Alarm raised 2/6")
    assert (regenerated["action"], regenerated["swipes"], regenerated["swipe"]) == (
        "regenerate",
        2,
        1,
    )
    then = user("We keep going.")
    ask(client, [first, said(two), then], stream=False, chat=chat)
    assert clocks_seen(model).startswith("Clocks now: Alarm raised 4/6")
    # Swipe back to the first reply and send the same message again.
    ask(client, [first, said(one), then], stream=False, chat=chat)
    assert clocks_seen(model).startswith("Clocks now: Alarm raised 3/6")


def test_editing_deleting_and_continuing_follow_the_transcript(
    client: Anthropic, model: Upstream
) -> None:
    u1, u2, u3 = user(opening()), user("Dogs?"), user("We run.")
    dogs = 'Hounds bay. [clock: name="Dogs loose" size="4"]'
    more = ' More. [clock: name="Alarm raised" tick="1"]'
    replies = [tick(1), dogs, ".", ".", more, "."]
    model.script(*({"reply": reply} for reply in replies))
    r1, _ = ask(client, [u1], stream=True)
    r2, _ = ask(client, [u1, said(r1), u2], stream=True)
    # Edit u2: what the replies did stands.
    ask(client, [u1, said(r1), user("Are there dogs?"), said(r2), u3], stream=False)
    assert clocks_seen(model).endswith("; Dogs loose 0/4.")
    # Delete the exchange after r1 (u2, r2): the dogs were never loosed.
    ask(client, [u1, said(r1), u3], stream=False)
    assert "Dogs loose" not in clocks_seen(model)
    assert clocks_seen(model).startswith("Clocks now: Alarm raised 3/6")
    # Continue r1 (an assistant message last: the Messages API's prefill).
    _, continued = ask(client, [u1, said(r1)], stream=True)
    assert clocks_seen(model).startswith("Clocks now: Alarm raised 3/6")
    assert continued["action"] == "continue"
    assert [r["now"] for r in continued["receipts"]] == ["4/6"]
    ask(client, [u1, said(r1 + continued["narration"]), user("Then?")], stream=False)
    assert clocks_seen(model).startswith("Clocks now: Alarm raised 4/6")


@pytest.mark.parametrize(
    ("step", "status"),
    [({"fail": 500}, 500), ({"fail": 429}, 429), ({"hang": 4}, 504)],
    ids=["500", "429", "timeout"],
)
@pytest.mark.parametrize("stream", [True, False], ids=["stream", "whole"])
def test_upstream_errors_come_back_in_the_anthropic_shape_and_change_no_game(
    client: Anthropic, model: Upstream, step: dict[str, Any], status: int, stream: bool
) -> None:
    u1 = user(opening())
    model.script({"reply": tick(1)}, step, {"reply": "."})
    first, _ = ask(client, [u1], stream=False)
    with pytest.raises(anthropic.APIStatusError) as raised:
        ask(client, [u1, said(first), user("Next.")], stream=stream)
    assert raised.value.status_code == status
    body = raised.value.body
    assert isinstance(body, dict) and body["type"] == "error" and body["error"]["message"]
    ask(client, [u1, said(first), user("Next.")], stream=False)
    assert clocks_seen(model).startswith("Clocks now: Alarm raised 3/6")


@pytest.mark.parametrize("broken", [{"malformed": True}, {"cut": True}], ids=["malformed", "cut"])
def test_a_broken_stream_is_an_error_event_and_changes_no_game(
    client: Anthropic, model: Upstream, broken: dict[str, Any]
) -> None:
    u1 = user(opening())
    model.script({"reply": tick(1), **broken}, {"reply": "."})
    with pytest.raises(anthropic.APIStatusError) as raised:
        ask(client, [u1], stream=True)
    assert isinstance(raised.value.body, dict) and raised.value.body["type"] == "error"
    _, summary = ask(client, [u1], stream=False)
    assert summary["action"] == "reply"  # not a regenerate: the broken reply was never kept
    assert clocks_seen(model).startswith("Clocks now: Alarm raised 2/6")


def test_a_request_the_proxy_refuses_is_an_anthropic_error(client: Anthropic) -> None:
    with pytest.raises(anthropic.BadRequestError) as raised:
        client.messages.create(
            model="m", max_tokens=9, messages=[{"role": "robot", "content": "x"}]
        )  # type: ignore[list-item,typeddict-item]
    assert raised.value.body == {
        "type": "error",
        "error": {
            "type": "invalid_request_error",
            "message": raised.value.body["error"]["message"],
        },  # type: ignore[index]
    }
    assert "messages.0.role" in raised.value.message


def test_a_proxy_without_an_anthropic_upstream_says_so(upstream: Upstream, tmp_path: Path) -> None:
    port = free_port()
    process = started(proxy_command(upstream.url, tmp_path / "o.db", port), port, "/health")
    try:
        with (
            Anthropic(base_url=f"http://127.0.0.1:{port}", api_key="k", max_retries=0) as client,
            pytest.raises(anthropic.NotFoundError) as raised,
        ):
            client.messages.create(model="m", max_tokens=9, messages=[user("Hello.")])  # type: ignore[list-item]
        assert "--anthropic-upstream" in raised.value.message
    finally:
        stopped(process)


def test_the_replay_upstream_answers_messages_from_a_recorded_session(tmp_path: Path) -> None:
    port = free_port()
    command = proxy_command("replay:x", tmp_path / "r.db", port)
    at = command.index("--upstream")
    command[at : at + 2] = ["--anthropic-upstream", f"replay:{SESSION}"]
    process = started(command, port, "/health")
    try:
        with Anthropic(base_url=f"http://127.0.0.1:{port}", api_key="k", max_retries=0) as client:
            first = [user("We go in through the skylight.")]
            narration, _ = ask(client, first, stream=True)
            _, regenerated = ask(client, first, stream=False)
    finally:
        stopped(process)
    replies = session_replies()
    assert narration == starting_game().apply_reply(replies[0]).narration
    assert regenerated["action"] == "regenerate"
    assert regenerated["reply"].startswith(replies[1].split(" [")[0])


def test_one_proxy_serves_both_protocols_on_one_store(
    proxy: str, client: Anthropic, model: Upstream, upstream: Upstream
) -> None:
    first = user(opening())
    upstream.script({"reply": tick(1)})
    model.script({"reply": "Quiet."})
    with OpenAI(base_url=f"{proxy}/v1", api_key="k", max_retries=0) as chat:
        completion = chat.chat.completions.create(model="m", messages=[first])  # type: ignore[list-item]
    started_over_openai = (completion.model_extra or {})["gm_tags"]
    shown = completion.choices[0].message.content or ""
    # The same story, told on over Messages: the same chat, the snapshot its reply left.
    _, summary = ask(client, [first, said(shown), user("We go on.")], stream=False)
    assert (summary["chat"], summary["action"], summary["message"]) == (
        started_over_openai["chat"],
        "reply",
        3,
    )
    assert clocks_seen(model).startswith("Clocks now: Alarm raised 3/6")
