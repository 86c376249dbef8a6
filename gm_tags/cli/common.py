"""What every command of the command line shares: the exit codes, reporting a refused or
unreadable input instead of raising it, and reading and writing the files a command names.
Each command imports what it needs when it runs, so `gm-tags --help` stays light."""

from __future__ import annotations

import argparse
import functools
import json
import sys
import typing
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, TextIO, TypeAlias

if TYPE_CHECKING:
    from ..game import Game
    from ..ruleset import Ruleset

OK, REFUSED, UNREADABLE, INTERRUPTED = 0, 1, 2, 130

Command = Callable[[argparse.Namespace, TextIO], int]


class Parser(argparse.ArgumentParser):
    """Usage errors in one line and exit code 2, never a traceback."""

    def error(self, message: str) -> typing.NoReturn:
        self.exit(UNREADABLE, f"{self.prog}: {message} (see {self.prog} --help)\n")


# What each command module adds its subcommands to (argparse has no public name for it).
Commands: TypeAlias = "argparse._SubParsersAction[Parser]"


def reporting_input_errors(run: Command) -> Command:
    """`run`, with a refused ruleset or game document (exit 1) and an unreadable file (exit 2)
    reported on stderr instead of raised."""

    @functools.wraps(run)
    def guarded(args: argparse.Namespace, out: TextIO) -> int:
        from ..errors import GameDocumentError, RulesetError, SettingError, SourceError
        from ..history import HistoryError

        try:
            return run(args, out)
        except (RulesetError, GameDocumentError, HistoryError) as error:
            print(error, file=sys.stderr)
            return REFUSED
        except (SourceError, SettingError) as error:
            print(error, file=sys.stderr)
            return UNREADABLE

    return guarded


def open_game(args: argparse.Namespace) -> Game:
    """The game `--game` holds (a new one when it names no file), played with `--ruleset`."""
    from ..ruleset import load_ruleset

    ruleset = load_ruleset(args.ruleset) if args.ruleset else None
    return read_game(ruleset, args.game)


def read_game(ruleset: Ruleset | None, path: str | None) -> Game:
    from ..errors import SourceError
    from ..game import Game

    if path is None or not Path(path).exists():
        return Game.new(ruleset)  # the callers have checked a new game is what was asked
    try:
        document = json.loads(read_text(path))
    except json.JSONDecodeError as error:
        raise SourceError(f"{path}: not JSON: {error}") from None
    return Game.from_document(ruleset, document)


def read_text(path: str) -> str:
    from ..errors import SourceError

    try:
        return Path(path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as error:
        raise SourceError(f"{path}: cannot be read: {error}") from None


def read_stdin() -> str:
    from ..errors import SourceError

    binary = getattr(sys.stdin, "buffer", None)
    if binary is None:  # a text stream handed in (tests, embedding)
        return sys.stdin.read()
    try:
        return typing.cast(bytes, binary.read()).decode("utf-8")
    except UnicodeDecodeError as error:
        raise SourceError(f"the reply on standard input is not UTF-8: {error}") from None


def write_whole(path: str, text: str) -> None:
    """`text` written to `path` whole or not at all: a temporary file in the same folder,
    flushed to disk, then renamed over it."""
    import os
    import tempfile

    from ..errors import SourceError

    target = Path(path)
    if not target.parent.is_dir():
        raise SourceError(f"{path}: cannot be written: the folder {target.parent} does not exist")
    try:
        with tempfile.NamedTemporaryFile(
            "w", encoding="utf-8", dir=target.parent, prefix=f".{target.name}.", delete=False
        ) as temporary:
            temporary.write(text + "\n")
            temporary.flush()
            os.fsync(temporary.fileno())
        os.replace(temporary.name, target)
    except OSError as error:
        Path(temporary.name).unlink(missing_ok=True)
        raise SourceError(f"{path}: cannot be written: {error}") from None


def add_db(parser: argparse.ArgumentParser) -> None:
    from ..settings import DEFAULT_DB

    parser.add_argument("--db", default=DEFAULT_DB, help=f"the store (default {DEFAULT_DB})")
