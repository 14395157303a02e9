"""Fuzz the readers and the checker with N inputs and count them (the fuzz tests, at any size).

    python benchmarks/fuzz.py 20000            # N inputs from seeds 0..N-1: tried, outcomes, failures
    python benchmarks/fuzz.py 5000 --start 1000000

Each input is a file (`.trace`, `.jsonl`, `.json`, `.yaml` or `.yml`) from tests/fuzzgen.py: random
bytes, vocabulary and garbage soup, or a window of a bundled trace with structural or garbage edits.
It is parsed and checked as `xiangshe check` does, then the same bytes are read from standard input
as `check -` reads them (the outcome must be the same); every seed also makes a directory of up to
six such files, some nested, beside hidden and unrelated ones, checked as `check DIR` does (every
staging found, each with the outcome it has alone). An exception other than the project's input
errors, or a disagreement, is a failure, printed with its seed (rerun one with `--start SEED 1`).
Exit 1 if anything failed.

Coverage-guided fuzzing (atheris 3.0) was tried and left out: with the project's modules already
imported, `instrument_imports` sees nothing (libFuzzer: "no interesting inputs") and
`instrument_all` did not finish in 6 minutes on a busy 2-core machine; uninstrumented it is blind
random bytes, which these inputs and Hypothesis already cover; and it cannot run inside pytest.
"""

from __future__ import annotations

import argparse
import random
import shutil
import sys
import tempfile
import time
import traceback
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))

import fuzzgen  # noqa: E402


def seeded(n: int, start: int, tmp: Path) -> int:
    outcomes: Counter = Counter()
    failures = []
    t0 = time.perf_counter()
    directories = 0
    for seed in range(start, start + n):
        suffix, data = fuzzgen.fuzz_input(random.Random(seed))
        path = tmp / f"fuzz.{suffix}"
        path.write_bytes(data)
        try:
            alone = fuzzgen.run(path)
            outcomes[alone] += 1
            piped = fuzzgen.run_stdin(data, suffix)
            if piped != alone:
                raise AssertionError(f"standard input: {piped}, the file: {alone}")
            root = tmp / f"dir-{seed}"
            made = fuzzgen.fuzz_directory(random.Random(seed), root)
            found = fuzzgen.run_directory(root)
            expected = [(p, fuzzgen.run(p)) for p in made]
            if found != expected:
                raise AssertionError(f"directory: {found} != {expected}")
            directories += 1
            shutil.rmtree(root)
        except Exception as err:  # noqa: BLE001 — a failure is what we are counting
            outcomes["FAILED"] += 1
            failures.append((seed, suffix, f"{type(err).__name__}: {err}", traceback.format_exc(limit=-3)))
    seconds = time.perf_counter() - t0
    print(
        f"{n} inputs tried (seeds {start}..{start + n - 1}), each also on standard input, and "
        f"{directories} directories of them, in {seconds:.1f} s: "
        + ", ".join(f"{k} {v}" for k, v in sorted(outcomes.items()))
    )
    for seed, suffix, what, tb in failures[:20]:
        print(f"FAILED seed {seed} (.{suffix}): {what}\n{tb}")
    return 1 if failures else 0


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("n", type=int, nargs="?", default=2000)
    ap.add_argument("--start", type=int, default=0, help="the first seed")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory(prefix="xiangshe-fuzz-") as tmp:
        return seeded(args.n, args.start, Path(tmp))


if __name__ == "__main__":
    sys.exit(main())
