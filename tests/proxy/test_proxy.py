"""`gm-tags proxy` through the official `openai` client, sync and async, streaming and not:
what the upstream model receives, what the client sees, and which snapshot each reply lands on
when the front-end regenerates, swipes, deletes, edits, stops and continues."""

from __future__ import annotations

import asyncio
import itertools
import json
from typing import Any

import openai
import pytest
from openai import OpenAI

from gm_tags import Game, load_ruleset
from tests.proxy.conftest import GAME, RULESET, Upstream, async_client

pytestmark = pytest.mark.slow

SYSTEM = {"role": "system", "content": "You are the Game Master of a heist."}
_openings = itertools.count()
OTHER_CLOCKS = "Bluecoat patrol 4/4 (finished); Vault door 5/8"


def tick(amount: int, prose: str = "The bell rings.") -> str:
    """A reply that ticks the alarm; its narration says by how much (swipes differ)."""
    return f'{prose} [clock: name="Alarm raised" tick="{amount}"] Footsteps: {amount}.'


def opening() -> str:
    """A first message no other test opens with, so each test is its own chat."""
    return f"We climb the wall, take {next(_openings)}."


def ask(
    client: OpenAI,
    messages: list[dict[str, str]],
    *,
    stream: bool,
    chat: str | None = None,
) -> tuple[str, dict[str, Any], int]:
    """The narration the client gets, the `gm_tags` summary, and how many content chunks."""
    headers = {"X-GM-Chat": chat} if chat else None
    if not stream:
        completion = client.chat.completions.create(
            model="m", messages=messages, extra_headers=headers
        )
        extra = completion.model_extra or {}
        return completion.choices[0].message.content or "", extra["gm_tags"], 1
    pieces: list[str] = []
    summary: dict[str, Any] = {}
    for chunk in client.chat.completions.create(
        model="m", messages=messages, stream=True, extra_headers=headers
    ):
        if chunk.choices and chunk.choices[0].delta.content:
            pieces.append(chunk.choices[0].delta.content)
        summary = (chunk.model_extra or {}).get("gm_tags", summary)
    return "".join(pieces), summary, len(pieces)


def starting_game() -> Game:
    return Game.from_document(load_ruleset(RULESET), json.loads(GAME.read_text("utf-8")))


def test_the_upstream_gets_the_clients_messages_with_the_system_section_and_the_reminder(
    client: OpenAI, upstream: Upstream
) -> None:
    first = opening()
    upstream.script({"reply": "Quiet."})
    ask(client, [SYSTEM, {"role": "user", "content": first}], stream=False)
    game = starting_game()
    assert upstream.last_messages() == [
        SYSTEM,
        {"role": "system", "content": game.system_prompt().text},
        {"role": "user", "content": first + "\n\n" + game.reminder()},
    ]


@pytest.mark.parametrize("stream", [True, False], ids=["stream", "whole"])
def test_the_client_reads_narration_and_the_receipts_come_in_gm_tags(
    client: OpenAI, upstream: Upstream, stream: bool
) -> None:
    reply = tick(1, "The guard turns, his lantern swinging slowly across the yard.")
    upstream.script({"reply": reply, "chunk": 3})
    narration, summary, chunks = ask(
        client, [{"role": "user", "content": opening()}], stream=stream
    )
    expected = starting_game().apply_reply(reply)
    assert narration == expected.narration == summary["narration"]
    assert "[" not in narration
    assert summary["reply"] == expected.reply
    assert [r["now"] for r in summary["receipts"]] == ["3/6"]
    assert (summary["action"], summary["message"], summary["swipe"]) == ("reply", 1, 0)
    if stream:
        assert chunks > 5


@pytest.mark.parametrize("named", [False, True], ids=["transcript", "header"])
def test_regenerate_then_swipe_back_each_land_on_the_snapshot_the_history_says(
    client: OpenAI, upstream: Upstream, named: bool
) -> None:
    chat = f"heist-{next(_openings)}" if named else None
    first = {"role": "user", "content": opening()}
    upstream.script({"reply": tick(1)}, {"reply": tick(2)}, {"reply": "Quiet."}, {"reply": "."})
    one, _, _ = ask(client, [first], stream=True, chat=chat)
    assert upstream.clocks_seen().startswith("Clocks now: Alarm raised 2/6")
    two, regenerated, _ = ask(client, [first], stream=True, chat=chat)  # regenerate
    assert upstream.clocks_seen().startswith("Clocks now: Alarm raised 2/6")
    assert (regenerated["action"], regenerated["swipes"], regenerated["swipe"]) == (
        "regenerate",
        2,
        1,
    )
    then = {"role": "user", "content": "We keep going."}
    ask(client, [first, {"role": "assistant", "content": two}, then], stream=False, chat=chat)
    assert upstream.clocks_seen().startswith("Clocks now: Alarm raised 4/6")
    # Swipe back to the first reply and send the same message again.
    ask(client, [first, {"role": "assistant", "content": one}, then], stream=False, chat=chat)
    assert upstream.clocks_seen().startswith("Clocks now: Alarm raised 3/6")


@pytest.mark.parametrize("named", [False, True], ids=["transcript", "header"])
def test_deleting_the_last_exchange_or_one_in_the_middle_and_editing_a_user_message(
    client: OpenAI, upstream: Upstream, named: bool
) -> None:
    chat = f"heist-{next(_openings)}" if named else None
    u1 = {"role": "user", "content": opening()}
    u2 = {"role": "user", "content": "Dogs?"}
    u3 = {"role": "user", "content": "We run."}
    dogs = 'Hounds bay. [clock: name="Dogs loose" size="4"]'
    upstream.script({"reply": tick(1)}, {"reply": dogs}, {"reply": tick(2)}, *[{"reply": "."}] * 4)
    r1, _, _ = ask(client, [u1], stream=True, chat=chat)
    r2, _, _ = ask(client, [u1, said(r1), u2], stream=True, chat=chat)
    r3, _, _ = ask(client, [u1, said(r1), u2, said(r2), u3], stream=True, chat=chat)
    assert "Dogs loose 0/4" in upstream.clocks_seen()
    # Delete the last exchange (u3, r3) and write something else.
    ask(
        client,
        [u1, said(r1), u2, said(r2), {"role": "user", "content": "Hide."}],
        stream=False,
        chat=chat,
    )
    assert (
        upstream.clocks_seen() == f"Clocks now: Alarm raised 3/6; {OTHER_CLOCKS}; Dogs loose 0/4."
    )
    # Delete the exchange in the middle (u2, r2): the dogs were never loosed.
    ask(
        client,
        [u1, said(r1), u3, said(r3), {"role": "user", "content": "On."}],
        stream=False,
        chat=chat,
    )
    assert upstream.clocks_seen() == f"Clocks now: Alarm raised 5/6; {OTHER_CLOCKS}."
    # Edit the earlier user message u2: what the replies did stands.
    edited = {"role": "user", "content": "Are there dogs?"}
    ask(
        client,
        [u1, said(r1), edited, said(r2), u3, said(r3), {"role": "user", "content": "Go."}],
        stream=False,
        chat=chat,
    )
    assert (
        upstream.clocks_seen() == f"Clocks now: Alarm raised 5/6; {OTHER_CLOCKS}; Dogs loose 0/4."
    )


def said(narration: str) -> dict[str, str]:
    return {"role": "assistant", "content": narration}


@pytest.mark.load
def test_a_stopped_reply_keeps_what_the_client_saw_then_regenerate_and_continue(
    client: OpenAI, upstream: Upstream
) -> None:
    u1 = {"role": "user", "content": opening()}
    long = (
        tick(1, "The guard turns.")
        + " He walks on." * 30
        + ' [clock: name="Alarm raised" tick="3"]'
    )
    upstream.script(
        {"reply": long, "chunk": 4, "delay": 0.03},
        {"reply": tick(2)},
        {"reply": "."},
        {"reply": ' More. [clock: name="Alarm raised" tick="1"]'},
        {"reply": "."},
    )
    shown: list[str] = []
    with client.chat.completions.create(model="m", messages=[u1], stream=True) as chunks:
        for chunk in chunks:
            if chunk.choices and chunk.choices[0].delta.content:
                shown.append(chunk.choices[0].delta.content)
            if "He walks on. He walks on." in "".join(shown):
                break
    partial = "".join(shown)
    # The next request after the stop sees the tag that closed, not the one that never came.
    ask(client, [u1, said(partial), {"role": "user", "content": "And?"}], stream=False)
    assert upstream.clocks_seen().startswith("Clocks now: Alarm raised 3/6")
    # Regenerate the stopped reply: from the snapshot before it.
    ask(client, [u1], stream=False)
    assert upstream.clocks_seen().startswith("Clocks now: Alarm raised 2/6")
    # Continue the stopped reply (swiping back to it): from the snapshot it left.
    _, continued, _ = ask(client, [u1, said(partial)], stream=True)
    assert upstream.clocks_seen().startswith("Clocks now: Alarm raised 3/6")
    assert continued["action"] == "continue"
    assert [r["now"] for r in continued["receipts"]] == ["4/6"]
    ask(
        client,
        [u1, said(partial + continued["narration"]), {"role": "user", "content": "Then?"}],
        stream=False,
    )
    assert upstream.clocks_seen().startswith("Clocks now: Alarm raised 4/6")


def test_two_chats_that_open_the_same_way_stay_apart_once_they_differ(
    client: OpenAI, upstream: Upstream
) -> None:
    u1 = {"role": "user", "content": opening()}
    upstream.script(
        {"reply": tick(1)},
        {"reply": tick(3)},
        {"reply": "."},
        {"reply": "."},
        {"reply": "."},
        {"reply": "."},
    )
    a, _, _ = ask(client, [u1], stream=False)
    b, _, _ = ask(client, [u1], stream=False)
    next_a = [u1, said(a), {"role": "user", "content": "A goes on."}]
    next_b = [u1, said(b), {"role": "user", "content": "B goes on."}]
    ask(client, next_a, stream=False)
    assert upstream.clocks_seen().startswith("Clocks now: Alarm raised 3/6")
    ask(client, next_b, stream=False)
    assert upstream.clocks_seen().startswith("Clocks now: Alarm raised 5/6")
    ask(client, [*next_a, said("."), {"role": "user", "content": "A again."}], stream=False)
    assert upstream.clocks_seen().startswith("Clocks now: Alarm raised 3/6")
    ask(client, [*next_b, said("."), {"role": "user", "content": "B again."}], stream=False)
    assert upstream.clocks_seen().startswith("Clocks now: Alarm raised 5/6")


@pytest.mark.parametrize(
    ("step", "status"),
    [({"fail": 500}, 500), ({"fail": 429}, 429), ({"hang": 4}, 504)],
    ids=["500", "429", "timeout"],
)
@pytest.mark.load
@pytest.mark.parametrize("stream", [True, False], ids=["stream", "whole"])
def test_upstream_errors_come_back_in_the_openai_shape_and_change_no_game(
    client: OpenAI, upstream: Upstream, step: dict[str, Any], status: int, stream: bool
) -> None:
    u1 = {"role": "user", "content": opening()}
    upstream.script({"reply": tick(1)}, step, {"reply": "."})
    first, _, _ = ask(client, [u1], stream=False)
    with pytest.raises(openai.APIStatusError) as raised:
        ask(client, [u1, said(first), {"role": "user", "content": "Next."}], stream=stream)
    assert raised.value.status_code == status
    assert isinstance(raised.value.body, dict) and raised.value.body.get("message")
    ask(client, [u1, said(first), {"role": "user", "content": "Next."}], stream=False)
    assert upstream.clocks_seen().startswith("Clocks now: Alarm raised 3/6")


def _chunk(*choices: Any) -> dict[str, Any]:
    return {"object": "chat.completion.chunk", "choices": list(choices)}


_TICKED = _chunk({"index": 0, "delta": {"content": tick(1)}, "finish_reason": None})


@pytest.mark.parametrize(
    "broken",
    [
        {"reply": tick(1), "malformed": True},
        {"reply": tick(1), "cut": True},
        {"raw": [_TICKED, {"choices": "x"}]},
        {"raw": [_TICKED, {"choices": [None]}]},
        {"raw": [_TICKED, _chunk({"index": 0, "delta": "text", "finish_reason": None})]},
    ],
    ids=["malformed", "cut", "choices-not-a-list", "choice-null", "delta-text"],
)
def test_a_broken_stream_is_an_error_and_changes_no_game(
    client: OpenAI, upstream: Upstream, broken: dict[str, Any]
) -> None:
    u1 = {"role": "user", "content": opening()}
    upstream.script(broken, {"reply": "."})
    with pytest.raises(openai.APIError):
        ask(client, [u1], stream=True)
    _, summary, _ = ask(client, [u1], stream=False)
    assert summary["action"] == "reply"  # not a regenerate: the broken reply was never kept
    assert upstream.clocks_seen().startswith("Clocks now: Alarm raised 2/6")


@pytest.mark.parametrize(
    ("step", "named"),
    [
        ({"reply": tick(1), "chunk": 40, "delay": 4}, "ReadTimeout"),  # --timeout is 2
        ({"reply": tick(1), "lost": True}, "RemoteProtocolError"),
    ],
    ids=["read-timeout", "connection-lost"],
)
@pytest.mark.load
def test_an_upstream_failing_mid_stream_ends_it_with_an_error_that_says_how(
    client: OpenAI, upstream: Upstream, step: dict[str, Any], named: str
) -> None:
    u1 = {"role": "user", "content": opening()}
    upstream.script(step, {"reply": "."})
    with pytest.raises(openai.APIError) as raised:
        ask(client, [u1], stream=True)
    assert f"the upstream failed mid-stream: {named}" in str(raised.value)
    _, summary, _ = ask(client, [u1], stream=False)
    assert summary["action"] == "reply"  # the broken reply was never kept


def test_the_usage_chunk_comes_last_with_its_cached_tokens_and_gm_tags_before_it(
    client: OpenAI, upstream: Upstream
) -> None:
    usage = {"prompt_tokens": 9, "completion_tokens": 3, "total_tokens": 12}
    usage["prompt_tokens_details"] = {"cached_tokens": 8}  # type: ignore[assignment]
    done = _chunk({"index": 0, "delta": {}, "finish_reason": "stop"})
    upstream.script({"raw": [_TICKED, done, {**_chunk(), "usage": usage}]})
    chunks = list(
        client.chat.completions.create(
            model="m",
            messages=[{"role": "user", "content": opening()}],
            stream=True,
            stream_options={"include_usage": True},
        )
    )
    last = chunks[-1]
    assert last.choices == [] and last.usage is not None
    assert last.usage.prompt_tokens_details and last.usage.prompt_tokens_details.cached_tokens == 8
    assert "gm_tags" in (chunks[-2].model_extra or {})
    assert chunks[-2].choices[0].finish_reason == "stop"


@pytest.mark.parametrize("stream", [True, False], ids=["stream", "whole"])
def test_the_async_client_gets_the_same(proxy_url: str, upstream: Upstream, stream: bool) -> None:
    reply = tick(2, "Glass breaks somewhere below.")
    upstream.script({"reply": reply, "chunk": 2})

    async def talk() -> tuple[str, dict[str, Any]]:
        messages: Any = [{"role": "user", "content": opening()}]
        async with async_client(proxy_url) as client:
            if not stream:
                completion = await client.chat.completions.create(model="m", messages=messages)
                extra = completion.model_extra or {}
                return completion.choices[0].message.content or "", extra["gm_tags"]
            pieces, summary = [], {}
            async for chunk in await client.chat.completions.create(
                model="m", messages=messages, stream=True
            ):
                if chunk.choices and chunk.choices[0].delta.content:
                    pieces.append(chunk.choices[0].delta.content)
                summary = (chunk.model_extra or {}).get("gm_tags", summary)
            return "".join(pieces), summary

    narration, summary = asyncio.run(talk())
    assert narration == starting_game().apply_reply(reply).narration
    assert [r["now"] for r in summary["receipts"]] == ["4/6"]


def test_models_are_passed_through(client: OpenAI) -> None:
    assert [model.id for model in client.models.list()] == ["fixture-model"]
