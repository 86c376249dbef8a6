"""A greeting every line of a chat holds (SillyTavern's first message: each fork keeps it) is
found in the store's index on at most `SHOWN_HITS` lines, and those are not the newest (ids in
text order: `:9` before `:10`). On a line it was not found on, it does not say that the window
tells another story: a walk that starts past an edited early message is taken there as on any
line (issue #29: in the hand session, after a player's early line was edited, every message
on the lines numbered 10 and on started a line of its own, forked from an old line)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from gm_tags.store import SHOWN_HITS
from tests.proxy.inprocess import proxy_app_for

GREETING = {"role": "assistant", "content": "Rain hammers the slate roofs. What do you do?"}
TURNS = 16  # the edit further back than the fast paths look
FORKS = SHOWN_HITS + 2  # lines `:2` to `:11`: the greeting found on `:9` to `:2`
RUNS = 4


def asked(client: Any, messages: list[dict[str, str]], said: str) -> str:
    """The player says `said` (no chat named: the chat is found by its transcript); the line
    the answer was stored on."""
    messages.append({"role": "user", "content": said})
    answer = client.post("/v1/chat/completions", json={"model": "m", "messages": messages})
    assert answer.status_code == 200, answer.text
    body = answer.json()
    messages.append({"role": "assistant", "content": body["choices"][0]["message"]["content"]})
    return str(body["gm_tags"]["chat"])


def test_past_an_edited_early_line_a_line_the_greeting_was_not_found_on_is_played_on(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    with proxy_app_for(tmp_path / "c.db", monkeypatch) as (client, upstream):
        upstream.script(*({"reply": f"Reply {n}."} for n in range(TURNS + 1 + FORKS + RUNS)))
        story = [GREETING]
        for turn in range(TURNS):
            line = asked(client, story, f"We go on, turn {turn}.")
        story[1]["content"] = "We go on quietly, turn 0."  # the player edits an early line
        assert asked(client, story, "We wait.") == line  # its line keeps it as it was
        for fork in range(FORKS):  # the last exchange deleted, another message sent
            del story[-2:]
            line = asked(client, story, f"We try door {fork}.")
        assert line.endswith(f":{FORKS + 1}")
        placed = [asked(client, story, f"We run on ({step}).") for step in range(RUNS)]
    assert placed == [line] * RUNS  # before: a new line each, forked from `:9` or before
