"""Every exception gm-tags raises, and the problem record a refused ruleset carries.

    GmTagsError
    ├── RulesetError        a ruleset (or package) was refused; `.problems` lists every problem
    ├── GameDocumentError   a game document does not fit its ruleset; `.problems` as above
    ├── SourceError         a path could not be read, or held no JSON
    └── SettingError        a setting cannot be used (an environment variable it names is unset)

Command refusals are not exceptions: they are receipts with a reason code (see `gm_tags.reasons`).
Nothing a model writes raises out of `Game.apply_reply`.
"""

from __future__ import annotations

from dataclasses import dataclass

ROOT_PATH = "(root)"


@dataclass(frozen=True, slots=True)
class Problem:
    """One thing wrong, at a dotted JSON path written as the Engine writes it; `file` names the
    package file it is in when that is not the ruleset itself (a catalog asset)."""

    path: str
    message: str
    file: str | None = None

    def __str__(self) -> str:
        where = f"{self.file}: " if self.file else ""
        return f"{where}{self.path}: {self.message}"


def join_path(parts: tuple[str | int, ...]) -> str:
    return ".".join(str(part) for part in parts) if parts else ROOT_PATH


class GmTagsError(Exception):
    """Base of every error gm-tags raises."""


class _ProblemsError(GmTagsError):
    what = "input"

    def __init__(self, problems: list[Problem], source: str | None = None) -> None:
        self.problems = list(problems)
        self.source = source
        where = f" {source}" if source else ""
        lines = "\n".join(f"  {problem}" for problem in self.problems)
        count = len(self.problems)
        super().__init__(
            f"{self.what}{where} refused: {count} problem{'s' if count != 1 else ''}\n{lines}"
        )


class RulesetError(_ProblemsError):
    """The ruleset was refused. Every problem found is in `problems`, none left for later."""

    what = "ruleset"


class GameDocumentError(_ProblemsError):
    """A game document does not fit the ruleset it is played with."""

    what = "game document"


class SourceError(GmTagsError):
    """A file or folder could not be read, or did not hold JSON."""


class SettingError(GmTagsError):
    """A setting a program was given cannot be used: an environment variable it names is not
    set, a server was given nothing to serve."""
