"""Every bundled reply through `apply_reply`, snapshotted: the rewritten reply, the narration,
each receipt with its reason, and the clocks the reply left. Review a changed snapshot like code."""

from __future__ import annotations

import json
from functools import cache
from typing import Any

import pytest
from syrupy.assertion import SnapshotAssertion

from gm_tags import Game, Ruleset, Turn, load_ruleset
from tests.conftest import FIXTURES

REPLIES = FIXTURES / "replies"
INDEX: dict[str, dict[str, str]] = json.loads((REPLIES / "index.json").read_text("utf-8"))[
    "replies"
]


@cache
def ruleset(name: str) -> Ruleset:
    return load_ruleset(FIXTURES / "rulesets" / name)


def starting_game(entry: dict[str, str]) -> Game:
    document: dict[str, Any] = json.loads((FIXTURES / "games" / entry["game"]).read_text("utf-8"))
    return Game.from_document(ruleset(entry["ruleset"]), document)


def report(turn: Turn) -> str:
    receipts = [
        f"{receipt.result:<8} {receipt.tag}"
        + (f"\n         ({receipt.detail})" if receipt.detail else "")
        for receipt in turn.receipts
    ]
    clocks = [
        f"{clock.name}: {clock.fill}{' done' if clock.done else ''}" for clock in turn.game.clocks
    ]
    live = turn.game.to_document().get("rulesetLive", {})
    heard = [f"rolled: {line}" for line in turn.game.rolled]
    document = turn.game.to_document()
    if "gamePartySheet" in document:
        party = json.dumps(document["gamePartySheet"], ensure_ascii=False, sort_keys=True)
        heard.append(f"party sheet (revision {turn.game.party_revision}): {party}")
    stored = [
        f"{key}: {json.dumps(state, ensure_ascii=False, sort_keys=True)}"
        for key, state in live.items()
    ]
    # What the party carries, only where a reply changed it (the other snapshots stay as they are).
    for key in ("gameInventory", "gameMoney"):
        if key in document:
            heard.append(f"{key}: {json.dumps(document[key], ensure_ascii=False, sort_keys=True)}")
    return "\n".join(
        [
            "=== reply ===",
            turn.reply,
            "=== narration ===",
            turn.narration,
            "=== receipts ===",
            *receipts,
            "=== clocks ===",
            *clocks,
            "=== live state ===",
            *stored,
            *heard,
        ]
    )


def test_every_reply_file_is_indexed_and_there_are_forty_or_more() -> None:
    on_disk = {path.relative_to(REPLIES).as_posix() for path in REPLIES.glob("*/*.txt")}
    assert on_disk == set(INDEX)
    assert len(on_disk) >= 40
    assert {name.split("/")[0] for name in on_disk} == {"en", "ja", "zh", "hi"}


@pytest.mark.parametrize("name", sorted(INDEX))
def test_reply(name: str, snapshot: SnapshotAssertion) -> None:
    entry = INDEX[name]
    reply = (REPLIES / name).read_text("utf-8")
    game = starting_game(entry)
    turn = game.apply_reply(reply, seed=name)  # checks roll the same dice every run
    assert report(turn) == snapshot
    assert game.to_document() == starting_game(entry).to_document()  # the start is untouched
