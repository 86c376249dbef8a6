"""`gm-tags apply`, `gm-tags prompt` and `gm-tags test`: one game document and the replies a
model writes for it, with no store."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import TextIO

from .common import (
    OK,
    UNREADABLE,
    Commands,
    open_game,
    read_stdin,
    read_text,
    reporting_input_errors,
    write_whole,
)
from .options import positive


def add_commands(commands: Commands) -> None:
    apply = commands.add_parser(
        "apply", help="process one model reply: print it rewritten, each command tag a receipt"
    )
    apply.add_argument(
        "reply", metavar="REPLY", help="a text file holding the reply, or - for stdin"
    )
    apply.add_argument(
        "--ruleset", metavar="PATH", required=True, help="ruleset file or package folder"
    )
    apply.add_argument(
        "--game",
        metavar="GAME.json",
        help="the game document to start from (with --write, a missing one starts a new game)",
    )
    apply.add_argument(
        "--json", action="store_true", help="print reply, narration, receipts and game as JSON"
    )
    apply.add_argument(
        "--write", action="store_true", help="save the game the reply left back to --game"
    )
    apply.set_defaults(run=apply_reply)
    prompt = commands.add_parser("prompt", help="print what the model reads for a game")
    prompt.add_argument("--ruleset", metavar="PATH", help="ruleset file or package folder")
    prompt.add_argument(
        "--game", metavar="GAME.json", help="the game document (a new game if absent)"
    )
    prompt.add_argument(
        "--budget",
        type=positive,
        metavar="TOKENS",
        help="fit the system section into this many tokens",
    )
    prompt.add_argument("--world", action="store_true", help="also print the world set-up prompt")
    prompt.set_defaults(run=print_prompt)
    test = commands.add_parser(
        "test", help="run a folder of reply cases against their expected files (docs/testing.md)"
    )
    test.add_argument("folder", metavar="DIR", help="the folder of cases, with its cases.json")
    test.add_argument(
        "--update",
        action="store_true",
        help="write the expected file of each case that differs or has none",
    )
    test.set_defaults(run=run_cases)


@reporting_input_errors
def apply_reply(args: argparse.Namespace, out: TextIO) -> int:
    if args.write and not args.game:
        print("--write saves to the --game file; name one", file=sys.stderr)
        return UNREADABLE
    if not args.ruleset:
        print("apply needs --ruleset: without one every tag would be refused", file=sys.stderr)
        return UNREADABLE
    if args.game and not Path(args.game).exists() and not args.write:
        print(
            f"{args.game} does not exist; add --write to start a new game there",
            file=sys.stderr,
        )
        return UNREADABLE
    game = open_game(args)
    reply = read_stdin() if args.reply == "-" else read_text(args.reply)
    turn = game.apply_reply(reply)
    if args.write:
        # Written before anything is printed, whole or not at all.
        write_whole(args.game, json.dumps(turn.game.to_document(), indent=2, ensure_ascii=False))
    if args.json:
        print(json.dumps(turn.to_dict(), indent=2, ensure_ascii=False), file=out)
    else:
        out.write(turn.reply if turn.reply.endswith("\n") else turn.reply + "\n")
    return OK


@reporting_input_errors
def print_prompt(args: argparse.Namespace, out: TextIO) -> int:
    game = open_game(args)
    system = game.system_prompt(budget=args.budget)
    if system.cut:
        print(f"the rules reference was cut by {system.cut} characters to fit", file=sys.stderr)
    print("=== system ===", system.text, "=== reminder ===", game.reminder(), sep="\n", file=out)
    if args.world:
        print("=== world ===", game.world_prompt(), sep="\n", file=out)
    return OK


@reporting_input_errors
def run_cases(args: argparse.Namespace, out: TextIO) -> int:
    from ..testing.cases import run_cases as run

    return run(Path(args.folder), out, update=args.update)
