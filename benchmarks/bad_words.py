"""Benchmark: `xiangshe check` of a file of unknown words, as a whole process. Past the first 20
errors the rest are only counted ("… and N more errors"): no "did you mean" is computed for them,
and an event written as an earlier one that failed is counted without being resolved again.

Two files of LINES lines each: the same unknown act on every line, and a different unknown person
on every line (each must be folded and looked up: the worst case).

Usage: python benchmarks/bad_words.py [LINES]     (default 1,000,000; one JSON object on the last line)
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path


def _run(path: Path) -> tuple[float, int]:
    start = time.perf_counter()
    done = subprocess.run([sys.executable, "-m", "xiangshe", "check", str(path)], capture_output=True, text=True)
    took = time.perf_counter() - start
    if done.returncode != 2:
        raise SystemExit(f"expected exit 2, got {done.returncode}: {done.stderr[-500:]}")
    more = re.search(r"… and (\d+) more errors", done.stderr)
    return took, int(more.group(1)) if more else 0


def main(lines: int = 1_000_000) -> None:
    out: dict[str, float | int] = {"lines": lines}
    with tempfile.TemporaryDirectory() as tmp:
        same, distinct = Path(tmp) / "same.trace", Path(tmp) / "distinct.trace"
        same.write_text("主人 献爵 爵 to=宾\n" * lines, encoding="utf-8")
        distinct.write_text("".join(f"甲{i} 揖\n" for i in range(lines)), encoding="utf-8")
        for name, path in (("same_word", same), ("distinct_words", distinct)):
            took, more = _run(path)
            out[f"{name}_s"] = round(took, 2)
            out[f"{name}_more_errors"] = more
            print(f"{name}: {took:.2f} s, … and {more} more errors", file=sys.stderr)
    print(json.dumps(out))


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 1_000_000)
