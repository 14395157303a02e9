"""Text coverage: is every clause of the text accounted for?

The text (line breaks removed) is split into clauses at 。；！？ (a quoted speech stays inside
its clause). A clause is
  - enacted: a bundled staging has an event whose cited words (`# L14 主人坐取爵于上篚`) lie in it;
  - cited: a rule (of any status) or a machine edge quotes words that lie in it;
  - descriptive: `constraints/descriptive.toml` marks it, with the reason it needs no event or rule;
and uncovered otherwise. A clause may be several of these at once.
"""

from __future__ import annotations

import re
import tomllib
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from xiangshe.constraints.rulebook import Rule
from xiangshe.domain.errors import RulebookError
from xiangshe.domain.text import TEXT, Citation, SourceText
from xiangshe.domain.trace import Trace
from xiangshe.fsm.table import Table

DESCRIPTIVE_PATH = Path(__file__).with_name("descriptive.toml")
_WORDS = re.compile(r"#\s*L(\d+)(?:[–-](\d+))?\s+(\S+)")
_CJK_RUN = re.compile(r"[\u4e00-\u9fff《》·“”‘’、，：]+")


@dataclass
class Clause:
    index: int
    start: int
    end: int
    text: str
    line: int
    enacted: list[str] = field(default_factory=list)      # trace:line of events
    cited: list[str] = field(default_factory=list)        # rule ids and machine edges
    descriptive: str | None = None

    @property
    def accounted(self) -> bool:
        return bool(self.enacted or self.cited or self.descriptive)


def clauses(text: SourceText = TEXT) -> list[Clause]:
    """The clauses of the text; the title (line 1) is a clause of its own."""
    title = text.lines[0]
    out = [Clause(0, 0, len(title), title, 1)]
    flat = text.flat
    start, depth = len(title), 0
    for i, ch in enumerate(flat):
        if i < start:
            continue
        if ch == "“":
            depth += 1
        elif ch == "”":
            depth = max(0, depth - 1)
        if ch in "。；！？" and depth == 0 or i == len(flat) - 1 or (ch == "”" and depth == 0
                                                                   and i + 1 < len(flat)
                                                                   and flat[i + 1] not in "。；！？，"):
            end = i + 1
            body = flat[start:end].strip()
            if body.strip("。；！？ "):
                out.append(Clause(len(out), start, end, body, text._line_of[start]))
            start = end
    return out


def _spans(text: SourceText, quote: str, line: int | None, last: int | None = None
           ) -> list[tuple[int, int]]:
    """Where `quote` lies in the flat text: the occurrence at `line` (…`last`), or all of them.
    A short quote must lie on the cited lines; a longer one may start up to two lines away."""
    found = [(m.start(), m.end()) for m in re.finditer(re.escape(quote), text.flat)]
    if line is None:
        return found
    slack = 0 if len(quote) < 3 else 2
    hi = last if last is not None else line
    near = [s for s in found if line - slack <= text._line_of[s[0]] <= hi + slack]
    # the occurrence on the cited lines, else the nearest one
    near.sort(key=lambda s: (0 if line <= text._line_of[s[0]] <= hi else
                             min(abs(text._line_of[s[0]] - line), abs(text._line_of[s[0]] - hi)), s[0]))
    return near[:1]


def _mark(cls: Sequence[Clause], spans: Iterable[tuple[int, int]], attr: str, label: str) -> None:
    for a, b in spans:
        for c in cls:
            if c.start < b and a < c.end:
                getattr(c, attr).append(label)


def _event_words(raw: str) -> tuple[int, int, list[str]] | None:
    """The text lines and the verbatim words an event line's comment cites, if any."""
    m = _WORDS.search(raw)
    if not m:
        return None
    first = int(m.group(1))
    last = int(m.group(2)) if m.group(2) else first
    cited = re.sub(r"\([^)]*\)", "", raw[m.start(3):].split("#", 1)[0])   # a (note), a further
    # comment (`# xiangshe: ignore[…] reason`) is not a quotation
    return first, last, _CJK_RUN.findall(cited)


def load_descriptive(path: Path = DESCRIPTIVE_PATH) -> list[tuple[Citation, str]]:
    if not path.exists():
        return []
    data = tomllib.loads(path.read_text(encoding="utf-8"))
    out = []
    for item in data.get("clause", []):
        if not item.get("reason"):
            raise RulebookError(str(path), None, f"「{item.get('quote')}」 needs a reason")
        out.append((TEXT.cite(item["quote"], item.get("line"), where=str(path)), item["reason"]))
    return out


@dataclass
class Coverage:
    clauses: list[Clause]
    unlocated: int                     # events whose cited words could not be found in the text

    def totals(self) -> dict:
        n = len(self.clauses)
        acc = sum(c.accounted for c in self.clauses)
        return {"clauses": n,
                "enacted": sum(bool(c.enacted) for c in self.clauses),
                "cited": sum(bool(c.cited) for c in self.clauses),
                "descriptive": sum(bool(c.descriptive) for c in self.clauses),
                "uncovered": n - acc,
                "percent_accounted": round(100 * acc / n, 2) if n else 100.0,
                "unlocated_events": self.unlocated}


def coverage(traces: Sequence[Trace], rules: Sequence[Rule], tables: Sequence[Table]) -> Coverage:
    cls = clauses()
    unlocated = 0
    for trace in traces:
        for e in trace.events:
            found = _event_words(e.text)
            if found is None:
                unlocated += 1
                continue
            first, last, words = found
            spans = [s for w in words for s in _spans(TEXT, w, first, last)]
            if not spans:
                unlocated += 1
            _mark(cls, spans, "enacted", f"{trace.path}:{e.line}")
    for r in rules:
        for c in r.citations:
            _mark(cls, _spans(TEXT, c.quote, c.line), "cited", f"rule {r.id}")
    for t in tables:
        for e in t.edges:
            _mark(cls, _spans(TEXT, e.cite.quote, e.cite.line), "cited",
                  f"machine {t.name} {e.act}: {e.source}→{e.dest}")
    from xiangshe.constraints.scoring import CITED
    for quote, line in CITED:
        _mark(cls, _spans(TEXT, quote, line), "cited", "the scoring audit")
    for cite, reason in load_descriptive():
        for a, b in _spans(TEXT, cite.quote, cite.line):
            for c in cls:
                if c.start < b and a < c.end and c.descriptive is None:
                    c.descriptive = reason
    return Coverage(cls, unlocated)
