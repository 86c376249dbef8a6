"""The play page on a server with keys, in a real headless Chromium: the chats page asks for the
key once, lists that key's chats only, and the play page of the same tab reads its chat and hears
a change made through the API without asking again (the key kept in sessionStorage)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.proxy.conftest import started, stopped
from tests.security.conftest import ALPHA_KEY, BETA_KEY, call, serve_command
from tests.service.server import free_port
from tests.web.conftest import browser as browser

pytestmark = pytest.mark.slow

WAIT = 15


def test_the_page_asks_for_its_key_once_and_shows_only_that_keys_chats(
    browser: Any,
    tmp_path: Path,
) -> None:
    from selenium.common.exceptions import StaleElementReferenceException
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support import expected_conditions
    from selenium.webdriver.support.ui import WebDriverWait

    keys = tmp_path / "keys.txt"
    keys.write_text(f"alpha={ALPHA_KEY}\nbeta={BETA_KEY}\n", encoding="utf-8")
    port = free_port()
    server = started(
        serve_command(str(tmp_path / "k.sqlite"), port, "--keys", str(keys)), port, "/health"
    )
    try:
        for key, chat in ((ALPHA_KEY, "ours"), (BETA_KEY, "theirs")):
            body = {"chatId": chat, "rulesetId": "crew-of-shadows"}
            assert call(port, "POST", "/games", body, key=key)[0] == 201
        # The story is drawn again on every change: an element read may be replaced under it.
        waiting = WebDriverWait(browser, WAIT, ignored_exceptions=(StaleElementReferenceException,))
        browser.get(f"http://127.0.0.1:{port}/")
        asked = waiting.until(expected_conditions.alert_is_present())
        asked.send_keys(ALPHA_KEY)
        asked.accept()
        waiting.until(lambda d: d.find_element(By.CSS_SELECTOR, ".chats[data-loaded]"))
        links = [a.text for a in browser.find_elements(By.CSS_SELECTOR, ".chats a")]
        assert links == ["ours"]
        browser.find_element(By.LINK_TEXT, "ours").click()
        waiting.until(lambda d: d.find_element(By.ID, "narration").text == "No reply yet.")
        reply = {"text": 'The bell. [clock: name="Alarm raised" tick="1"]'}
        assert call(port, "POST", "/games/ours/replies", reply, key=ALPHA_KEY)[0] == 200
        waiting.until(lambda d: d.find_element(By.ID, "narration").text == "The bell.")
        assert not expected_conditions.alert_is_present()(browser)  # asked once only
    finally:
        stopped(server)
