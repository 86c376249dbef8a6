"""Where the tag grammar lives: inside the installed package (a wheel maps `grammar/` there), or
beside the package in a source checkout."""

from __future__ import annotations

from importlib import resources
from pathlib import Path

GRAMMAR_FILE = "tags.lark"


def grammar_text() -> str:
    packaged = resources.files("gm_tags").joinpath("grammar", GRAMMAR_FILE)
    if packaged.is_file():
        return packaged.read_text(encoding="utf-8")
    checkout = Path(__file__).resolve().parent.parent / "grammar" / GRAMMAR_FILE
    return checkout.read_text(encoding="utf-8")
