"""How long `next` and `complete` take on prefixes of the canonical ceremony (issue 16, point 2).

Usage: python benchmarks/frontier.py [--runs R]   (with the package installed: pip install -e .)

In one process (the libretto's templates compiled and the rulebook loaded before the clock), for
prefixes of 500, 2000 and 3500 lines: the median wall time of `next_steps` (which checks each
person's next event against the rules) and of `complete` to the end of the phase and of the
ceremony. Prints one JSON object. A figure of a loaded machine is not a figure of a quiet one:
report `uptime` beside it.
"""

from __future__ import annotations

import json
import statistics
import sys
import time


def main(runs: int = 3) -> dict:
    from xiangshe import CANONICAL
    from xiangshe.constraints.frontier import align, complete, next_steps
    from xiangshe.constraints.rulebook import active_rules
    from xiangshe.domain.parse import parse_lines

    lines = CANONICAL.read_text(encoding="utf-8").splitlines()
    rules = active_rules()
    align(parse_lines("\n".join(lines[:200]) + "\n", "warm.trace"))  # templates compiled, text loaded
    out: dict[str, float] = {}
    for n in (500, 2000, 3500):
        trace = parse_lines("\n".join(lines[:n]) + "\n", f"p{n}.trace")
        for name, call in (
            ("next", lambda t=trace: next_steps(t, rules)),
            ("complete_phase", lambda t=trace: complete(t, rules, None, "phase")),
            ("complete_end", lambda t=trace: complete(t, rules, None, "end")),
        ):
            times = []
            for _ in range(runs):
                t0 = time.perf_counter()
                call()
                times.append(time.perf_counter() - t0)
            out[f"{name}_{n}_s"] = round(statistics.median(times), 3)
    return out


if __name__ == "__main__":
    runs = int(sys.argv[sys.argv.index("--runs") + 1]) if "--runs" in sys.argv else 3
    print(json.dumps(main(runs)))
