"""`gm_tags/syntax.py` says the tag syntax once for every pattern built over tag text; the grammar
file says it for Lark. They must agree, or a scanner, binder or refusal would read tags otherwise
than the parser does."""

from __future__ import annotations

import re

from gm_tags import Game, syntax
from gm_tags.grammar import tag_parser, terminal_pattern


def test_every_quote_the_grammar_reads_is_in_the_quote_set_and_no_other() -> None:
    values = {terminal_pattern(name) for name in syntax.VALUE_TERMINALS - {"BARE"}}
    assert values == {syntax.quoted(((opening, closing),)) for opening, closing in syntax.QUOTES}
    bare = terminal_pattern("BARE")
    assert all(quote in bare for quote in syntax.OPENING_QUOTES + syntax.CLOSING_QUOTES)


def test_a_key_is_what_the_grammar_calls_a_key() -> None:
    assert terminal_pattern("KEY") == syntax.KEY


def test_the_terminal_names_spelled_for_refusals_are_the_grammars() -> None:
    names = {terminal.name for terminal in tag_parser().terminals}
    assert set(syntax.TERMINAL_WORDS) | syntax.VALUE_TERMINALS <= names
    assert {syntax.TAG_NAME, syntax.COLON, syntax.OUTCOME, syntax.EQUALS} <= names


def test_the_tag_names_are_the_grammar_files() -> None:
    pattern = terminal_pattern(syntax.TAG_NAME)
    assert pattern == f"(?i:{'|'.join(syntax.grammar_tag_names())})"


def test_a_value_in_any_quote_hides_its_bracket_from_the_scanner_but_an_apostrophe() -> None:
    game = Game.new(None)
    for opening, closing in syntax.BRACKET_QUOTES:
        turn = game.apply_reply(f"[clock: name={opening}The [Red] Door{closing} size=4] Go.")
        assert turn.narration == "Go.", opening
    # An apostrophe is not a quote to the scanner: the tag ends at the first `]`.
    turn = game.apply_reply("[clock: name='It's [Red]' size=4]")
    assert re.search(r"result=\"refused\"", turn.reply)
