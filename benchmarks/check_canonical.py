"""Benchmark: `xiangshe check` of the canonical ceremony as a whole process (target: ≤ 0.5 s median).

Usage: python benchmarks/check_canonical.py [RUNS]     (prints one JSON object on its last line)
"""

from __future__ import annotations

import json
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def main(runs: int = 11) -> None:
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        done = subprocess.run([sys.executable, "-m", "xiangshe", "check"], cwd=ROOT, capture_output=True)
        times.append(time.perf_counter() - start)
        if done.returncode != 0:
            raise SystemExit(f"check failed: {done.stdout.decode()[-500:]}")
    probe = subprocess.run(
        [sys.executable, "-X", "importtime", "-m", "xiangshe", "check"], cwd=ROOT, capture_output=True, text=True
    )
    z3_imported = any(line.rstrip().endswith("| z3") for line in probe.stderr.splitlines())
    print(
        json.dumps(
            {
                "check_median_s": round(statistics.median(times), 3),
                "check_max_s": round(max(times), 3),
                "runs": runs,
                "z3_imported": z3_imported,
            }
        )
    )


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 11)
