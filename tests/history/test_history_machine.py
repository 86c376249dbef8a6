"""Random sequences of replies, regenerations, continuations, swipe choices, deletions and party
saves against a model written here; the state must equal the model's after every step, and after
closing and reopening the store."""

from __future__ import annotations

import tempfile
from pathlib import Path

import pytest
from hypothesis import settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, precondition, rule

from gm_tags import Game
from gm_tags.history import Chat
from gm_tags.store import Chats, SqliteStore
from tests.conftest import FIXTURES, ruleset_named

pytestmark = pytest.mark.slow  # 40 runs of 30 steps, a real store under each

CREW = ruleset_named("crew-of-shadows")
SIZE = 8


VAULT = 4  # the crew's coin pool is capped by the vault field, 4 by default


def tick(amount: int) -> str:
    """A reply that moves the clock, and on good news brings the crew one coin."""
    coin = ' [sheet: sheet="party" op="restore" pool="coin" amount="1"]' if amount > 0 else ""
    return f'The plan moves on. [clock: name="Plan" tick="{amount}"]{coin}'


class History(RuleBasedStateMachine):
    @initialize()
    def start(self) -> None:
        self.folder = tempfile.mkdtemp()
        self.path = Path(self.folder) / "chats.sqlite"
        self.store = SqliteStore(self.path)
        self.chats = Chats(self.store)
        start = Game.new(CREW, {"Mira": {}}).apply_reply(f'[clock: name="Plan" size="{SIZE}"]').game
        self.chat = self.chats.create(
            "c1", {"path": str(FIXTURES / "rulesets" / "crew-of-shadows.json")}, start
        )
        # The model: each message is [role, [ticks or saved lair per swipe], selected].
        self.model: list[list[object]] = []

    def step(self, chat: Chat) -> None:
        self.chats.save("c1", self.chat, chat)
        self.chat = chat

    def last_reply(self) -> bool:
        return bool(self.model) and self.model[-1][0] == "reply"

    @rule(amount=st.integers(-3, 5))
    def reply(self, amount: int) -> None:
        chat, _ = self.chat.reply(tick(amount), seed=1)
        self.step(chat)
        self.model.append(["reply", [[amount]], 0])

    @precondition(last_reply)
    @rule(amount=st.integers(-3, 5))
    def regenerate(self, amount: int) -> None:
        chat, _ = self.chat.regenerate(tick(amount), seed=1)
        self.step(chat)
        swipes = self.model[-1][1]
        swipes.append([amount])  # type: ignore[attr-defined]
        self.model[-1][2] = len(swipes) - 1  # type: ignore[arg-type]

    @precondition(last_reply)
    @rule(amount=st.integers(-3, 5))
    def continue_(self, amount: int) -> None:
        chat, _ = self.chat.continue_reply(tick(amount), seed=1)
        self.step(chat)
        self.model[-1][1][self.model[-1][2]].append(amount)  # type: ignore[index]

    @precondition(last_reply)
    @rule(data=st.data())
    def select(self, data: st.DataObject) -> None:
        count = len(self.model[-1][1])  # type: ignore[arg-type]
        choice = data.draw(st.integers(0, count - 1))
        self.step(self.chat.select(choice))
        self.model[-1][2] = choice

    @precondition(last_reply)
    @rule(data=st.data())
    def delete_swipe(self, data: st.DataObject) -> None:
        swipes = self.model[-1][1]
        choice = data.draw(st.integers(0, len(swipes) - 1))  # type: ignore[arg-type]
        self.step(self.chat.delete_swipe(choice))
        if len(swipes) == 1:  # type: ignore[arg-type]
            self.model.pop()
            return
        del swipes[choice]  # type: ignore[attr-defined]
        selected = self.model[-1][2]
        self.model[-1][2] = min(selected - (1 if selected > choice else 0), len(swipes) - 1)  # type: ignore[operator,arg-type]

    @precondition(lambda self: bool(self.model))
    @rule()
    def delete_last(self) -> None:
        self.step(self.chat.delete_last())
        self.model.pop()

    @rule(lair=st.sampled_from(["Cellar", "Barge", "Attic"]), stale=st.booleans())
    def party_save(self, lair: str, stale: bool) -> None:
        revision = self.chat.game.party_revision - (1 if stale else 0)
        chat, result = self.chat.save_party_sheet({"fields": {"lair": lair}}, revision)
        self.step(chat)
        assert result.saved == (not stale)  # a save opened at an older revision never lands
        if not stale:
            self.model.append(["event", [[lair]], 0])

    @rule()
    def reopen(self) -> None:
        self.store.close()
        self.store = SqliteStore(self.path)
        self.chats = Chats(self.store)
        reopened = self.chats.open("c1")
        assert reopened.game.to_document() == self.chat.game.to_document()
        self.chat = reopened

    @invariant()
    def matches_the_model(self) -> None:
        fill, coin, revision, lair = 0, 0, 0, None
        for role, swipes, selected in self.model:
            chosen = swipes[selected]  # type: ignore[index]
            if role == "event":
                revision, lair = revision + 1, chosen[0]
                continue
            for amount in chosen:
                fill = max(0, min(SIZE, fill + amount))
                coin = min(VAULT, coin + 1) if amount > 0 else coin
        game = self.chat.game
        assert game.clocks[0].filled == fill
        party_pools = game.to_document().get("rulesetLive", {}).get("$party", {}).get("pools", {})
        assert party_pools.get("coin", {}).get("value", 0) == coin
        assert game.party_revision == revision
        assert game.party_value("lair") == (lair if lair is not None else "")
        assert len(self.chat.messages) == len(self.model)

    def teardown(self) -> None:
        self.store.close()


History.TestCase.settings = settings(max_examples=40, stateful_step_count=30, deadline=None)
TestHistory = pytest.mark.spec("EN-2", "EN-3", "CL-14", "CL-15", "PT-12", "PT-14")(History.TestCase)
