"""What the MCP tests share: the official `mcp` SDK (a missing one fails the run under CI, and
skips these tests elsewhere), the game they play, and the short chat every transport plays."""

from __future__ import annotations

import json
from typing import Any

from tests.conftest import FIXTURES
from tests.missing import missing

RULESET = FIXTURES / "rulesets" / "crew-of-shadows.json"
GAME = json.loads((FIXTURES / "games" / "crew-mid-heist.json").read_text("utf-8"))
SPEND = 'Mira slips past. [sheet: who="Mira" op="spend" pool="Stress" amount="2"]'
AGAIN = 'Mira pushes on. [sheet: who="Mira" op="spend" pool="Stress" amount="2"]'


def need_mcp() -> None:
    """The official SDK, or a skip (a failure under CI): call it before importing anything of
    `mcp` or `gm_tags.mcp_server`."""
    try:
        import mcp  # noqa: F401
    except ImportError:
        message = 'the official mcp SDK is not installed (pip install ".[mcp]")'
        missing(message, module_level=True)


async def call(client: Any, tool: str, **arguments: Any) -> dict[str, Any]:
    """A tool's structured result, checked to be an answer (not a tool error) whose JSON text
    says the same."""
    result = await client.call_tool(tool, arguments)
    assert not result.is_error, result.content
    assert json.loads(result.content[0].text) == result.structured_content
    structured: dict[str, Any] = result.structured_content
    return structured


def stress(sheet: dict[str, Any]) -> int:
    pool = next(pool for pool in sheet["sheet"]["pools"] if pool["label"] == "Stress")
    value: int = pool["value"]
    return value


async def play_short_chat(client: Any, chat: str) -> None:
    """Start a chat, apply a reply that spends 2 Stress, regenerate it as a second swipe that
    spends 2 too: Mira is down 2, not 4, and the swipes list shows both, the second chosen."""
    started = await call(client, "start_chat", chat=chat, game=GAME)
    assert started["characters"] == ["Mira", "Tobin Vell"]
    assert stress(await call(client, "read_sheet", chat=chat, who="Mira")) == 9

    first = await call(client, "apply_reply", chat=chat, reply=SPEND)
    assert (first["message"], first["swipe"], first["swipes"]) == (0, 0, 1)
    assert first["narration"] == "Mira slips past."
    assert [r["now"] for r in first["receipts"]] == ["7/9"]

    again = await call(client, "apply_reply", chat=chat, reply=AGAIN, message=0)
    assert (again["message"], again["swipe"], again["swipes"]) == (0, 1, 2)
    assert [r["now"] for r in again["receipts"]] == ["7/9"]
    assert stress(await call(client, "read_sheet", chat=chat, who="Mira")) == 7

    swipes = await call(client, "list_swipes", chat=chat)
    assert [s["narration"] for s in swipes["swipes"]] == ["Mira slips past.", "Mira pushes on."]
    assert [s["selected"] for s in swipes["swipes"]] == [False, True]
