"""The play page served by a real `gm-tags proxy` process (in front of a real upstream model
server), in a real headless Chromium: a reply that went through /v1/chat/completions shows on
the page under the chat's title, the next one without a reload, and a box clicked on the page
is in the reminder of the model's next request."""

from __future__ import annotations

import os
import sys
from collections.abc import Iterator
from typing import Any

import pytest
from openai import OpenAI

from tests.conftest import FIXTURES
from tests.proxy.conftest import Upstream, started, stopped
from tests.proxy.conftest import upstream as upstream
from tests.service.server import free_port
from tests.web.conftest import screenshot
from tests.web.test_play_page import css, wait_for

pytestmark = [pytest.mark.slow, pytest.mark.xdist_group("browser")]

RULESET = FIXTURES / "rulesets" / "reference" / "ember-roads.json"
GAME = FIXTURES / "games" / "ember-roads.json"
OPENING = {"role": "user", "content": "Mira shoulders her pack at the foot of the ember road."}


@pytest.fixture(scope="module")
def proxy_port(upstream: Upstream, tmp_path_factory: pytest.TempPathFactory) -> Iterator[int]:
    port = free_port()
    db = tmp_path_factory.mktemp("proxy-page") / "chats.db"
    command = [
        *(sys.executable, "-m", "gm_tags.cli", "proxy", "--upstream", upstream.url),
        *("--ruleset", str(RULESET), "--game", str(GAME), "--db", str(db)),
        *("--port", str(port), "--log-level", "warning"),
    ]
    process = started(command, port, "/health", dict(os.environ))
    try:
        yield port
    finally:
        stopped(process)


def said(port: int, *messages: dict[str, str]) -> dict[str, Any]:
    """The `gm_tags` summary of a completion asked through the proxy with the `openai` client."""
    with OpenAI(base_url=f"http://127.0.0.1:{port}/v1", api_key="k", max_retries=0) as client:
        completion = client.chat.completions.create(model="m", messages=list(messages))
    summary: dict[str, Any] = (completion.model_extra or {})["gm_tags"]
    return summary


def narration(browser: Any) -> list[str]:
    """The latest reply's narration on the page (none while the page is still loading)."""
    return [str(shown.text) for shown in css(browser, "#narration")]


def test_the_proxys_play_page_shows_its_replies_and_its_clicks_reach_the_model(
    browser: Any, upstream: Upstream, proxy_port: int
) -> None:
    upstream.script(
        {
            "reply": 'Ash drifts over the road. [sheet: who="Mira Ashdown" op="spend" '
            'pool="Grit" amount="1"]'
        },
        {"reply": "A lantern bobs far ahead."},
        {"reply": "The wind turns."},
    )
    chat = said(proxy_port, OPENING)["chat"]
    browser.get(f"http://127.0.0.1:{proxy_port}/play/{chat}")
    wait_for(browser, lambda d: narration(d) == ["Ash drifts over the road."])
    mira = '.sheet[data-name="Mira Ashdown"]'
    assert "Grit\n4/8" in css(browser, mira)[0].text
    # Heat is a plain track: a row beside the pools, not a loose line under them.
    heat = css(browser, f'{mira} dl.pools dt[data-track="heat"]')
    assert [row.text for row in heat] == ["Heat"]
    # The page is headed by the chat's readable name (its opening words), its id beside it.
    wait_for(browser, lambda d: css(d, "#title .chat-id"))
    assert css(browser, "#title")[0].text == f"{OPENING['content']} {chat}"
    browser.execute_script("window.notReloaded = true")

    first = {"role": "assistant", "content": "Ash drifts over the road."}
    walk = {"role": "user", "content": "We walk on."}
    said(proxy_port, OPENING, first, walk)
    wait_for(browser, lambda d: narration(d) == ["A lantern bobs far ahead."])
    assert browser.execute_script("return window.notReloaded") is True

    strain = '.sheet[data-name="Mira Ashdown"] .track[data-track="strain"]'
    css(browser, f"{strain} .box")[2].click()
    wait_for(
        browser, lambda d: css(d, f'{strain} .box[data-box="3"]')[0].get_attribute("data-kind")
    )
    screenshot(browser, "proxy-play-page")
    second = {"role": "assistant", "content": "A lantern bobs far ahead."}
    said(proxy_port, OPENING, first, walk, second, {"role": "user", "content": "We rest."})
    reminder = upstream.last_messages()[-1]["content"]
    assert "Strain 1/5" in reminder
