"""A real headless Chromium (Debian's chromium and chromium-driver, through Selenium) against a
real `gm-tags serve` on loopback. Under CI=true a missing browser fails; elsewhere it skips."""

from __future__ import annotations

import json
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import FIXTURES, ROOT
from tests.service.server import Server, serving

CHROMIUM = "/usr/bin/chromium"
CHROMEDRIVER = "/usr/bin/chromedriver"
ARTIFACTS = ROOT / "artifacts" / "screenshots"

GAMES = {
    "heist": ("crew-of-shadows.json", "crew-mid-heist.json"),
    "ember": ("reference/ember-roads.json", "ember-roads.json"),
    "hollows": ("hearts-and-hollows.ja.json", "hollows-village.ja.json"),
    "rajmarg": ("rajmarg.hi.json", "rajmarg.hi.json"),
    "fifth": ("fifth-age.json", "fifth-age.json"),
    "ship": ("lasers-and-feelings.json", "laser-hearts.json"),
}


def need_browser() -> None:
    missing = [path for path in (CHROMIUM, CHROMEDRIVER) if not shutil.which(path)]
    if missing:
        message = f"{', '.join(missing)} not installed (apt-get install chromium chromium-driver)"
        missing(message)


@pytest.fixture(scope="session")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    rulesets = sorted({str(FIXTURES / "rulesets" / r) for r, _ in GAMES.values()})
    with serving(tmp_path_factory.mktemp("play") / "play.sqlite", *rulesets) as running:
        yield running


_made = {"n": 0}


def new_chat(server: Server, game: str) -> str:
    """A new chat of a fixture game; its id."""
    ruleset_file, game_file = GAMES[game]
    ruleset = json.loads((FIXTURES / "rulesets" / ruleset_file).read_text("utf-8"))
    document = json.loads((FIXTURES / "games" / game_file).read_text("utf-8"))
    _made["n"] += 1
    chat_id = f"{game}-{_made['n']}"
    status, answer = server.call(
        "POST", "/games", {"chatId": chat_id, "rulesetId": ruleset["id"], "game": document}
    )
    assert status == 201, answer
    return chat_id


@pytest.fixture(scope="session")
def browser() -> Iterator[Any]:
    need_browser()
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for flag in (
        "--headless=new",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-dev-shm-usage",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--window-size=1280,1400",
        "--lang=en",
    ):
        options.add_argument(flag)
    driver = webdriver.Chrome(service=Service(CHROMEDRIVER), options=options)
    driver.implicitly_wait(0)
    try:
        yield driver
    finally:
        driver.quit()


def screenshot(driver: Any, name: str) -> Path:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    path = ARTIFACTS / f"{name}.png"
    driver.save_screenshot(str(path))
    return path
