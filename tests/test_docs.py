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
