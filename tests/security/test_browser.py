"""Cross-site request forgery in a real headless Chromium: a page of another origin posts
`text/plain` forms (simple requests: no preflight) shaped as JSON to `gm-tags proxy` and
`gm-tags serve` on loopback. Neither creates a chat nor calls the model; the same form posted to
the page's own server arrives whole, so the browser did send it."""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import pytest

from tests.proxy.conftest import Upstream
from tests.security.conftest import call
from tests.service.server import free_port
from tests.web.conftest import browser as browser

pytestmark = pytest.mark.slow

# A text/plain form sends `name=value`: a name ending in `"x":"` and a value `"}` make it JSON.
FORM = """<form id="{id}" method="POST" action="{action}" enctype="text/plain" target="{id}-frame">
<input name='{name}' value='"}}'></form>
<iframe name="{id}-frame"></iframe>"""
# Counts the frames' loads from the submissions on (an empty frame loads once when it is made).
COUNT = (
    "window.loaded = 0; for (const frame of document.querySelectorAll('iframe')) "
    "frame.addEventListener('load', () => { window.loaded += 1; });"
)
COMPLETION = '{"model":"m","messages":[{"role":"user","content":"forged"}],"x":"'
NEW_GAME = '{"chatId":"forged","rulesetId":"crew-of-shadows","x":"'


class Attacker(BaseHTTPRequestHandler):
    """The other origin: its page, and a control endpoint that keeps what it is sent."""

    page = ""
    received: list[bytes] = []

    def do_GET(self) -> None:
        self._answer(self.page.encode())

    def do_POST(self) -> None:
        length = int(self.headers.get("Content-Length", "0"))
        Attacker.received.append(self.rfile.read(length))
        self._answer(b"kept")

    def _answer(self, body: bytes) -> None:
        self.send_response(200)
        self.send_header("Content-Type", "text/html")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *_: Any) -> None:
        pass


@pytest.fixture
def attacker(servers: dict[str, int]) -> Iterator[int]:
    port = free_port()
    forms = [
        ("proxy", f"http://127.0.0.1:{servers['proxy']}/v1/chat/completions", COMPLETION),
        ("serve", f"http://127.0.0.1:{servers['serve']}/games", NEW_GAME),
        ("control", f"http://127.0.0.1:{port}/control", COMPLETION),
    ]
    parts = [FORM.format(id=i, action=action, name=name) for i, action, name in forms]
    submit = "".join(f'document.getElementById("{i}").submit();' for i, _, _ in forms)
    Attacker.page = f"<!doctype html><body>{''.join(parts)}<script>{COUNT}{submit}</script></body>"
    Attacker.received = []
    server = ThreadingHTTPServer(("127.0.0.1", port), Attacker)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield port
    finally:
        server.shutdown()
        server.server_close()


def test_a_form_from_another_origin_changes_nothing(
    browser: Any,
    servers: dict[str, int],
    upstream: Upstream,
    attacker: int,
) -> None:
    from selenium.webdriver.support.ui import WebDriverWait

    upstream.reset()
    browser.get(f"http://127.0.0.1:{attacker}/")
    WebDriverWait(browser, 15).until(lambda d: d.execute_script("return window.loaded") == 3)
    # The browser sent the forms, each a body any JSON parser reads as a request.
    assert [json.loads(body) for body in Attacker.received] == [json.loads(COMPLETION + '="}')]
    assert upstream.requests() == []
    status, answer = call(servers["serve"], "GET", "/games")
    assert (status, answer["chats"]) == (200, [])
