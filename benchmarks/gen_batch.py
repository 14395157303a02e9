"""A batch of ceremonies for the throughput benchmark: the bundled stagings, generated stagings and
mutated copies.

The batch opens with the bundled stagings, as JSON Lines: the canonical ceremony, its variants and
the stagings of traces/violations/ that parse (each breaks the rule it is named after; most are
fragments), all of them or those of the rules a filter keeps (benchmarks/run.py keeps the rules of
its Declare model). The generated stagings come from `domain.staging.generate` over a grid of
options (众宾, 大夫, 诸公, who
shoots, the outcomes, the arrows' seed). Each mutated copy takes one of them and applies 1–3
mutations to its events — delete an event, swap two neighbouring events, duplicate an event,
substitute an event by a copy of another event of the same ceremony, or move an event to a later
place — and three in four also receive a fault event grafted from a violation staging (an event its
source marks `# FAULT`, put among the events of its phase, kept only if the result reads), with a
seeded random generator, so the batch is the same from run to run. Only event records are touched
(the cast, pairs and phase markers stay), so every file is well-formed input; most mutants break a
machine or a rule, some do not.

Files are JSON Lines, cached under `benchmarks/.cache/` (git-ignored) by batch size.

Usage: python benchmarks/gen_batch.py [MIN_EVENTS]      (prints the batch directory)
"""

from __future__ import annotations

import itertools
import json
import random
import sys
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from xiangshe.domain.libretto import Options, generate  # noqa: E402
from xiangshe.domain.parse import event_record, parse_lines, to_jsonl  # noqa: E402
from xiangshe.domain.trace import Trace  # noqa: E402

CACHE = ROOT / "benchmarks" / ".cache"
MUTATIONS = ("delete", "swap", "duplicate", "substitute", "move")
VERSION = 3  # bump when the construction changes, so that old caches are not reused


def option_grid() -> list[Options]:
    """Valid option sets, varied enough that the traces differ in length and content."""
    out = []
    for zhongbin, dafu, zhugong, bzs, outcome, seed in itertools.product(
        (3, 6, 12, 20, 30), (0, 1, 2, 4), (0, 1, 3), (True, False), (("右", "右"), ("左", "钧"), ("钧", "左")), (0, 1)
    ):
        pairs = min(5, (zhongbin - dafu) // 2)  # more pairs: more hits than tallies (箭筹八十)
        try:
            out.append(
                Options(
                    zhongbin=zhongbin,
                    dafu=dafu,
                    zhugong=zhugong,
                    bin_zhuren_shoot=bzs,
                    zhongbin_pairs=max(0, pairs),
                    outcome=outcome,
                    seed=seed,
                )
            )
        except ValueError:
            continue
    return out


def staging_jsonl(opts: Options) -> str:
    return to_jsonl(parse_lines(generate(opts), "<generated>"))


def mutate(text: str, rng: random.Random) -> tuple[str, list[str]]:
    """Apply 1–3 random mutations to the event records of a JSON Lines trace."""
    lines = text.splitlines()
    done = []
    for _ in range(rng.randint(1, 3)):
        events = [i for i, line in enumerate(lines) if line.startswith('{"actor"')]
        kind = rng.choice(MUTATIONS)
        i = rng.choice(events)
        if kind == "delete":
            del lines[i]
        elif kind == "swap":
            j = events[min(events.index(i) + 1, len(events) - 1)]
            lines[i], lines[j] = lines[j], lines[i]
        elif kind == "duplicate":
            lines.insert(i + 1, lines[i])
        elif kind == "substitute":
            lines[i] = lines[rng.choice(events)]
        else:  # move: the event taken out and put back after a later event
            j = rng.choice([k for k in events if k > i] or [i])
            lines.insert(j, lines.pop(i))
        done.append(f"{kind}@{i + 1}")
    return "\n".join(lines) + "\n", done


def count_events(text: str) -> int:
    return sum(1 for line in text.splitlines() if line.startswith('{"actor"'))


Keep = Callable[[str], bool]  # which violation stagings to take, by the rule they break (file stem)


def violation_rule(path: Path) -> str:
    """The rule a staging of traces/violations/ breaks: its file name (`wei-lv.2.trace` → wei-lv)."""
    return path.name.split(".")[0]


def bundled(keep: Keep | None = None) -> list[tuple[str, Trace]]:
    """(name, parsed staging) of the bundled stagings that parse: the canonical, the variants, and the
    violations whose rule `keep` accepts (all without `keep`)."""
    from xiangshe.domain.errors import InputError
    from xiangshe.domain.parse import TraceErrors, parse_file

    paths = [ROOT / "traces" / "canonical.trace", *sorted((ROOT / "traces" / "variants").glob("*.trace"))]
    paths += [
        p for p in sorted((ROOT / "traces" / "violations").glob("*.trace")) if keep is None or keep(violation_rule(p))
    ]
    out = []
    for path in paths:
        try:
            out.append((str(path.relative_to(ROOT)), parse_file(path, path.name)))
        except (TraceErrors, InputError):
            continue  # a staging kept to show a refusal of the reader
    return out


def faults(stagings: list[tuple[str, Trace]]) -> list[tuple[str, str]]:
    """(phase, JSON Lines record) of each event a violation staging marks `# FAULT` in its source."""
    out = []
    for name, trace in stagings:
        if not name.startswith("traces/violations/"):
            continue
        source = (ROOT / name).read_text(encoding="utf-8").splitlines()
        for e in trace.events:
            if e.phase and "FAULT" in source[e.line - 1]:
                out.append((e.phase, json.dumps(event_record(e), ensure_ascii=False)))
    return out


def graft(text: str, fault: tuple[str, str], rng: random.Random) -> str | None:
    """The staging with the fault event put among the events of its phase (None if the phase is not
    staged, or the result does not read: the fault names a person or thing the staging lacks)."""
    from xiangshe.domain.errors import InputError
    from xiangshe.domain.parse import TraceErrors, parse_jsonl

    phase, record = fault
    lines = text.splitlines()
    marker = json.dumps({"phase": phase}, ensure_ascii=False)
    if marker not in lines:
        return None
    start = lines.index(marker) + 1
    end = next((i for i in range(start, len(lines)) if not lines[i].startswith('{"actor"')), len(lines))
    lines.insert(rng.randint(start, end), record)
    out = "\n".join(lines) + "\n"
    try:
        parse_jsonl(out, "<graft>")
    except (TraceErrors, InputError):
        return None
    return out


def build(min_events: int, seed: int = 6, log=lambda _msg: None, keep: Keep | None = None, tag: str = "all") -> Path:
    """The batch directory: the bundled stagings (the violations `keep` accepts, under the name `tag`),
    then generated stagings and their mutants up to at least `min_events` generated events (built once,
    then reused). Three mutants in four also carry a fault event grafted from a violation staging."""
    folder = CACHE / f"batch-v{VERSION}-{min_events}-{seed}-{tag}"
    manifest = folder / "manifest.json"
    if manifest.exists():
        return folder
    folder.mkdir(parents=True, exist_ok=True)
    rng = random.Random(seed)
    grid = option_grid()
    rng.shuffle(grid)
    entries, total, k = [], 0, 0
    valid: list[str] = []
    stagings = bundled(keep)
    grafts = faults(stagings)
    for source, trace in stagings:
        text = to_jsonl(trace)
        name = f"{k:04d}.jsonl"
        (folder / name).write_text(text, encoding="utf-8")
        n = count_events(text)
        total += n
        entries.append({"file": name, "events": n, "bundled": source})
        k += 1
    start, total = k, 0  # `min_events` counts the generated events
    while total < min_events:
        if (k - start) % 3 == 0 and len(valid) < len(grid):  # one valid staging, then two mutants
            opts = grid[len(valid)]
            text = staging_jsonl(opts)
            valid.append(text)
            how = {
                "valid": True,
                "options": {
                    "zhongbin": opts.zhongbin,
                    "dafu": opts.dafu,
                    "zhugong": opts.zhugong,
                    "outcome": opts.outcome,
                    "bin_zhuren_shoot": opts.bin_zhuren_shoot,
                    "seed": opts.seed,
                },
            }
        else:
            text, done = mutate(rng.choice(valid), rng)
            if grafts and rng.random() < 0.75:
                fault = rng.choice(grafts)
                grafted = graft(text, fault, rng)
                if grafted is not None:
                    text = grafted
                    done.append(f"graft {fault[1]} @{fault[0]}")
            how = {"valid": False, "mutations": done}
        name = f"{k:04d}.jsonl"
        (folder / name).write_text(text, encoding="utf-8")
        n = count_events(text)
        total += n
        entries.append({"file": name, "events": n, **how})
        k += 1
        if k % 20 == 0:
            log(f"batch: {k} traces, {total} events")
    manifest.write_text(
        json.dumps({"events": sum(e["events"] for e in entries), "traces": entries}, ensure_ascii=False, indent=1),
        encoding="utf-8",
    )
    return folder


def batch_files(folder: Path) -> list[Path]:
    data = json.loads((folder / "manifest.json").read_text(encoding="utf-8"))
    return [folder / e["file"] for e in data["traces"]]


if __name__ == "__main__":
    print(build(int(sys.argv[1]) if len(sys.argv) > 1 else 100_000, log=lambda m: print(m, file=sys.stderr)))
