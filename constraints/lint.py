"""Apply what a linter's user chooses to the results of `check`: the selection of checks, the
inline suppressions (constraints/suppress.py) and the baseline (constraints/baseline.py), in that
order. What is not applied and what is suppressed stays on each Result, for every output format.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING

from xiangshe.constraints.check import Finding, Result, Suppressed
from xiangshe.constraints.select import UNUSED, Selection, by_id
from xiangshe.domain.dataclass import dataclass

if TYPE_CHECKING:
    from xiangshe.constraints import baseline as bl
    from xiangshe.constraints.config import Config
    from xiangshe.constraints.rulebook import Rule
    from xiangshe.constraints.suppress import Suppression


@dataclass(frozen=True)
class Outcome:
    """What a batch of stagings comes to under the selection: each one's result, the checks in force and
    those applied to none, and the baseline's match (a docstring: `dataclass` would build one from the
    signature with inspect, a quarter of a million instructions at every start)."""

    results: list[Result]
    in_force: tuple[str, ...]  # the checks `check` makes under the readings in force
    not_applied: tuple[str, ...]  # those the selection applies to no trace
    selection: Selection
    baseline: bl.Match | None = None


def _unused(s: Suppression, term: str, ids: Sequence[str], path: str) -> Finding:
    info = by_id()[ids[0]]
    here = "on this line" if s.target == s.line else f"at line {s.target}"
    return Finding(
        UNUSED,
        by_id()[UNUSED].name,
        None,
        None,
        s.line,
        f"unused suppression: no finding of {term} {here} to suppress",
        info.citation,
        f"{path}:{s.line}",
        (),
        s.excerpt,
        None,
        " ".join(s.excerpt.split()),
    )


def _suppress(r: Result, applied: set[str]) -> tuple[list[Finding], list[Suppressed]]:
    """The findings of `r` the inline suppressions leave, the ones they suppress, and a finding for
    each term that suppresses nothing (where its checks were applied)."""
    by_line: dict[int, list[Suppression]] = {}
    for s in r.suppressions:
        by_line.setdefault(s.target, []).append(s)
    kept, suppressed, used = [], [], set()
    for f in r.findings:
        hit = next(((s, t) for s in by_line.get(f.line or 0, ()) for t in s.terms if f.rule in t.ids), None)
        if hit is None:
            kept.append(f)
        else:
            s, t = hit
            used.add((s.line, t.text))
            suppressed.append(Suppressed(f, "inline", s.reason, s.line))
    if UNUSED in applied:
        for s in r.suppressions:
            for t in s.terms:
                ids = sorted(t.ids & applied)
                if ids and (s.line, t.text) not in used:
                    kept.append(_unused(s, t.text, ids, r.path))
    return kept, suppressed


def apply(
    results: Sequence[Result], selection: Selection, in_force: Sequence[str], baseline: bl.Baseline | None = None
) -> Outcome:
    """The results as the user asked for them. `in_force`: the ids of the checks `check` made."""
    if baseline is not None:
        from xiangshe.constraints import baseline as bl
    everywhere = set(selection.applied(in_force))
    out = []
    left = Counter(baseline.entries) if baseline else Counter()
    baselined = 0
    for r in results:
        applied = everywhere - selection.ignored_in(r.path)
        findings = [f for f in r.findings if f.rule in applied]
        kept, suppressed = _suppress(replace(r, findings=tuple(findings)), applied)
        if baseline is not None:
            kept, known = bl.split(kept, r.path, baseline, left)
            baselined += len(known)
            suppressed += [Suppressed(f, "baseline", f"in the baseline {baseline.shown}") for f in known]
        kept.sort(key=lambda f: f.sort_key)
        suppressed.sort(key=lambda s: s.finding.sort_key)
        out.append(
            replace(
                r,
                findings=tuple(kept),
                suppressed=tuple(suppressed),
                not_applied=tuple(i for i in in_force if i not in applied),
            )
        )
    match = None
    if baseline is not None:
        match = bl.Match(baseline.shown, baselined, bl.absent(left, [r.path for r in results], baseline))
    return Outcome(out, tuple(in_force), tuple(i for i in in_force if i not in everywhere), selection, match)


def chosen(
    cwd: Path,
    config_file: Path | None,
    isolated: bool,
    select: Sequence[str],
    ignore: Sequence[str],
    display: Callable[[Path], str] = str,
) -> tuple[Config, Selection]:
    """The configuration in force (the file's, unless `isolated`) and the selection of checks, the
    command line's --select and --ignore over the file's. InputError if either is bad."""
    from xiangshe.constraints.config import settings
    from xiangshe.constraints.select import terms

    cfg = settings(cwd, config_file, isolated, lambda p: display(Path(p)))
    return cfg, cfg.selection(
        terms(select, "--select") if select else None, terms(ignore, "--ignore") if ignore else None
    )


def lint(
    results: Sequence[Result],
    rules: Sequence[Rule],
    selection: Selection,
    baseline: Path | None = None,
    display: Callable[[Path], str] = str,
) -> Outcome:
    """`apply` to the results of checking under `rules`, with the baseline file if one is given."""
    from xiangshe.constraints.select import in_force

    if baseline is None:
        return apply(results, selection, in_force(rules))
    from xiangshe.constraints import baseline as bl

    return apply(results, selection, in_force(rules), bl.load(baseline, display(baseline)))


def write_baseline(
    results: Sequence[Result], rules: Sequence[Rule], selection: Selection, out: Path, force: bool
) -> int:
    """`check --write-baseline OUT`: write the findings of `results` (after the selection and the
    inline suppressions, before any baseline) to OUT, never over a file unless `force`; the number
    of findings written. A UsageError if the file cannot be written."""
    from xiangshe.constraints.baseline import render
    from xiangshe.domain.files import save

    outcome = lint(results, rules, selection)
    save(out, render(outcome.results, out.parent), force)
    return sum(len(r.findings) for r in outcome.results)
