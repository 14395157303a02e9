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

The search works on the staging as line-format rows: a `.trace` file's own lines (comments kept),
or the records of a JSON Lines, JSON or YAML file written as lines (domain/parse.py `to_lines`);
`text_of` gives the repaired staging in the input's own format.
"""

from __future__ import annotations

import difflib
import json
import re
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from functools import cache

from xiangshe.constraints.check import Finding, Result, causes, check_trace
from xiangshe.constraints.rulebook import Rule
from xiangshe.domain.errors import TraceError
from xiangshe.domain.parse import TraceErrors, parse_lines, to_jsonl
from xiangshe.domain.text import TEXT, Citation
from xiangshe.domain.trace import Trace
from xiangshe.fsm.replay import Refusal, replay
from xiangshe.fsm.table import Table

#: how many events before and after a finding the search edits
WINDOW = 4
#: the insertions from the libretto tried for one finding, at most
INSERTS = 24
#: the one-edit stagings a second edit is tried on, at most (those that leave the fewest findings)
BEAM = 8
#: the libretto's answering events of earlier phases tried for one finding, at most
EARLIER = 4


@dataclass(frozen=True)
class Expected:
    """One event of the libretto's performance: its phase, its line-format text, the clause it enacts."""

    phase: str | None
    body: str
    key: tuple[str | None, str]
    cite: Citation | None
    act: str
    obj: str | None
    actor: str


@dataclass(frozen=True)
class Edit:
    """One step of a repair, on the staging as the search holds it (rows of the line format)."""

    kind: str  # insert | delete | move | change | rename (an object, in every event on it)
    anchor: int | None  # the input's line the step is placed by (after it: insert, move; at it: delete, change)
    where: str  # "after" | "before" | "at"
    new: str  # the event (line format) inserted, moved or written in place of the old one; "" for delete
    old: str  # the event deleted, moved or changed; "" for insert
    cite: Citation | None  # the text that asks for it
    source: str  # libretto | machine | rule: what proposed it
    span: int = 1  # events moved together (a block)
    fields: tuple[str, ...] = ()  # for a change: what changed (actor, act, object, at, face …)
    moved: tuple[int | None, int | None] = (None, None)  # for a move: the input's lines of the events moved
    after_new: str = ""  # for an insert right after an event an earlier step inserted: that event


@dataclass
class Row:
    text: str
    line: int | None  # the input's line it came from (None: inserted by the repair)


@dataclass
class State:
    rows: list[Row]
    edits: tuple[Edit, ...]
    trace: Trace
    result: Result


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


# -- the libretto's performance --------------------------------------------------------------


_NOTE = re.compile(r"\s*\([^()]*\)\s*$")
_WHERE = re.compile(r"L(\d+)(?:[–-](\d+))?\s*(.*)$")


def _clause(comment: str) -> tuple[int, int, list[str]] | None:
    """(first line, last line, quotes) of a libretto comment `L15–16 主人坐… (note)`; no quotes
    when it only names the lines (the events after the first of a clause)."""
    m = _WHERE.match(comment.strip())
    if not m:
        return None
    lo = int(m.group(1))
    hi = int(m.group(2) or lo)
    rest = m.group(3).strip()
    while True:
        cut = _NOTE.sub("", rest)
        if cut == rest:
            break
        rest = cut.strip()
    quotes = [q.strip() for q in rest.split(" … ") if q.strip() and not q.strip().startswith("(")]
    return lo, hi, quotes


def _cite(quote: str, lo: int, hi: int) -> Citation | None:
    """`quote` located by the program (domain/text.py) at its occurrence within lines lo–hi."""
    found = TEXT.occurrences(quote)
    if not found:
        return None
    first, last = min(found, key=lambda f: (not (lo <= f[0] <= hi), abs(f[0] - lo)))
    return TEXT.cite(quote, first)


@cache
def reference(dafu: int = 1, zhugong: int = 0, zhongbin: int = 6, taishi: bool = True) -> tuple[Expected, ...]:
    """The libretto performed for these options: each event with the clause it enacts (kept with the
    other derived artefacts, domain/cache.py: the key names the libretto's templates)."""
    from xiangshe.domain.cache import derived
    from xiangshe.domain.libretto.perform import LIBRETTO

    sources = [(p.name, p) for p in sorted(LIBRETTO.glob("*.j2"))]
    name = f"repair-reference-{dafu}-{zhugong}-{zhongbin}-{int(taishi)}"
    return derived(name, sources, lambda: _perform(dafu, zhugong, zhongbin, taishi))


@cache
def pairs(dafu: int = 1, zhugong: int = 0, zhongbin: int = 6, taishi: bool = True) -> dict[str, str]:
    """The libretto's pairs (耦) for these options, by name, as `pair` lines."""
    from xiangshe.domain.libretto import Cast, Options

    try:
        options = Options(dafu=dafu, zhugong=zhugong, zhongbin=zhongbin, taishi=taishi)
    except Exception:  # noqa: BLE001 — options the libretto refuses: the canonical cast
        options = Options()
    return {p.name: f"pair {p.name} 上射={p.upper} 下射={p.lower}" for p in Cast(options).pairs}


def _perform(dafu: int, zhugong: int, zhongbin: int, taishi: bool) -> tuple[Expected, ...]:
    from xiangshe.domain.libretto import Options, performance

    try:
        options = Options(dafu=dafu, zhugong=zhugong, zhongbin=zhongbin, taishi=taishi)
    except Exception:  # noqa: BLE001 — options the libretto refuses: the canonical performance
        options = Options()
    out: list[Expected] = []
    phase: str | None = None
    cite: Citation | None = None
    for raw in performance(options).lines:
        body, _, comment = raw.partition("#")
        body = " ".join(body.split())
        if not body:
            continue
        if body.startswith("phase "):
            phase = body.split()[1]
            continue
        clause = _clause(comment)
        if clause is not None and clause[2]:
            lo, hi, quotes = clause
            cite = _cite(quotes[0], lo, hi) or cite
        words = body.split()
        plain = [w for w in words if "=" not in w]
        obj = plain[2] if len(plain) > 2 else None
        out.append(Expected(phase, body, (phase, body), cite, plain[1], obj, plain[0]))
    return tuple(out)


def options_of(trace: Trace) -> tuple[int, int, int, bool]:
    """The libretto's options a staging's cast suggests: its 大夫, 公 and 众宾, a 大师 among the 工
    (a fragment is aligned with the canonical performance)."""
    if trace.fragment is not None:
        return (1, 0, 6, True)
    roles = [p.role for p in trace.cast.persons.values()]
    zhongbin = max(3, roles.count("众宾")) if "众宾" in roles else 6
    return (roles.count("大夫"), roles.count("公"), zhongbin, "大师" in roles or "工" not in roles)


# -- rows: the staging being edited ------------------------------------------------------------


def rows_of(trace: Trace, fmt: str) -> list[Row]:
    """The staging as line-format rows: a `.trace` file's own lines, else its records as lines."""
    if fmt == "trace":
        return [Row(t, n) for n, t in enumerate(trace.source_lines, 1)]
    from xiangshe.domain.parse import to_lines

    lines = to_lines(trace).splitlines()
    parsed = parse_lines("\n".join(lines) + "\n", trace.path)
    at = {e.line: trace[e.index].line for e in parsed.events}
    return [Row(t, at.get(n)) for n, t in enumerate(lines, 1)]


def _text(rows: Sequence[Row]) -> str:
    return "".join(r.text + "\n" for r in rows)


def _parse(rows: Sequence[Row], path: str) -> Trace | None:
    try:
        return parse_lines(_text(rows), path)
    except (TraceErrors, TraceError):
        return None


def body_of(row: str) -> str:
    return " ".join(row.split("#", 1)[0].split())


# -- candidates ---------------------------------------------------------------------------------


@dataclass
class Candidate:
    rows: list[Row]
    edit: Edit
    rank: tuple[int, int]  # (how it was proposed: 0 libretto, 1 machine, 2 local; distance)


def _anchor(rows: Sequence[Row], at: int) -> int | None:
    """The input's line of the nearest row at or before `at` that came from the input."""
    for i in range(min(at, len(rows) - 1), -1, -1):
        if rows[i].line is not None:
            return rows[i].line
    return None


def _after_new(rows: Sequence[Row], at: int) -> str:
    """The event a repair inserted that the row at `at` is (or follows, past a new phase line); "" if
    the nearest event row there came from the input."""
    for i in range(min(at, len(rows) - 1), -1, -1):
        if rows[i].line is not None:
            return ""
        if not rows[i].text.startswith("phase "):
            return body_of(rows[i].text)
    return ""


def _insert_rows(
    trace: Trace, rows: list[Row], index: int, phase: str | None, body: str
) -> tuple[list[Row], int] | None:
    """Rows with `body` inserted before event `index` (len: at the end) in `phase`; and the row
    index it went to. None where the phase does not fit between its neighbours."""
    events = trace.events
    prev = events[index - 1] if index > 0 else None
    nxt = events[index] if index < len(events) else None
    new = Row(body, None)
    if nxt is not None and nxt.phase == phase:
        at = nxt.line - 1
        while at > 0 and rows[at - 1].text.lstrip().startswith("#") and rows[at - 1].line is not None:
            at -= 1  # before the comments that lead up to the next event
        if prev is not None and at <= prev.line - 1:
            at = nxt.line - 1
        return rows[:at] + [new] + rows[at:], at
    if prev is not None and prev.phase == phase:
        at = prev.line
        return rows[:at] + [new] + rows[at:], at
    if (
        phase is None
        or (prev is not None and (prev.phase or "") > phase)
        or (nxt is not None and (nxt.phase or "") < phase)
    ):
        return None
    if nxt is not None and prev is not None and nxt.phase == prev.phase:
        return None
    at = prev.line if prev is not None else (nxt.line - 1 if nxt is not None else len(rows))
    return rows[:at] + [Row(f"phase {phase}", None), new] + rows[at:], at + 1


def _replace(row: Row, body: str) -> Row:
    """The row with its event written as `body`, its comment kept."""
    head, hash_, comment = row.text.partition("#")
    if not hash_:
        return Row(body, row.line)
    pad = max(1, len(head) - len(body))
    return Row(body + " " * pad + "#" + comment, row.line)


def _fields(new_body: str, old_body: str) -> tuple[str, ...]:
    a, b = old_body.split(), new_body.split()
    names = ["actor", "act", "object"]

    def parts(words: list[str]) -> dict[str, str]:
        out: dict[str, str] = {}
        plain = [w for w in words if "=" not in w]
        for n, w in zip(names, plain, strict=False):
            out[n] = w
        for w in words:
            if "=" in w:
                k, _, v = w.partition("=")
                out[k] = v
        return out

    pa, pb = parts(a), parts(b)
    return tuple(k for k in dict.fromkeys([*pa, *pb]) if pa.get(k) != pb.get(k))


class Searcher:
    """The candidates of one staging state, and their re-check."""

    def __init__(self, rules: Sequence[Rule] | None, readings: dict[str, str] | None, path: str) -> None:
        self.rules = rules
        self.readings = readings
        self.path = path

    def check(self, rows: list[Row]) -> tuple[Trace, Result] | None:
        trace = _parse(rows, self.path)
        if trace is None:
            return None
        try:
            return trace, check_trace(trace, self.rules, self.readings)
        except (TraceErrors, TraceError):
            return None

    def candidates(self, state: State) -> list[Candidate]:
        trace, rows, result = state.trace, state.rows, state.result
        findings = result.findings
        roots = [f for f, c in zip(findings, causes(findings), strict=True) if c is None]
        focus = [f for f in roots if f.event is not None][:3]
        if not focus and roots:  # a finding on no event (the cast, the whole trace): the last event
            focus = []
        ref = reference(*options_of(trace))
        phases = {e.phase for e in trace.events}
        if trace.fragment is not None and trace.fragment.phases:
            phases |= set(trace.fragment.phases)
        rsel = [x for x in ref if x.phase in phases] if trace.fragment is not None else list(ref)
        tkeys = _keys(trace, rows)
        matcher = difflib.SequenceMatcher(None, tkeys, [x.key for x in rsel], autojunk=False)
        blocks = matcher.get_matching_blocks()
        t_to_r: dict[int, int] = {}
        for a, b, n in blocks:
            for k in range(n):
                t_to_r[a + k] = b + k
        r_pos: list[int] = []  # for each reference event: where in the staging it belongs (an event index)
        bi = 0
        for j in range(len(rsel)):
            while bi < len(blocks) and blocks[bi][1] + blocks[bi][2] <= j:
                bi += 1
            a, b, n = blocks[bi] if bi < len(blocks) else (len(trace), len(rsel), 0)
            r_pos.append(a + (j - b) if b <= j < b + n else a)
        matched_r = set(t_to_r.values())
        refusals = {r.event.index: r for r in replay(trace).refusals}
        out: list[Candidate] = []
        seen: set[str] = set()

        def add(new_rows: list[Row] | None, edit: Edit, rank: tuple[int, int]) -> None:
            if new_rows is None:
                return
            key = _text(new_rows)
            if key in seen:
                return
            seen.add(key)
            out.append(Candidate(new_rows, edit, rank))

        for f in focus:
            assert f.event is not None
            fi = f.event
            ev = trace[fi]
            row = ev.line - 1
            old = body_of(rows[row].text)
            lo_t, hi_t = max(0, fi - WINDOW), min(len(trace), fi + WINDOW + 1)
            # the reference window: between the libretto's events matched just outside the staging's window
            lo_r = max((t_to_r[i] for i in range(0, lo_t) if i in t_to_r), default=-1) + 1
            hi_r = min((t_to_r[i] for i in range(hi_t, len(trace)) if i in t_to_r), default=len(rsel))
            window = range(lo_r, hi_r)
            needs = self._needs(f, refusals.get(fi))
            # 1. the libretto's version of an event near the finding, the staging's own first (a change)
            # (and the events of the finding's phase whose act answers it, wherever they are: a response)
            answering = [i for i, e in enumerate(trace.events) if e.phase == ev.phase and e.act in needs]
            for ti in sorted({*range(lo_t, hi_t), *answering}, key=lambda i: (i != fi, abs(i - fi), i)):
                te = trace[ti]
                if ti != fi and ti in t_to_r:
                    continue
                trow = te.line - 1
                tbody = body_of(rows[trow].text)
                same_phase = [j for j in range(len(rsel)) if j not in window and rsel[j].phase == te.phase]
                for j in [*window, *(same_phase if te.act in needs else ())]:
                    x = rsel[j]
                    if j in matched_r or x.body == tbody or x.phase != te.phase:
                        continue
                    # another act by the same person, where the libretto has it in this event's place
                    # (袒决 where the text says 袒): a change of the act
                    actor = tbody.split()[0]  # the person as the staging names him (as the libretto does)
                    if x.act != te.act and (x.actor != actor or abs(r_pos[j] - ti) > 1):
                        continue
                    if x.actor in (te.actor, actor) or x.obj == te.obj_token:
                        fields = _fields(x.body, tbody)
                        new_rows = rows[:trow] + [_replace(rows[trow], x.body)] + rows[trow + 1 :]
                        edit = Edit("change", rows[trow].line, "at", x.body, tbody, x.cite, "libretto", fields=fields)
                        add(new_rows, edit, (0 if "actor" not in fields else 3, abs(ti - fi) + abs(r_pos[j] - ti)))
                        if "object" in fields and te.obj_token and x.obj and te.obj is not None:
                            renamed = _rename(rows, trace, te.obj_token, x.obj)
                            if renamed is not None:
                                new_rows, lines = renamed
                                edit = Edit(
                                    "rename",
                                    rows[trow].line,
                                    "at",
                                    x.obj,
                                    te.obj_token,
                                    x.cite,
                                    "libretto",
                                    fields=("object",),
                                    moved=(lines[0], lines[-1]),
                                    span=len(lines),
                                )
                                add(new_rows, edit, (0, abs(ti - fi) + 1))
            # 2. the libretto's events the staging lacks, before the finding (insertions)
            scored: list[tuple[tuple[int, int, int], tuple[int, int]]] = []
            near = range(max(0, lo_r - 60), hi_r)
            # what the finding's rule or machine needs may be due anywhere in its phase (a response at its end)
            further = [
                j for j in range(len(rsel)) if j not in near and rsel[j].phase == ev.phase and rsel[j].act in needs
            ]
            # ... or in an earlier phase ("no earlier X": the consent, the preparation the rule asks for),
            # the nearest few the staging lacks, each where the libretto has it
            earlier = [
                j
                for j in range(min(near.start, len(rsel)) - 1, -1, -1)
                if j not in matched_r and rsel[j].act in needs and (rsel[j].phase or "") < (ev.phase or "")
            ][:EARLIER]
            for j in [*near, *further]:
                if j in matched_r:
                    continue
                x = rsel[j]
                relevant = 0 if x.act in needs else 1
                if relevant:
                    if lo_t - 1 <= r_pos[j] <= fi + 1:
                        scored.append(((1, abs(r_pos[j] - fi), j), (j, r_pos[j])))
                    continue
                # what the finding needs: where the libretto has it, else just before or after the faulty event
                for pos in sorted({r_pos[j], min(r_pos[j], fi + 1), fi}):
                    scored.append(((0, abs(pos - r_pos[j]), j), (j, pos)))
            for j in earlier:
                scored.append(((0, INSERTS + len(earlier), j), (j, r_pos[j])))
            for (relevant, dist, _), (j, pos) in sorted(scored)[: INSERTS + len(earlier)]:
                x = rsel[j]
                made = _insert_rows(trace, rows, pos, x.phase, x.body)
                if made is None:
                    continue
                new_rows, at = made
                where_line = _anchor(rows, at - 1)
                edit = Edit(
                    "insert", where_line, "after", x.body, "", x.cite, "libretto", after_new=_after_new(rows, at - 1)
                )
                add(new_rows, edit, (0 if relevant == 0 else 1, dist))
            # 3. the machines: acts that bring the refused instance to a state where its act is allowed
            r = refusals.get(fi)
            if r is not None:
                for act, edge_cite in _path_acts(r):
                    body = _machine_event(r, act)
                    if body is None:
                        continue
                    made = _insert_rows(trace, rows, fi, ev.phase, body)
                    if made is not None:
                        new_rows, at = made
                        add(
                            new_rows,
                            Edit(
                                "insert",
                                _anchor(rows, at - 1),
                                "after",
                                body,
                                "",
                                edge_cite,
                                "machine",
                                after_new=_after_new(rows, at - 1),
                            ),
                            (1, 0),
                        )
            # 4. the faulty event deleted, or moved
            add(
                rows[:row] + rows[row + 1 :],
                Edit("delete", rows[row].line, "at", "", old, f.citation, "rule"),
                (2, 0),
            )
            for d in (-1, 1, -2, 2, -3, 3):
                target = fi + d
                if not 0 <= target < len(trace) or trace[target].phase != ev.phase:
                    continue
                trow = trace[target].line - 1
                rest = rows[:row] + rows[row + 1 :]
                at = trow if d < 0 else trow  # before the target (earlier) / after it (later: rows shifted by one)
                new_rows = rest[:at] + [rows[row]] + rest[at:]
                anchor = _anchor(rest, at - 1)
                edit = Edit(
                    "move", anchor, "after", old, old, f.citation, "rule", moved=(rows[row].line, rows[row].line)
                )
                add(new_rows, edit, (2, abs(d)))
            # ... or moved with what the same person does right after it (a shot and its 挟), as one block
            for cand in _block_of_actor(trace, rows, fi, f.citation):
                add(cand.rows, cand.edit, cand.rank)
        # 5. the occasion, where a finding is about it: a declared field dropped (its default) or set otherwise
        occ = trace.cast.occasion
        if occ is not None and occ.line is not None and any(f.line == occ.line for f in roots):
            about = next(f for f in roots if f.line == occ.line)
            for changed, what in _occasion_edits(rows[occ.line - 1].text):
                new_rows = rows[: occ.line - 1] + [_replace(rows[occ.line - 1], changed)] + rows[occ.line :]
                edit = Edit(
                    "change",
                    occ.line,
                    "at",
                    changed,
                    body_of(rows[occ.line - 1].text),
                    about.citation,
                    "rule",
                    fields=(what,),
                )
                add(new_rows, edit, (2, 0))
        # 6. a pair (耦) a finding is about: the libretto's pair of that name, or its sides swapped
        for f in roots:
            if f.event is not None or f.line is None or not rows[f.line - 1].text.lstrip().startswith("pair "):
                continue
            row = f.line - 1
            words = body_of(rows[row].text).split()
            sides = dict(w.split("=", 1) for w in words[2:] if "=" in w)
            bodies = [pairs(*options_of(trace)).get(words[1], "")]
            if {"上射", "下射"} <= set(sides):
                bodies.append(f"pair {words[1]} 上射={sides['下射']} 下射={sides['上射']}")
            for body in bodies:
                if body and body != body_of(rows[row].text):
                    edit = Edit(
                        "change",
                        f.line,
                        "at",
                        body,
                        body_of(rows[row].text),
                        f.citation,
                        "libretto" if body == bodies[0] else "rule",
                    )
                    add(rows[:row] + [_replace(rows[row], body)] + rows[row + 1 :], edit, (0, 0))
        # 7. a finding on no event about a person of the cast (a 介 where the rite has none): the events
        # that name the person, each deleted (an event naming a person puts him in the cast)
        for f in roots:
            if f.event is not None or f.line is not None:
                continue
            for name in sorted(p for p in trace.cast.persons if p in f.message):
                naming = [
                    e for e in trace.events if name in (e.actor, e.obj_token) or any(v == name for _, v in e.attrs)
                ]
                for e in naming[:WINDOW]:
                    row = e.line - 1
                    edit = Edit("delete", rows[row].line, "at", "", body_of(rows[row].text), f.citation, "rule")
                    add(rows[:row] + rows[row + 1 :], edit, (2, 0))
        # 8. blocks the staging has where the libretto has them elsewhere (one move each)
        for cand in self._block_moves(trace, rows, matcher, rsel, focus):
            add(cand.rows, cand.edit, cand.rank)
        out.sort(key=lambda c: c.rank)
        return out

    def _needs(self, f: Finding, refusal: Refusal | None) -> set[str]:
        """The acts that could answer a finding: those its rule's patterns name, or the machine's."""
        acts: set[str] = set()
        rule = next((r for r in (self.rules or ()) if r.id == f.rule), None)
        if rule is not None and rule.template is not None:
            from xiangshe.fsm.table import tables

            by_name = {t.name: t for t in tables()}
            answers = rule.template.needs()  # the patterns whose events answer the rule; else those it forbids
            for p in answers or rule.template.patterns():
                acts |= set(p.acts or ())
                for c in p.conds:  # a state the rule asks of a machine (forbidding `!=X` asks X): the acts to it
                    machine = by_name.get(c.key.split(".", 1)[1]) if c.key.startswith(("actor.", "obj.")) else None
                    if machine is not None and c.negate != bool(answers):
                        acts |= {e.act for e in machine.edges if e.dest in c.values and e.source != e.dest}
        if refusal is not None:
            acts |= {a for a, _ in _path_acts(refusal)}
        return acts

    def _block_moves(
        self,
        trace: Trace,
        rows: list[Row],
        matcher: difflib.SequenceMatcher[tuple[str | None, str]],
        rsel: Sequence[Expected],
        focus: Sequence[Finding],
    ) -> list[Candidate]:
        """A run of the staging's events that the libretto has elsewhere: moved there as one block."""
        ops = matcher.get_opcodes()
        dels = [(i1, i2) for tag, i1, i2, _, _ in ops if tag in ("delete", "replace") and i2 - i1 >= 2]
        ins = [(i1, j1, j2) for tag, i1, _, j1, j2 in ops if tag in ("insert", "replace") and j2 - j1 >= 2]
        out: list[Candidate] = []
        tkeys = _keys(trace, rows)
        for a1, a2 in dels:
            block = tkeys[a1:a2]
            for at, j1, j2 in ins:
                if [x.key for x in rsel[j1:j2]] != block:
                    continue
                first, last = trace[a1].line - 1, trace[a2 - 1].line - 1
                moved = rows[first : last + 1]
                rest = rows[:first] + rows[last + 1 :]
                target = trace[at].line - 1 if at < len(trace) else len(rows)
                if target > last:
                    target -= len(moved)
                while target > 0 and rest[target - 1].text.lstrip().startswith("#"):
                    target -= 1
                new_rows = rest[:target] + moved + rest[target:]
                text = body_of(moved[0].text) + (" …" if len(moved) > 1 else "")
                edit = Edit(
                    "move",
                    _anchor(rest, target - 1),
                    "after",
                    text,
                    text,
                    rsel[j1].cite,
                    "libretto",
                    span=a2 - a1,
                    moved=(moved[0].line, moved[-1].line),
                )
                dist = min((abs(a1 - f.event) for f in focus if f.event is not None), default=0)
                out.append(Candidate(new_rows, edit, (0, dist)))
        return out


def _keys(trace: Trace, rows: Sequence[Row]) -> list[tuple[str | None, str]]:
    """The staging's events as the libretto's are keyed: the phase, and the event as written (the
    person as the staging names him — 司马, where the cast makes him the 司正 — as the libretto does)."""
    return [(e.phase, body_of(rows[e.line - 1].text)) for e in trace.events]


def _block_of_actor(trace: Trace, rows: list[Row], fi: int, cite: Citation | None) -> list[Candidate]:
    """The event `fi` and the events the same person does right after it (up to 3 in all), moved as
    one block past up to 3 events of its phase, later or earlier."""
    ev = trace[fi]
    end = fi
    while (
        end + 1 < len(trace) and end - fi < 2 and trace[end + 1].actor == ev.actor and trace[end + 1].phase == ev.phase
    ):
        end += 1
    if end == fi:
        return []
    first, last = ev.line - 1, trace[end].line - 1
    block = rows[first : last + 1]
    rest = rows[:first] + rows[last + 1 :]
    out: list[Candidate] = []
    for d in (1, -1, 2, -2, 3, -3):
        target = end + d if d > 0 else fi + d
        if not 0 <= target < len(trace) or trace[target].phase != ev.phase:
            continue
        at = trace[target].line - (len(block) if d > 0 else 1)  # after the target (later) / before it (earlier)
        new_rows = rest[:at] + block + rest[at:]
        text = body_of(block[0].text) + " …"
        edit = Edit(
            "move",
            _anchor(rest, at - 1),
            "after",
            text,
            text,
            cite,
            "rule",
            span=end - fi + 1,
            moved=(block[0].line, block[-1].line),
        )
        out.append(Candidate(new_rows, edit, (2, abs(d) + 1)))
    return out


def _rename(rows: list[Row], trace: Trace, old: str, new: str) -> tuple[list[Row], list[int]] | None:
    """Every event on the object `old` written on `new` instead (one object for another throughout:
    a 爵 where the text has a 觯); the input's lines changed. None if `new` is already in use."""
    events = [e for e in trace.events if e.obj_token == old]
    if len(events) < 2 or any(e.obj_token == new for e in trace.events):
        return None
    out = list(rows)
    lines: list[int] = []
    for e in events:
        row = out[e.line - 1]
        words = body_of(row.text).split()
        body = " ".join(new if i == 2 and w == old else w for i, w in enumerate(words))
        out[e.line - 1] = _replace(row, body)
        if row.line is not None:
            lines.append(row.line)
    return (out, lines) if lines else None


def _occasion_edits(row: str) -> list[tuple[str, str]]:
    """The occasion line with one declared field dropped, or one field set to another value."""
    from xiangshe.domain.occasion import FIELDS, occasion_fields

    words = body_of(row).split()[1:]
    declared = dict(w.partition("=")[::2] for w in words if "=" in w)
    if len(declared) != len(words):  # bare values: the field is named by the value
        return []
    out: list[tuple[str, str]] = []
    for key in declared:
        rest = [f"{k}={v}" for k, v in declared.items() if k != key]
        out.append((" ".join(["occasion", *rest]), key))
    fields = occasion_fields()
    for key in FIELDS:
        for value in fields[key].values if key in fields else ():
            if declared.get(key) == value:
                continue
            new = dict(declared) | {key: value}
            out.append((" ".join(["occasion", *(f"{k}={v}" for k, v in new.items())]), key))
    return out


def _path_acts(r: Refusal, depth: int = 2) -> list[tuple[str, Citation]]:
    """The acts (with their edges' quotes) that take the refused instance from its state to one
    where the refused act is allowed: the first act of each shortest path of the table's edges."""
    t: Table = r.table
    want = r.event.act
    frontier: list[tuple[str, tuple[tuple[str, Citation], ...]]] = [(r.state, ())]
    seen = {r.state}
    found: list[tuple[str, Citation]] = []
    for _ in range(depth):
        nxt: list[tuple[str, tuple[tuple[str, Citation], ...]]] = []
        for state, path in frontier:
            for e in t.edges:
                if e.source != state or e.dest in seen and e.dest != state:
                    continue
                if e.dest == state:
                    continue
                p = (*path, (e.act, e.cite))
                if t.step(e.dest, want) is not None:
                    found.append(p[0]) if p[0] not in found else None
                nxt.append((e.dest, p))
        for s, _ in nxt:
            seen.add(s)
        if found:
            break
        frontier = nxt
    return found


def _machine_event(r: Refusal, act: str) -> str | None:
    """The event that takes the refused instance one edge on: by the refused event's actor (for a
    person's machine, the person), on its object."""
    e = r.event
    if r.table.is_person:
        return f"{r.instance} {act}"
    if e.obj_token is None:
        return None
    return f"{e.actor} {act} {e.obj_token}"


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


def _label(options: tuple[int, int, int, bool]) -> str:
    dafu, zhugong, zhongbin, taishi = options
    return f"dafu={dafu} zhugong={zhugong} zhongbin={zhongbin} taishi={'yes' if taishi else 'no'}"
