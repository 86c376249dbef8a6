"""`gm-tags validate` and `gm-tags schema`: checking ruleset files, and the format's JSON
Schema for editors."""

from __future__ import annotations

import argparse
import json
from typing import TextIO

from .common import OK, REFUSED, UNREADABLE, Commands


def add_commands(commands: Commands) -> None:
    validate = commands.add_parser("validate", help="check ruleset files or package folders")
    validate.add_argument("paths", nargs="+", metavar="PATH")
    validate.set_defaults(run=validate_rulesets)
    schema = commands.add_parser("schema", help="print the JSON Schema of the ruleset format")
    schema.set_defaults(run=print_schema)


def validate_rulesets(args: argparse.Namespace, out: TextIO) -> int:
    from ..errors import RulesetError, SourceError
    from ..ruleset import load_ruleset

    code = OK
    for path in args.paths:
        try:
            load_ruleset(path)
        except RulesetError as error:
            code = max(code, REFUSED)
            for problem in error.problems:
                print(f"{path}: {problem}", file=out)
        except SourceError as error:
            code = UNREADABLE
            # A source error names the file it could not read already.
            said = str(error)
            print(said if said.startswith(f"{path}:") else f"{path}: {said}", file=out)
        else:
            print(f"OK {path}", file=out)
    return code


def print_schema(args: argparse.Namespace, out: TextIO) -> int:
    from ..ruleset import RulesetFile

    schema = RulesetFile.model_json_schema(by_alias=True, mode="validation")
    schema["$schema"] = "http://json-schema.org/draft-07/schema#"
    schema["title"] = "gm-tags ruleset"
    schema.setdefault("properties", {}).setdefault("$schema", {"type": "string"})
    print(json.dumps(schema, indent=2, ensure_ascii=False), file=out)
    return OK
