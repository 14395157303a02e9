"""Parsing speed and memory at size: how fast a large JSON Lines staging is read (file → Trace), and how
much memory parsing and checking a 100k- and a 1M-event staging take. Not timed tests: figures.

- parse: `parse_file` of a 1M-event (by default) JSON Lines file, each run in the same process after
  one untimed warm-up (the vocabulary loaded, the file in the page cache), what the reader remembers
  forgotten before each; the median of RUNS runs, wall and CPU time, as events per second. The file
  repeats one ceremony, so most of its lines were read before (the reader's best case); the worst
  case, every line new (`parse_unique_*`), is the canonical staging as JSON Lines.
- memory: `parse_file` then `check_trace` with every rule in force, each size in a fresh process;
  its peak resident size (ru_maxrss), and how it grows from 100k to 1M events.

The stagings are the default generated ceremony's cast and pairs (and its occasion), then its phases
and events repeated (Φ01–Φ52, Φ01–Φ52, …) and cut at N events; cached under benchmarks/.cache/.

Usage: python benchmarks/parse_speed.py [--runs 5] [--events 1000000] [--skip-memory]
  The last line of stdout is one JSON object: parse_events_per_s, parse_cpu_events_per_s,
  parse_unique_events_per_s, parse_unique_cpu_events_per_s, peak_mb_100k, peak_mb_1m, growth_100k_1m
  (and the medians behind them).
"""

from __future__ import annotations

import argparse
import json
import resource
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from benchmarks.childusage import measured  # noqa: E402

CACHE = ROOT / "benchmarks" / ".cache"
LIMIT = 1 << 30  # bytes: a 1M-event staging is over the default 64 MiB (check --max-input-size)
_HEAD = ('{"cast"', '{"pair"', '{"occasion"', '{"fragment"')  # declarations: once, before the events


def staging(n: int) -> Path:
    """A JSON Lines staging of exactly n events (cached)."""
    path = CACHE / f"parse-{n}.jsonl"
    if path.exists():
        return path
    from xiangshe.domain.libretto import Options, generate
    from xiangshe.domain.parse import parse_lines, to_jsonl

    lines = to_jsonl(parse_lines(generate(Options()), "<generated>")).splitlines()
    head = [ln for ln in lines if ln.startswith(_HEAD)]
    body = [ln for ln in lines if not ln.startswith(_HEAD)]
    out, count = list(head), 0
    while count < n:
        for ln in body:
            is_event = ln.startswith('{"actor"')
            if is_event and count == n:
                break
            out.append(ln)
            count += is_event
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(".tmp")
    tmp.write_text("\n".join(out) + "\n", encoding="utf-8")
    tmp.replace(path)
    return path


def measure_parse(events: int = 1_000_000, runs: int = 5) -> dict:
    """Parse a staging of `events` events `runs` times (after a warm-up) in this process, each run
    reading as a fresh process would (the events read before forgotten: domain/parse.py `forget`):
    the medians of wall and CPU time, and events per second by each. This staging repeats one
    ceremony, so most of its lines were read before in the same file (the reader's best case);
    `parse_unique_*` is its worst case: the canonical staging as JSON Lines (3,813 events, each line
    written once), parsed from its text `UNIQUE_REPEATS` times a run, forgotten before each."""
    from xiangshe.domain.parse import forget, parse_file

    path = staging(events)
    parse_file(path, path.name, limit=LIMIT)  # warm-up: vocabulary, imports, page cache
    walls, cpus = [], []
    for _ in range(runs):
        forget()
        wall, cpu = time.perf_counter(), time.process_time()
        trace = parse_file(path, path.name, limit=LIMIT)
        walls.append(time.perf_counter() - wall)
        cpus.append(time.process_time() - cpu)
        if len(trace.events) != events:
            raise SystemExit(f"{path.name}: {len(trace.events)} events, expected {events}")
        del trace
    wall_s, cpu_s = statistics.median(walls), statistics.median(cpus)
    unique = measure_unique(runs)
    return {
        "parse_events": events,
        "parse_runs": runs,
        "parse_wall_s": round(wall_s, 3),
        "parse_cpu_s": round(cpu_s, 3),
        "parse_events_per_s": round(events / wall_s),
        "parse_cpu_events_per_s": round(events / cpu_s),
        **unique,
    }


UNIQUE_REPEATS = 10


def measure_unique(runs: int) -> dict:
    """`parse_jsonl` of the canonical staging (every line new to the reader), UNIQUE_REPEATS times a
    run: the medians of wall and CPU time a run, and events per second."""
    from xiangshe.domain.bundled import CANONICAL
    from xiangshe.domain.parse import forget, parse_jsonl, parse_lines, to_jsonl

    text = to_jsonl(parse_lines(CANONICAL.read_text(encoding="utf-8"), "canonical.trace"))
    walls, cpus, n = [], [], 0
    for _ in range(runs):
        wall, cpu, n = time.perf_counter(), time.process_time(), 0
        for _ in range(UNIQUE_REPEATS):
            forget()
            n += len(parse_jsonl(text, "canonical.jsonl"))
        walls.append(time.perf_counter() - wall)
        cpus.append(time.process_time() - cpu)
    wall_s, cpu_s = statistics.median(walls), statistics.median(cpus)
    return {
        "parse_unique_events": n,
        "parse_unique_events_per_s": round(n / wall_s),
        "parse_unique_cpu_events_per_s": round(n / cpu_s),
    }


def peak_of(path: Path) -> dict:
    """In this (fresh) process: parse and check one staging; its peak resident size in MB."""
    from xiangshe.constraints.check import check_trace
    from xiangshe.constraints.rulebook import active_rules
    from xiangshe.domain.parse import parse_file

    rules = active_rules()
    wall = time.perf_counter()
    trace = parse_file(path, path.name, limit=LIMIT)
    parsed = time.perf_counter()
    result = check_trace(trace, rules)
    done = time.perf_counter()
    kb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss  # kilobytes on Linux
    return {
        "peak_mb": round(kb / 1024, 1),
        "parse_s": round(parsed - wall, 3),
        "check_s": round(done - parsed, 3),
        "findings": len(result.findings),
    }


def measure_memory(sizes: tuple[int, ...] = (100_000, 1_000_000)) -> dict:
    """Peak resident size of parse + check, each size in a fresh process."""
    out: dict = {}
    for n in sizes:
        path = staging(n)
        # in a small parent (benchmarks/childusage.py): forked from a large process, its peak would be that one's
        done = measured([sys.executable, __file__, "--peak-of", str(path)], ROOT, keep_stdout=True)
        if done["rc"] != 0:
            raise RuntimeError(f"--peak-of {path} exited {done['rc']}")
        out[n] = json.loads(done["stdout"].strip().splitlines()[-1]) | {"peak_mb": round(done["peak_mb"], 1)}
    small, big = out[min(sizes)], out[max(sizes)]
    return {
        **{f"peak_mb_{_label(n)}": out[n]["peak_mb"] for n in sizes},
        **{f"parse_check_s_{_label(n)}": round(out[n]["parse_s"] + out[n]["check_s"], 2) for n in sizes},
        **{f"findings_{_label(n)}": out[n]["findings"] for n in sizes},
        f"growth_{_label(min(sizes))}_{_label(max(sizes))}": round(big["peak_mb"] / small["peak_mb"], 2),
    }


def _label(n: int) -> str:
    return f"{n // 1_000_000}m" if n % 1_000_000 == 0 else f"{n // 1000}k"


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--runs", type=int, default=5, help="timed parses (median), default 5")
    ap.add_argument("--events", type=int, default=1_000_000, help="events in the parsed staging, default 1000000")
    ap.add_argument("--skip-memory", action="store_true", help="only the parsing speed")
    ap.add_argument("--skip-parse", action="store_true", help="only the memory")
    ap.add_argument("--peak-of", type=Path, help=argparse.SUPPRESS)  # the fresh process of measure_memory
    args = ap.parse_args(argv)
    if args.peak_of:
        print(json.dumps(peak_of(args.peak_of)))
        return
    out: dict = {}
    if not args.skip_parse:
        out |= measure_parse(args.events, args.runs)
        print(
            f"parse {args.events} events: {out['parse_wall_s']} s wall, {out['parse_cpu_s']} s CPU (median of "
            f"{args.runs}): {out['parse_events_per_s']:,} events/s wall, {out['parse_cpu_events_per_s']:,} CPU; "
            f"every line new: {out['parse_unique_events_per_s']:,} events/s wall, "
            f"{out['parse_unique_cpu_events_per_s']:,} CPU",
            file=sys.stderr,
        )
    if not args.skip_memory:
        out |= measure_memory()
        print(
            f"peak parse+check: {out['peak_mb_100k']} MB at 100k, {out['peak_mb_1m']} MB at 1M "
            f"(growth {out['growth_100k_1m']}×)",
            file=sys.stderr,
        )
    print(json.dumps(out))


if __name__ == "__main__":
    main()
