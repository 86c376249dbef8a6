"""The documentation that users rely on stays in step with the code."""

from __future__ import annotations

import re

from gm_tags import Reason
from tests.conftest import ROOT


def test_every_refusal_reason_is_documented_and_nothing_else_is() -> None:
    page = (ROOT / "docs" / "commands.md").read_text("utf-8")
    table = page.split("## Refusal reasons", 1)[1]
    documented = re.findall(r"^\| `([a-z-]+)` \|", table, flags=re.MULTILINE)
    assert sorted(documented) == sorted(reason.value for reason in Reason)


def test_every_error_code_the_service_sends_is_documented() -> None:
    sources = [
        *(ROOT / "gm_tags" / "service").glob("*.py"),
        ROOT / "gm_tags" / "game.py",
        *(ROOT / "gm_tags" / "store").glob("*.py"),
    ]
    text = "\n".join(path.read_text("utf-8") for path in sources)
    sent = set(re.findall(r'_error\(\s*\d+,\s*"([a-z_0-9]+)"', text))
    sent |= set(re.findall(r'Refused\(\s*\d+,\s*"([a-z_]+)"', text))
    sent |= set(re.findall(r'Answer\(\s*\d+,\s*"([a-z_0-9]+)"', text))
    sent |= set(re.findall(r'^\s+code = "([a-z_]+)"', text, flags=re.MULTILINE))
    # Made from a name: the size limits, a refused check's reason, the HTTP status.
    sent |= {"game_too_large", "ruleset_too_large", "unknown_character", "unknown_skill"}
    sent |= {"http_404", "http_405"}
    page = (ROOT / "docs" / "service.md").read_text("utf-8")
    documented = set(re.findall(r"^\| \d{3} +\| `([a-z_0-9]+)` +\|", page, flags=re.MULTILINE))
    assert "store_unusable" in sent and "chat_conflict" in sent
    assert sent - documented == set()
