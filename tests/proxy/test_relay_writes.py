"""What one read of the upstream's stream holds before the first narration goes out to the
client in as few writes as the first words allow (`gm_tags.proxy.streaming.Relay`): an event
that feeds no text (the role) goes with the next event's, so the first words are not one more
write, and one more turn of the event loop, behind it."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from typing import Any

import anyio

from gm_tags.proxy.hop import MAX_REPLY
from gm_tags.proxy.passing import PassedTurn
from gm_tags.proxy.relay import events
from tests.proxy.inprocess import chunk
from tests.proxy.test_proxy import starting_game


class Read:
    """An upstream's answer whose body comes in the reads given."""

    status, reason, headers = 200, "OK", {"content-type": "text/event-stream"}

    def __init__(self, *reads: list[dict[str, Any] | str]) -> None:
        self.reads = reads

    async def chunks(self) -> AsyncIterator[bytes]:
        for read in self.reads:
            data = [one if isinstance(one, str) else json.dumps(one) for one in read]
            yield "".join(f"data: {one}\n\n" for one in data).encode()

    async def read(self) -> bytes:
        return b""

    async def close(self) -> None:
        pass


def delta(**given: Any) -> dict[str, Any]:
    return chunk([{"index": 0, "delta": given, "finish_reason": None}])


async def writes(answer: Read) -> list[str]:
    relay = events(answer, PassedTurn(starting_game(), "none", "a test"), MAX_REPLY)
    async with anyio.create_task_group() as group:
        return [written async for written in relay.events(group)]


def test_the_role_goes_out_in_one_write_with_the_first_words_read_with_it() -> None:
    role, words = delta(role="assistant", content=""), delta(content="The door opens.")
    got = anyio.run(writes, Read([role, words, delta(content=" Mira runs."), "[DONE]"]))
    assert '"role": "assistant"' in got[0] and '"content": "The door opens.' in got[0]
    shown = [json.loads(line[6:]) for one in got for line in one.split("\n\n") if line[6:7] == "{"]
    said = "".join(c["choices"][0]["delta"].get("content", "") for c in shown if c["choices"])
    assert said == "The door opens. Mira runs."


def test_a_role_read_alone_goes_out_alone() -> None:
    """Nothing waits for words that were not read: a model's first words may be seconds off."""
    role, words = delta(role="assistant", content=""), delta(content="The door opens.")
    got = anyio.run(writes, Read([role], [words, "[DONE]"]))
    assert '"role": "assistant"' in got[0] and "The door" not in got[0]
    assert "The door opens." in got[1]
