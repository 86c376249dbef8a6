"""The MCP server's tools, through the official client connected in-process: the tool list a
client sees, a short chat, refusals as answers, and tool errors only when nothing can be read."""

from __future__ import annotations

import json
import random
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import anyio
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from syrupy.assertion import SnapshotAssertion

from gm_tags import Game, load_ruleset
from gm_tags.text import lone_surrogate
from tests.conftest import FIXTURES
from tests.fuzzing import reply as hostile_reply
from tests.mcp.sdk import AGAIN, GAME, RULESET, SPEND, call, need_mcp, play_short_chat, stress

need_mcp()

from mcp import Client  # noqa: E402

from gm_tags.chats.served import ServedChats  # noqa: E402
from gm_tags.mcp_server.server import create_server  # noqa: E402
from gm_tags.mcp_server.tools import TOOLS  # noqa: E402
from gm_tags.store import open_store  # noqa: E402

Scenario = Callable[[Any], Awaitable[None]]


def played(db: Path, scenario: Scenario, ruleset: Path = RULESET) -> None:
    served = ServedChats(lambda: open_store(db))
    server = create_server(ruleset, served)

    async def connected() -> None:
        async with Client(server) as client:
            await scenario(client)

    try:
        anyio.run(connected)
    finally:
        served.close()


async def refused(client: Any, tool: str, **arguments: Any) -> str:
    """The text of a tool error (`isError`), which must carry no structured content."""
    result = await client.call_tool(tool, arguments)
    assert result.is_error
    assert result.structured_content is None
    text: str = result.content[0].text
    return text


def test_the_tool_list_is_stable(tmp_path: Path, snapshot: SnapshotAssertion) -> None:
    """What a client is told of each tool: a change here is a change to every client's calls."""

    async def scenario(client: Any) -> None:
        listed = (await client.list_tools()).tools
        assert [tool.name for tool in listed] == list(TOOLS)
        shown = [
            {
                "name": tool.name,
                "description": tool.description,
                "inputSchema": tool.input_schema,
                "outputSchema": tool.output_schema,
            }
            for tool in listed
        ]
        assert json.dumps(shown, indent=2, sort_keys=True) == snapshot

    played(tmp_path / "chats.sqlite", scenario)


def test_a_short_chat_with_a_regenerate_counts_the_effect_once(tmp_path: Path) -> None:
    played(tmp_path / "chats.sqlite", lambda client: play_short_chat(client, "heist"))


def test_a_refused_command_is_an_answer_with_its_receipt(tmp_path: Path) -> None:
    async def scenario(client: Any) -> None:
        await call(client, "start_chat", chat="heist", game=GAME)
        reply = 'Mira waits. [sheet: who="Mira" op="spend" pool="Luck" amount="1"]'
        turn = await call(client, "apply_reply", chat="heist", reply=reply)
        assert turn["refused"] == 1
        (receipt,) = turn["receipts"]
        assert (receipt["result"], receipt["reason"]) == ("refused", "unknown-pool")
        assert 'reason="unknown-pool"' in turn["reply"]
        assert turn["narration"] == "Mira waits."
        assert stress(await call(client, "read_sheet", chat="heist", who="Mira")) == 9

    played(tmp_path / "chats.sqlite", scenario)


def test_a_check_the_sheet_refuses_is_an_answer_and_neither_changes_the_chat(
    tmp_path: Path,
) -> None:
    async def scenario(client: Any) -> None:
        await call(client, "start_chat", chat="heist", game=GAME)
        rolled = await call(
            client, "roll_check", chat="heist", skill="Prowl", who="Mira", dc=2, seed=7
        )
        assert not rolled["refused"]
        assert rolled["tag"].startswith('[skill_check: skill="Prowl" dc="2"')
        assert rolled["roll"]["who"] == "Mira"
        assert rolled["roll"]["pool"] == 3
        again = await call(
            client, "roll_check", chat="heist", skill="Prowl", who="Mira", dc=2, seed=7
        )
        assert again["roll"] == rolled["roll"]
        unknown = await call(client, "roll_check", chat="heist", skill="Juggling", dc=2)
        assert (unknown["refused"], unknown["reason"], unknown["roll"]) == (
            True,
            "unknown-skill",
            None,
        )
        assert "Juggling" in unknown["detail"]
        assert (await call(client, "list_swipes", chat="heist"))["swipes"] == []

    played(tmp_path / "chats.sqlite", scenario)


def test_a_check_the_character_cannot_attempt_untrained_is_refused_untrained(
    tmp_path: Path,
) -> None:
    jade = FIXTURES / "rulesets" / "jade-river.zh.json"
    game = json.loads((FIXTURES / "games" / "jade-river.zh.json").read_text("utf-8"))

    async def scenario(client: Any) -> None:
        await call(client, "start_chat", chat="j", game=game)
        untrained = await call(client, "roll_check", chat="j", skill="内功心法", dc=8, who="林逸")
        assert (untrained["refused"], untrained["reason"]) == (True, "untrained")
        assert "内功心法" in untrained["detail"]
        rolled = await call(client, "roll_check", chat="j", skill="轻功", dc=8, who="苏晴", seed=4)
        assert not rolled["refused"]
        assert rolled["tag"].startswith('[skill_check: skill="轻功" dc="8" rolls="')

    played(tmp_path / "chats.sqlite", scenario, jade)


def test_reads_act_on_the_snapshot_a_message_and_swipe_left(tmp_path: Path) -> None:
    async def scenario(client: Any) -> None:
        await call(client, "start_chat", chat="heist", game=GAME)
        await call(client, "apply_reply", chat="heist", reply=SPEND)
        await call(client, "apply_reply", chat="heist", reply=AGAIN.replace('"2"', '"3"'))
        await call(client, "apply_reply", chat="heist", reply="No tags.", message=1)

        def sheet(**where: Any) -> Awaitable[dict[str, Any]]:
            return call(client, "read_sheet", chat="heist", who="Mira", **where)

        assert stress(await sheet()) == 7  # the second reply's second swipe spent nothing
        assert stress(await sheet(message=1, swipe=0)) == 4
        assert stress(await sheet(message=0)) == 7
        prompt = await call(client, "prompt_blocks", chat="heist", message=1, swipe=0)
        assert (prompt["message"], prompt["swipe"]) == (1, 0)
        assert "Stress 4/9" in prompt["reminder"]
        chosen = await call(client, "select_swipe", chat="heist", swipe=0)
        assert chosen["selected"] == 0
        assert stress(await sheet()) == 4

    played(tmp_path / "chats.sqlite", scenario)


WHEN_NOTHING_CAN_BE_READ = [
    ("read_sheet", {"chat": "elsewhere"}, "no chat 'elsewhere'"),
    ("read_sheet", {"chat": "heist", "who": "Nobody"}, "Nobody"),
    ("read_sheet", {"chat": "heist", "message": 4}, "messages 0 to 0, not 4"),
    ("prompt_blocks", {"chat": "heist", "message": 0, "swipe": 3}, "swipes 0 to 0, not 3"),
    ("list_swipes", {"chat": "heist", "message": 9}, "messages 0 to 0, not 9"),
    ("apply_reply", {"chat": "heist", "reply": "x", "message": 5}, "only the last message"),
    ("apply_reply", {"chat": "heist", "reply": 5}, "reply"),
    ("apply_reply", {"chat": "heist", "reply": "lost \ud800"}, "string_unicode"),
    ("roll_check", {"chat": "heist", "skill": "Prowl"}, "a dc or a difficulty"),
    ("select_swipe", {"chat": "heist", "swipe": 2}, "swipes 0 to 0"),
    ("start_chat", {"chat": "heist"}, "heist"),
    ("start_chat", {"chat": "a/b"}, "a/b"),
    ("start_chat", {"game": {"rulesetClocks": 3}}, "game document refused"),
]


@pytest.mark.parametrize(
    ("tool", "arguments", "said"),
    WHEN_NOTHING_CAN_BE_READ,
    ids=[
        f"{tool}-{'-'.join(map(str, a.values()))}".encode("ascii", "backslashreplace").decode()
        for tool, a, _ in WHEN_NOTHING_CAN_BE_READ
    ],
)
def test_a_call_that_reads_nothing_is_a_tool_error_and_changes_nothing(
    tmp_path: Path, tool: str, arguments: dict[str, Any], said: str
) -> None:
    async def scenario(client: Any) -> None:
        await call(client, "start_chat", chat="heist", game=GAME)
        await call(client, "apply_reply", chat="heist", reply=SPEND)
        assert said in await refused(client, tool, **arguments)
        swipes = await call(client, "list_swipes", chat="heist")
        assert [s["text"] for s in swipes["swipes"]] == [SPEND]
        assert stress(await call(client, "read_sheet", chat="heist", who="Mira")) == 7

    played(tmp_path / "chats.sqlite", scenario)


@settings(max_examples=15)
@given(seed=st.integers(0, 2**32 - 1))
def test_any_reply_gets_the_answer_the_library_gives(tmp_path_factory: Any, seed: int) -> None:
    """Nothing a model writes breaks a tool: a hostile reply (tests/fuzzing.py) is answered with
    exactly the turn `Game.apply_reply` gives, or, when its text cannot be stored (a lone
    surrogate, which the arguments refuse), a tool error that leaves the chat as it was."""
    start = Game.from_document(load_ruleset(RULESET), GAME)
    text = hostile_reply(start, random.Random(seed))
    expected = start.apply_reply(text, seed=seed)

    async def scenario(client: Any) -> None:
        await call(client, "start_chat", chat="fuzz", game=GAME)
        answer = await client.call_tool(
            "apply_reply", {"chat": "fuzz", "reply": text, "seed": seed}
        )
        if lone_surrogate(text):
            assert answer.is_error
            assert (await call(client, "list_swipes", chat="fuzz"))["swipes"] == []
            return
        assert not answer.is_error, answer.content
        turn = answer.structured_content
        assert (turn["reply"], turn["narration"]) == (expected.reply, expected.narration)
        assert turn["receipts"] == [receipt.to_dict() for receipt in expected.receipts]
        assert turn["game"] == expected.game.to_document()

    played(tmp_path_factory.mktemp("fuzz") / "chats.sqlite", scenario)
