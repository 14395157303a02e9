"""The edits of a repair (constraints/repair.py) and the kinds of candidate that are not read from
the libretto's alignment: the faulty event moved with what its person does right after it, an object
renamed throughout, a field of the occasion line, and the acts a machine needs (a path of its edges
from the state an act was refused in)."""

from __future__ import annotations

from xiangshe.constraints.repair_rows import Row, _anchor, _replace, body_of
from xiangshe.domain.dataclass import dataclass
from xiangshe.domain.text import Citation
from xiangshe.domain.trace import Trace
from xiangshe.fsm.replay import Refusal
from xiangshe.fsm.table import Table


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
    also: tuple[tuple[int | None, str], ...] = ()  # for a delete: the same person's later events deleted with it
    # (for an insert of a libretto run: the events inserted right after the first)
    group: str = ""  # several events as one edit: libretto-run (insert), run (delete), round (delete); "" otherwise
    persons: tuple[str, ...] = ()  # for a round withdrawn: the persons
    round: int = 0  # for a round withdrawn: the round of shooting


@dataclass
class Candidate:
    rows: list[Row]
    edit: Edit
    rank: tuple[int, int]  # (how it was proposed: 0 libretto, 1 machine, 2 local; distance)


def deleted_together(
    rows: list[Row],
    gone: list[int],
    cite: Citation | None,
    group: str = "",
    persons: tuple[str, ...] = (),
    round: int = 0,
) -> tuple[list[Row], Edit]:
    """The rows at the indexes `gone` (in order) deleted as one edit: the first is the edit's row,
    the others its `also`; `group`, `persons`, `round` as Edit has them."""
    drop = set(gone)
    head = rows[gone[0]]
    also = tuple((rows[n].line, body_of(rows[n].text)) for n in gone[1:])
    edit = Edit(
        "delete",
        head.line,
        "at",
        "",
        body_of(head.text),
        cite,
        "rule",
        span=len(gone),
        also=also,
        group=group,
        persons=persons,
        round=round,
    )
    return [r for i, r in enumerate(rows) if i not in drop], edit


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


def _with_what_follows(trace: Trace, rows: list[Row], fi: int, cite: Citation | None) -> list[Candidate]:
    """The event `fi` deleted together with the next one, two or three things the same person does in
    its phase (a 降 and the 升 and 反就席 that undo it: he stays where he was), as one edit."""
    ev = trace[fi]
    later = [e for e in trace.events[fi + 1 :] if e.actor == ev.actor and e.phase == ev.phase][:3]
    out: list[Candidate] = []
    for k in range(1, len(later) + 1):
        new_rows, edit = deleted_together(rows, [ev.line - 1, *(e.line - 1 for e in later[:k])], cite)
        out.append(Candidate(new_rows, edit, (2, k + 1)))
    return out
