"""What `explain` shows: which rule, machine or audit check a word names (`resolve`), and beyond a
rule itself: the contested readings that concern it, and a
passing and a failing example, each a short window of a bundled trace.

The readings that concern a rule are the points its `when` names and the points whose disputed
words it quotes (readings.toml).

The failing example is the rule's violating trace (traces/violations/<id>.trace), around the first
line the rule objects to, with the finding. The passing example is the same kind of window from the
first bundled staging (the rule's own keeping examples in traces/keeps/, then the canonical
ceremony, then the variants; failing those, the violating examples of other rules) that keeps the
rule and where it is triggered: around the first event the rule speaks of (the event that obliges
something, or the event that is counted), or the first pair it speaks of. A rule that forbids something outright is
kept by a staging where nothing matches: that is said plainly, without a window.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from functools import cache
from pathlib import Path

from xiangshe.constraints.check import Finding, check_trace, rule_findings
from xiangshe.constraints.pattern import Context
from xiangshe.constraints.readings import Point, defaults, points
from xiangshe.constraints.rulebook import Rule, active_rules, find_rule, rulebook
from xiangshe.constraints.scope import IDS as SCOPE_IDS
from xiangshe.constraints.scope import NAMES as SCOPE_NAMES
from xiangshe.constraints.scope import QUOTES as SCOPE_QUOTES
from xiangshe.constraints.scope import WHAT as SCOPE_WHAT
from xiangshe.constraints.scoring import AUDIT_CHECKS, audit_id
from xiangshe.constraints.templates import person_matches
from xiangshe.domain import bundled
from xiangshe.domain.dataclass import dataclass
from xiangshe.domain.errors import did_you_mean
from xiangshe.domain.messages import Message
from xiangshe.domain.script import fold
from xiangshe.domain.text import TEXT, Citation
from xiangshe.domain.trace import Trace
from xiangshe.fsm.replay import replay
from xiangshe.fsm.table import Table, tables

WINDOW = 2  # lines shown before and after the line of interest


@dataclass(frozen=True)
class Example:
    path: str  # the trace, relative to the repository
    line: int | None  # the line of interest (None: the whole trace)
    window: tuple[tuple[int, str], ...]  # (line number, text) around it
    note: str  # what the window shows
    finding: Finding | None = None  # the failing example's finding

    def to_json(self) -> dict[str, object]:
        doc: dict[str, object] = {
            "path": self.path,
            "line": self.line,
            "window": [{"line": n, "text": t} for n, t in self.window],
            "note": self.note,
        }
        if self.finding is not None:
            f = self.finding
            doc["finding"] = {"rule": f.rule, "event": f.event, "line": f.line, "message": f.message}
        return doc


@dataclass(frozen=True)
class Concern:
    point: Point
    follows: str | None  # the option the rule encodes (its `when`), None if it holds under all

    def to_json(self) -> dict[str, object]:
        p = self.point
        return {
            "point": p.name,
            "question": p.question,
            "quote": p.quote,
            "default": p.default,
            "follows": self.follows,
            "options": [
                {"option": o.name, "label": o.label, "source": o.source, "encoded": o.encoded}
                | ({"reason": o.reason} if o.reason else {})
                for o in p.options.values()
            ],
        }


def concerns(rule: Rule) -> list[Concern]:
    """The contested points the rule encodes a reading of, or whose disputed words it quotes."""
    when = dict(rule.when)
    quoted = " ".join(c.quote for c in rule.citations)
    return [Concern(p, when.get(name)) for name, p in points().items() if name in when or p.quote in quoted]


def readings_of(rule: Rule) -> dict[str, str]:
    """The readings under which the rule is in force: the defaults, with the rule's `when`."""
    return defaults() | dict(rule.when)


def window(trace: Trace, line: int, size: int = WINDOW) -> tuple[tuple[int, str], ...]:
    lo, hi = max(1, line - size), min(len(trace.source_lines), line + size)
    return tuple((n, trace.line_text(n)) for n in range(lo, hi + 1))


@cache
def _load(path: Path, shown: str) -> tuple[Trace, Context]:
    from xiangshe.domain.parse import parse_file

    trace = parse_file(path, shown)
    return trace, Context(trace, replay(trace))


def failing(rule: Rule, path: Path, shown: str) -> Example | None:
    """The first finding of `rule` in its violating example, with the lines around it."""
    trace, _ = _load(path, shown)
    readings = readings_of(rule)
    result = check_trace(trace, active_rules(readings), readings)
    found = next((f for f in result.findings if f.rule == rule.id), None)
    if found is None:
        return None
    if found.line is None:
        return Example(shown, None, (), Message("example.whole"), found)
    return Example(shown, found.line, window(trace, found.line), Message("example.line"), found)


def _first_concerned(rule: Rule, trace: Trace, ctx: Context) -> tuple[int, str] | None:
    t = rule.template
    if t.of_cast and not t.prohibition:  # a rule of the pairs: the first pair it speaks of
        first = t.persons()[0]
        for pair in trace.cast.pairs.values():
            for who in (pair.upper, pair.lower):
                if person_matches(first, trace.cast.persons[who]) and pair.line:
                    return pair.line, Message("example.first-pair", who=first, pair=pair.name)
        return None
    speaks_of = t.speaks_of()
    for e in trace:
        for pattern in speaks_of:
            if ctx.matches(pattern, e):
                return e.line, Message("example.first-event", pattern=pattern)
    return None


def passing(rule: Rule, stagings: Sequence[tuple[Path, str]]) -> Example | None:
    """The first staging that keeps the rule, at the first event (or pair) the rule speaks of; for a
    prohibition (absence, cast_absence, occasion_absence), the first staging that keeps it (and where
    it is in force), without a window."""
    if not rule.encoded:
        return None
    t = rule.template
    for path, shown in stagings:
        trace, ctx = _load(path, shown)
        if rule_findings(trace, ctx, rule):
            continue
        if t.prohibition:
            if not t.applies(trace.cast):
                continue
            return Example(shown, None, (), Message("example.nothing", what=t.forbidden()))
        first = _first_concerned(rule, trace, ctx)
        if first is not None:
            line, note = first
            return Example(shown, line, window(trace, line), Message("example.kept", note=note))
    return None


@dataclass(frozen=True)
class Explanation:
    rule: Rule
    concerns: tuple[Concern, ...]
    passing: Example | None
    failing: Example | None
    failing_files: tuple[str, ...]  # every violating example of the rule


def explain(rule: Rule, violations: Path, stagings: Sequence[Path], root: Path) -> Explanation:
    """The rule's contested readings and examples; paths are shown relative to `root`."""

    def rel(p: Path) -> str:
        return str(p.relative_to(root))

    files = bundled.of_rule(violations, rule.id)
    fail = next((x for x in (failing(rule, p, rel(p)) for p in files) if x is not None), None)
    # stagings written to keep this rule where a too-strong reading would not (traces/keeps/)
    own = bundled.of_rule(violations.parent / bundled.KEEPS.name, rule.id)
    keep = passing(rule, [(p, rel(p)) for p in [*own, *stagings]])
    if keep is None:  # e.g. rules of the 君: the violating examples of other rules may keep it
        others = sorted(p for p in violations.glob("*.trace") if p not in files)
        keep = passing(rule, [(p, rel(p)) for p in others])
        if keep is not None:
            other = Path(keep.path).stem.split(".")[0]
            keep = replace(keep, note=Message("example.breaks-other", note=keep.note, other=other))
    return Explanation(rule, tuple(concerns(rule)), keep, fail, tuple(rel(p) for p in files))


# -- what a word names: rules, a machine, a check of the scoring audit ---------------------------

MACHINE, AUDIT = "machine.", "audit."
AUDIT_DEFINED = "constraints/scoring.py"


@dataclass(frozen=True)
class AuditCheck:
    """A check of the scoring audit, whose findings carry the id `audit.<catalogue>`."""

    id: str
    catalogue: str
    what: str
    citation: Citation
    defined: str = AUDIT_DEFINED


def audit_checks() -> tuple[AuditCheck, ...]:
    return tuple(AuditCheck(audit_id(c), c, what, TEXT.cite(quote)) for c, what, quote in AUDIT_CHECKS)


@dataclass(frozen=True)
class ScopeCheck:
    """A check of what a staging claims to be (constraints/scope.py): `scope.phases`, `scope.open`,
    `scope.fragment`."""

    id: str
    name: str
    what: str
    citation: Citation
    defined: str = "constraints/scope.py"


def scope_checks() -> tuple[ScopeCheck, ...]:
    return tuple(ScopeCheck(i, SCOPE_NAMES[i], SCOPE_WHAT[i], TEXT.cite(SCOPE_QUOTES[i])) for i in SCOPE_IDS)


class UnknownSubject(LookupError):
    """A word that names no rule, machine or audit check; the message says what was meant."""


def _spellings(word: str) -> list[str]:
    """The word as written, folded to the vocabulary's characters (traditional → simplified,
    full-width → ASCII), and in either case of ASCII: `不貫不釋`, `Ｒ120`, `r120`, `BU-GUAN-BU-SHI`."""
    w = word.strip()
    folded = fold(w)
    return list(dict.fromkeys([w, folded, folded.lower(), folded.upper()]))


def subject_names() -> list[str]:
    """Every word `explain` knows: rule ids, names and catalogue ids, machine and audit ids."""
    rules = rulebook()
    return (
        [r.id for r in rules]
        + [r.name for r in rules]
        + [r.catalogue for r in rules if r.catalogue]
        + [f"{MACHINE}{t.slug}" for t in tables()]
        + [a.id for a in audit_checks()]
        + list(SCOPE_IDS)
    )


def resolve(word: str) -> list[Rule] | Table | AuditCheck | ScopeCheck:
    """The rules (ASCII id, Chinese name or catalogue id), the machine (`machine.<slug>`, or
    `machine.<name>`) or the audit check (`audit.<catalogue>`) a word names, in any script and case;
    a catalogue id that only the audit checks (N01) names its audit check.

    >>> [r.id for r in resolve("不貫不釋")], [r.id for r in resolve("r120")]
    (['bu-guan-bu-shi'], ['bu-guan-bu-shi'])
    >>> resolve("Machine.Jue").name, resolve("audit.R132").catalogue, resolve("n01").id
    ('爵', 'R132', 'audit.n01')
    """
    spellings = _spellings(word)
    for w in spellings:
        head, dot, rest = w.partition(".")
        if not dot:
            continue
        if f"{head.lower()}." == MACHINE:
            for t in tables():
                if rest in (t.slug, t.name) or rest.lower() == t.slug:
                    return t
        if f"{head.lower()}." == AUDIT:
            for a in audit_checks():
                if rest.upper() == a.catalogue:
                    return a
        for sc in scope_checks():
            if w.lower() == sc.id:
                return sc
    found: list[Rule] = []
    for w in spellings:
        found += [r for r in find_rule(w) if r not in found]
    if found:
        return found
    for a in audit_checks():
        if a.catalogue in spellings:
            return a
    folded = fold(word.strip())
    folded = folded.lower() if folded.isascii() else folded
    machines = [f"{MACHINE}{t.slug}" for t in tables() if folded in (t.slug, t.name)]
    hint = Message("input.did-you-mean", words=machines[0]) if machines else did_you_mean(folded, subject_names())
    raise UnknownSubject(Message("input.no-subject", word=word, hint=hint))
