"""The long fuzz run: a million generated and mutated replies across every fixture game, each
checked against every promise in `tests/fuzzing.py`. Not part of the test run; run it by hand:

    python -m tests.fuzz.fuzz_replies --replies 1000000 --workers 2

Replies come in chains of up to 20 (each applied to the snapshot the one before left, so states
deep in a game are reached), forged copies are compared with clean ones, and the reminder after
every reply is checked. A violation prints its game, seed and reply and the run exits 1.
"""

from __future__ import annotations

import argparse
import multiprocessing
import random
import sys
import time
import traceback

from tests.fuzzing import GAMES, check_forged_change_nothing, check_turn, fixture_game, reply

CHAIN = 20


def run_share(first_seed: int, count: int) -> tuple[int, list[str]]:
    """`count` replies from `first_seed` on; the number checked and the violations found."""
    problems: list[str] = []
    checked = 0
    while checked < count:
        seed = first_seed + checked
        rng = random.Random(seed)
        ruleset, name = GAMES[seed % len(GAMES)]
        start = current = fixture_game(ruleset, name)
        for step in range(min(CHAIN, count - checked)):
            text = reply(current, rng)
            try:
                before = current.to_document()
                turn = current.apply_reply(text, seed=seed + step)
                check_turn(current, before, text, turn)
                if step % 5 == 0:
                    check_forged_change_nothing(start, rng, seed)
            except Exception:
                problems.append(
                    f"{name} seed {seed} step {step}: {text!r}\n{traceback.format_exc(limit=4)}"
                )
                checked += 1  # on to the next seed: a violation is reported once
                break
            current = turn.game
            checked += 1
    return checked, problems


def _share(job: tuple[int, int]) -> tuple[int, list[str]]:
    return run_share(*job)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--replies", type=int, default=1_000_000)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--seed", type=int, default=0)
    options = parser.parse_args(argv)
    shares = 200
    per_share = -(-options.replies // shares)
    started = time.perf_counter()
    jobs = [(options.seed + at * 10 * per_share, per_share) for at in range(shares)]
    checked, problems = 0, []
    with multiprocessing.Pool(options.workers) as pool:
        for done, (count, found) in enumerate(pool.imap_unordered(_share, jobs), start=1):
            checked += count
            problems += found
            if done % 20 == 0:  # progress on standard error, a line per tenth
                print(f"{checked} replies, {len(problems)} violations so far", file=sys.stderr)
    elapsed = time.perf_counter() - started
    for problem in problems[:20]:
        print(problem, file=sys.stderr)
    print(
        f"{checked} replies across {len(GAMES)} games in {elapsed:.0f} s: "
        f"{len(problems)} violations"
    )
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
