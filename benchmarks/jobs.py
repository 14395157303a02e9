"""`check --jobs`: a batch of stagings checked by whole processes with --jobs 1 and with --jobs 2
(the median of RUNS runs each, wall and CPU time, the two run in alternating turns), and the peak
resident memory of the largest process of a run (the check, or one of its workers: ru_maxrss of the
waited-for child) for a batch of 1,000 and of 10,000 stagings. Memory that stays flat over the
batch shows as the same peak for both sizes.

The batch is NAMES hard links (distinct names, so that each is read) cycling over the stagings of
a source: `bundled` (the default: the variants and the violating examples, 20–4,000 events each)
or `generated` (benchmarks/gen_batch.py: whole generated ceremonies and mutants, ~6,000 events
each, much slower). Built once under benchmarks/.cache/.

The CPU time of a run is also split: the command's own process (start-up, listing the batch,
reading the workers' answers and writing them out: RUSAGE_SELF) and its workers (RUSAGE_CHILDREN),
as the command's process sees them when it ends (`cpu_own_s`, `cpu_workers_s`).

Usage: python benchmarks/jobs.py [--runs 3] [--sizes 1000,10000] [--source bundled|generated]
The last line printed is JSON: {"jobs_speedup": …, "peak_mb_batch_1k": …, "peak_mb_batch_10k": …, …}.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from benchmarks.childusage import measured  # noqa: E402

CACHE = ROOT / "benchmarks" / ".cache"


def stagings(source: str) -> list[Path]:
    if source == "generated":
        sys.path.insert(0, str(ROOT / "benchmarks"))
        from gen_batch import batch_files, build

        return batch_files(build(100_000))
    return sorted((ROOT / "traces" / "variants").glob("*.trace")) + sorted(
        (ROOT / "traces" / "violations").glob("*.trace")
    )


def batch(n: int, source: str = "bundled") -> Path:
    """A directory of `n` stagings (hard links, else copies), cycling over the source's."""
    folder = CACHE / f"jobs-{source}-{n}"
    done = folder / ".complete"
    if done.exists():
        return folder
    folder.mkdir(parents=True, exist_ok=True)
    files = stagings(source)
    for i in range(n):
        src = files[i % len(files)]
        dst = folder / f"{i:05d}-{src.name}"
        if not dst.exists():
            try:
                os.link(src, dst)
            except OSError:
                dst.write_bytes(src.read_bytes())
    done.touch()
    return folder


#: `python -m xiangshe ARGS…` that writes, as it ends, its own CPU time and its workers' to the file
#: named first (RUSAGE_CHILDREN: the workers it waited for, as every command does)
_SPLIT = """
import atexit, json, os, resource, sys
out, pid = sys.argv[1], os.getpid()
def split():
    if os.getpid() == pid:
        own, workers = (resource.getrusage(w) for w in (resource.RUSAGE_SELF, resource.RUSAGE_CHILDREN))
        with open(out, "w") as f:
            json.dump({"own": own.ru_utime + own.ru_stime, "workers": workers.ru_utime + workers.ru_stime}, f)
atexit.register(split)
sys.argv = ["xiangshe", *sys.argv[2:]]
from xiangshe.__main__ import main
main()
"""


def run(folder: Path, jobs: int) -> dict:
    """One whole-process `check --format json --jobs JOBS FOLDER`: wall, CPU (the process and its
    workers, and each apart), and the peak resident memory of the largest of them."""
    import tempfile

    with tempfile.TemporaryDirectory() as tmp:
        split = Path(tmp) / "split.json"
        cmd = [sys.executable, "-c", _SPLIT, str(split), "check", "--format", "json", "--isolated", "--jobs", str(jobs)]
        start = time.perf_counter()
        out = measured([*cmd, str(folder)], ROOT)  # its usage read in a small parent (benchmarks/childusage.py)
        wall = time.perf_counter() - start
        if out["rc"] not in (0, 1, 2):
            raise RuntimeError(f"check --jobs {jobs} {folder} exited {out['rc']}")
        cpu = json.loads(split.read_text(encoding="utf-8"))
    return {
        "wall_s": wall,
        "cpu_s": out["cpu_s"],
        "cpu_own_s": cpu["own"],
        "cpu_workers_s": cpu["workers"],
        "peak_mb": out["peak_mb"],
    }


def _median(runs: list[dict]) -> dict:
    return {k: round(statistics.median(r[k] for r in runs), 3) for k in runs[0]}


def measure(runs: int = 3, sizes: tuple[int, ...] = (1000, 10_000), source: str = "bundled", log=print) -> dict:
    """The figures: per size and per --jobs, the median wall, CPU and peak (the two settings run in
    alternating turns); the speed-up of --jobs 2 over --jobs 1 on the first size (the ratio of the
    median walls; each turn's own ratio beside it); the load average before and after."""
    out: dict = {"source": source, "runs": runs, "cores": os.cpu_count(), "load_before": os.getloadavg()[0]}
    pairs: list[float] = []
    for n in sizes:
        folder = batch(n, source)
        figures: dict[int, list[dict]] = {1: [], 2: []}
        for k in range(runs if n == sizes[0] else 1):
            # the two settings alternate, in turns (1, 2), (2, 1), …: a drift of the host's speed over
            # the runs falls on both alike, not on whichever ran second
            for jobs in (1, 2) if k % 2 == 0 else (2, 1):
                figures[jobs].append(run(folder, jobs))
            if n == sizes[0]:
                pairs.append(figures[1][-1]["wall_s"] / figures[2][-1]["wall_s"])
        for jobs in (1, 2):
            out[f"batch_{n}_jobs_{jobs}"] = m = _median(figures[jobs])
            log(f"{n} stagings, --jobs {jobs}: {m} (load {os.getloadavg()[0]:.2f})")
    first = sizes[0]
    out["jobs_speedup"] = round(out[f"batch_{first}_jobs_1"]["wall_s"] / out[f"batch_{first}_jobs_2"]["wall_s"], 2)
    out["jobs_speedup_pairs"] = [round(r, 2) for r in pairs]  # each turn's own ratio, beside the medians'
    for n in sizes:
        key = f"peak_mb_batch_{n // 1000}k" if n % 1000 == 0 else f"peak_mb_batch_{n}"
        out[key] = max(out[f"batch_{n}_jobs_{j}"]["peak_mb"] for j in (1, 2))
    out["load_after"] = os.getloadavg()[0]
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--sizes", default="1000,10000", help="comma-separated batch sizes (the first is timed RUNS times)")
    ap.add_argument("--source", choices=("bundled", "generated"), default="bundled")
    args = ap.parse_args()
    sizes = tuple(int(s) for s in args.sizes.split(","))
    print(json.dumps(measure(args.runs, sizes, args.source, log=lambda m: print(m, file=sys.stderr))))


if __name__ == "__main__":
    main()
