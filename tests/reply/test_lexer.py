"""The words Lark's parser reads: `gm_tags/lexer.py` cuts exactly the tokens Lark's own contextual
lexer cuts from the same grammar, fails where it fails, and Lark's parser consumes every one."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st
from lark import Lark, Token
from lark.exceptions import UnexpectedCharacters, UnexpectedInput, UnexpectedToken
from lark.parsers.lalr_parser_state import ParserState

import gm_tags.grammar
from gm_tags import Game
from gm_tags.grammar import grammar_text, tag_parser
from gm_tags.parse import parse, parse_all
from gm_tags.scan import scan
from tests.conftest import FIXTURES
from tests.reply.test_grammar import tags

# The same grammar with Lark's own contextual lexer: what our lexer must agree with.
LARKS_OWN = Lark(grammar_text(), start=["tags", "tag", "branch"], parser="lalr")
# ... and the same with our transformer, to read refusals with.
LARKS_OWN_WITH_ITEMS = Lark(
    grammar_text(),
    start=["tags", "tag", "branch"],
    parser="lalr",
    transformer=tag_parser().options.transformer,
)
REPLIES = sorted((FIXTURES / "replies").glob("*/*.txt"))


def tokens(parser: Lark, text: str, start: str) -> tuple[list[tuple[str, str, int]], Any]:
    """The tokens the parser read, in order, and where and why it stopped (None: it read all)."""
    read: list[tuple[str, str, int]] = []
    interactive = parser.parse_interactive(text, start=start)
    try:
        for token in interactive.iter_parse():
            read.append((token.type, str(token), token.start_pos or 0))
        interactive.feed_eof()
    except UnexpectedToken as error:
        return read, (error.token.start_pos, frozenset(error.expected) - {"$END"})
    except UnexpectedCharacters as error:
        return read, (error.pos_in_stream, frozenset(error.allowed))
    return read, None


def assert_same_words(text: str, start: str) -> None:
    assert tokens(tag_parser(), text, start) == tokens(LARKS_OWN, text, start)


@pytest.mark.parametrize("reply", REPLIES, ids=lambda path: f"{path.parent.name}/{path.name}")
def test_every_fixture_replys_tags_are_cut_as_larks_lexer_cuts_them(reply: Any) -> None:
    candidates = scan(reply.read_text("utf-8"))
    texts = [candidate.text for candidate in candidates]
    if texts:
        assert_same_words(" ".join(texts), "tags")
    for text in texts:
        assert_same_words(text, "tag")


@given(tags())
def test_generated_and_broken_tags_are_cut_as_larks_lexer_cuts_them(text: str) -> None:
    assert_same_words(text, "tag")


@given(st.text(alphabet="ab =[]:\n\u3000\t", max_size=12), st.sampled_from(["success", "FAILURE"]))
def test_branches_are_cut_as_larks_lexer_cuts_them(text: str, outcome: str) -> None:
    assert_same_words(f"[{outcome}:{text}]", "branch")


@given(tags())
def test_a_refusal_says_what_it_would_say_with_larks_own_lexer(text: str) -> None:
    candidates = [candidate for candidate in scan(text) if candidate.closed]
    ours = [parse(candidate).problem for candidate in candidates]
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(gm_tags.grammar, "tag_parser", lambda: LARKS_OWN_WITH_ITEMS)
        assert [parse(candidate).problem for candidate in candidates] == ours


def test_a_word_no_terminal_of_the_place_takes_raises_larks_own_error() -> None:
    with pytest.raises(UnexpectedInput) as raised:
        tag_parser().parse('[clock: name="A" ?]', start="tag")
    assert isinstance(raised.value, UnexpectedCharacters)
    assert (raised.value.pos_in_stream, raised.value.line, raised.value.column) == (17, 1, 18)
    assert raised.value.allowed == {"KEY", "COMMA", "RSQB"}


def test_larks_parser_consumes_every_attribute_of_a_40_tag_reply(
    monkeypatch: pytest.MonkeyPatch, game: Game
) -> None:
    consumed: list[str] = []
    feed = ParserState.feed_token

    def counted(self: ParserState[Any], token: Token, is_end: bool = False) -> Any:
        consumed.append(token.type)
        return feed(self, token, is_end)

    monkeypatch.setattr(ParserState, "feed_token", counted)
    reply = " Prose. ".join(f'[clock: name="Clock {at}" size="6" tick="1"]' for at in range(40))
    turn = game.apply_reply(reply)
    assert len(turn.receipts) == 40
    assert consumed.count("KEY") == 40 * 3
    assert consumed.count("EQUAL") == 40 * 3
    assert consumed.count("DOUBLE_QUOTED") == 40 * 3
    assert consumed.count("TAG_NAME") == 40


def test_the_pipeline_reads_a_reply_in_one_pass_of_the_parser(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    starts: list[str] = []
    parse_with = Lark.parse

    def counted(self: Lark, text: str, start: str | None = None, **options: Any) -> Any:
        starts.append(str(start))
        return parse_with(self, text, start, **options)

    monkeypatch.setattr(Lark, "parse", counted)
    reply = " ".join(f'[clock: name="C{at}" tick="1"]' for at in range(10))
    assert len(parse_all(scan(reply))) == 10
    assert starts == ["tags"]
