"""Benchmark: the shortest counterexample of every encoded rule (targets: median ≤ 1 s, none over 10 s).

Each rule goes through what `xiangshe counterexample RULE --depth DEPTH` does (constraints/counterexample.py,
under the default readings, or, for a rule of another reading, with `--reading POINT=OPTION` of its own):
z3's shortest counterexample, minimised and replayed by the Python checker, which must report exactly the
rule; if z3 finds none (or gives up), the rule's bundled violating example. A rule's time is the whole of
that, fallback included.

Usage: python benchmarks/counterexamples.py [DEPTH] [--rules a,b,c] [--jobs N] [--json FILE] [--symmetry on|off]
prints a line per rule and one JSON object on its last line; --json writes every rule's figures to FILE;
--symmetry sets search.SYMMETRY for the run (default: as the command has it).
`measure(depth, rules, jobs)` gives the same summary to benchmarks/run.py.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

TARGET_S = 10.0


def one(rule_id: str, depth: int, symmetry: bool | None = None) -> dict[str, Any]:
    """Time one rule's counterexample, as the command gets it; its outcome and figures."""
    from xiangshe.constraints import search
    from xiangshe.constraints.counterexample import counterexample
    from xiangshe.constraints.readings import select
    from xiangshe.constraints.rulebook import active_rules
    from xiangshe.constraints.search import Disagreement, Exhausted, Refuted

    readings = select([f"{point}={option}" for point, option in reading_of(rule_id)], None)
    rules = active_rules(readings)
    rule = next(r for r in rules if r.id == rule_id)
    if symmetry is not None:
        search.SYMMETRY = symmetry
    wall, cpu = time.perf_counter(), time.process_time()
    try:
        found = counterexample(rule, rules, readings, depth)
    except Disagreement as e:  # a bug: z3 and the checker disagree
        kind, steps, z3_said, length = "unconfirmed", None, str(e).splitlines()[0], None
    else:
        out = found.outcome
        z3_said = "refuted" if isinstance(out, Refuted) else "exhausted" if isinstance(out, Exhausted) else "unknown"
        kind = "found" if found.found and found.shortest else "fallback" if found.found else "none"
        steps = found.steps if isinstance(out, Refuted) else getattr(out, "depth", None)
        length = found.steps  # the counterexample shown (a fallback's: its events), None if none
    return {
        "rule": rule_id,
        "kind": kind,
        "z3": z3_said,
        "steps": steps,  # z3's: the shortest length found, else where it stopped
        "length": length,
        "wall_s": round(time.perf_counter() - wall, 3),
        "cpu_s": round(time.process_time() - cpu, 3),
    }


def encoded_rules() -> list[str]:
    """Every encoded rule: those in force under the default readings, then those in force under
    another reading of a contested point (each measured under its own: `reading_of`)."""
    from xiangshe.constraints.readings import select
    from xiangshe.constraints.rulebook import active_rules, load_rules

    default = [r.id for r in active_rules(select([], None)) if r.encoded]
    return default + sorted({r.id for r in load_rules() if r.encoded} - set(default))


def reading_of(rule_id: str) -> tuple[tuple[str, str], ...]:
    """The readings a rule is in force under (`when`: none for most), as `counterexample RULE
    --reading POINT=OPTION` would be asked for it."""
    from xiangshe.constraints.rulebook import load_rules

    return next(r.when for r in load_rules() if r.id == rule_id)


def summary(rows: list[dict[str, Any]], depth: int) -> dict[str, Any]:
    times = [r["wall_s"] for r in rows]
    kinds = [r["kind"] for r in rows]
    return {
        "rules": len(rows),
        "depth": depth,
        "cex_max_s": round(max(times), 2) if times else None,
        "cex_median_s": round(statistics.median(times), 2) if times else None,
        "cex_over_10s": sum(t > TARGET_S for t in times),
        # CPU time beside wall time: on a shared machine the wall time measures the load as much
        "cex_max_cpu_s": round(max(r["cpu_s"] for r in rows), 2) if rows else None,
        "cex_median_cpu_s": round(statistics.median(r["cpu_s"] for r in rows), 2) if rows else None,
        # found by z3 within the target: a shortest counterexample in ≤ 10 s
        "cex_z3_within_10s": sum(r["kind"] == "found" and r["wall_s"] <= TARGET_S for r in rows),
        "cex_found": kinds.count("found"),
        "cex_fallback": kinds.count("fallback"),
        "cex_none": kinds.count("none"),
        "cex_unconfirmed": kinds.count("unconfirmed"),
        "cex_total_s": round(sum(times), 1),
        "cex_cpu_total_s": round(sum(r["cpu_s"] for r in rows), 1),
    }


def measure(
    depth: int, rules: list[str] | None = None, jobs: int = 1, echo: bool = False, symmetry: bool | None = None
) -> dict[str, Any]:
    """Every encoded rule's (or these rules') counterexample, each in a fresh z3 context; the summary,
    with the rows under "per_rule"."""
    ids = rules if rules is not None else encoded_rules()
    rows: list[dict[str, Any]] = []

    def show(row: dict[str, Any]) -> None:
        rows.append(row)
        if echo:
            print(
                f"{row['rule']:<44} {row['kind']:<11} {row['steps'] or '':>3} {row['wall_s']:7.2f}s"
                f" cpu {row['cpu_s']:7.2f}s",
                flush=True,
            )

    if jobs <= 1:
        for rid in ids:
            show(one(rid, depth, symmetry))
    else:
        with ProcessPoolExecutor(jobs) as pool:
            for row in pool.map(one, ids, [depth] * len(ids), [symmetry] * len(ids)):
                show(row)
    return {**summary(rows, depth), "per_rule": rows}


def main(argv: list[str]) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("depth", nargs="?", type=int, default=16)
    ap.add_argument("legacy_rules", nargs="*", help=argparse.SUPPRESS)  # the older form: DEPTH RULE …
    ap.add_argument("--rules", default="", help="comma-separated rule ids (default: every encoded rule)")
    ap.add_argument("--jobs", type=int, default=1, help="processes (default 1)")
    ap.add_argument("--json", type=Path, help="write every rule's figures to this file")
    ap.add_argument("--symmetry", choices=["on", "off"], help="search.SYMMETRY for the run (default: the command's)")
    args = ap.parse_args(argv)
    chosen = [r for r in args.rules.split(",") if r] + list(args.legacy_rules)
    unknown = sorted(set(chosen) - set(encoded_rules()))
    if unknown:  # the ids `xiangshe rules` lists third (its slugs), of rules encoded in force
        ap.error(f"not an encoded rule's id: {', '.join(unknown)} (the ids are the slugs `xiangshe rules` lists)")
    symmetry = None if args.symmetry is None else args.symmetry == "on"
    result = measure(args.depth, chosen or None, args.jobs, echo=True, symmetry=symmetry)
    rows = result.pop("per_rule")
    if args.json is not None:
        args.json.write_text(json.dumps({**result, "per_rule": rows}, ensure_ascii=False, indent=1) + "\n")
    slow = sorted((r for r in rows if r["wall_s"] > TARGET_S), key=lambda r: -r["wall_s"])
    for r in slow:
        print(f"over {TARGET_S:g} s: {r['rule']} {r['kind']} {r['steps']} {r['wall_s']} s", flush=True)
    print(json.dumps(result))


if __name__ == "__main__":
    main(sys.argv[1:])
