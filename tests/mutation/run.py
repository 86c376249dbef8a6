"""The mutation run: small changes to the code the checks and wound rules rest on, each run against
the tests that cover that module; a mutant the tests still pass is a place they do not look. Not
part of the test run; run it by hand from the project root:

    python -m tests.mutation.run --sample 400 --workers 2

Mutants are made from the syntax tree (comparisons turned, arithmetic and `and`/`or` swapped,
numbers moved by one, `not` dropped, `break`/`continue` swapped, a statement skipped) and spliced
into the source text, so everything else stays byte for byte. Each worker tests in its own copy of
the project. A mutant that makes the tests fail, error or hang is killed. `equivalent.txt` lists
the survivors read and found to change no behaviour (with why); the kill rate leaves them out.
The results are written to artifacts/mutation/.
"""

from __future__ import annotations

import argparse
import ast
import bisect
import json
import multiprocessing
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile
import time
from dataclasses import asdict, dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
EQUIVALENT = Path(__file__).with_name("equivalent.txt")
FAST = ["-k", "not every_fixture_reply_streams"]
CORPUS = "tests/reply/test_reply_corpus.py"
COMPAT = ["tests/test_engine_compat.py", "tests/test_engine_layers.py"]

# Each module, and the tests that speak for it.
TARGETS: dict[str, list[str]] = {
    "gm_tags/checks/pools.py": ["tests/checks", *COMPAT, CORPUS],
    "gm_tags/engine/wounds.py": ["tests/sheet", *COMPAT, CORPUS],
    "gm_tags/engine/pools.py": ["tests/sheet", "tests/party", *COMPAT, CORPUS],
    "gm_tags/rewrite.py": ["tests/reply", "tests/robustness", *FAST],
    "gm_tags/scan.py": ["tests/reply", "tests/robustness", *FAST],
    "gm_tags/engine/clocks.py": [
        "tests/reply/test_clocks.py",
        "tests/test_prompt_clocks.py",
        CORPUS,
    ],
}

COMPARISONS = {
    ast.Lt: "<=",
    ast.LtE: "<",
    ast.Gt: ">=",
    ast.GtE: ">",
    ast.Eq: "!=",
    ast.NotEq: "==",
    ast.In: "not in",
    ast.NotIn: "in",
    ast.Is: "is not",
    ast.IsNot: "is",
}
OPERATORS = {ast.Add: "-", ast.Sub: "+", ast.Mult: "+", ast.FloorDiv: "*", ast.Mod: "//"}
OPERATOR_TEXT = {ast.Add: "+", ast.Sub: "-", ast.Mult: "*", ast.FloorDiv: "//", ast.Mod: "%"}
COMPARISON_TEXT = {
    ast.Lt: "<",
    ast.LtE: "<=",
    ast.Gt: ">",
    ast.GtE: ">=",
    ast.Eq: "==",
    ast.NotEq: "!=",
    ast.In: "in",
    ast.NotIn: r"not\s+in",
    ast.Is: "is",
    ast.IsNot: r"is\s+not",
}


@dataclass(frozen=True)
class Mutant:
    module: str
    line: int
    column: int  # where the change starts, so two changes of one kind on a line are told apart
    start: int  # byte offsets into the module's source
    end: int
    replacement: str
    description: str

    @property
    def key(self) -> str:
        return f"{self.module}:{self.line}:{self.column}: {self.description}"


class Finder(ast.NodeVisitor):
    """Every mutant of one module's source."""

    def __init__(self, module: str, source: bytes) -> None:
        self.module, self.source = module, source
        self.line_starts = [0]
        for line in source.splitlines(keepends=True):
            self.line_starts.append(self.line_starts[-1] + len(line))
        self.found: list[Mutant] = []
        self.docstrings: set[int] = set()

    def offset(self, line: int, column: int) -> int:
        return self.line_starts[line - 1] + column

    def span(self, node: ast.AST) -> tuple[int, int]:
        start = self.offset(node.lineno, node.col_offset)  # type: ignore[attr-defined]
        return start, self.offset(node.end_lineno, node.end_col_offset)  # type: ignore[attr-defined]

    def add(self, line: int, start: int, end: int, replacement: str, description: str) -> None:
        # The line the change itself stands on (an expression's operator may be lines below it).
        line = bisect.bisect_right(self.line_starts, start)
        column = start - self.line_starts[line - 1] + 1
        self.found.append(Mutant(self.module, line, column, start, end, replacement, description))

    def between(self, left: ast.AST, right: ast.AST, pattern: str) -> tuple[int, int] | None:
        """Where the operator `pattern` stands between two operands (outside their brackets)."""
        gap_start, gap_end = self.span(left)[1], self.span(right)[0]
        text = self.source[gap_start:gap_end].decode("utf-8")
        found = re.search(rf"(?<![=<>!])(?:{pattern})(?![=<>])", text)
        if found is None:
            return None
        before = text[: found.start()].encode("utf-8")
        start = gap_start + len(before)
        return start, start + len(found.group().encode("utf-8"))

    def visit_FunctionDef(self, node: ast.FunctionDef) -> None:
        self._skip_docstring(node.body)
        self.generic_visit(node)

    visit_AsyncFunctionDef = visit_FunctionDef  # type: ignore[assignment]

    def visit_ClassDef(self, node: ast.ClassDef) -> None:
        self._skip_docstring(node.body)
        self.generic_visit(node)

    def visit_Module(self, node: ast.Module) -> None:
        self._skip_docstring(node.body)
        self.generic_visit(node)

    def _skip_docstring(self, body: list[ast.stmt]) -> None:
        if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
            self.docstrings.add(id(body[0].value))

    def visit_Compare(self, node: ast.Compare) -> None:
        left: ast.AST = node.left
        for op, right in zip(node.ops, node.comparators, strict=True):
            where = self.between(left, right, COMPARISON_TEXT[type(op)])
            if where is not None:
                new = COMPARISONS[type(op)]
                self.add(node.lineno, *where, new, f"comparison turned to {new}")
            left = right
        self.generic_visit(node)

    def visit_BinOp(self, node: ast.BinOp) -> None:
        if type(node.op) in OPERATORS:
            pattern = re.escape(OPERATOR_TEXT[type(node.op)])
            where = self.between(node.left, node.right, pattern)
            if where is not None:
                new = OPERATORS[type(node.op)]
                self.add(node.lineno, *where, new, f"{OPERATOR_TEXT[type(node.op)]} to {new}")
        self.generic_visit(node)

    def visit_AugAssign(self, node: ast.AugAssign) -> None:
        if type(node.op) in (ast.Add, ast.Sub):
            where = self.between(node.target, node.value, r"\+=|-=")
            if where is not None:
                new = "-=" if isinstance(node.op, ast.Add) else "+="
                self.add(node.lineno, *where, new, f"augmented assignment to {new}")
        self._skip(node)
        self.generic_visit(node)

    def visit_BoolOp(self, node: ast.BoolOp) -> None:
        word = "and" if isinstance(node.op, ast.And) else "or"
        other = "or" if word == "and" else "and"
        for left, right in zip(node.values, node.values[1:], strict=False):
            where = self.between(left, right, rf"\b{word}\b")
            if where is not None:
                self.add(node.lineno, *where, other, f"{word} to {other}")
        self.generic_visit(node)

    def visit_UnaryOp(self, node: ast.UnaryOp) -> None:
        if isinstance(node.op, ast.Not):
            start = self.span(node)[0]
            self.add(node.lineno, start, self.span(node.operand)[0], "", "not dropped")
        self.generic_visit(node)

    def visit_Constant(self, node: ast.Constant) -> None:
        if id(node) in self.docstrings:
            return
        value = node.value
        if isinstance(value, bool):
            self.add(node.lineno, *self.span(node), str(not value), f"{value} to {not value}")
        elif isinstance(value, int):
            self.add(node.lineno, *self.span(node), str(value + 1), f"{value} to {value + 1}")

    def visit_Break(self, node: ast.Break) -> None:
        self.add(node.lineno, *self.span(node), "continue", "break to continue")

    def visit_Continue(self, node: ast.Continue) -> None:
        self.add(node.lineno, *self.span(node), "break", "continue to break")

    def visit_Expr(self, node: ast.Expr) -> None:
        if isinstance(node.value, ast.Call):
            self._skip(node)
        self.generic_visit(node)

    def _skip(self, node: ast.stmt) -> None:
        self.add(node.lineno, *self.span(node), "pass", "statement skipped")


def mutants_of(module: str) -> list[Mutant]:
    source = (ROOT / module).read_bytes()
    finder = Finder(module, source)
    finder.visit(ast.parse(source))
    return finder.found


def mutated(mutant: Mutant) -> bytes:
    source = (ROOT / mutant.module).read_bytes()
    return source[: mutant.start] + mutant.replacement.encode("utf-8") + source[mutant.end :]


@dataclass
class Outcome:
    mutant: Mutant
    status: str  # killed, survived, timeout, invalid
    seconds: float


def copy_project(into: Path) -> Path:
    ignore = shutil.ignore_patterns(
        ".git", ".venv*", "artifacts", "__pycache__", ".*_cache", ".hypothesis", ".benchmarks"
    )
    shutil.copytree(ROOT, into / "project", ignore=ignore)
    return into / "project"


def run_one(args: tuple[Mutant, str, float]) -> Outcome:
    mutant, copy, timeout = args
    copy_root = Path(copy)
    target = copy_root / mutant.module
    original = target.read_bytes()
    text = mutated(mutant)
    started = time.monotonic()
    try:
        compile(text, mutant.module, "exec")
    except SyntaxError:
        return Outcome(mutant, "invalid", 0.0)
    try:
        target.write_bytes(text)
        status = run_tests(mutant.module, copy_root, timeout)
        return Outcome(mutant, status, time.monotonic() - started)
    finally:
        target.write_bytes(original)


def run_tests(module: str, copy_root: Path, timeout: float) -> str:
    """Run `module`'s tests in a copy of the project: "survived" when they pass."""
    env = {**os.environ, "PYTHONPATH": str(copy_root), "PYTHONDONTWRITEBYTECODE": "1"}
    command = [sys.executable, "-m", "pytest", "-x", "-q", "-p", "no:cacheprovider"]
    command += ["--hypothesis-seed=0", *TARGETS[module]]
    try:
        done = subprocess.run(
            command, cwd=copy_root, env=env, capture_output=True, timeout=timeout, check=False
        )
    except subprocess.TimeoutExpired:
        return "timeout"
    return "survived" if done.returncode == 0 else "killed"


_COPY: str = ""


def _init_worker(copies: multiprocessing.Queue) -> None:  # type: ignore[type-arg]
    global _COPY
    _COPY = copies.get()


def _work(args: tuple[Mutant, float]) -> Outcome:
    return run_one((args[0], _COPY, args[1]))


def equivalent() -> dict[str, str]:
    """The survivors read and found to change no behaviour: `module:line: description  # why`."""
    if not EQUIVALENT.exists():
        return {}
    found = {}
    for line in EQUIVALENT.read_text("utf-8").splitlines():
        if line.strip() and not line.startswith("#"):
            key, _, why = line.partition("  # ")
            found[key.strip()] = why.strip()
    return found


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sample", type=int, default=400, help="mutants to run (0: all)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--timeout", type=float, default=240.0, help="seconds before a hang")
    parser.add_argument("--module", action="append", help="only these modules (repeatable)")
    options = parser.parse_args()

    modules = options.module or list(TARGETS)
    everything = [mutant for module in modules for mutant in mutants_of(module)]
    sample = everything
    if options.sample and options.sample < len(everything):
        sample = sorted(random.Random(options.seed).sample(everything, options.sample), key=str)
    print(f"{len(everything)} mutants in {len(modules)} modules; running {len(sample)}")

    started = time.monotonic()
    with tempfile.TemporaryDirectory(prefix="gm-tags-mutation-") as scratch:
        queue: multiprocessing.Queue = multiprocessing.Queue()  # type: ignore[type-arg]
        copies = [copy_project(Path(scratch) / str(worker)) for worker in range(options.workers)]
        for module in modules:
            # The tests must pass as the code stands, or every mutant would look killed.
            if run_tests(module, copies[0], options.timeout) != "survived":
                print(f"the tests of {module} fail without any mutant; fix them first")
                return 1
        for copy in copies:
            queue.put(str(copy))
        with multiprocessing.Pool(options.workers, _init_worker, (queue,)) as pool:
            outcomes = []
            work = [(mutant, options.timeout) for mutant in sample]
            for done, outcome in enumerate(pool.imap_unordered(_work, work), 1):
                outcomes.append(outcome)
                if outcome.status == "survived":
                    print(f"  survived: {outcome.mutant.key}", flush=True)
                if done % 25 == 0:
                    print(f"{done}/{len(sample)} in {time.monotonic() - started:.0f} s", flush=True)
    return report(outcomes, time.monotonic() - started, options)


def report(outcomes: list[Outcome], seconds: float, options: argparse.Namespace) -> int:
    known = equivalent()
    rows = []
    for module in sorted({o.mutant.module for o in outcomes}):
        mine = [o for o in outcomes if o.mutant.module == module]
        rows.append((module, *tally(mine, known)))
    total = tally(outcomes, known)
    print(
        f"\n{'module':32} {'run':>5} {'killed':>7} {'survived':>9} {'equivalent':>11} {'rate':>6}"
    )
    for module, run, killed, survived, same, rate in [*rows, ("all", *total)]:
        print(f"{module:32} {run:5} {killed:7} {survived:9} {same:11} {rate:6.1%}")
    survivors = sorted(o.mutant.key for o in outcomes if o.status == "survived")
    print("\nsurvivors (* read and found equivalent):")
    for key in survivors:
        print(f"  {'*' if key in known else ' '} {key}")
    out = ROOT / "artifacts" / "mutation"
    out.mkdir(parents=True, exist_ok=True)
    path = out / f"mutation-{time.strftime('%Y%m%d-%H%M%S')}.json"
    path.write_text(
        json.dumps(
            {
                "seconds": round(seconds),
                "options": vars(options),
                "outcomes": [{**asdict(o.mutant), "status": o.status} for o in outcomes],
            },
            indent=1,
        ),
        "utf-8",
    )
    print(f"\n{len(outcomes)} mutants in {seconds:.0f} s; results in {path.relative_to(ROOT)}")
    return 0


def tally(outcomes: list[Outcome], known: dict[str, str]) -> tuple[int, int, int, int, float]:
    """Run (valid mutants), killed (failures, errors and hangs), survived, of those equivalent,
    and the kill rate of the mutants that change behaviour."""
    valid = [o for o in outcomes if o.status != "invalid"]
    killed = sum(1 for o in valid if o.status in ("killed", "timeout"))
    survived = [o for o in valid if o.status == "survived"]
    same = sum(1 for o in survived if o.mutant.key in known)
    changing = len(valid) - same
    return len(valid), killed, len(survived), same, killed / changing if changing else 1.0


if __name__ == "__main__":
    sys.exit(main())
