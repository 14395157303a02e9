"""The staging as the repair search edits it: rows of the line format (a `.trace` file's own lines,
comments kept, or a record file's records as lines), and the row operations an edit is made of:
an event inserted in its phase, an event written otherwise with its comment kept, where a step is
placed (the input's line it follows)."""

from __future__ import annotations

from collections.abc import Sequence

from xiangshe.domain.dataclass import dataclass
from xiangshe.domain.errors import TraceError
from xiangshe.domain.parse import TraceErrors, parse_lines
from xiangshe.domain.trace import Trace


@dataclass
class Row:
    text: str
    line: int | None  # the input's line it came from (None: inserted by the repair)


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
    trace: Trace, rows: list[Row], index: int, phase: str | None, body: str, block: Sequence[Row] = ()
) -> tuple[list[Row], int] | None:
    """Rows with `body` (or the rows of `block`, together) inserted before event `index` (len: at the
    end) in `phase`; and the row index it went to. None where the phase does not fit between its
    neighbours."""
    events = trace.events
    prev = events[index - 1] if index > 0 else None
    nxt = events[index] if index < len(events) else None
    new = list(block) or [Row(body, None)]
    if nxt is not None and nxt.phase == phase:
        at = nxt.line - 1
        while at > 0 and rows[at - 1].text.lstrip().startswith("#") and rows[at - 1].line is not None:
            at -= 1  # before the comments that lead up to the next event
        if prev is not None and at <= prev.line - 1:
            at = nxt.line - 1
        return rows[:at] + new + rows[at:], at
    if prev is not None and prev.phase == phase:
        at = prev.line
        return rows[:at] + new + rows[at:], at
    if (
        phase is None
        or (prev is not None and (prev.phase or "") > phase)
        or (nxt is not None and (nxt.phase or "") < phase)
    ):
        return None
    if nxt is not None and prev is not None and nxt.phase == prev.phase:
        return None
    at = prev.line if prev is not None else (nxt.line - 1 if nxt is not None else len(rows))
    return rows[:at] + [Row(f"phase {phase}", None), *new] + rows[at:], at + 1


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


def _keys(trace: Trace, rows: Sequence[Row]) -> list[tuple[str | None, str]]:
    """The staging's events as the libretto's are keyed: the phase, and the event as written (the
    person as the staging names him — 司马, where the cast makes him the 司正 — as the libretto does)."""
    return [(e.phase, body_of(rows[e.line - 1].text)) for e in trace.events]
