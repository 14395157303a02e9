"""The timed workers of benchmarks/run.py, each run in a fresh process of its own.

    python benchmarks/e2e.py pm4py-e2e  LOG.csv MODEL.json            # pm4py, file → verdicts
    python benchmarks/e2e.py pm4py-core LOG.csv MODEL.json RUNS       # conformance_declare on a built log
    python benchmarks/e2e.py ours-core  MODEL.json RUNS FILE...       # our templates' holds on parsed traces
    python benchmarks/e2e.py naive-core MODEL.json RUNS FILE...       # the single-pass naive checker
    python benchmarks/e2e.py ours-e2e   MODEL.json FILE...            # ours, files → verdicts, in-process API
    python benchmarks/e2e.py ours-stages MODEL.json FILE...           # where our end-to-end time goes

Our end to end is the real CLI (`python -m xiangshe check --format json [--select RULES] FILE...`),
started by run.py itself. Every worker leaves the garbage collector on (Python's default), as the
CLI does. The last line of stdout is one JSON object: the verdicts (or a digest of them) and the
worker's own timings (wall `perf_counter`, CPU `process_time`). The imports a worker needs are made
inside it, so that pm4py's process never loads our package and ours never loads pm4py.
"""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


class Clock:
    """Wall and CPU seconds of the stages of a worker."""

    def __init__(self) -> None:
        self.stages: dict[str, dict[str, float]] = {}
        self._wall, self._cpu = time.perf_counter(), time.process_time()

    def lap(self, name: str) -> None:
        wall, cpu = time.perf_counter(), time.process_time()
        self.stages[name] = {"wall_s": wall - self._wall, "cpu_s": cpu - self._cpu}
        self._wall, self._cpu = wall, cpu


def _repeat(fn, runs: int) -> list[dict[str, float]]:
    out = []
    for _ in range(runs):
        wall, cpu = time.perf_counter(), time.process_time()
        fn()
        out.append({"wall_s": time.perf_counter() - wall, "cpu_s": time.process_time() - cpu})
    return out


# -- pm4py ---------------------------------------------------------------------------------------------
def _pm4py_log(csv: str):
    """pm4py's reading of its event log: pandas' CSV reader and pm4py's own formatting."""
    import pandas as pd
    import pm4py

    df = pd.read_csv(csv, dtype={"case": str, "activity": str})
    return pm4py.format_dataframe(df, case_id="case", activity_key="activity", timestamp_key="timestamp")


def _pm4py_model(path: str) -> dict:
    from collections import defaultdict

    data = json.loads(Path(path).read_text(encoding="utf-8"))
    model: dict = defaultdict(dict)
    for template, acts in data["model"]:
        model[template][acts[0] if len(acts) == 1 else tuple(acts)] = {"support": 1, "confidence": 1}
    return dict(model)


def pm4py_e2e(csv: str, model_path: str) -> dict:
    clock = Clock()
    sys._pm4py_welcome_shown = True  # type: ignore[attr-defined]  # pm4py's banner: not a verdict
    import pm4py

    clock.lap("import")
    model = _pm4py_model(model_path)
    df = _pm4py_log(csv)
    clock.lap("load")
    results = pm4py.conformance_declare(df, model, return_diagnostics_dataframe=False)
    clock.lap("check")
    verdicts = [sorted([t, a if isinstance(a, str) else list(a)] for t, a in r["deviations"]) for r in results]
    clock.lap("verdicts")  # printed as JSON by main(), inside the process's time
    return {"verdicts": verdicts, "stages": clock.stages}


def pm4py_core(csv: str, model_path: str, runs: int) -> dict:
    sys._pm4py_welcome_shown = True  # type: ignore[attr-defined]
    import pm4py
    from pm4py.algo.conformance.declare.variants.classic import apply_list

    model = _pm4py_model(model_path)
    df = _pm4py_log(csv)
    events = len(df)
    projected = pm4py.project_on_event_attribute(df, "concept:name")
    return {
        "events": events,
        "conformance_declare": _repeat(lambda: pm4py.conformance_declare(df, model), runs),
        "apply_list": _repeat(lambda: apply_list(projected, model), runs),
    }


# -- ours ----------------------------------------------------------------------------------------------
def _ours(model_path: str, files: list[str]):
    from xiangshe.constraints.rulebook import active_rules
    from xiangshe.domain.parse import parse_file

    wanted = set(json.loads(Path(model_path).read_text(encoding="utf-8"))["rules"])
    rules = [r for r in active_rules() if r.id in wanted]
    traces = [parse_file(Path(f), f) for f in files]
    return rules, traces


def ours_core(model_path: str, runs: int, files: list[str]) -> dict:
    from xiangshe.constraints.pattern import Context

    rules, traces = _ours(model_path, files)

    def check() -> list[list[str]]:
        out = []
        for t in traces:
            ctx = Context(t, None)  # no subset rule reads a machine state
            out.append([r.id for r in rules if r.template.holds(ctx)])
        return out

    return {"events": sum(len(t) for t in traces), "holds": _repeat(check, runs), "verdicts": check()}


def naive_core(model_path: str, runs: int, files: list[str]) -> dict:
    from benchmarks.declare_subset import labels
    from benchmarks.naive import Checker

    _, traces = _ours(model_path, files)
    data = json.loads(Path(model_path).read_text(encoding="utf-8"))
    checker = Checker([(t, tuple(a)) for t, a in data["model"]])
    label_lists = [labels(t) for t in traces]
    return {
        "events": sum(len(t) for t in traces),
        "single_pass": _repeat(lambda: [checker.broken(labs) for labs in label_lists], runs),
    }


def ours_e2e(model_path: str, files: list[str]) -> dict:
    """Ours end to end through check's in-process API from file paths: the rulebook, each file parsed,
    the subset's rules applied (`holds`), the verdicts as JSON: the work `check --select` would do if
    it applied only the selected rules."""
    sys.path.insert(0, str(ROOT))
    from xiangshe.constraints.pattern import Context
    from xiangshe.constraints.rulebook import active_rules
    from xiangshe.domain.parse import parse_file

    wanted = set(json.loads(Path(model_path).read_text(encoding="utf-8"))["rules"])
    rules = [r for r in active_rules() if r.id in wanted]
    verdicts = []
    for f in files:
        ctx = Context(parse_file(Path(f), f), None)
        verdicts.append([r.id for r in rules if r.template.holds(ctx)])
    return {"verdicts": verdicts}


def ours_stages(model_path: str, files: list[str]) -> dict:
    """Our subset check in-process, stage by stage: import, rulebook, parse, the subset's rules alone
    (`check_subset`), what `check --select` does of each staging (`check_select`: check_trace with the
    subset applied — validation, the subset's rules, the scope of those; no replay of the machines
    and no scoring audit, which nothing selected reads — and `render_select`: its JSON part of the
    report, as reports/batch.py writes it), the full check
    (`check_full`) and the least rendering of its verdicts (`render_min`)."""
    clock = Clock()
    sys.path.insert(0, str(ROOT))
    from xiangshe.constraints.check import check_trace
    from xiangshe.constraints.pattern import Context
    from xiangshe.constraints.rulebook import active_rules
    from xiangshe.domain.parse import parse_file
    from xiangshe.domain.visible import visible
    from xiangshe.reports.jsontext import dumps
    from xiangshe.reports.render import trace_json

    clock.lap("import")
    wanted = set(json.loads(Path(model_path).read_text(encoding="utf-8"))["rules"])
    every = active_rules()
    rules = [r for r in every if r.id in wanted]
    clock.lap("rulebook")
    traces = [parse_file(Path(f), f) for f in files]
    clock.lap("parse")
    verdicts = []
    for t in traces:
        ctx = Context(t, None)
        verdicts.append([r.id for r in rules if r.template.holds(ctx)])
    clock.lap("check_subset")
    selected = [check_trace(t, every, applied=wanted) for t in traces]
    clock.lap("check_select")
    for r in selected:
        visible("    " + dumps(trace_json(r), "    "))
    clock.lap("render_select")
    del selected
    results = [check_trace(t, every) for t in traces]
    clock.lap("check_full")
    json.dumps([[f.rule for f in r.findings] for r in results], ensure_ascii=False)
    clock.lap("render_min")
    return {"stages": clock.stages}


def main(argv: list[str]) -> None:
    mode, *rest = argv
    if mode == "pm4py-e2e":
        out = pm4py_e2e(rest[0], rest[1])
    elif mode == "pm4py-core":
        out = pm4py_core(rest[0], rest[1], int(rest[2]))
    elif mode == "ours-core":
        out = ours_core(rest[0], int(rest[1]), rest[2:])
    elif mode == "naive-core":
        out = naive_core(rest[0], int(rest[1]), rest[2:])
    elif mode == "ours-e2e":
        out = ours_e2e(rest[0], rest[1:])
    elif mode == "ours-stages":
        out = ours_stages(rest[0], rest[1:])
    else:
        raise SystemExit(f"unknown worker {mode}")
    print(json.dumps(out, ensure_ascii=False))


if __name__ == "__main__":
    sys.path.insert(0, str(ROOT))
    main(sys.argv[1:])
