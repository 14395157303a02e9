"""Repair a failing staging: the smallest edit after which every machine and every rule holds.

An edit inserts, deletes, moves or changes one event (its actor, object, place or any attribute);
a block of events moved together is one move. The search is guided, not blind:

- **the libretto** (domain/libretto): the canonical performance for the staging's options (its cast
  tells how many 大夫, 公 and 众宾 take part) is aligned with the staging (difflib, on the phase
  and the event); near each finding, the events the libretto has and the staging lacks are the
  insertions, the libretto's version of an event the staging wrote otherwise is the change, and a
  block the staging has elsewhere than the libretto is the move. Each such step quotes the clause
  the libretto performs there;
- **the machines** (fsm/tables): where a machine refused an act, the acts that take its instance
  from the state it was in to one where the act is allowed (a path of its edges) are inserted,
  from the libretto where it has them, else as the edge's act by the refused event's actor;
- **the findings themselves**: the faulty event deleted, or moved a few steps earlier or later.

Every candidate is re-checked with the real checker (`check_trace`): only a staging that then
holds is a repair. The smallest are those with the fewest edits; among equally small ones the
order is deterministic (libretto-backed first, then by line). The work is bounded by the number of
edits (`max_edits`), of candidates checked (`budget`) and by time (`seconds`); a search that finds
nothing within them says so (`Outcome.status == "none"`, never a claim that no repair exists).

The parts, one job each: repair_libretto.py (the libretto's performance the staging is aligned
with), repair_rows.py (the staging as rows, and the row operations of an edit), repair_edits.py (the
edits, and the candidates not read from the alignment), repair_blocks.py (the edits of several events
that are one change: a libretto run, a block moved to the libretto's place, a person's errand, persons
withdrawn from a round), repair_propose.py (the candidates of one state, near each finding, and their
re-check); this module: the search, its bounds and its order.

The search works on the staging as line-format rows: a `.trace` file's own lines (comments kept),
or the records of a JSON Lines, JSON or YAML file written as lines (domain/parse.py `to_lines`);
`text_of` gives the repaired staging in the input's own format.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import field

from xiangshe.constraints.check import Finding, causes, check_trace
from xiangshe.constraints.repair_edits import Edit
from xiangshe.constraints.repair_libretto import _label, options_of, reference
from xiangshe.constraints.repair_propose import Searcher, State
from xiangshe.constraints.repair_rows import Row, _parse, _text, rows_of
from xiangshe.constraints.rulebook import Rule
from xiangshe.domain.dataclass import dataclass
from xiangshe.domain.parse import to_jsonl
from xiangshe.domain.trace import Trace

__all__ = ["Edit", "Outcome", "Repair", "Row", "options_of", "reference", "repair"]

#: the one-edit stagings a second edit is tried on, at most (those that leave the fewest findings)
BEAM = 8


@dataclass(frozen=True)
class Repair:
    edits: tuple[Edit, ...]
    text: str  # the repaired staging, in the input's format
    events: int


@dataclass
class Outcome:
    """What the search found: `ok` (the staging holds already), `repaired` (repairs, smallest
    first), or `none` (nothing within the bound; `bound` says which was reached)."""

    status: str
    findings: tuple[Finding, ...]
    repairs: list[Repair] = field(default_factory=list)
    tried: int = 0
    seconds: float = 0.0
    max_edits: int = 2
    budget: int = 0
    time_budget: float = 0.0
    bound: str | None = None  # edits | candidates | time
    reference: str = ""  # the libretto's options the staging was aligned with
    readings: dict[str, str] = field(default_factory=dict)  # the contested readings checked under

    @property
    def exit_code(self) -> int:
        return {"ok": 0, "repaired": 1}.get(self.status, 3)


# -- the search -----------------------------------------------------------------------------------


def _repair_text(rows: Sequence[Row], fmt: str, trace: Trace) -> str:
    """The repaired staging in the input's format (`trace`: its own lines; records otherwise)."""
    text = _text(rows)
    if fmt == "trace":
        return text
    records = to_jsonl(trace)
    if fmt == "jsonl":
        return records
    items = [json.loads(line) for line in records.splitlines()]
    if fmt == "json":
        return json.dumps(items, ensure_ascii=False, indent=1) + "\n"
    import yaml

    return str(yaml.safe_dump(items, allow_unicode=True, sort_keys=False, default_flow_style=None))


def repair(
    trace: Trace,
    fmt: str = "trace",
    rules: Sequence[Rule] | None = None,
    readings: dict[str, str] | None = None,
    *,
    max_edits: int = 2,
    budget: int = 400,
    seconds: float = 60.0,
    keep: int = 5,
    reread: Callable[[str], Trace] | None = None,
) -> Outcome:
    """The smallest repairs of `trace` (read from a file of format `fmt`), at most `keep` of them.

    `reread` reads a repaired staging (default: the reader of `fmt`, domain/parse.py READERS): every
    repair shown has been read back from the text `-o` writes and re-checked."""
    start = time.perf_counter()
    from xiangshe.constraints.rulebook import active_rules

    rules = rules if rules is not None else active_rules(readings)
    first = check_trace(trace, rules, readings)
    outcome = Outcome(
        "ok" if first.ok else "none",
        first.findings,
        max_edits=max_edits,
        budget=budget,
        time_budget=seconds,
        reference=_label(options_of(trace)),
        readings=dict(readings or {}),
    )
    if first.ok:
        outcome.seconds = time.perf_counter() - start
        return outcome
    search = Searcher(rules, readings, trace.path)
    rows = rows_of(trace, fmt)
    parsed = _parse(rows, trace.path)
    if parsed is None:  # cannot happen for a staging that was read: its rows are what was read
        outcome.seconds = time.perf_counter() - start
        return outcome
    base = State(rows, (), parsed, check_trace(parsed, rules, readings))
    level = [base]
    found: dict[str, tuple[State, Trace]] = {}
    seen: set[str] = {_text(rows)}
    for size in range(1, max_edits + 1):
        scored: list[tuple[tuple[int, ...], State]] = []
        for state in level:
            for cand in search.candidates(state):
                if outcome.tried >= budget:
                    outcome.bound = "candidates"
                    break
                if time.perf_counter() - start > seconds:
                    outcome.bound = "time"
                    break
                text = _text(cand.rows)
                if text in seen:
                    continue
                seen.add(text)
                outcome.tried += 1
                checked = search.check(cand.rows)
                if checked is None:
                    continue
                new_trace, result = checked
                new = State(cand.rows, (*state.edits, cand.edit), new_trace, result)
                if result.ok:
                    found[text] = (new, new_trace)
                else:
                    roots = sum(1 for c in causes(result.findings) if c is None)
                    scored.append(((roots, len(result.findings), *cand.rank, len(scored)), new))
            if outcome.bound:
                break
        if found or outcome.bound:
            break
        before = sum(1 for c in causes(level[0].result.findings) if c is None) if size == 1 else None
        scored.sort(key=lambda s: s[0])
        level = []
        kinds: dict[str, int] = {}  # the best of each kind of edit: a beam of one kind alone misses the others
        for k, s in scored:
            kind = s.edits[-1].kind
            if (before is None or k[0] <= before) and kinds.get(kind, 0) < BEAM // 2 and len(level) < BEAM:
                kinds[kind] = kinds.get(kind, 0) + 1
                level.append(s)
        if not level:
            break
    if not found and outcome.bound is None:
        outcome.bound = "edits"
    if reread is None:
        from xiangshe.domain.parse import READERS

        reader = READERS[fmt]
        reread = lambda text: reader(text, trace.path)  # noqa: E731
    repairs: list[Repair] = []
    said: set[tuple[tuple[str, str, str], ...]] = set()
    for state, new_trace in sorted(found.values(), key=lambda s: _order(s[0].edits)):
        gist = tuple((e.kind, e.new, e.old) for e in state.edits)
        if gist in said:  # the same steps a line away: the first (nearest the libretto's place) is enough
            continue
        said.add(gist)
        text = _repair_text(state.rows, fmt, new_trace)
        verified = check_trace(reread(text), rules, readings)  # read back from what -o writes
        if verified.ok:
            repairs.append(Repair(state.edits, text, len(new_trace)))
        if len(repairs) >= keep:
            break
    outcome.repairs = repairs
    if repairs:
        outcome.status = "repaired"
        outcome.bound = "time" if outcome.bound == "time" else None  # cut by time: say so
    outcome.seconds = time.perf_counter() - start
    return outcome


def _order(edits: Iterable[Edit]) -> tuple[object, ...]:
    """Smallest first: fewer edits; then the libretto's own events and values, the machines' acts, the
    faulty event deleted or moved, and last another person put in an event's place; then by line."""
    es = list(edits)
    kinds = ("change", "rename", "insert", "move", "delete")
    return (
        len(es),
        sum(_preference(e) for e in es),
        sum(e.span for e in es),
        [(e.anchor or 0, kinds.index(e.kind), e.new, e.old) for e in es],
    )


def _preference(e: Edit) -> int:
    if e.kind == "change" and ("actor" in e.fields or "act" in e.fields):
        return 3
    return {"libretto": 0, "machine": 1}.get(e.source, 2)
