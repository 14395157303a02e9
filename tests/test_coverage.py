"""Text coverage: the clause split, and the committed share accounted for."""

from __future__ import annotations

import json
from pathlib import Path

from xiangshe.constraints.coverage import clauses, coverage
from xiangshe.constraints.rulebook import rulebook
from xiangshe.domain.parse import parse_file
from xiangshe.domain.text import TEXT
from xiangshe.fsm.table import tables

ROOT = Path(__file__).resolve().parents[1]
FLOOR = json.loads((ROOT / "tests" / "coverage_floor.json").read_text(encoding="utf-8"))


def test_clauses_tile_the_text() -> None:
    cls = clauses()
    assert cls[0].text == "乡射礼第五"
    assert "".join(c.text for c in cls).replace(" ", "") == TEXT.flat.replace(" ", "")
    speech = next(c for c in cls if "不贯不释" in c.text)
    assert speech.text.endswith("“不贯不释！”")          # a quoted speech stays in its clause


def test_share_accounted_for_does_not_drop_below_the_committed_figure() -> None:
    stagings = [ROOT / "traces" / "canonical.trace", *sorted((ROOT / "traces" / "variants").glob("*.trace"))]
    cov = coverage([parse_file(p) for p in stagings], rulebook(), tables())
    totals = cov.totals()
    assert totals["percent_accounted"] >= FLOOR["percent_accounted"], \
        [c.text for c in cov.clauses if not c.accounted][:20]
    assert totals["clauses"] == totals["uncovered"] + sum(c.accounted for c in cov.clauses)
