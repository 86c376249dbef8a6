"""The system section the upstream reads is the ruleset's own, cut to the proxy's budget, and it
is written once per ruleset and budget, not once per request (`gm_tags.proxy.sections`)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from gm_tags import Game, load_ruleset
from gm_tags.proxy.sections import section_of
from tests.proxy.conftest import RULESET
from tests.proxy.inprocess import proxy_app_for

TICK = 'The bell rings. [clock: name="Alarm raised" tick="1"]'
# A rules reference long enough for a small budget to cut it.
REFERENCE = " ".join(f"Rule {at}: the crew acts, the clock ticks." for at in range(300))


def with_reference() -> dict[str, Any]:
    document: dict[str, Any] = json.loads(RULESET.read_text(encoding="utf-8"))
    return {**document, "gmReference": REFERENCE}


def test_the_section_is_the_games_own_for_each_budget_and_kept_across_its_snapshots() -> None:
    game = Game.new(load_ruleset(with_reference()))
    for budget in (None, 400):
        section = section_of(game, budget)
        assert section.text == game.system_prompt(budget).text
        assert section.message is not None
        assert section.message.value == {"role": "system", "content": section.text}
        assert json.loads(section.message.text) == section.message.value
    assert len(section_of(game, 400).text) < len(section_of(game, None).text)
    later = game.apply_reply(TICK).game
    assert section_of(later, 400) is section_of(game, 400)


def test_another_ruleset_gets_its_own_section() -> None:
    plain, referenced = Game.new(load_ruleset(RULESET)), Game.new(load_ruleset(with_reference()))
    assert section_of(plain, None).text == plain.system_prompt().text
    assert section_of(referenced, None).text == referenced.system_prompt().text
    assert REFERENCE[:40] in section_of(referenced, None).text
    assert REFERENCE[:40] not in section_of(plain, None).text


def test_requests_through_the_proxy_write_the_section_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Joining and cutting a 16,000-character reference, then writing it as JSON, took a
    request up to 2.5 ms on its way to the upstream."""
    written = []
    system_prompt = Game.system_prompt

    def counted(game: Game, budget: int | None = None, **more: Any) -> Any:
        written.append(budget)
        return system_prompt(game, budget, **more)

    monkeypatch.setattr(Game, "system_prompt", counted)
    with proxy_app_for(tmp_path / "chats.db", monkeypatch, budget=300) as (client, upstream):
        for at in range(3):
            messages = [{"role": "user", "content": f"Table {at}: we sneak in."}]
            answer = client.post("/v1/chat/completions", json={"model": "m", "messages": messages})
            assert answer.status_code == 200, answer.text
            sent = upstream.seen[-1]["messages"]
            assert sent[0] == {"role": "system", "content": system_prompt(start(), 300).text}
    assert written == [300]


def start() -> Game:
    return Game.new(load_ruleset(RULESET))
