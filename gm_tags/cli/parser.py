"""The command line's parser: `gm-tags` and one subcommand per command module, each adding its
own (`add_commands`). A new command is a module with `add_commands` and one entry in
`COMMANDS`."""

from __future__ import annotations

import argparse
import typing
from collections.abc import Sequence
from typing import Any

from .common import Parser
from .games import add_commands as add_game_commands
from .mcp_server import add_commands as add_mcp_commands
from .play import add_commands as add_play_commands
from .rulesets import add_commands as add_ruleset_commands
from .servers import add_commands as add_server_commands
from .stores import add_commands as add_store_commands

DESCRIPTION = """\
gm-tags: apply the command tags a language-model Game Master writes, and check rulesets.

Exit codes: 0 all good, 1 something was refused (a ruleset, a game document, a session step),
2 a file could not be read or written, or the command line itself was wrong, 130 interrupted.
"""

# Each command module's subcommands, in the order `gm-tags --help` lists them.
COMMANDS = (
    add_ruleset_commands,
    add_game_commands,
    add_store_commands,
    add_play_commands,
    add_server_commands,
    add_mcp_commands,
)


def build_parser() -> argparse.ArgumentParser:
    parser = Parser(
        prog="gm-tags",
        description=DESCRIPTION,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--version", action=_Version)
    commands = parser.add_subparsers(dest="command", required=True, parser_class=Parser)
    for add_commands in COMMANDS:
        add_commands(commands)
    return parser


def _version() -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("gm-tags")
    except PackageNotFoundError:
        return "unknown (not installed)"


class _Version(argparse.Action):
    """`--version`, read from the installed package's metadata only when asked for (reading it
    costs `gm-tags --help` a third of its time)."""

    def __init__(self, option_strings: Sequence[str], dest: str, **_: Any) -> None:
        super().__init__(
            option_strings, dest=argparse.SUPPRESS, nargs=0, help="show the version and exit"
        )

    def __call__(self, parser: argparse.ArgumentParser, *_: Any) -> typing.NoReturn:
        print(f"gm-tags {_version()}")
        parser.exit()
