"""The cost of the test loop: one pytest run, its wall and CPU time (the run and every process it
starts: xdist's workers, the commands the tests run), and per test file the sum of the tests' CPU
times (benchmarks/cpu_per_test.py) and of their durations.

    python benchmarks/suite.py                                  # the default run, on every core
    python benchmarks/suite.py -- -m "not z3 and not browser"  # the inner loop (no install tests)
    python benchmarks/suite.py --collect-only -- -m "not z3 and not browser"

Arguments after `--` go to pytest (after the pyproject's addopts: `-n 2` overrides `-n auto`). The
durations count the time a test waited for a core: under load, read the CPU columns, and say the
load (printed before and after).
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
import xml.etree.ElementTree as ET
from collections import Counter
from pathlib import Path

from childusage import measured

ROOT = Path(__file__).resolve().parents[1]


def per_file(junit: Path) -> tuple[Counter[str], Counter[str], int]:
    """Per test file, the sum of the durations (setup, call and teardown) and of the CPU times
    (benchmarks/cpu_per_test.py), and the count of tests run."""
    durations: Counter[str] = Counter()
    cpu: Counter[str] = Counter()
    count = 0
    for case in ET.parse(junit).getroot().iter("testcase"):
        module = (case.get("classname") or "").split(".")
        name = next((m for m in module if m.startswith("test_")), ".".join(module)) + ".py"
        durations[name] += float(case.get("time", 0))
        cpu[name] += sum(float(p.get("value", 0)) for p in case.iter("property") if p.get("name") == "cpu_s")
        count += 1
    return durations, cpu, count


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--collect-only", action="store_true", help="time the collection alone")
    ap.add_argument("--top", type=int, default=20)
    ap.add_argument("--junit", help="keep the JUnit XML (with each test's cpu_s) here")
    ap.add_argument("pytest_args", nargs="*")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        junit = Path(tmp) / "junit.xml"
        cmd = [sys.executable, "-m", "pytest", "-q", "-p", "cpu_per_test", *args.pytest_args]
        cmd += ["--collect-only"] if args.collect_only else [f"--junitxml={junit}"]
        print(f"load before: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
        start = time.perf_counter()
        os.environ["PYTHONPATH"] = os.pathsep.join(
            filter(None, [str(ROOT / "benchmarks"), os.environ.get("PYTHONPATH")])
        )
        done = measured(cmd, ROOT, keep_stdout=True)
        wall = time.perf_counter() - start
        print(f"load after:  {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
        tail = [line for line in done["stdout"].splitlines() if line.strip()][-1:]
        print(f"pytest exit {done['rc']}: {tail[0] if tail else ''}")
        print(f"wall {wall:.1f} s, CPU (user+sys of pytest and its children) {done['cpu_s']:.1f} s")
        if args.collect_only:
            return
        durations, cpu, count = per_file(junit)
        print(f"{count} tests; sum of durations {sum(durations.values()):.1f} s, of CPU {sum(cpu.values()):.1f} s")
        print("\n| file | CPU | durations |\n|---|---|---|")
        for name, secs in cpu.most_common(args.top):
            print(f"| {name} | {secs:.1f} s | {durations[name]:.1f} s |")
        if args.junit:
            Path(args.junit).write_bytes(junit.read_bytes())


if __name__ == "__main__":
    main()
