"""What reading tags with the real grammar costs, beside Lark itself, in the same run.

- `plain-lark-parse`: a plain `Lark(grammar, start="tag", parser="lalr")` parse (a tree, no
  transformer) of the heavy reply's 40 tags: what Lark alone costs.
- `pipeline`: the heavy reply (4 KB, 40 tags) through `Game.apply_reply`: scan, Lark with the
  inline transformer, bind, execute, receipts, rewrite, narrate. Target: at most 1.25x the
  plain parse.
- `pipeline-naive-parse`: the same pipeline reading each tag as a tree and then transforming it
  (`Transformer.transform`), one parse per tag. Target: the pipeline at least 1.5x faster.

Run with `python -m pytest tests/benchmarks/test_grammar.py --benchmark-only`.
"""

from __future__ import annotations

from typing import Any

import pytest
from lark import Lark, Token, Transformer

import gm_tags.parse
from gm_tags import Game
from gm_tags.grammar import Item, ParsedTag, grammar_text, unquoted
from gm_tags.scan import scan
from tests.benchmarks.test_pipeline import REPLIES
from tests.benchmarks.test_pipeline import game as game  # the fixture

HEAVY = REPLIES["heavy-4KB-40-tags"]
PLAIN = Lark(grammar_text(), start="tag", parser="lalr")
TAGS = [candidate.text for candidate in scan(HEAVY)]


class NaiveItems(Transformer[Token, Any]):
    def tag(self, children: list[Any]) -> ParsedTag:
        return ParsedTag(children[0].start_pos, list(children[2:]))

    def attribute(self, children: list[Token]) -> Item:
        key, value = children
        return Item(key.lower(), unquoted(value), key.start_pos or 0)

    def flag(self, children: list[Token]) -> Item:
        return Item(children[0].lower(), None, children[0].start_pos or 0)


def naive_read_tag(text: str) -> ParsedTag:
    return NaiveItems().transform(PLAIN.parse(text))  # type: ignore[no-any-return]


def naive_read_tags(texts: list[str]) -> list[ParsedTag]:
    """Each tag parsed into a tree, then transformed: the tags read one by one."""
    read, at = [], 0
    for text in texts:
        tag = naive_read_tag(text)
        read.append(ParsedTag(tag.name_at + at, tag.items))
        at += len(text) + 1
    return read


def test_plain_lark_parse(benchmark: Any) -> None:
    trees = benchmark(lambda: [PLAIN.parse(tag) for tag in TAGS])
    assert len(trees) == 40


def test_pipeline(benchmark: Any, game: Game) -> None:
    turn = benchmark(game.apply_reply, HEAVY)
    assert len(turn.receipts) == 40 and all(receipt.ok for receipt in turn.receipts)


def test_pipeline_naive_parse(benchmark: Any, game: Game, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(gm_tags.parse, "read_tags", naive_read_tags)
    turn = benchmark(game.apply_reply, HEAVY)
    assert [receipt.tag for receipt in turn.receipts] == [
        receipt.tag for receipt in game.apply_reply(HEAVY).receipts
    ]
