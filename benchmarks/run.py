"""Benchmarks of issue 6: `check` as a process, throughput against pm4py's Declare conformance,
growth from 10k to 100k events, peak memory. Not timed tests: figures, measured side by side.

Usage: python benchmarks/run.py [--quick] [--events N]
  (needs the bench extra: pip install -e '.[bench]')

Progress goes to stderr; the last line of stdout is one JSON object with check_median_s,
pm4py_ratio_subset, pm4py_ratio_full, naive_ratio_subset, growth_10k_100k and peak_mb (and more).

Throughput (events per second over the same batch of traces, parsed once by our parser):
  ours subset  our templates' `holds`, restricted to the Declare-expressible rules
  ours full    `check_trace`: the machines, every rule in force and the scoring audit
  pm4py        `pm4py.conformance_declare(df, model)` on a DataFrame of the same traces' labels;
               its own projection of the DataFrame into traces is inside the call, and timed;
               building the DataFrame (format_dataframe) is reported apart as pm4py_load_s
  naive        a single pass per Declare constraint over each trace's labels (benchmarks/naive.py)
The three must agree on which traces break the subset, rule by rule: a mismatch is reported.
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from benchmarks import naive  # noqa: E402
from benchmarks.declare_subset import Translation, Universe, translate  # noqa: E402
from benchmarks.gen_batch import CACHE, batch_files, build, staging_jsonl  # noqa: E402


def log(msg: str) -> None:
    print(f"[bench {time.strftime('%H:%M:%S')}] {msg}", file=sys.stderr, flush=True)


def timed(fn, *args):
    gc.collect()
    start = time.perf_counter()
    out = fn(*args)
    return out, time.perf_counter() - start


_MEASURE = """
import resource, subprocess, sys, time
start = time.perf_counter()
status = subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL).returncode
wall = time.perf_counter() - start
print(status, wall, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)
"""


def run_process(args: list[str]) -> tuple[int, float, float]:
    """Run a process to completion: (exit status, wall seconds, its peak RSS in MB).

    A small intermediate process starts it and reads RUSAGE_CHILDREN: a child forked straight from
    this (large) process would report this process's resident size as its own high-water mark
    (Linux carries it across fork and exec)."""
    done = subprocess.run([sys.executable, "-c", _MEASURE, *args], cwd=ROOT, capture_output=True, text=True, check=True)
    status, wall, kib = done.stdout.split()
    return int(status), float(wall), int(kib) / 1024  # ru_maxrss is in KiB on Linux


# -- (a) check of the canonical ceremony as a whole process ------------------------------------------
def bench_canonical(runs: int) -> dict:
    done = subprocess.run(
        [sys.executable, "benchmarks/check_canonical.py", str(runs)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    )
    return json.loads(done.stdout.strip().splitlines()[-1])


# -- (b) throughput --------------------------------------------------------------------------------
def ours_subset(traces, tr: Translation) -> list[set[str]]:
    from xiangshe.constraints.pattern import Context

    out = []
    for t in traces:
        ctx = Context(t, None)  # no subset rule reads a machine state
        out.append({r.id for r in tr.rules if r.template.holds(ctx)})
    return out


def ours_full(traces, rules) -> list[bool]:
    from xiangshe.constraints.check import check_trace

    return [check_trace(t, rules).ok for t in traces]


def naive_subset(label_lists, tr: Translation) -> list[set[str]]:
    out = []
    for labs in label_lists:
        out.append({rid for rid, cs in tr.constraints.items() if naive.violated(labs, cs)})
    return out


def pm4py_frame(label_lists):
    import pandas as pd
    import pm4py

    cases, acts, stamps = [], [], []
    base = pd.Timestamp("2026-01-01").value // 10**9
    for k, labs in enumerate(label_lists):
        cases += [f"c{k:05d}"] * len(labs)
        acts += labs
        stamps += range(base, base + len(labs))
    df = pd.DataFrame({"case": cases, "activity": acts, "timestamp": pd.to_datetime(stamps, unit="s")})
    return pm4py.format_dataframe(df, case_id="case", activity_key="activity", timestamp_key="timestamp")


def pm4py_check(df, model) -> list[dict]:
    import pm4py

    return pm4py.conformance_declare(df, model, return_diagnostics_dataframe=False)


def pm4py_rules(results, tr: Translation) -> list[set[str]]:
    by = tr.by_constraint()
    out = []
    for res in results:
        rids: set[str] = set()
        for template, acts in res["deviations"]:
            key = (template, tuple(acts) if isinstance(acts, (tuple, list)) else (acts,))
            rids.update(by[key])
        out.append(rids)
    return out


def bench_throughput(folder: Path, runs_cli: bool = True) -> dict:
    sys._pm4py_welcome_shown = True  # pm4py's banner on import: not progress
    import pm4py  # noqa: F401  (imported before any timing)

    from xiangshe.constraints.rulebook import active_rules
    from xiangshe.domain.parse import parse_file

    files = batch_files(folder)
    traces, load_s = timed(lambda: [parse_file(p, p.name) for p in files])
    events = sum(len(t) for t in traces)
    log(f"batch {folder.name}: {len(traces)} traces, {events} events, parsed in {load_s:.2f} s")

    universe = Universe()
    label_lists, label_s = timed(lambda: [universe.add(t) for t in traces])
    rules = active_rules()
    tr = translate(rules, universe)
    model = tr.model()
    n_constraints = sum(len(v) for v in model.values())
    log(
        f"subset: {len(tr.rules)} of {sum(r.encoded for r in rules)} encoded rules, "
        f"{n_constraints} Declare constraints over {len(universe.samples)} labels"
    )

    df, pm4py_load_s = timed(pm4py_frame, label_lists)
    projected = pm4py.project_on_event_attribute(df, "concept:name")
    if projected != label_lists:
        raise SystemExit("pm4py's projection of the DataFrame differs from our labels")
    results, pm4py_s = timed(pm4py_check, df, model)
    log(
        f"pm4py conformance_declare: {pm4py_s:.2f} s ({events / pm4py_s:,.0f} events/s); "
        f"DataFrame built in {pm4py_load_s:.2f} s"
    )
    got_pm4py = pm4py_rules(results, tr)

    got_ours, ours_s = timed(ours_subset, traces, tr)
    log(f"ours, subset: {ours_s:.2f} s ({events / ours_s:,.0f} events/s)")
    got_naive, naive_s = timed(naive_subset, label_lists, tr)
    log(f"naive, subset: {naive_s:.2f} s ({events / naive_s:,.0f} events/s)")
    full_ok, full_s = timed(ours_full, traces, rules)
    log(f"ours, full check in-process: {full_s:.2f} s ({events / full_s:,.0f} events/s)")

    agree_pm4py = sum(a == b for a, b in zip(got_ours, got_pm4py, strict=True))
    agree_naive = sum(a == b for a, b in zip(got_ours, got_naive, strict=True))
    mismatches = [
        {"trace": files[i].name, "ours": sorted(a), "pm4py": sorted(b), "naive": sorted(c)}
        for i, (a, b, c) in enumerate(zip(got_ours, got_pm4py, got_naive, strict=True))
        if not a == b == c
    ]
    log(
        f"agreement on the subset's violations, rule by rule: ours=pm4py {agree_pm4py}/{len(traces)}, "
        f"ours=naive {agree_naive}/{len(traces)}"
    )
    for m in mismatches[:5]:
        log(f"  MISMATCH {m}")

    out = {
        "batch_traces": len(traces),
        "batch_events": events,
        "batch_traces_breaking_subset": sum(bool(s) for s in got_ours),
        "batch_traces_failing_full_check": sum(not ok for ok in full_ok),
        "subset_rules": len(tr.rules),
        "encoded_rules": sum(r.encoded for r in rules),
        "declare_constraints": n_constraints,
        "labels": len(universe.samples),
        "parse_s": round(load_s, 3),
        "label_s": round(label_s, 3),
        "pm4py_load_s": round(pm4py_load_s, 3),
        "pm4py_s": round(pm4py_s, 3),
        "ours_subset_s": round(ours_s, 3),
        "naive_s": round(naive_s, 3),
        "ours_full_s": round(full_s, 3),
        "pm4py_events_per_s": round(events / pm4py_s),
        "ours_subset_events_per_s": round(events / ours_s),
        "ours_full_events_per_s": round(events / full_s),
        "naive_events_per_s": round(events / naive_s),
        "pm4py_ratio_subset": round(pm4py_s / ours_s, 2),
        "pm4py_ratio_full": round(pm4py_s / full_s, 2),
        "naive_ratio_subset": round(naive_s / ours_s, 2),
        "pm4py_ratio_subset_with_load": round((pm4py_s + pm4py_load_s) / (ours_s + load_s), 2),
        "agreement_pm4py": f"{agree_pm4py}/{len(traces)}",
        "agreement_naive": f"{agree_naive}/{len(traces)}",
        "mismatches": len(mismatches),
    }
    if runs_cli:
        status, wall, rss = run_process(
            [sys.executable, "-m", "xiangshe", "check", "--format", "json", *[str(p.relative_to(ROOT)) for p in files]]
        )
        if status not in (0, 1):
            raise SystemExit(f"check of the batch exited {status}")
        log(
            f"ours, full check as one process over the batch files: {wall:.2f} s "
            f"({events / wall:,.0f} events/s), peak {rss:.0f} MB"
        )
        out.update(
            {
                "cli_batch_s": round(wall, 3),
                "cli_batch_events_per_s": round(events / wall),
                "pm4py_ratio_full_cli": round((pm4py_s + pm4py_load_s) / wall, 2),
                "peak_mb_batch": round(rss, 1),
            }
        )
    return out


# -- (c) growth and (d) memory -----------------------------------------------------------------------
def long_trace(n: int) -> Path:
    """A trace of exactly n events: the cast and pairs of the default staging, then its phases and
    events repeated (Φ01–Φ52, Φ01–Φ52, …) and cut at n events."""
    path = CACHE / f"long-{n}.jsonl"
    if path.exists():
        return path
    from xiangshe.domain.libretto import Options

    lines = staging_jsonl(Options()).splitlines()
    head = [ln for ln in lines if ln.startswith(('{"cast"', '{"pair"'))]
    body = [ln for ln in lines if not ln.startswith(('{"cast"', '{"pair"'))]
    out, count = list(head), 0
    while count < n:
        for ln in body:
            is_event = ln.startswith('{"actor"')
            if is_event and count == n:
                break
            out.append(ln)
            count += is_event
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("\n".join(out) + "\n", encoding="utf-8")
    return path


def time_check(path: Path) -> None:
    """In a fresh process: parse and check one trace, print the two times (seconds) and the findings."""
    from xiangshe.constraints.check import check_trace
    from xiangshe.constraints.rulebook import active_rules
    from xiangshe.domain.parse import parse_file

    rules = active_rules()
    trace, parse_s = timed(parse_file, path, path.name)
    res, check_s = timed(check_trace, trace, rules)
    print(json.dumps({"parse_s": parse_s, "check_s": check_s, "findings": len(res.findings)}))


def bench_growth(runs: int) -> dict:
    """Each measurement in a fresh process (a process that has held the batch runs slower)."""
    out: dict = {}
    for n in (10_000, 100_000):
        path = long_trace(n)
        inner = []
        for _ in range(runs):
            done = subprocess.run(
                [sys.executable, "benchmarks/run.py", "--time-check", str(path)],
                cwd=ROOT,
                capture_output=True,
                text=True,
                check=True,
            )
            inner.append(json.loads(done.stdout.strip().splitlines()[-1]))
        procs = [
            run_process([sys.executable, "-m", "xiangshe", "check", "--format", "json", str(path.relative_to(ROOT))])
            for _ in range(runs)
        ]
        if any(p[0] not in (0, 1) for p in procs):
            raise SystemExit(f"check of {path.name} exited {procs[0][0]}")
        findings = inner[0]["findings"]
        out[n] = {
            "in_process_s": statistics.median(i["parse_s"] + i["check_s"] for i in inner),
            "check_only_s": statistics.median(i["check_s"] for i in inner),
            "process_s": statistics.median(p[1] for p in procs),
            "peak_mb": max(p[2] for p in procs),
            "findings": findings,
        }
        log(
            f"{n} events: parse+check {out[n]['in_process_s']:.2f} s in-process "
            f"(check alone {out[n]['check_only_s']:.2f} s), {out[n]['process_s']:.2f} s as a process, "
            f"peak {out[n]['peak_mb']:.0f} MB, {findings} findings"
        )
    small, big = out[10_000], out[100_000]
    return {
        "growth_10k_100k": round(big["in_process_s"] / small["in_process_s"], 2),
        "growth_10k_100k_process": round(big["process_s"] / small["process_s"], 2),
        "growth_10k_100k_check_only": round(big["check_only_s"] / small["check_only_s"], 2),
        "check_10k_s": round(small["in_process_s"], 3),
        "check_100k_s": round(big["in_process_s"], 3),
        "findings_10k": small["findings"],
        "findings_100k": big["findings"],
        "peak_mb": round(big["peak_mb"], 1),
        "peak_mb_10k": round(small["peak_mb"], 1),
    }


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--quick", action="store_true", help="a ~100k-event batch, fewer runs")
    ap.add_argument("--events", type=int, help="events in the batch (default 100000 quick, 1000000 full)")
    ap.add_argument("--time-check", type=Path, help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    if args.time_check:
        return time_check(args.time_check)
    events = args.events or (100_000 if args.quick else 1_000_000)
    runs = 3 if args.quick else 5
    start = time.perf_counter()
    log(f"{'quick' if args.quick else 'full'} run; load average {os.getloadavg()[0]:.2f}")
    figures: dict = {}
    canon = bench_canonical(5 if args.quick else 11)
    figures["check_median_s"] = canon["check_median_s"]
    figures["z3_imported"] = canon["z3_imported"]
    log(f"check of the canonical ceremony: median {canon['check_median_s']} s, z3 imported: {canon['z3_imported']}")
    folder = build(events, log=log)
    figures.update(bench_throughput(folder))
    figures.update(bench_growth(runs))
    figures["load_average"] = round(os.getloadavg()[0], 2)
    figures["wall_s"] = round(time.perf_counter() - start, 1)
    figures["quick"] = args.quick
    keys = (
        "check_median_s",
        "pm4py_ratio_subset",
        "pm4py_ratio_full",
        "naive_ratio_subset",
        "growth_10k_100k",
        "peak_mb",
    )
    print(
        json.dumps(
            {**{k: figures[k] for k in keys}, **{k: v for k, v in figures.items() if k not in keys}}, ensure_ascii=False
        )
    )


if __name__ == "__main__":
    main()
