"""The lines `check` adds to its text output when checks are not applied, findings are suppressed
or a baseline is in use: what "ok" covered, and what it did not."""

from __future__ import annotations

from collections.abc import Sequence

from xiangshe.constraints.lint import Outcome
from xiangshe.constraints.select import by_id
from xiangshe.reports.messages import zh
from xiangshe.reports.tally import Tally

LISTED = 8


def _plural(n: int, word: str, many: str | None = None) -> str:
    return f"{n} {word if n == 1 else many or word + 's'}"


def compact(ids: Sequence[str], in_force: Sequence[str]) -> str:
    """`machine (all 22), audit.r132, bu-guan-bu-shi (R120), … and 3 more`."""
    chosen, parts = set(ids), []
    if chosen >= set(in_force):
        return "全部检查" if zh() else "every check"
    for kind in ("machine", "audit"):
        every = [i for i in in_force if by_id()[i].kind == kind]
        if len(every) > 1 and set(every) <= chosen:
            parts.append(f"{kind}（全 {len(every)}）" if zh() else f"{kind} (all {len(every)})")
            chosen -= set(every)
    for i in ids:
        if i in chosen:
            cat = by_id()[i].catalogue
            parts.append(f"{i} ({cat})" if cat and by_id()[i].kind == "rule" else i)
    if len(parts) > LISTED:
        more = len(parts) - LISTED
        parts = parts[:LISTED] + [f"……另 {more} 项" if zh() else f"… and {more} more"]
    return ", ".join(parts)


def lint_text(tally: Tally, lint: Outcome) -> list[str]:
    out = []
    inline = tally.inline
    if inline:
        out.append(
            f"豁免：{inline} 处违例依行内豁免不计，各有其由（--format json 列之）"
            if zh()
            else f"suppressed: {_plural(inline, 'finding')} by inline suppressions, each with its "
            "reason (--format json lists them)"
        )
    b = lint.baseline
    if b is not None:
        if zh():
            line = f"基线 {b.shown}：{b.baselined} 处已知违例不报"
            if b.absent:
                line += f"；{b.absent} 条已不复见（更新：--write-baseline {b.shown} --force）"
        else:
            line = f"baseline {b.shown}: {_plural(b.baselined, 'known finding')} not reported"
            if b.absent:
                line += (
                    f"; {_plural(b.absent, 'entry', 'entries')} no longer "
                    f"occur{'s' if b.absent == 1 else ''} (refresh: --write-baseline {b.shown} --force)"
                )
        out.append(line)
    total = len(lint.in_force)
    if lint.not_applied:
        applied = [i for i in lint.in_force if i not in lint.not_applied]
        how = lint.selection.describe()
        if applied and len(applied) < len(lint.not_applied):
            ids = compact(applied, lint.in_force)
            out.append(
                f"仅行：{ids}——{total} 项检查中行 {len(applied)} 项（{how}）"
                if zh()
                else f"applied only: {ids} — {len(applied)} of {total} checks ({how})"
            )
        else:
            ids = compact(lint.not_applied, lint.in_force)
            out.append(
                f"未行：{ids}——{total} 项检查中行 {len(applied)} 项（{how}）"
                if zh()
                else f"not applied: {ids} — {len(applied)} of {total} checks applied ({how})"
            )
    for path, extra in tally.also_not_applied:
        ids = compact(extra, lint.in_force)
        out.append(
            f"{path}：亦未行（per-file-ignores）：{ids}"
            if zh()
            else f"{path}: also not applied (per-file-ignores): {ids}"
        )
    return out
