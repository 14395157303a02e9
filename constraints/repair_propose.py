"""The candidates of one staging state in the repair search (constraints/repair.py), proposed near
each finding that is a cause: from the libretto aligned with the staging (a change, an insertion, a
block moved back), from the machines (the acts a refused instance needs), from the findings (the
faulty event deleted or moved), the occasion and pair lines, and the persons a cast finding names;
and their re-check by the real checker."""

from __future__ import annotations

import difflib
from collections.abc import Sequence

from xiangshe.constraints.check import Finding, Result, causes, check_trace
from xiangshe.constraints.repair_blocks import block_to_libretto, earlier_change, libretto_run, run_deleted, withdrawn
from xiangshe.constraints.repair_edits import (
    Candidate,
    Edit,
    _block_of_actor,
    _machine_event,
    _occasion_edits,
    _path_acts,
    _rename,
    _with_what_follows,
)
from xiangshe.constraints.repair_libretto import Expected, options_of, pairs, reference
from xiangshe.constraints.repair_rows import (
    Row,
    _after_new,
    _anchor,
    _fields,
    _insert_rows,
    _keys,
    _parse,
    _replace,
    _text,
    body_of,
)
from xiangshe.constraints.rulebook import Rule
from xiangshe.domain.dataclass import dataclass
from xiangshe.domain.errors import TraceError
from xiangshe.domain.parse import TraceErrors
from xiangshe.domain.trace import Trace
from xiangshe.fsm.replay import Refusal, replay

#: how many events before and after a finding the search edits
WINDOW = 4
#: the insertions from the libretto tried for one finding, at most
INSERTS = 24
#: the libretto's answering events of earlier phases tried for one finding, at most
EARLIER = 4
#: the insertions from the libretto tried with the steps that follow them (a run), for one finding, at most
RUNS = 4


@dataclass
class State:
    rows: list[Row]
    edits: tuple[Edit, ...]
    trace: Trace
    result: Result


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
            scored: list[tuple[tuple[int, int, int, int], tuple[int, int]]] = []
            near = range(max(0, lo_r - 60), hi_r)
            # what the finding's rule or machine needs may be due anywhere in its phase (a response at its end)
            further = [
                j for j in range(len(rsel)) if j not in near and rsel[j].phase == ev.phase and rsel[j].act in needs
            ]
            # ... or in an earlier phase ("no earlier X": the consent, the preparation the rule asks for),
            # the nearest few the staging lacks, each where the libretto has it
            # (the faulty event's own person first)
            needs_before = self._needs(f, refusals.get(fi), before=True)
            earlier = sorted(
                (
                    j
                    for j in range(min(near.start, len(rsel)) - 1, -1, -1)
                    if j not in matched_r and rsel[j].act in needs_before and (rsel[j].phase or "") < (ev.phase or "")
                ),
                key=lambda j: (rsel[j].actor != ev.actor, -j),
            )[:EARLIER]
            for j in [*near, *further]:
                if j in matched_r:
                    continue
                x = rsel[j]
                relevant = 0 if x.act in needs else 1
                if relevant:
                    if lo_t - 1 <= r_pos[j] <= fi + 1:
                        scored.append(((1, abs(r_pos[j] - fi), 0, j), (j, r_pos[j])))
                    continue
                # what the finding needs: where the libretto has it, else just before or after the faulty event;
                # among as near, first those the finding's message names more of (its person, its words)
                said = -sum(1 for w in x.body.split() if w in str(f.message))
                home = _fit(trace, r_pos[j], x.phase)
                for pos in sorted({home, min(r_pos[j], fi + 1), fi}):
                    scored.append(((0, abs(pos - home), said, j), (j, pos)))
            picked = sorted(scored)[:INSERTS] + [((0, INSERTS, 0, j), (j, r_pos[j])) for j in earlier]
            runs = RUNS  # the first few of what the finding needs also with the steps that follow it
            for (relevant, dist, _, _), (j, pos) in picked:
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
                if relevant == 0 and runs > 0:  # ... with the steps the libretto has right after it, as one edit
                    runs -= 1
                    for cand in libretto_run(trace, rows, rsel, matched_r, j, pos, (0, dist)):
                        add(cand.rows, cand.edit, cand.rank)
            # ... or, for one of an earlier phase, written in place of the staging's event of its person there
            for j in earlier:
                for cand in earlier_change(trace, rows, rsel, t_to_r, r_pos, j):
                    add(cand.rows, cand.edit, cand.rank)
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
            # ... or an earlier event of the same person that the libretto does not have, deleted (the
            # 说决拾 that undid his 决遂), the nearest few
            extra = [i for i in range(fi - 1, -1, -1) if i not in t_to_r and trace[i].actor == ev.actor]
            for i in extra[:EARLIER]:
                erow = trace[i].line - 1
                edit = Edit("delete", rows[erow].line, "at", "", body_of(rows[erow].text), f.citation, "rule")
                add(rows[:erow] + rows[erow + 1 :], edit, (2, fi - i))
            # ... or an event the finding needs that the staging has later in the phase, moved up to
            # just before the faulty event (a 终 of the music the staging began one run late)
            due = [e for e in trace.events[fi + 1 :] if e.phase == ev.phase and e.act in needs]
            for e in due[:2]:
                mrow = e.line - 1
                rest = rows[:mrow] + rows[mrow + 1 :]
                edit = Edit(
                    "move",
                    _anchor(rest, row - 1),
                    "after",
                    body_of(rows[mrow].text),
                    body_of(rows[mrow].text),
                    f.citation,
                    "rule",
                    moved=(rows[mrow].line, rows[mrow].line),
                )
                add(rest[:row] + [rows[mrow]] + rest[row:], edit, (2, e.index - fi))
            # ... or deleted with what the same person does after it because of it (his way back)
            for cand in _with_what_follows(trace, rows, fi, f.citation):
                add(cand.rows, cand.edit, cand.rank)
            # ... or moved, with the events around it the libretto has elsewhere, to where it has them
            for cand in block_to_libretto(trace, rows, fi, t_to_r, rsel, matched_r, r_pos):
                add(cand.rows, cand.edit, cand.rank)
            # an earlier errand of another person that the rule counts, deleted as one edit
            for cand in run_deleted(trace, rows, fi, needs, f.citation, WINDOW):
                add(cand.rows, cand.edit, cand.rank)
            # the persons who broke the rule in this round, withdrawn from it
            for cand in withdrawn(trace, rows, f, roots):
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

    def _needs(self, f: Finding, refusal: Refusal | None, before: bool = False) -> set[str]:
        """The acts that could answer a finding: those its rule's patterns name, or the machine's
        (`before`: with the acts that lead to those, for the events of earlier phases)."""
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
                        to = {e for e in machine.edges if e.dest in c.values and e.source != e.dest}
                        acts |= {e.act for e in to}
                        if before:  # and the acts one edge before (袒决遂, before the 执弓 that arms the archer)
                            sources = {e.source for e in to}
                            acts |= {e.act for e in machine.edges if e.dest in sources and e.source != e.dest}
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


def _fit(trace: Trace, pos: int, phase: str | None) -> int:
    """The staging's position nearest `pos` where an event of `phase` fits between its neighbours (the
    end of its phase, where the staging has events of a later phase at the libretto's place)."""
    if phase is None:
        return pos
    while pos > 0 and (trace[pos - 1].phase or "") > phase:
        pos -= 1
    while pos < len(trace) and (trace[pos].phase or "") < phase:
        pos += 1
    return pos
