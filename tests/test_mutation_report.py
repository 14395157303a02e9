"""benchmarks/mutation.py's report: the deletions accepted, by the act deleted (what "ok" is said of)."""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "benchmarks"))

import mutation  # noqa: E402

from xiangshe.domain.parse import parse_file  # noqa: E402


def test_deletions_are_counted_by_the_act_deleted_and_merged() -> None:
    base = parse_file(mutation.CANONICAL, "traces/canonical.trace")
    acts = [base.events[i].act for i in range(3)]
    first = mutation.summarise([("delete", "delete@0", 0, ()), ("delete", "delete@1", 1, ("machine.爵",))], [])
    second = mutation.summarise([("delete", "delete@2", 2, ()), ("swap", "swap@2", 2, ())], [])
    assert first["deletions"] == {"0": True, "1": False} and second["deletions"] == {"2": True}
    merged = mutation.merge(
        [
            first | {k: 0 for k in ("ops", "stride", "jobs", "seconds", "checked")},
            second | {k: 0 for k in ("ops", "stride", "jobs", "seconds", "checked")},
        ]
    )
    assert merged["deletions"] == {"0": True, "1": False, "2": True}
    lines = mutation._deletions_by_act(merged["deletions"], base)
    assert "2 of 3 deletions checked are accepted" in "\n".join(lines)
    rows = [line for line in lines if line.startswith(f"| {acts[0]} |")]
    assert rows and f"line {base.events[0].line}:" in rows[0]
    assert mutation._deletions_by_act({}, base) == []
