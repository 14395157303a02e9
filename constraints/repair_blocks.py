"""The edits of a repair (constraints/repair_propose.py) that touch several events and that a director
would still call one change:

- **a run of the libretto's events inserted together**: the event a finding needs, with the steps
  the libretto has come right after it that the staging lacks (the 乐正's order of 《驺虞》, the
  大师's 许诺 and the 乐正's 反位 that go with it);
- **a block moved to where the libretto has it**, at any distance and into another phase: the run of
  the staging's events around the faulty one that the libretto, aligned with the staging, has
  elsewhere (the 获者's 执旌 and 负侯 done before the 诱射, which the text has before the first pair
  shoots);
- **one person's steps in a row deleted together**, around an earlier event that the finding's rule
  counts (the 释获者's 升, 告 and 降 of a report made before the last arrows);
- **persons withdrawn from a round**: every event that names the persons who broke a rule in a round
  of shooting, in that round, deleted (the 众宾 who shot in round 1, which is the 三耦's alone);
- **the libretto's event of an earlier phase written in place of the staging's** by the same person
  there, where a finding asks for it (a 挟 where the text has 搢三挟一个).

Each function returns candidates (constraints/repair_edits.py `Candidate`); the search re-checks them
like any other."""

from __future__ import annotations

from collections.abc import Sequence

from xiangshe.constraints.check import Finding
from xiangshe.constraints.repair_edits import Candidate, Edit, deleted_together
from xiangshe.constraints.repair_libretto import Expected
from xiangshe.constraints.repair_rows import Row, _after_new, _anchor, _fields, _insert_rows, _replace, body_of
from xiangshe.domain.text import Citation
from xiangshe.domain.trace import Event, Trace

#: the libretto's steps inserted after the event a finding needs, at most
RUN = 3
#: the staging's events moved or deleted as one block, at most
BLOCK = 6
#: how far apart (in the libretto's events) the events of a block may be where the libretto has them
GAP = 3
#: the libretto's places a block is moved to, at most (those nearest the fault)
PLACES = 2


def libretto_run(
    trace: Trace, rows: list[Row], rsel: Sequence[Expected], matched: set[int], j: int, pos: int, rank: tuple[int, int]
) -> list[Candidate]:
    """The libretto's event `j` inserted before the staging's event `pos` with the next 1, 2 … RUN
    events the libretto has right after it in its phase, where the staging lacks them: one edit each."""
    x = rsel[j]
    run: list[Expected] = []
    k = j + 1
    while k < len(rsel) and len(run) < RUN and k not in matched and rsel[k].phase == x.phase:
        run.append(rsel[k])
        k += 1
    out: list[Candidate] = []
    for n in range(1, len(run) + 1):
        block = [Row(x.body, None), *(Row(y.body, None) for y in run[:n])]
        made = _insert_rows(trace, rows, pos, x.phase, x.body, block)
        if made is None:
            break
        new_rows, at = made
        edit = Edit(
            "insert",
            _anchor(rows, at - 1),
            "after",
            x.body,
            "",
            x.cite,
            "libretto",
            span=n + 1,
            after_new=_after_new(rows, at - 1),
            also=tuple((None, y.body) for y in run[:n]),
            group="libretto-run",
        )
        out.append(Candidate(new_rows, edit, (rank[0], rank[1] + n)))
    return out


def block_to_libretto(
    trace: Trace,
    rows: list[Row],
    fi: int,
    aligned: dict[int, int],
    rsel: Sequence[Expected],
    matched: set[int],
    r_pos: Sequence[int],
) -> list[Candidate]:
    """The run of the staging's events around the faulty event `fi` that the libretto does not have
    there (at most BLOCK, in its phase), or a part of it that holds `fi`, moved as one block to
    where the libretto has the same events (in their order, each within GAP of the one before):
    before the staging's event that the libretto's first of them is aligned with, in its phase."""
    ev = trace[fi]
    if fi in aligned:
        return []
    lo = hi = fi
    while lo > 0 and lo - 1 not in aligned and trace[lo - 1].phase == ev.phase and hi - lo + 1 < BLOCK:
        lo -= 1
    while hi + 1 < len(trace) and hi + 1 not in aligned and trace[hi + 1].phase == ev.phase and hi - lo + 1 < BLOCK:
        hi += 1
    free: dict[str, list[int]] = {}
    for j, x in enumerate(rsel):
        if j not in matched:
            free.setdefault(x.body, []).append(j)
    out: list[Candidate] = []
    for a in range(fi, lo - 1, -1):
        for b in range(fi, hi + 1):
            bodies = [body_of(rows[trace[i].line - 1].text) for i in range(a, b + 1)]
            # where the libretto has the block's first event: the places nearest the fault, at most PLACES
            for j in sorted(free.get(bodies[0], ()), key=lambda j: (abs(r_pos[j] - fi), j))[:PLACES]:
                k: int | None = j
                for body in bodies[1:]:
                    k = next((m for m in free.get(body, ()) if k is not None and k < m <= k + GAP), None)
                    if k is None:
                        break
                target = r_pos[j]
                if k is None or a <= target <= b + 1:
                    continue
                cand = _move_block(trace, rows, a, b, target, rsel[j])
                if cand is not None:
                    out.append(Candidate(cand[0], cand[1], (0, abs(target - fi))))
    return out


def _move_block(
    trace: Trace, rows: list[Row], a: int, b: int, target: int, x: Expected
) -> tuple[list[Row], Edit] | None:
    first, last = trace[a].line - 1, trace[b].line - 1
    moved = rows[first : last + 1]
    copies = [Row(r.text, r.line) for r in moved]
    made = _insert_rows(trace, rows, target, x.phase, "", copies)
    if made is None:
        return None
    gone = {id(r) for r in moved}
    new_rows = [r for r in made[0] if id(r) not in gone]
    at = next(i for i, r in enumerate(new_rows) if r is copies[0])
    text = body_of(moved[0].text) + (" …" if b > a else "")
    edit = Edit(
        "move",
        _anchor(new_rows, at - 1),
        "after",
        text,
        text,
        x.cite,
        "libretto",
        span=b - a + 1,
        moved=(moved[0].line, moved[-1].line),
    )
    return new_rows, edit


def run_deleted(
    trace: Trace, rows: list[Row], fi: int, acts: set[str], cite: Citation | None, window: int
) -> list[Candidate]:
    """An earlier event of the faulty event's phase, by another person, whose act the finding's rule
    names (a report it counts), deleted with the steps that person does right before and after it
    (at most BLOCK in all): his errand, as one edit."""
    ev = trace[fi]
    out: list[Candidate] = []
    for i in range(fi - 1, max(-1, fi - window - 1), -1):
        e = trace[i]
        if e.actor == ev.actor or e.act not in acts or e.phase != ev.phase:
            continue
        lo = hi = i
        while lo > 0 and _same(trace[lo - 1], e) and hi - lo + 1 < BLOCK:
            lo -= 1
        while hi + 1 < fi and _same(trace[hi + 1], e) and hi - lo + 1 < BLOCK:
            hi += 1
        if hi == lo:
            continue
        new_rows, edit = deleted_together(rows, [trace[k].line - 1 for k in range(lo, hi + 1)], cite, group="run")
        out.append(Candidate(new_rows, edit, (2, fi - i)))
    return out


def _same(e: Event, other: Event) -> bool:
    return e.actor == other.actor and e.phase == other.phase


def withdrawn(trace: Trace, rows: list[Row], f: Finding, roots: Sequence[Finding]) -> list[Candidate]:
    """The persons whose events break the finding's rule in its round of shooting (where it breaks
    at least twice), withdrawn from that round: every event of the round that names them deleted,
    as one edit (all of them together, then each alone)."""
    assert f.event is not None
    rnd = trace[f.event].round
    same = [g for g in roots if g.rule == f.rule and g.event is not None and trace[g.event].round == rnd]
    if not rnd or len(same) < 2 or f.rule.startswith("machine."):
        return []
    persons = sorted({trace[g.event].actor for g in same if g.event is not None})
    out: list[Candidate] = []
    for group in [persons, *([p] for p in persons if len(persons) > 1)]:
        named = [e for e in trace.events if e.round == rnd and _names(e, group)]
        if len(named) < 2:
            continue
        new_rows, edit = deleted_together(
            rows, [e.line - 1 for e in named], f.citation, group="round", persons=tuple(group), round=rnd
        )
        out.append(Candidate(new_rows, edit, (2, 9)))
    return out


def _names(e: Event, persons: Sequence[str]) -> bool:
    return e.actor in persons or e.obj_token in persons or any(v in persons for _, v in e.attrs)


def earlier_change(
    trace: Trace, rows: list[Row], rsel: Sequence[Expected], aligned: dict[int, int], r_pos: Sequence[int], j: int
) -> list[Candidate]:
    """The libretto's event `j` of an earlier phase, that a finding asks for, written in place of the
    staging's event of the same person where the libretto has it (one not aligned with the libretto:
    a 挟 where the text has 搢三挟一个)."""
    x = rsel[j]
    out: list[Candidate] = []
    for ti in range(max(0, r_pos[j] - 2), min(len(trace), r_pos[j] + 2)):
        te = trace[ti]
        if ti in aligned or te.phase != x.phase:
            continue
        trow = te.line - 1
        tbody = body_of(rows[trow].text)
        if tbody.split()[0] != x.actor or tbody == x.body:
            continue
        new_rows = rows[:trow] + [_replace(rows[trow], x.body)] + rows[trow + 1 :]
        fields = _fields(x.body, tbody)
        edit = Edit("change", rows[trow].line, "at", x.body, tbody, x.cite, "libretto", fields=fields)
        out.append(Candidate(new_rows, edit, (0, abs(ti - r_pos[j]))))
    return out
