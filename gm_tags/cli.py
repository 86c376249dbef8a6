"""The `gm-tags` command line. `main(argv)` returns the exit code; printing happens only here.

Exit codes: 0 all good, 1 something was refused, 2 a path could not be read or held no JSON
(or the command line itself was wrong).
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from typing import TextIO

from .errors import RulesetError, SourceError
from .ruleset import RulesetFile, load_ruleset

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


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="gm-tags", description=__doc__.splitlines()[0])
    commands = parser.add_subparsers(dest="command", required=True)
    validate = commands.add_parser("validate", help="check ruleset files or package folders")
    validate.add_argument("paths", nargs="+", metavar="PATH")
    validate.set_defaults(run=_validate)
    schema = commands.add_parser("schema", help="print the JSON Schema of the ruleset format")
    schema.set_defaults(run=_schema)
    return parser


def main(argv: Sequence[str] | None = None, out: TextIO | None = None) -> int:
    args = _parser().parse_args(argv)
    code: int = args.run(args, out or sys.stdout)
    return code


if __name__ == "__main__":
    sys.exit(main())
