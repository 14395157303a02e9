"""Benchmark: `xiangshe check` as a whole process — the canonical ceremony, warm and cold, and a
one-event staging (what starting costs). Target: canonical_s ≤ 0.15 s median at light load.

Usage: python benchmarks/startup.py [RUNS]     (RUNS ≥ 5, default 7; prints one JSON object last)

Each figure is the median of RUNS fresh processes (`python -m xiangshe check FILE`), wall time
beside CPU time (user + system, from `resource.getrusage(RUSAGE_CHILDREN)`). The processes use a
cache directory of their own (XIANGSHE_CACHE_DIR, domain/cache.py), not the user's:
  warm   the cache holds the derived artefacts (vocabulary, tables, rulebook), as on every run
         after the first
  cold   the cache is emptied before each run: the artefacts are derived from the sources, and
         written back
Python writes its bytecode (.pyc) as an installed package has it: PYTHONDONTWRITEBYTECODE is not
passed on, and an untimed first run writes it. The load average is reported beside the figures.

Where the time goes, as whole processes too: the floor of any Python command (`python -c pass`,
with the site's start-up, `floor_python_s`), of any click command (`import click`, `floor_click_s`)
and the imports of a check (`imports_s`: the command line and the modules a check uses, nothing run).
"""

from __future__ import annotations

import json
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
CANONICAL = ROOT / "traces" / "canonical.trace"
ONE_EVENT = "fragment Φ01\nphase Φ01\n主人 戒 to=宾\n"


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def _run(args: list[str], env: dict[str, str]) -> tuple[float, float]:
    """One process: (wall seconds, CPU seconds). A check that fails to run is an error."""
    cpu = _children_cpu()
    start = time.perf_counter()
    done = subprocess.run(args, cwd=ROOT, env=env, capture_output=True)
    wall = time.perf_counter() - start
    if done.returncode not in (0, 1):
        raise SystemExit(f"{' '.join(args)} exited {done.returncode}: {done.stderr.decode()[-500:]}")
    return wall, _children_cpu() - cpu


def _median(samples: list[tuple[float, float]]) -> tuple[float, float]:
    return (
        round(statistics.median(w for w, _ in samples), 4),
        round(statistics.median(c for _, c in samples), 4),
    )


#: the modules a check of a staging imports (reports/commands/checking.py), without running it
CHECK_IMPORTS = (
    "import xiangshe.verify, xiangshe.constraints.rulebook, xiangshe.reports.batch, xiangshe.constraints.lint, "
    "xiangshe.domain.cache, xiangshe.domain.occasion"
)


def measure(runs: int = 7, python: str = sys.executable) -> dict[str, object]:
    """The medians of `runs` whole-process checks: canonical_s (warm), canonical_cold_s, startup_s
    (a one-event staging, warm), each with its CPU time (`…_cpu_s`), the floors (`floor_python_s`,
    `floor_click_s`, `imports_s`), the load average before and after, and whether z3 was imported."""
    runs = max(runs, 5)
    with tempfile.TemporaryDirectory(prefix="xiangshe-startup-") as tmp:
        cache = Path(tmp) / "cache"
        one = Path(tmp) / "one.trace"
        one.write_text(ONE_EVENT, encoding="utf-8")
        env = {k: v for k, v in os.environ.items() if k not in ("PYTHONDONTWRITEBYTECODE", "XIANGSHE_NO_CACHE")}
        env["XIANGSHE_CACHE_DIR"] = str(cache)
        check = [python, "-m", "xiangshe", "check"]
        load_before = os.getloadavg()
        _run([*check, str(CANONICAL)], env)  # writes the bytecode and the cache: not timed
        warm = [_run([*check, str(CANONICAL)], env) for _ in range(runs)]
        startup = [_run([*check, str(one)], env) for _ in range(runs)]
        cold = []
        for _ in range(runs):
            shutil.rmtree(cache, ignore_errors=True)
            cold.append(_run([*check, str(CANONICAL)], env))
        floors = {
            name: _median([_run([python, "-c", code], env) for _ in range(runs)])
            for name, code in (("floor_python", "pass"), ("floor_click", "import click"), ("imports", CHECK_IMPORTS))
        }
        probe = subprocess.run(
            [python, "-X", "importtime", *check[1:], str(CANONICAL)], cwd=ROOT, env=env, capture_output=True, text=True
        )
        load_after = os.getloadavg()
    z3_imported = any(line.rstrip().endswith("| z3") for line in probe.stderr.splitlines())
    (canonical, canonical_cpu), (cold_s, cold_cpu), (start_s, start_cpu) = map(_median, (warm, cold, startup))
    return {
        "canonical_s": canonical,
        "canonical_cpu_s": canonical_cpu,
        "canonical_cold_s": cold_s,
        "canonical_cold_cpu_s": cold_cpu,
        "startup_s": start_s,
        "startup_cpu_s": start_cpu,
        **{f"{name}_s": wall for name, (wall, _) in floors.items()},
        **{f"{name}_cpu_s": cpu for name, (_, cpu) in floors.items()},
        "runs": runs,
        "load_before": round(load_before[0], 2),
        "load_after": round(load_after[0], 2),
        "z3_imported": z3_imported,
    }


def main(runs: int = 7) -> None:
    result = measure(runs)
    print(
        f"canonical (warm cache)  {result['canonical_s']:.3f} s wall, {result['canonical_cpu_s']:.3f} s CPU\n"
        f"canonical (cold cache)  {result['canonical_cold_s']:.3f} s wall, {result['canonical_cold_cpu_s']:.3f} s CPU\n"
        f"one-event staging       {result['startup_s']:.3f} s wall, {result['startup_cpu_s']:.3f} s CPU\n"
        f"floor: python -c pass   {result['floor_python_s']:.3f} s wall, {result['floor_python_cpu_s']:.3f} s CPU\n"
        f"floor: import click     {result['floor_click_s']:.3f} s wall, {result['floor_click_cpu_s']:.3f} s CPU\n"
        f"a check's imports       {result['imports_s']:.3f} s wall, {result['imports_cpu_s']:.3f} s CPU\n"
        f"medians of {result['runs']} runs; load average {result['load_before']} before, {result['load_after']} after"
    )
    print(json.dumps(result))


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 7)
