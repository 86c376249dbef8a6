"""The clock section of the per-turn reminder."""

from __future__ import annotations

import pytest

from gm_tags import Clock, load_ruleset
from gm_tags.prompt.clocks import clock_section
from tests.conftest import FIXTURES

RULESETS = FIXTURES / "rulesets"


@pytest.mark.spec("CL-13")
def test_the_section_teaches_the_three_commands_with_the_limits_and_lists_every_clock() -> None:
    crew = load_ruleset(RULESETS / "crew-of-shadows.json")
    section = clock_section(
        crew.definition.clocks, [Clock("Alarm raised", 6, 4), Clock("Vault door", 8, 8)]
    )
    assert crew.definition.clocks is not None and crew.definition.clocks.text in section
    assert '[clock: name="Alarm raised" size="6"]' in section
    assert '[clock: name="Alarm raised" tick="2"]' in section
    assert '[clock: name="Alarm raised" clear]' in section
    assert "size 4, 6 or 8; at most 6 clocks" in section
    assert "1 to 100 characters" in section
    assert section.splitlines()[-1] == "Clocks now: Alarm raised 4/6; Vault door 8/8 (finished)."


@pytest.mark.spec("CL-13", "CL-1")
def test_no_clocks_block_means_no_word_of_clocks() -> None:
    storyteller = load_ruleset(RULESETS / "storyteller.json")
    assert clock_section(storyteller.definition.clocks, []) == ""


def test_defaults_are_taught_when_the_block_is_empty_and_no_clock_exists() -> None:
    rajmarg = load_ruleset(RULESETS / "rajmarg.hi.json")
    section = clock_section(rajmarg.definition.clocks, [])
    assert "size 4, 6 or 8; at most 8 clocks" in section
    assert section.endswith("Clocks now: none.")
