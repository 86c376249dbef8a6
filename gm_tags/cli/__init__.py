"""The command line: `main(argv) -> exit code`. One module per group of commands (`rulesets`,
`games`, `stores`, `play`, `servers`), the parser that gathers them (`parser`), and what they
share (`common`: exit codes, reporting bad input; `options`: the option types). Printing and
exit codes live here only; nothing below raises `SystemExit`."""

from __future__ import annotations

import sys
from collections.abc import Sequence
from typing import TextIO

from .common import INTERRUPTED, OK
from .parser import build_parser

__all__ = ["main"]


def main(argv: Sequence[str] | None = None, out: TextIO | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        code: int = args.run(args, out or sys.stdout)
    except KeyboardInterrupt:
        print("gm-tags: interrupted", file=sys.stderr)
        return INTERRUPTED
    except BrokenPipeError:
        # The reader went away (`| head`): stop quietly, and keep Python from complaining at exit.
        import os

        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return OK
    return code
