"""The `gm-tags` command line. `main(argv)` returns the exit code; printing happens only here.

Exit codes: 0 all good, 1 something was refused, 2 a path could not be read or held no JSON
(or the command line itself was wrong).
"""

from __future__ import annotations

import argparse
import functools
import json
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TextIO

from .errors import GameDocumentError, RulesetError, SourceError
from .game import Game
from .ruleset import Ruleset, RulesetFile, load_ruleset

OK, REFUSED, UNREADABLE = 0, 1, 2


def _validate(args: argparse.Namespace, out: TextIO) -> int:
    code = OK
    for path in args.paths:
        try:
            load_ruleset(path)
        except RulesetError as error:
            code = max(code, REFUSED)
            for problem in error.problems:
                print(f"{path}: {problem.path}: {problem.message}", file=out)
        except SourceError as error:
            code = UNREADABLE
            print(f"{path}: {error}", file=out)
        else:
            print(f"OK {path}", file=out)
    return code


def _schema(args: argparse.Namespace, out: TextIO) -> int:
    schema = RulesetFile.model_json_schema(by_alias=True, mode="validation")
    schema["$schema"] = "http://json-schema.org/draft-07/schema#"
    schema["title"] = "gm-tags ruleset"
    schema.setdefault("properties", {})["$schema"] = {"type": "string"}
    print(json.dumps(schema, indent=2, ensure_ascii=False), file=out)
    return OK


Command = Callable[[argparse.Namespace, TextIO], int]


def _reporting_input_errors(run: Command) -> Command:
    """`run`, with a refused ruleset or game document (exit 1) and an unreadable file (exit 2)
    reported on stderr instead of raised."""

    @functools.wraps(run)
    def guarded(args: argparse.Namespace, out: TextIO) -> int:
        try:
            return run(args, out)
        except (RulesetError, GameDocumentError) as error:
            print(error, file=sys.stderr)
            return REFUSED
        except SourceError as error:
            print(error, file=sys.stderr)
            return UNREADABLE

    return guarded


def _open_game(args: argparse.Namespace) -> Game:
    ruleset = load_ruleset(args.ruleset) if args.ruleset else None
    return _read_game(ruleset, args.game)


@_reporting_input_errors
def _apply(args: argparse.Namespace, out: TextIO) -> int:
    if args.write and not args.game:
        print("--write saves to the --game file; name one", file=sys.stderr)
        return UNREADABLE
    game = _open_game(args)
    reply = sys.stdin.read() if args.reply == "-" else _read_text(args.reply)
    turn = game.apply_reply(reply)
    if args.json:
        print(json.dumps(turn.to_dict(), indent=2, ensure_ascii=False), file=out)
    else:
        out.write(turn.reply if turn.reply.endswith("\n") else turn.reply + "\n")
    if args.write:
        Path(args.game).write_text(
            json.dumps(turn.game.to_document(), indent=2, ensure_ascii=False) + "\n",
            encoding="utf-8",
        )
    return OK


@_reporting_input_errors
def _prompt(args: argparse.Namespace, out: TextIO) -> int:
    game = _open_game(args)
    system = game.system_prompt(budget=args.budget)
    if system.cut:
        print(f"the rules reference was cut by {system.cut} characters to fit", file=sys.stderr)
    print("=== system ===", system.text, "=== reminder ===", game.reminder(), sep="\n", file=out)
    if args.world:
        print("=== world ===", game.world_prompt(), sep="\n", file=out)
    return OK


def _read_game(ruleset: Ruleset | None, path: str | None) -> Game:
    if path is None or not Path(path).exists():
        return Game.new(ruleset)
    try:
        document = json.loads(_read_text(path))
    except json.JSONDecodeError as error:
        raise SourceError(f"{path}: not JSON: {error}") from None
    return Game.from_document(ruleset, document)


def _read_text(path: str) -> str:
    try:
        return Path(path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as error:
        raise SourceError(f"{path}: cannot be read: {error}") from None


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="gm-tags", description=__doc__.splitlines()[0])
    commands = parser.add_subparsers(dest="command", required=True)
    validate = commands.add_parser("validate", help="check ruleset files or package folders")
    validate.add_argument("paths", nargs="+", metavar="PATH")
    validate.set_defaults(run=_validate)
    schema = commands.add_parser("schema", help="print the JSON Schema of the ruleset format")
    schema.set_defaults(run=_schema)
    apply = commands.add_parser(
        "apply", help="process one model reply: print it rewritten, each command tag a receipt"
    )
    apply.add_argument(
        "reply", metavar="REPLY", help="a text file holding the reply, or - for stdin"
    )
    apply.add_argument("--ruleset", metavar="PATH", help="ruleset file or package folder")
    apply.add_argument(
        "--game", metavar="GAME.json", help="the game document to start from (new game if absent)"
    )
    apply.add_argument(
        "--json", action="store_true", help="print reply, narration, receipts and game as JSON"
    )
    apply.add_argument(
        "--write", action="store_true", help="save the game the reply left back to --game"
    )
    apply.set_defaults(run=_apply)
    prompt = commands.add_parser("prompt", help="print what the model reads for a game")
    prompt.add_argument("--ruleset", metavar="PATH", help="ruleset file or package folder")
    prompt.add_argument(
        "--game", metavar="GAME.json", help="the game document (a new game if absent)"
    )
    prompt.add_argument(
        "--budget", type=int, metavar="TOKENS", help="fit the system section into this many tokens"
    )
    prompt.add_argument("--world", action="store_true", help="also print the world set-up prompt")
    prompt.set_defaults(run=_prompt)
    return parser


def main(argv: Sequence[str] | None = None, out: TextIO | None = None) -> int:
    args = _parser().parse_args(argv)
    code: int = args.run(args, out or sys.stdout)
    return code


if __name__ == "__main__":
    sys.exit(main())
