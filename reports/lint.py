"""The lines `check` adds to its text output when checks are not applied, findings are suppressed
or a baseline is in use: what "ok" covered, and what it did not."""

from __future__ import annotations

from collections.abc import Sequence

from xiangshe.constraints.check import Result
from xiangshe.constraints.lint import Outcome
from xiangshe.constraints.select import by_id

LISTED = 8


def _plural(n: int, word: str, many: str | None = None) -> str:
    return f"{n} {word if n == 1 else many or word + 's'}"


def compact(ids: Sequence[str], in_force: Sequence[str]) -> str:
    """`machine (all 22), audit.r132, bu-guan-bu-shi (R120), … and 3 more`."""
    chosen, parts = set(ids), []
    if chosen >= set(in_force):
        return "every check"
    for kind in ("machine", "audit"):
        every = [i for i in in_force if by_id()[i].kind == kind]
        if len(every) > 1 and set(every) <= chosen:
            parts.append(f"{kind} (all {len(every)})")
            chosen -= set(every)
    for i in ids:
        if i in chosen:
            cat = by_id()[i].catalogue
            parts.append(f"{i} ({cat})" if cat and by_id()[i].kind == "rule" else i)
    if len(parts) > LISTED:
        parts = parts[:LISTED] + [f"… and {len(parts) - LISTED} more"]
    return ", ".join(parts)


def lint_text(results: Sequence[Result], lint: Outcome) -> list[str]:
    out = []
    inline = sum(1 for r in results for s in r.suppressed if s.kind == "inline")
    if inline:
        out.append(f"suppressed: {_plural(inline, 'finding')} by inline suppressions, each with its "
                   "reason (--format json lists them)")
    b = lint.baseline
    if b is not None:
        line = f"baseline {b.shown}: {_plural(b.baselined, 'known finding')} not reported"
        if b.absent:
            line += (f"; {_plural(b.absent, 'entry', 'entries')} no longer "
                     f"occur{'s' if b.absent == 1 else ''} (refresh: --write-baseline {b.shown} --force)")
        out.append(line)
    total = len(lint.in_force)
    if lint.not_applied:
        applied = [i for i in lint.in_force if i not in lint.not_applied]
        how = lint.selection.describe()
        if applied and len(applied) < len(lint.not_applied):
            out.append(f"applied only: {compact(applied, lint.in_force)} — {len(applied)} of {total} "
                       f"checks ({how})")
        else:
            out.append(f"not applied: {compact(lint.not_applied, lint.in_force)} — {len(applied)} of "
                       f"{total} checks applied ({how})")
    for r in results:
        extra = [i for i in r.not_applied if i not in lint.not_applied]
        if extra:
            out.append(f"{r.path}: also not applied (per-file-ignores): {compact(extra, lint.in_force)}")
    return out
