"""The benchmarks of issue 15: each tool end to end in a fresh process, core against core, and the
targets table, in one run. Not timed tests: figures, measured side by side.

Usage: python benchmarks/run.py [--quick] [--events N] [--runs R]
  (needs the bench extra: pip install -e '.[bench]')

Progress goes to stderr; the last line of stdout is one JSON object: the keys of the targets table
(e2e_ratio_subset, e2e_ratio_full, core_ratio_subset, parse_events_per_s, canonical_s, jobs_speedup,
peak_mb_1m, growth_100k_1m, cex_max_s), then "targets" ({key: {"target", "measured", "met"}}), then
every other figure. A figure that could not be measured is null, with its reason under "not_measured".

How each figure is taken (median of R ≥ 5 runs; wall time and CPU time side by side; the garbage
collector left on in every process, ours and pm4py's alike, as each tool runs by default):

- end to end (the headline), each run a fresh process reading its own input from disk:
    ours subset  `python -m xiangshe check --format json --select <the subset's rules> FILE...`
    ours full    `python -m xiangshe check --format json FILE...` (every rule, the machines, the audit)
    ours API     benchmarks/e2e.py ours-e2e: check's in-process API from the file paths (rulebook,
                 parse, the subset's `holds`, verdicts as JSON): `e2e_ratio_subset_api`, what the
                 subset's rules alone cost. `check --select` does only what the selected checks
                 read: no machine, audit or scope check is selected, so it neither replays the
                 machines nor makes the scoring audit, and its scope lists the selected rules
  (`--jobs 1` is passed to check when it has the option: one core, as pm4py's process.)
    pm4py        benchmarks/e2e.py pm4py-e2e: `pandas.read_csv` of the event log (case, activity,
                 timestamp), `pm4py.format_dataframe`, `pm4py.conformance_declare`, the verdicts as JSON
  CPU time is the children's (`resource.getrusage(RUSAGE_CHILDREN)`, user + system) over the run.
  The runs are interleaved: each of R rounds runs every one of these once, in turn, so that a
  drift of the machine's speed weighs on all alike. The ratios are pm4py's median wall time ÷ ours:
  above 1, ours is faster; `*_paired` is the median of the rounds' own ratios.
- core against core, each tool in a fresh process of its own, its input parsed before the clock:
    ours   our templates' `holds` for the subset's rules over the parsed traces (a Context each)
    pm4py  `pm4py.conformance_declare` on the already built DataFrame (its projection into traces
           is inside that call); `apply_list` on the projected traces is reported beside it
    naive  benchmarks/naive.py: one pass over each trace's labels, every constraint updated
- agreement: trace by trace (the set of rules broken, ours = pm4py = naive) and constraint by
  constraint (Declare constraint → the traces breaking it, per tool; ours read off where our rules
  report their violations). Any mismatch is listed and fails tests/test_bench_declare.py's checks.
- the other helpers' figures come from their modules (parse_speed, startup, jobs, counterexamples,
  check_core in benchmarks/), imported if present: a missing module leaves its keys null.
"""

from __future__ import annotations

import argparse
import importlib
import inspect
import json
import os
import platform
import resource
import statistics
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from benchmarks.declare_subset import Constraint, Translation, Universe, translate, translate_rule  # noqa: E402
from benchmarks.gen_batch import CACHE, batch_files, build, violation_rule  # noqa: E402
from benchmarks.naive import Checker  # noqa: E402

#: the targets table of issue 15: key → (target as written, test of the measured value, or None: reported)
TARGETS: dict[str, tuple[str, object]] = {
    "e2e_ratio_subset": ("≥ 3", lambda x: x >= 3),
    "e2e_ratio_full": ("≥ 1", lambda x: x >= 1),
    "core_ratio_subset": ("reported", None),
    "parse_events_per_s": ("≥ 300k", lambda x: x >= 300_000),
    "canonical_s": ("≤ 0.15 s at light load", lambda x: x <= 0.15),
    "jobs_speedup": ("≥ 1.7 on 2 cores", lambda x: x >= 1.7),
    "peak_mb_1m": ("≤ 400", lambda x: x <= 400),
    "growth_100k_1m": ("≤ 11", lambda x: x <= 11),
    "cex_max_s": ("≤ 10 s", lambda x: x <= 10),
}


def log(msg: str) -> None:
    print(f"[bench {time.strftime('%H:%M:%S')}] {msg}", file=sys.stderr, flush=True)


def load() -> float:
    return round(os.getloadavg()[0], 2)


def children_cpu() -> float:
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def run_once(args: list[str], out: Path | None = None) -> tuple[float, float, str]:
    """One fresh process to completion: (wall s, CPU s, its stdout; or '' when written to `out`)."""
    cpu, wall = children_cpu(), time.perf_counter()
    if out is None:
        done = subprocess.run(args, cwd=ROOT, capture_output=True, text=True)
        text = done.stdout
    else:
        with out.open("w", encoding="utf-8") as fh:
            done = subprocess.run(args, cwd=ROOT, stdout=fh, stderr=subprocess.PIPE, text=True)
        text = ""
    wall, cpu = time.perf_counter() - wall, children_cpu() - cpu
    if done.returncode not in (0, 1):
        raise SystemExit(f"{' '.join(args[:4])} … exited {done.returncode}: {done.stderr[-800:]}")
    return wall, cpu, text


def cpu_model() -> str:
    """The processor as the system names it, and its clock: the machine kind's hosts differ, and the
    ratios with them."""
    try:
        text = Path("/proc/cpuinfo").read_text(encoding="utf-8", errors="replace")
    except OSError:
        return platform.processor() or platform.machine()
    info = {k.strip(): v.strip() for k, _, v in (line.partition(":") for line in text.splitlines())}
    return f"{info.get('model name', '?')}, {info.get('cpu MHz', '?')} MHz"


def median_of(samples: list[dict[str, float]]) -> dict[str, float]:
    return {k: round(statistics.median(s[k] for s in samples), 4) for k in samples[0]}


def interleaved(commands: list[tuple[str, list[str], Path | None]], runs: int) -> dict[str, tuple[dict, str]]:
    """`runs` rounds, each running every command once as a fresh process, in turn: a drift of the
    machine's speed during the measurement weighs on every command alike (on this kind of virtual
    machine it moves by a third within half an hour). Per command: (median wall and CPU with each
    round's wall time, the last stdout)."""
    samples: dict[str, list[dict[str, float]]] = {name: [] for name, _, _ in commands}
    texts = dict.fromkeys(samples, "")
    for _ in range(runs):
        for name, args, out in commands:
            wall, cpu, texts[name] = run_once(args, out)
            samples[name].append({"wall_s": wall, "cpu_s": cpu})
    got = {}
    for name, _, _ in commands:
        m = median_of(samples[name])
        log(f"{name}: median {m['wall_s']:.3f} s wall, {m['cpu_s']:.3f} s CPU ({runs} runs, load {load()})")
        got[name] = ({**m, "runs": [round(s["wall_s"], 3) for s in samples[name]]}, texts[name])
    return got


def paired_ratio(pm4py: dict, ours: dict) -> float:
    """The median of the rounds' ratios (pm4py's wall time ÷ ours in the same round)."""
    return round(statistics.median(p / o for p, o in zip(pm4py["runs"], ours["runs"], strict=True)), 2)


# -- the batch, its event log and its Declare model ------------------------------------------------------
def declare_rules() -> set[str]:
    """The rules whose violation stagings (traces/violations/) translate to Declare over their own
    labels: the batch takes these stagings (and grafts their faults into mutants)."""
    from xiangshe.constraints.rulebook import active_rules
    from xiangshe.domain.errors import InputError
    from xiangshe.domain.parse import TraceErrors, parse_file

    rules = {r.id: r for r in active_rules() if r.encoded}
    out = set()
    for path in sorted((ROOT / "traces" / "violations").glob("*.trace")):
        rule = rules.get(violation_rule(path))
        if rule is None:
            continue
        try:
            trace = parse_file(path, path.name)
        except (TraceErrors, InputError):
            continue
        universe = Universe()
        universe.add(trace)
        if not isinstance(translate_rule(rule, universe), str):
            out.add(rule.id)
    return out


def prepare(folder: Path) -> dict:
    """Parse the batch once (not timed), label it, translate the subset, write pm4py's event log (CSV)
    and the model (JSON) beside the batch."""
    from xiangshe.constraints.rulebook import active_rules
    from xiangshe.domain.parse import parse_file

    files = batch_files(folder)
    traces = [parse_file(p, str(p.relative_to(ROOT))) for p in files]
    universe = Universe()
    label_lists = [universe.add(t) for t in traces]
    rules = active_rules()
    tr = translate(rules, universe)
    side = CACHE / f"{folder.name}-declare"
    side.mkdir(parents=True, exist_ok=True)
    model_path, csv_path = side / "model.json", side / "log.csv"
    model_path.write_text(json.dumps(tr.to_json(), ensure_ascii=False), encoding="utf-8")
    write_csv(csv_path, label_lists)
    return {
        "files": files,
        "traces": traces,
        "labels": label_lists,
        "universe": universe,
        "translation": tr,
        "rules": rules,
        "model_path": model_path,
        "csv_path": csv_path,
    }


def write_csv(path: Path, label_lists: list[list[str]]) -> None:
    """pm4py's event log: one row an event (case, activity, timestamp), one case a trace, in order."""
    import csv

    with path.open("w", encoding="utf-8", newline="") as fh:
        w = csv.writer(fh)
        w.writerow(["case", "activity", "timestamp"])
        base = 1_767_225_600  # 2026-01-01T00:00:00Z; one second an event
        for k, labs in enumerate(label_lists):
            case = f"c{k:05d}"
            for i, lab in enumerate(labs):
                w.writerow([case, lab, time.strftime("%Y-%m-%d %H:%M:%S", time.gmtime(base + i))])


# -- agreement ------------------------------------------------------------------------------------------
def agreement(prep: dict, pm4py_verdicts: list[list], ours_rules: list[list[str]] | None = None) -> dict:
    """Trace by trace and constraint by constraint: ours, pm4py and the naive checker."""
    tr: Translation = prep["translation"]
    by = tr.by_constraint()
    checker = Checker(tr.all_constraints())
    from xiangshe.constraints.pattern import Context

    per_tool: dict[str, list[set[Constraint]]] = {"ours": [], "pm4py": [], "naive": []}
    for t, labs, dev in zip(prep["traces"], prep["labels"], pm4py_verdicts, strict=True):
        per_tool["ours"].append(tr.broken_by_ours(t, labs, Context(t, None)))
        per_tool["naive"].append(checker.broken(labs))
        per_tool["pm4py"].append({(tmpl, (a,) if isinstance(a, str) else tuple(a)) for tmpl, a in dev})
    rules_of = {k: [{rid for c in cs for rid in by[c]} for cs in v] for k, v in per_tool.items()}
    if ours_rules is not None:  # the CLI's verdicts (check --select) against the templates' own
        rules_of["ours_cli"] = [tr.with_partners(r) for r in ours_rules]
    names = [str(p.relative_to(ROOT)) if p.is_relative_to(ROOT) else p.name for p in prep["files"]]
    trace_mismatch = [
        {"trace": names[i], **{k: sorted(v[i]) for k, v in rules_of.items()}}
        for i in range(len(names))
        if len({frozenset(v[i]) for v in rules_of.values()}) > 1
    ]
    traces_of = {
        k: {c: frozenset(i for i, cs in enumerate(v) if c in cs) for c in tr.all_constraints()}
        for k, v in per_tool.items()
    }
    table, constraint_mismatch = [], []
    for t, a in tr.all_constraints():
        row = {"constraint": f"{t}({', '.join(a)})", "rules": by[(t, a)]}
        row |= {k: len(traces_of[k][(t, a)]) for k in per_tool}
        if any(row[k] for k in per_tool):
            table.append(row)
        if len({traces_of[k][(t, a)] for k in per_tool}) > 1:  # the same traces, not only as many
            constraint_mismatch.append(row)
    table.sort(key=lambda row: (-row["ours"], row["constraint"]))
    n = len(names)
    breaking = sum(bool(s) for s in per_tool["ours"])
    rule_counts = {k: Counter(r for rs in v for r in rs) for k, v in rules_of.items()}
    return {
        "traces": n,
        "traces_breaking_subset": breaking,
        "share_breaking_subset": round(breaking / n, 3),
        "agreement_traces": {
            k: f"{sum(a == b for a, b in zip(rules_of['ours'], v, strict=True))}/{n}"
            for k, v in rules_of.items()
            if k != "ours"
        },
        "constraints_broken_somewhere": len(table),
        "templates_in_model": dict(Counter(t for t, _ in tr.all_constraints())),
        "templates_broken": dict(Counter(row["constraint"].split("(")[0] for row in table)),
        "rules_broken": {
            r: {k: rule_counts[k][r] for k in rule_counts} for r in sorted(rule_counts["ours"] | rule_counts["pm4py"])
        },
        "constraint_table": table,
        "trace_mismatches": trace_mismatch,
        "constraint_mismatches": constraint_mismatch,
    }


# -- end to end and core --------------------------------------------------------------------------------
def cli_args(prep: dict, select: bool) -> list[str]:
    args = [sys.executable, "-m", "xiangshe", "check", "--format", "json"]
    if jobs_option():
        args += ["--jobs", "1"]  # one core, as pm4py's process: the headline compares like with like
    if select:
        args += ["--select", ",".join(r.id for r in prep["translation"].rules)]
    return args + [str(p.relative_to(ROOT)) for p in prep["files"]]


def jobs_option() -> bool:
    done = subprocess.run(
        [sys.executable, "-m", "xiangshe", "check", "--help"], cwd=ROOT, capture_output=True, text=True
    )
    return "--jobs" in done.stdout


def cli_verdicts(path: Path, wanted: set[str]) -> list[list[str]]:
    data = json.loads(path.read_text(encoding="utf-8"))
    return [sorted({v["rule"] for v in t.get("violations", ()) if v["rule"] in wanted}) for t in data["traces"]]


def bench_e2e(prep: dict, runs: int) -> dict:
    events = sum(len(t) for t in prep["traces"])
    side = prep["model_path"].parent
    pm4py_args = [sys.executable, "benchmarks/e2e.py", "pm4py-e2e", str(prep["csv_path"]), str(prep["model_path"])]
    subset_out, full_out = side / "ours-subset.json", side / "ours-full.json"
    files = [str(p.relative_to(ROOT)) for p in prep["files"]]
    names = (
        "pm4py end to end (CSV → verdicts)",
        "ours end to end, subset (check --select)",
        "ours end to end, full check",
        "ours end to end, subset, check's API (parse + holds)",
        "python start alone",
    )
    got = interleaved(
        [
            (names[0], pm4py_args, None),
            (names[1], cli_args(prep, True), subset_out),
            (names[2], cli_args(prep, False), full_out),
            (names[3], [sys.executable, "benchmarks/e2e.py", "ours-e2e", str(prep["model_path"]), *files], None),
            (names[4], [sys.executable, "-c", "pass"], None),
        ],
        runs,
    )
    (pm4py, text), (subset, _), (full, _), (api, api_text), (start, _) = (got[n] for n in names)
    pm4py_result = json.loads(text.strip().splitlines()[-1])
    stages_text = run_once(
        [sys.executable, "benchmarks/e2e.py", "ours-stages", str(prep["model_path"])]
        + [str(p.relative_to(ROOT)) for p in prep["files"]]
    )[2]
    stages = json.loads(stages_text.strip().splitlines()[-1])["stages"]
    wanted = {r.id for r in prep["translation"].rules}
    ours_cli = cli_verdicts(subset_out, wanted)
    full_data = json.loads(full_out.read_text(encoding="utf-8"))
    return {
        "events": events,
        "pm4py": pm4py,
        "pm4py_stages": pm4py_result["stages"],
        "pm4py_verdicts": pm4py_result["verdicts"],
        "ours_subset": subset,
        "ours_full": full,
        "ours_subset_api": api,
        "ours_api_verdicts": json.loads(api_text.strip().splitlines()[-1])["verdicts"],
        "python_start": start,
        "ours_stages": stages,
        "ours_cli_verdicts": ours_cli,
        "traces_failing_full_check": sum(not t["ok"] for t in full_data["traces"]),
    }


def bench_core(prep: dict, runs: int) -> dict:
    files = [str(p.relative_to(ROOT)) for p in prep["files"]]
    model, csv = str(prep["model_path"]), str(prep["csv_path"])

    def worker(*args: str) -> dict:
        text = run_once([sys.executable, "benchmarks/e2e.py", *args])[2]
        return json.loads(text.strip().splitlines()[-1])

    ours = worker("ours-core", model, str(runs), *files)
    pm4py = worker("pm4py-core", csv, model, str(runs))
    naive = worker("naive-core", model, str(runs), *files)
    out = {
        "ours_holds": median_of(ours["holds"]),
        "pm4py_conformance_declare": median_of(pm4py["conformance_declare"]),
        "pm4py_apply_list": median_of(pm4py["apply_list"]),
        "naive_single_pass": median_of(naive["single_pass"]),
        "ours_core_verdicts": ours["verdicts"],
    }
    for k in ("ours_holds", "pm4py_conformance_declare", "pm4py_apply_list", "naive_single_pass"):
        log(f"core {k}: median {out[k]['wall_s']:.3f} s wall, {out[k]['cpu_s']:.3f} s CPU ({runs} runs)")
    return out


# -- the other helpers' figures -------------------------------------------------------------------------
#: key → (module in benchmarks/, function, the key in what it returns)
EXTERNAL: dict[str, tuple[str, str, str]] = {
    "parse_events_per_s": ("parse_speed", "measure_parse", "parse_events_per_s"),
    "peak_mb_1m": ("parse_speed", "measure_memory", "peak_mb_1m"),
    "growth_100k_1m": ("parse_speed", "measure_memory", "growth_100k_1m"),
    "canonical_s": ("startup", "measure", "canonical_s"),
    "jobs_speedup": ("jobs", "measure", "jobs_speedup"),
    "cex_max_s": ("counterexamples", "measure", "cex_max_s"),
}


#: benchmarks/counterexamples.py measure(depth, rules, jobs): every encoded rule, depth 16, the default jobs
CEX_ARGS = {"depth": 16, "rules": None, "jobs": os.cpu_count() or 1}


def external(quick: bool, skip: set[str]) -> tuple[dict, dict, dict]:
    """The other helpers' figures: (key → value or None, key → why not measured, the raw results)."""
    values: dict = {}
    why: dict[str, str] = {}
    raw: dict = {}
    cache: dict[tuple[str, str], object] = {}
    for key, (module, func, field) in EXTERNAL.items():
        values[key] = None
        if module in skip:
            why[key] = f"skipped (--skip {module})"
            continue
        if (module, func) not in cache:
            try:
                fn = getattr(importlib.import_module(f"benchmarks.{module}"), func)
            except (ImportError, AttributeError) as err:
                cache[(module, func)] = f"not measured: benchmarks/{module}.py has no {func}() ({err})"
            else:
                log(f"{module}.{func}() …")
                kwargs = dict(CEX_ARGS) if module == "counterexamples" else {}
                if "quick" in inspect.signature(fn).parameters:
                    kwargs["quick"] = quick
                try:
                    cache[(module, func)] = fn(**kwargs)
                except Exception as err:  # noqa: BLE001 — one helper's failure leaves its key null, not the run
                    cache[(module, func)] = f"not measured: {module}.{func}() failed: {type(err).__name__}: {err}"
        got = cache[(module, func)]
        if isinstance(got, str):
            why[key] = got
        elif isinstance(got, dict) and got.get(field) is not None:
            values[key] = got[field]
            raw[f"{module}.{func}"] = got
        else:
            why[key] = f"not measured: {module}.{func}() gave no {field}"
    try:
        core = importlib.import_module("benchmarks.check_core").measure
    except (ImportError, AttributeError) as err:
        why["check_core"] = f"not measured: benchmarks/check_core.py has no measure() ({err})"
    else:
        if "check_core" not in skip:
            try:
                raw["check_core.measure"] = core()
            except Exception as err:  # noqa: BLE001
                why["check_core"] = f"not measured: check_core.measure() failed: {type(err).__name__}: {err}"
    return values, why, raw


def targets(figures: dict) -> dict:
    out = {}
    for key, (target, test) in TARGETS.items():
        x = figures.get(key)
        out[key] = {"target": target, "measured": x, "met": None if x is None or test is None else bool(test(x))}
    return out


def where_time_goes(e2e: dict) -> dict:
    """Our end-to-end subset time, cut into process start, import, rulebook, parse, check and the rest
    (the CLI's options, validation, the scope of the selected rules, the linter, rendering of the
    JSON), from the stages worker."""
    st = e2e["ours_stages"]
    total = e2e["ours_subset"]["wall_s"]
    start = e2e["python_start"]["wall_s"]
    parts = {
        "python_start_s": start,
        "import_s": st["import"]["wall_s"],
        "rulebook_s": st["rulebook"]["wall_s"],
        "parse_s": st["parse"]["wall_s"],
        "check_subset_s": st["check_subset"]["wall_s"],
    }
    parts["rest_of_cli_s"] = total - sum(parts.values())
    return {k: round(v, 3) for k, v in parts.items()} | {
        "total_s": round(total, 3),
        "check_full_s": round(st["check_full"]["wall_s"], 3),
    }


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument(
        "--quick", action="store_true", help="a small batch (the bundled stagings and ~40k generated events)"
    )
    ap.add_argument("--events", type=int, help="events in the batch (generated; default 40000 quick, 1000000 full)")
    ap.add_argument("--runs", type=int, help="runs per figure, the median is given (default 5; at least 5)")
    ap.add_argument("--skip", action="append", default=[], help="a helper's module not to run (e.g. counterexamples)")
    args = ap.parse_args(argv)
    events = args.events or (40_000 if args.quick else 1_000_000)
    runs = max(5, args.runs or 5)
    t0 = time.perf_counter()
    load_start = load()
    log(f"{'quick' if args.quick else 'full'} run; load average {load_start}")
    keep = declare_rules()
    folder = build(events, log=log, keep=keep.__contains__, tag=f"declare{len(keep)}")
    prep = prepare(folder)
    tr: Translation = prep["translation"]
    log(
        f"batch {folder.name}: {len(prep['traces'])} traces, {sum(len(t) for t in prep['traces'])} events; "
        f"subset {len(tr.rules)} of {sum(r.encoded for r in prep['rules'])} encoded rules, "
        f"{len(tr.all_constraints())} Declare constraints over {len(prep['universe'].samples)} labels"
    )
    e2e = bench_e2e(prep, runs)
    core = bench_core(prep, runs)
    agree = agreement(prep, e2e["pm4py_verdicts"], e2e["ours_cli_verdicts"])
    core_rules = [sorted(v) for v in core["ours_core_verdicts"]]
    for what in ("ours_cli_verdicts", "ours_api_verdicts"):
        if core_rules != [sorted(v) for v in e2e[what]]:
            agree["trace_mismatches"].append({"trace": "*", "what": f"our core and {what} disagree"})
    log(
        f"agreement: {agree['traces_breaking_subset']}/{agree['traces']} traces break the subset; "
        f"ours vs {agree['agreement_traces']}; {len(agree['trace_mismatches'])} trace mismatches, "
        f"{len(agree['constraint_mismatches'])} constraint mismatches"
    )
    ev = e2e["events"]
    figures: dict = {
        "e2e_ratio_subset": round(e2e["pm4py"]["wall_s"] / e2e["ours_subset"]["wall_s"], 2),
        "e2e_ratio_full": round(e2e["pm4py"]["wall_s"] / e2e["ours_full"]["wall_s"], 2),
        "core_ratio_subset": round(core["pm4py_conformance_declare"]["wall_s"] / core["ours_holds"]["wall_s"], 2),
    }
    values, why, raw = external(args.quick, set(args.skip))
    figures.update(values)
    figures = {k: figures.get(k) for k in TARGETS} | {"targets": targets(figures), "not_measured": why}
    figures.update(
        {
            "core_ratio_subset_cpu": round(core["pm4py_conformance_declare"]["cpu_s"] / core["ours_holds"]["cpu_s"], 2),
            "core_ratio_apply_list": round(core["pm4py_apply_list"]["wall_s"] / core["ours_holds"]["wall_s"], 2),
            "naive_ratio_subset": round(core["naive_single_pass"]["wall_s"] / core["ours_holds"]["wall_s"], 2),
            "e2e_ratio_subset_cpu": round(e2e["pm4py"]["cpu_s"] / e2e["ours_subset"]["cpu_s"], 2),
            "e2e_ratio_subset_api": round(e2e["pm4py"]["wall_s"] / e2e["ours_subset_api"]["wall_s"], 2),
            "e2e_ratio_subset_api_cpu": round(e2e["pm4py"]["cpu_s"] / e2e["ours_subset_api"]["cpu_s"], 2),
            "e2e_ratio_full_cpu": round(e2e["pm4py"]["cpu_s"] / e2e["ours_full"]["cpu_s"], 2),
            "e2e_ratio_subset_paired": paired_ratio(e2e["pm4py"], e2e["ours_subset"]),
            "e2e_ratio_full_paired": paired_ratio(e2e["pm4py"], e2e["ours_full"]),
            "e2e": {
                k: e2e[k]
                for k in ("pm4py", "ours_subset", "ours_subset_api", "ours_full", "python_start", "pm4py_stages")
            },
            "e2e_events_per_s": {
                k: round(ev / e2e[k]["wall_s"]) for k in ("pm4py", "ours_subset", "ours_subset_api", "ours_full")
            },
            "core": {k: v for k, v in core.items() if k != "ours_core_verdicts"},
            "core_events_per_s": {
                k: round(ev / core[k]["wall_s"])
                for k in ("ours_holds", "pm4py_conformance_declare", "pm4py_apply_list", "naive_single_pass")
            },
            "where_our_e2e_time_goes": where_time_goes(e2e),
            "batch": {
                "folder": folder.name,
                "traces": agree["traces"],
                "events": ev,
                "traces_breaking_subset": agree["traces_breaking_subset"],
                "share_breaking_subset": agree["share_breaking_subset"],
                "traces_failing_full_check": e2e["traces_failing_full_check"],
                "subset_rules": len(tr.rules),
                "encoded_rules": sum(r.encoded for r in prep["rules"]),
                "declare_constraints": len(tr.all_constraints()),
                "labels": len(prep["universe"].samples),
            },
            "agreement": {k: v for k, v in agree.items() if k not in ("traces", "traces_breaking_subset")},
            "gc": "on in every process (ours and pm4py's alike)",
            "runs": runs,
            "load_average": {"start": load_start, "end": load()},
            "cpus": os.cpu_count(),
            "cpu": cpu_model(),
            "python": sys.version.split()[0],
            "external_raw": raw,
            "wall_s": round(time.perf_counter() - t0, 1),
            "quick": args.quick,
        }
    )
    print(json.dumps(figures, ensure_ascii=False, default=str))


if __name__ == "__main__":
    main()
