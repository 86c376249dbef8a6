"""The documentation that users rely on stays in step with the code."""

from __future__ import annotations

import importlib
import re
from pathlib import Path

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


# A path a page names in backticks, as a file (`store/sql.py`) or a folder (`chats/`).
_NAMED_PATH = re.compile(r"`([A-Za-z0-9_][A-Za-z0-9_./-]*(?:\.py|/))`")
# Written by runs (screenshots, mutation reports, snapshot folders beside a user's tests).
_WRITTEN_BY_RUNS = ("artifacts/", "__snapshots__/")


def _pages() -> list[Path]:
    return [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]


def _named_path_exists(named: str) -> bool:
    """A page names a path from the repository's root or the package's (`gm_tags/store/` or
    `store/`); a bare file name (`bind.py`) stands for every module of that name."""
    if "/" not in named.rstrip("/"):
        return any((ROOT / "gm_tags").rglob(named.rstrip("/")))
    return (ROOT / named).exists() or (ROOT / "gm_tags" / named).exists()


def test_every_path_the_docs_name_exists() -> None:
    stale = [
        f"{page.name}: {named}"
        for page in _pages()
        for named in sorted(set(_NAMED_PATH.findall(page.read_text("utf-8"))))
        if not named.startswith(_WRITTEN_BY_RUNS) and not _named_path_exists(named)
    ]
    assert stale == []


def _resolves(dotted: str) -> bool:
    parts = dotted.split(".")
    for cut in range(len(parts), 0, -1):
        try:
            found: object = importlib.import_module(".".join(parts[:cut]))
        except ModuleNotFoundError:
            continue
        for name in parts[cut:]:
            if not hasattr(found, name):
                return False
            found = getattr(found, name)
        return True
    return False


def test_every_gm_tags_name_the_docs_spell_out_exists() -> None:
    named = {
        f"{page.name}: {dotted}"
        for page in _pages()
        for dotted in re.findall(r"`(gm_tags(?:\.\w+)+)", page.read_text("utf-8"))
        if not _resolves(dotted)
    }
    assert named == set()
