"""Benchmark: the shortest counterexample of every encoded rule (targets: median ≤ 1 s, none over 10 s).

Each counterexample is minimised and replayed by the Python checker, which must report exactly the
rule. Usage: python benchmarks/counterexamples.py [DEPTH] [RULE …]; prints a line per rule and one
JSON object on its last line.
"""

from __future__ import annotations

import json
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from xiangshe.constraints.rulebook import active_rules  # noqa: E402
from xiangshe.constraints.search import Disagreement, Exhausted, Refuted, breaks_only, minimise, refute  # noqa: E402
from xiangshe.domain.parse import parse_lines  # noqa: E402


def main(argv: list[str]) -> None:
    depth = int(argv[0]) if argv else 8
    only = set(argv[1:])
    rules = active_rules()
    times, outcomes = [], {"found": 0, "none": 0, "unknown": 0, "unconfirmed": 0}
    for rule in rules:
        if not rule.encoded or (only and rule.id not in only):
            continue
        start = time.perf_counter()
        out = refute(rule, rules, depth)
        if isinstance(out, Refuted):
            try:
                text = minimise(out.text, rule, rules)
            except Disagreement:
                kind = "unconfirmed"
            else:
                kind = "found" if breaks_only(parse_lines(text, "cex"), rule, rules, None) else "unconfirmed"
        else:
            kind = "none" if isinstance(out, Exhausted) else "unknown"
        took = time.perf_counter() - start
        times.append(took)
        outcomes[kind] += 1
        print(f"{rule.id:<44} {kind:<10} {getattr(out, 'steps', '') or '':>3} {took:7.2f}s", flush=True)
    print(
        json.dumps(
            {
                "rules": len(times),
                "depth": depth,
                **outcomes,
                "median_s": round(statistics.median(times), 2),
                "max_s": round(max(times), 2),
                "over_10s": sum(t > 10 for t in times),
                "total_s": round(sum(times), 1),
            }
        )
    )


if __name__ == "__main__":
    main(sys.argv[1:])
