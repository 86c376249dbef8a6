"""What a client reads of a streamed reply, through the proxy, is the whole narration the store
keeps, at every chunk size from 1 to 16, in both protocols (chat-completion chunks and
Messages' `text_delta` events): indented, tabbed and blank-line-led lines after a tag included.

Issue #27's fault: a tag followed by a line that starts with white space, in 4-character
chunks, reached the client as `'The door. - Mira runs'` while the store kept the whole text
(nothing more was sent after the first piece that was not a prefix of the final narration)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient

from tests.conftest import FIXTURES
from tests.proxy import test_anthropic_stream as anthropic
from tests.proxy.inprocess import Scripted, narration, proxy_app_for, streamed, summary
from tests.proxy.test_proxy import starting_game

DOOR = 'The door.\n\n[clock: name="A" size="6"]\n\n  - Mira runs.\n  - Tobin hides.\n'
REPLIES = {
    "door": DOOR,
    "tabbed": '\n\n\tThe lamp gutters.\n\t[clock: name="B" size="4"]\n\t\tTobin waits.\n'
    '[clock: name="B" tick="1"]\n    - one\n    - two\n\n',
    "blank-led": '\n[clock: name="C" size="4"]\n\n\n  Rain.\n \t Wind.  \n\n',
    **{
        name: (FIXTURES / "replies" / "en" / f"{name}.txt").read_text("utf-8")
        for name in ("lenient-spellings", "markdown-tags", "tag-at-start-and-end")
    },
}
SIZES = range(1, 17)


@pytest.fixture
def both(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> Iterator[tuple[TestClient, Scripted, anthropic.Scripted]]:
    """One proxy serving both protocols, each in front of its own scripted upstream."""
    chat = Scripted()
    messages = anthropic.Scripted()

    class Either(Scripted):
        async def handle_async_request(self, request: Any) -> Any:
            if request.url.path.endswith("/messages"):
                return await messages.handle_async_request(request)
            return await chat.handle_async_request(request)

    options = {"anthropic_upstream": "http://up.invalid"}
    with proxy_app_for(tmp_path / "c.db", monkeypatch, Either(), **options) as (client, _):
        yield client, chat, messages


def pieces(text: str, size: int) -> list[str]:
    return [text[at : at + size] for at in range(0, len(text), size)]


@pytest.mark.parametrize("name", sorted(REPLIES))
def test_a_streamed_reply_reaches_the_client_whole_at_every_chunk_size_in_both_protocols(
    both: tuple[TestClient, Scripted, anthropic.Scripted], name: str
) -> None:
    client, chat, messages = both
    text = REPLIES[name]
    batch = starting_game().apply_reply(text)
    for size in SIZES:
        said = [{"role": "user", "content": f"We try {name} in pieces of {size}."}]
        chat.script({"reply": text, "chunk": size})
        chunks = streamed(client, {"model": "m", "messages": said})
        kept = summary(chunks)
        assert narration(chunks) == kept["narration"], (size, narration(chunks))
        assert kept["reply"] == batch.reply, size  # the store kept the whole reply

        messages.queue.append(anthropic.streamed((anthropic.text_block(""), pieces(text, size))))
        said[0]["content"] += " (Messages)"
        events = anthropic.events(client, said)
        (ended,) = [event for event in events if event["type"] == "message_delta"]
        assert anthropic.shown(events) == ended["gm_tags"]["narration"], size
        assert ended["gm_tags"]["reply"] == batch.reply, size
    assert kept["narration"] == batch.narration  # no checks in these: no dice
