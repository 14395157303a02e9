"""Text coverage: what checks each clause of the text?

The text (line breaks removed) is split into clauses at 。；！？ (a quoted speech stays inside
its clause). Each clause is reported by the strongest thing that checks it, in this order:

  - enforced: an encoded rule quotes words that lie in it, or a machine edge that moves its
    instance to another state (an edge from a state to itself only permits an act: it does not
    count), or the scoring audit (constraints/scoring.py CITED);
  - descriptive: `constraints/descriptive.toml` marks it, with the reason it says nothing a
    staging could break (a title, a measure of an implement, a definition, a permission): there
    is nothing to enforce, whether or not the libretto enacts it;
  - staged: nothing enforces it, but the libretto (domain/libretto/text/) enacts it: the clause
    has events under it in the libretto's performance of some bundled option set (the canonical
    `Options()` and each entry of traces/variants/variants.toml);
  - unaccounted: none of these. The libretto's `not enacted` reasons are kept with the clause.

A rule that is deferred or descriptive, or an edge from a state to itself, still *quotes* the
clause (`cited`), which the worklist shows: it is where encoding would start. The share that
counts is `percent_enforced`: enforced clauses out of the normative ones (all but the descriptive),
so that enacting a clause in the libretto never lowers it.
"""

from __future__ import annotations

import re
import tomllib
from bisect import bisect_right
from collections.abc import Iterable, Sequence
from dataclasses import field
from functools import cache
from operator import attrgetter
from pathlib import Path
from typing import Any

from xiangshe.constraints.rulebook import Rule
from xiangshe.domain.bundled import MANIFEST
from xiangshe.domain.dataclass import dataclass
from xiangshe.domain.errors import RulebookError
from xiangshe.domain.text import TEXT, Citation, SourceText
from xiangshe.fsm.table import Edge, Table

DESCRIPTIVE_PATH = Path(__file__).with_name("descriptive.toml")
VARIANTS_PATH = MANIFEST
CATEGORIES = ("enforced", "descriptive", "staged", "unaccounted")  # strongest first
_END = "。；！？ "


@dataclass(frozen=True)
class Quote:
    """A rule, a machine edge or the scoring audit quoting a clause, and whether that checks it."""

    label: str  # "rule ID", "machine 侯 张侯: 半张→半张", "the scoring audit"
    enforces: bool
    why_not: str | None = None  # when it does not: "deferred", "descriptive", "self-loop"


@dataclass
class Clause:
    index: int
    start: int
    end: int
    text: str
    line: int
    quotes: list[Quote] = field(default_factory=list)
    staged_in: list[str] = field(default_factory=list)  # option sets whose performance enacts it
    events: int = 0  # its events, over those performances
    not_enacted: list[str] = field(default_factory=list)  # the libretto's reasons
    descriptive: str | None = None

    @property
    def cited(self) -> list[str]:
        """Everything that quotes it, whether or not that checks it."""
        return sorted({q.label for q in self.quotes})

    @property
    def enforced_by(self) -> list[str]:
        return sorted({q.label for q in self.quotes if q.enforces})

    @property
    def category(self) -> str:
        if self.enforced_by:
            return "enforced"
        if self.descriptive:
            return "descriptive"
        return "staged" if self.staged_in else "unaccounted"

    @property
    def accounted(self) -> bool:
        return self.category != "unaccounted"


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
        if (
            ch in "。；！？"
            and depth == 0
            or i == len(flat) - 1
            or (ch == "”" and depth == 0 and i + 1 < len(flat) and flat[i + 1] not in "。；！？，")
        ):
            end = i + 1
            body = flat[start:end].strip()
            if body.strip("。；！？ "):
                out.append(Clause(len(out), start, end, body, text._line_of[start]))
            start = end
    return out


@cache
def _occurrences(text: SourceText, quote: str) -> tuple[tuple[int, int], ...]:
    """Every (start, end) of `quote` in the flat text (the same quotes recur in every performance)."""
    return tuple((m.start(), m.end()) for m in re.finditer(re.escape(quote), text.flat))


def _spans(text: SourceText, quote: str, line: int | None, last: int | None = None) -> list[tuple[int, int]]:
    """Where `quote` lies in the flat text: the occurrence at `line` (…`last`), or all of them.
    A short quote must lie on the cited lines; a longer one may start up to two lines away."""
    found = list(_occurrences(text, quote))
    if line is None:
        return found
    slack = 0 if len(quote) < 3 else 2
    hi = last if last is not None else line
    near = [s for s in found if line - slack <= text._line_of[s[0]] <= hi + slack]
    # the occurrence on the cited lines, else the nearest one
    near.sort(
        key=lambda s: (
            0
            if line <= text._line_of[s[0]] <= hi
            else min(abs(text._line_of[s[0]] - line), abs(text._line_of[s[0]] - hi)),
            s[0],
        )
    )
    return near[:1]


def _overlapping(cls: Sequence[Clause], spans: Iterable[tuple[int, int]]) -> Iterable[Clause]:
    """The clauses each span overlaps (the clauses tile the text in order: a binary search)."""
    for a, b in spans:
        i = bisect_right(cls, a, key=attrgetter("end"))
        while i < len(cls) and cls[i].start < b:
            yield cls[i]
            i += 1


# -- the libretto --------------------------------------------------------------------------------


def option_sets(path: Path = VARIANTS_PATH) -> list[tuple[str, dict[str, Any]]]:
    """The bundled option sets: the canonical ceremony's (`Options()`) and each variant's."""
    out: list[tuple[str, dict[str, Any]]] = [("canonical", {})]
    for name, spec in tomllib.loads(path.read_text(encoding="utf-8")).items():
        spec = {k: v for k, v in spec.items() if k != "title"}
        if "outcome" in spec:
            spec["outcome"] = tuple(spec["outcome"])
        if "arrows" in spec:
            spec["arrows"] = {k: tuple(v) for k, v in spec["arrows"].items()}
        out.append((name, spec))
    return out


def performances(sets: Sequence[tuple[str, dict[str, Any]]] | None = None) -> list[tuple[str, list[Any]]]:
    """The libretto performed for each option set (default: the bundled ones): (name, its clauses)."""
    if sets is None:
        return _bundled()
    from xiangshe.domain.libretto import Options, performance

    return [(name, performance(Options(**spec)).clauses) for name, spec in sets]


@cache
def _bundled() -> list[tuple[str, list[Any]]]:
    return performances(option_sets())


def _libretto_span(cite: Citation, cursor: int) -> tuple[int, int] | None:
    """Where a libretto clause's citation lies: its quote at its line (the first at or after the
    clause before, as the libretto locates them)."""
    found = _occurrences(TEXT, cite.quote)
    at_line = [s for s in found if TEXT._line_of[s[0]] == cite.line] or [
        s for s in found if TEXT._line_of[s[0]] <= cite.line <= TEXT._line_of[s[1] - 1]
    ]
    return next((s for s in at_line if s[0] >= cursor), at_line[0] if at_line else None)


# -- descriptive clauses -------------------------------------------------------------------------


def _bare(s: str) -> str:
    return s.strip().rstrip(_END).strip()


def load_descriptive(path: Path = DESCRIPTIVE_PATH, cls: Sequence[Clause] | None = None) -> list[tuple[int, str]]:
    """The clauses `descriptive.toml` marks, as (clause index, reason). A mark quotes one whole
    clause (its closing 。；！？ may be left out); `line` picks it when the words repeat."""
    if not path.exists():
        return []
    cls = cls if cls is not None else clauses()
    data = tomllib.loads(path.read_text(encoding="utf-8"))
    out = []
    for item in data.get("clause", []):
        quote, line = item.get("quote", ""), item.get("line")
        if not item.get("reason"):
            raise RulebookError(str(path), None, f"「{quote}」 needs a reason")
        same = [c for c in cls if _bare(c.text) == _bare(quote) and (line is None or c.line == line)]
        if len(same) != 1:
            near = [c.text for c in _overlapping(cls, _spans(TEXT, _bare(quote), line)) if _bare(quote)]
            why = (
                f"occurs as a clause at lines {', '.join(str(c.line) for c in same)}: add line = N"
                if same
                else "is not a whole clause of the text" + (f" (it lies in 「{'」「'.join(near)}」)" if near else "")
            )
            raise RulebookError(str(path), None, f"「{quote}」 {why}")
        out.append((same[0].index, item["reason"]))
    return out


# -- the measure ---------------------------------------------------------------------------------


@dataclass
class Coverage:
    clauses: list[Clause]
    option_sets: list[str] = field(default_factory=list)

    @property
    def worklist(self) -> list[Clause]:
        """The normative clauses nothing enforces: staged only, or unaccounted; in the text's order."""
        return [c for c in self.clauses if c.category in ("staged", "unaccounted")]

    def totals(self) -> dict[str, Any]:
        n = len(self.clauses)
        count = {k: sum(c.category == k for c in self.clauses) for k in CATEGORIES}
        normative = n - count["descriptive"]
        return {
            "clauses": n,
            # the keys of the first version (DESIGN.md's contract), in today's meaning
            "enacted": sum(bool(c.staged_in) for c in self.clauses),
            "cited": sum(bool(c.quotes) for c in self.clauses),
            "descriptive": count["descriptive"],
            "uncovered": count["unaccounted"],
            "percent_accounted": round(100 * (n - count["unaccounted"]) / n, 2) if n else 100.0,
            # what checks the clauses
            "normative": normative,
            "enforced": count["enforced"],
            "staged_only": count["staged"],
            "unaccounted": count["unaccounted"],
            "percent_enforced": round(100 * count["enforced"] / normative, 2) if normative else 100.0,
            "option_sets": len(self.option_sets),
        }


def _edge_quote(t: Table, e: Edge) -> Quote:
    loop = e.source == e.dest
    return Quote(f"machine {t.name} {e.act}: {e.source}→{e.dest}", not loop, "self-loop" if loop else None)


def coverage(
    rules: Sequence[Rule],
    tables: Sequence[Table],
    performed: Sequence[tuple[str, list[Any]]] | None = None,
    audit: Sequence[tuple[str, int | None]] | None = None,
    descriptive: Path = DESCRIPTIVE_PATH,
) -> Coverage:
    """Measure the text's clauses against the rules, the machines, the scoring audit (default:
    scoring.CITED) and the libretto's performances (default: every bundled option set)."""
    if audit is None:
        from xiangshe.constraints.scoring import CITED

        audit = CITED
    cls = clauses()
    for r in rules:
        q = Quote(f"rule {r.id}", r.status == "encoded", None if r.status == "encoded" else r.status)
        for cite in r.citations:
            for c in _overlapping(cls, _spans(TEXT, cite.quote, cite.line)):
                c.quotes.append(q)
    for t in tables:
        for e in t.edges:
            for c in _overlapping(cls, _spans(TEXT, e.cite.quote, e.cite.line)):
                c.quotes.append(_edge_quote(t, e))
    for quote, line in audit:
        for c in _overlapping(cls, _spans(TEXT, quote, line)):
            c.quotes.append(Quote("the scoring audit", True))
    performed = performances() if performed is None else performed
    for name, libretto in performed:
        cursor = 0
        for lc in libretto:
            span = _libretto_span(lc.cite, cursor)
            if span is None:
                continue
            cursor = span[0]
            for c in _overlapping(cls, [span]):
                if lc.events:
                    c.events += lc.events
                    if name not in c.staged_in:
                        c.staged_in.append(name)
                if lc.reason and lc.reason not in c.not_enacted:
                    c.not_enacted.append(lc.reason)
    for index, reason in load_descriptive(descriptive, cls):
        cls[index].descriptive = reason
    return Coverage(cls, [name for name, _ in performed])


def detail(c: Clause) -> dict[str, Any]:
    """A clause in the JSON of `coverage` (clauses_detail, worklist)."""
    return {
        "index": c.index,
        "line": c.line,
        "text": c.text,
        "category": c.category,
        "enacted": c.events,
        "staged_in": c.staged_in,
        "cited": c.cited,
        "enforced_by": c.enforced_by,
        "quoted_without_enforcing": sorted({f"{q.label} ({q.why_not})" for q in c.quotes if not q.enforces}),
        "not_enacted": c.not_enacted,
        "descriptive": c.descriptive,
    }


def document(cov: Coverage) -> dict[str, Any]:
    """The JSON of `coverage --format json` (schemas/coverage.schema.json)."""
    return cov.totals() | {
        "option_set_names": cov.option_sets,
        "worklist": [detail(c) for c in cov.worklist],
        "clauses_detail": [detail(c) for c in cov.clauses],
    }
