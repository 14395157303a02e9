"""Benchmark: `xiangshe repair` on every bundled violating example (target: a repair for each, median ≤ 2 s).

Each example (traces/violations/*.trace) goes through what `xiangshe repair FILE` does
(constraints/repair.py, default readings and bounds): the search, and every repair it shows read back
from the text `-o` would write and re-checked. A repair counts as verified when that re-check holds;
this script also re-checks the first repair's text itself. Times are per staging, in one process
after a warm-up (the libretto's performance and the rulebook are loaded once, as a long-running
process or a second call of the same process has them; the command line pays them once per call:
see docs/repair.md).

Usage: python benchmarks/repair.py [--sample N] [--json FILE] [FILE …]
prints a line per staging (wall and CPU time), the load (`uptime`) and one JSON object on its last line.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

TARGET_MEDIAN_S = 2.0


def one(path: Path) -> dict:
    from xiangshe.constraints.check import check_trace
    from xiangshe.constraints.repair import repair
    from xiangshe.constraints.rulebook import active_rules, rulebook
    from xiangshe.domain.parse import parse_file, parse_lines
    from xiangshe.reports.repair import step

    rule = next((r for r in rulebook() if r.id == path.stem.split(".")[0]), None)
    from xiangshe.constraints.readings import select

    readings = select([f"{p}={o}" for p, o in (rule.when if rule else ())], None)  # an example may need another
    rules = active_rules(readings)
    trace = parse_file(path)
    wall, cpu = time.perf_counter(), time.process_time()
    outcome = repair(trace, "trace", rules, readings)
    took, cpu = time.perf_counter() - wall, time.process_time() - cpu
    verified = (
        bool(outcome.repairs) and check_trace(parse_lines(outcome.repairs[0].text, str(path)), rules, readings).ok
    )
    return {
        "file": path.name,
        "status": outcome.status,
        "edits": len(outcome.repairs[0].edits) if outcome.repairs else None,
        "grouped": bool(outcome.repairs)
        and any(getattr(e, "group", "") or e.span > 1 for e in outcome.repairs[0].edits),
        "repairs": len(outcome.repairs),
        "tried": outcome.tried,
        "verified": verified,
        "wall_s": round(took, 3),
        "cpu_s": round(cpu, 3),
        "first": [str(step(e, "trace")) for e in outcome.repairs[0].edits] if outcome.repairs else None,
    }


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("files", nargs="*", type=Path)
    ap.add_argument("--sample", type=int, default=0, help="every k-th example, k chosen to give about N")
    ap.add_argument("--json", type=Path, help="write every staging's figures here")
    args = ap.parse_args(argv)
    from xiangshe.constraints.repair import reference
    from xiangshe.constraints.rulebook import active_rules
    from xiangshe.domain.bundled import VIOLATIONS

    files = args.files or sorted(VIOLATIONS.glob("*.trace"))
    if args.sample and not args.files:
        step = max(1, len(files) // args.sample)
        files = files[::step][: args.sample]
    active_rules()
    reference()  # warm-up: the rulebook and the canonical performance
    rows = []
    for p in files:
        r = one(p)
        rows.append(r)
        print(
            f"{r['status']:9} {r['edits'] or '-':>2} edits {r['wall_s']:7.3f}s (cpu {r['cpu_s']:7.3f}s)"
            f"  tried {r['tried']:4}  {r['file']}"
        )
    times = [r["wall_s"] for r in rows]
    found = sum(r["verified"] for r in rows)
    load = os.getloadavg()
    summary = {
        "stagings": len(rows),
        "repaired_verified": found,
        "median_s": round(statistics.median(times), 3) if times else None,
        "p90_s": round(sorted(times)[int(0.9 * (len(times) - 1))], 3) if times else None,
        "max_s": max(times, default=None),
        "median_cpu_s": round(statistics.median(r["cpu_s"] for r in rows), 3) if rows else None,
        "p90_cpu_s": round(sorted(r["cpu_s"] for r in rows)[int(0.9 * (len(rows) - 1))], 3) if rows else None,
        "max_cpu_s": max((r["cpu_s"] for r in rows), default=None),
        "one_edit": sum(r["edits"] == 1 for r in rows),
        "two_edits": sum(r["edits"] == 2 for r in rows),
        "edits_of_several_events": sum(r["grouped"] for r in rows),
        "missed": [r["file"] for r in rows if not r["verified"]],
        "load": [round(x, 2) for x in load],
        "target_median_s": TARGET_MEDIAN_S,
    }
    if args.json:
        args.json.write_text(json.dumps(rows, ensure_ascii=False, indent=1), encoding="utf-8")
    print(f"uptime load average: {load[0]:.2f}, {load[1]:.2f}, {load[2]:.2f}")
    print(json.dumps(summary, ensure_ascii=False))
    return 0 if found == len(rows) else 1


if __name__ == "__main__":
    sys.exit(main())
