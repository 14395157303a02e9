"""A batch of generated ceremonies for the throughput benchmark: valid stagings and mutated copies.

The valid stagings come from `domain.staging.generate` over a grid of options (众宾, 大夫, 诸公, who
shoots, the outcomes, the arrows' seed). Each mutated copy takes one of them and applies 1–3
mutations to its events — delete an event, swap two neighbouring events, duplicate an event, or
substitute an event by a copy of another event of the same ceremony — with a seeded random
generator, so the batch is the same from run to run. Only event records are touched (the cast,
pairs and phase markers stay), so every file is well-formed input; most mutants break a machine or
a rule, some do not.

Files are JSON Lines, cached under `benchmarks/.cache/` (git-ignored) by batch size.

Usage: python benchmarks/gen_batch.py [MIN_EVENTS]      (prints the batch directory)
"""

from __future__ import annotations

import itertools
import json
import random
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from xiangshe.domain.libretto import Options, generate  # noqa: E402
from xiangshe.domain.parse import parse_lines, to_jsonl  # noqa: E402

CACHE = ROOT / "benchmarks" / ".cache"
MUTATIONS = ("delete", "swap", "duplicate", "substitute")
VERSION = 1  # bump when the construction changes, so that old caches are not reused


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
        else:
            lines[i] = lines[rng.choice(events)]
        done.append(f"{kind}@{i + 1}")
    return "\n".join(lines) + "\n", done


def count_events(text: str) -> int:
    return sum(1 for line in text.splitlines() if line.startswith('{"actor"'))


def build(min_events: int, seed: int = 6, log=lambda _msg: None) -> Path:
    """The batch directory for at least `min_events` events (built once, then reused)."""
    folder = CACHE / f"batch-v{VERSION}-{min_events}-{seed}"
    manifest = folder / "manifest.json"
    if manifest.exists():
        return folder
    folder.mkdir(parents=True, exist_ok=True)
    rng = random.Random(seed)
    grid = option_grid()
    rng.shuffle(grid)
    entries, total, k = [], 0, 0
    valid: list[str] = []
    while total < min_events:
        if k % 3 == 0 and len(valid) < len(grid):  # one valid staging, then two mutants
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
        json.dumps({"events": total, "traces": entries}, ensure_ascii=False, indent=1), encoding="utf-8"
    )
    return folder


def batch_files(folder: Path) -> list[Path]:
    data = json.loads((folder / "manifest.json").read_text(encoding="utf-8"))
    return [folder / e["file"] for e in data["traces"]]


if __name__ == "__main__":
    print(build(int(sys.argv[1]) if len(sys.argv) > 1 else 100_000, log=lambda m: print(m, file=sys.stderr)))
