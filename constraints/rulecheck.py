"""CI checks on the rulebook itself (`xiangshe check-rules`).

- quotes: every rule's and machine edge's quote is verbatim and unambiguous in the text (the
  loaders refuse anything else; this check reports the counts);
- machines: every state is reachable from the initial state, and none but a declared final state
  is a trap (a state with no way out);
- vacuity: every rule's acts occur in the bundled stagings, and every rule that obliges something
  (precedence, count, alternation …) is triggered there at least once — or the allow-list
  constraints/vacuity.toml says why no staging the text describes can trigger it (a note, not a
  warning; an entry for a rule that is triggered, or for no rule, is an error);
- consistency: the bundled stagings keep every machine and every rule in force (a witness that
  they can all hold together), and z3 finds a trace on which all the rules and machines hold
  together; if it cannot, the unsat core names the rules in conflict, with their quotes;
- redundancy: a rule is independent when a trace breaks it and nothing else — its bundled violating
  example, or else a counterexample z3 finds (up to k steps); a rule with neither is implied by the
  machines and the other rules up to that length — reported as a warning, never called a proof.
"""

from __future__ import annotations

import tomllib
from collections import deque
from collections.abc import Callable, Mapping, Sequence
from dataclasses import field
from pathlib import Path
from typing import TYPE_CHECKING

from xiangshe.constraints.check import check_trace
from xiangshe.constraints.pattern import Context
from xiangshe.constraints.rulebook import Rule
from xiangshe.domain.dataclass import dataclass
from xiangshe.domain.messages import Join, Message
from xiangshe.domain.trace import Trace
from xiangshe.fsm.replay import replay
from xiangshe.fsm.table import Table

if TYPE_CHECKING:
    from xiangshe.constraints.solving import Solver

Progress = Callable[[str], None]

#: rules no staging the text describes can trigger, and why: `[[allow]] rule = "…" reason = "…"`
VACUITY_ALLOWLIST = Path(__file__).with_name("vacuity.toml")


def load_vacuity_allowlist(rules: Sequence[Rule], path: Path = VACUITY_ALLOWLIST) -> dict[str, str]:
    """The allow-list of vacuous rules: rule id → reason. Refuses an unknown id, a duplicate, an
    entry without a reason (a ValueError naming the file and the entry)."""
    if not path.exists():
        return {}
    data = tomllib.loads(path.read_text(encoding="utf-8"))
    unknown_keys = set(data) - {"allow"}
    if unknown_keys:
        raise ValueError(f"{path.name}: unknown table(s) {', '.join(sorted(unknown_keys))}; write [[allow]] entries")
    ids = {r.id for r in rules}
    out: dict[str, str] = {}
    for n, entry in enumerate(data.get("allow", []), 1):
        rid, reason = entry.get("rule"), str(entry.get("reason", "")).strip()
        extra = set(entry) - {"rule", "reason"}
        if not rid or not reason or extra:
            raise ValueError(f"{path.name}: entry {n}: write rule = \"<id>\" and reason = \"…\" (only)")
        if rid not in ids:
            from xiangshe.domain.errors import did_you_mean

            raise ValueError(f"{path.name}: entry {n}: no rule {rid!r}; {did_you_mean(rid, sorted(ids))}")
        if rid in out:
            raise ValueError(f"{path.name}: entry {n}: {rid} is listed twice")
        out[rid] = reason
    return out


@dataclass
class Item:
    check: str  # quotes | machines | vacuity | consistency | redundancy
    subject: str  # a rule id, a machine, a trace …
    ok: bool
    message: str
    location: str | None = None  # where the subject is defined (path:line)
    quote: str | None = None
    source_line: int | None = None
    severity: str = "error"  # error | warning | note


@dataclass
class Report:
    items: list[Item] = field(default_factory=list)
    #: the rules checked when check-rules was asked for some only (`--rule`); None: every rule in force
    only: list[str] | None = None

    @property
    def ok(self) -> bool:
        return all(i.ok or i.severity != "error" for i in self.items)

    def add(self, *items: Item) -> None:
        self.items.extend(items)


def check_quotes(rules: Sequence[Rule], tables: Sequence[Table]) -> list[Item]:
    n_rules = sum(len(r.citations) for r in rules)
    n_edges = sum(len(t.edges) for t in tables)
    return [
        Item(
            "quotes",
            "all",
            True,
            Message("rulecheck.quotes", rules=n_rules, edges=n_edges),
        )
    ]


def check_machines(tables: Sequence[Table]) -> list[Item]:
    out = []
    for t in tables:
        seen = {t.initial}
        queue = deque([t.initial])
        while queue:
            s = queue.popleft()
            for e in t.edges:
                if e.source == s and e.dest not in seen:
                    seen.add(e.dest)
                    queue.append(e.dest)
        unreachable = [s for s in t.states if s not in seen]
        traps = [s for s in t.states if not t.allowed(s) and s not in t.final]
        ok = not unreachable and not traps
        msg = (
            Message("rulecheck.machine", states=len(t.states), edges=len(t.edges))
            if ok
            else Join(
                filter(
                    None,
                    [
                        Message("rulecheck.unreachable", states=", ".join(unreachable)) if unreachable else "",
                        Message("rulecheck.traps", states=", ".join(traps)) if traps else "",
                    ],
                ),
                "; ",
                "；",
            )
        )
        out.append(Item("machines", t.name, ok, msg, t.path))
    return out


def check_vacuity(
    rules: Sequence[Rule], stagings: Sequence[Trace], allowed: Mapping[str, str] | None = None
) -> list[Item]:
    """Each encoded rule: are its acts staged and is it triggered? `allowed` (rule id → reason, the
    allow-list): a rule the stagings leave vacuous is a note 「not staged: reason」; an allowed rule
    that IS triggered is an error (the entry is stale)."""
    allowed = allowed or {}
    ctxs = [Context(t, replay(t)) for t in stagings]
    acts = {e.act for t in stagings for e in t}
    roles = {p.role for t in stagings for p in t.cast.persons.values()}
    out = []
    for r in rules:
        if not r.encoded:
            continue
        pats = r.template.patterns()
        if not pats:  # a cast rule: it speaks of every pair of every staging
            out.append(Item("vacuity", r.id, True, Message("rulecheck.cast"), r.location))
            continue
        named = {a for p in pats for a in (p.acts or ())}
        missing = sorted(a for a in named if a not in acts)
        triggers = r.template.triggers()
        fired = not triggers or any(ctx.matches(p, e) for p in triggers for ctx in ctxs for e in ctx.trace)
        absent = sorted({role for p in pats for role in (p.roles or ()) if role not in roles})
        if not any(r.template.applies(t.cast) for t in stagings):
            # a rule of the occasion is in force only in a staging whose occasion meets its `given`
            ok, absent = False, [Message("rulecheck.held-where", given=r.template.condition())]
        elif r.template.prohibition:
            # a prohibition is in force wherever its actors take part: that the forbidden act is
            # never staged is the point (`* 宿戒`), not a sign that the rule is vacuous
            ok = len(absent) < len({role for p in pats for role in (p.roles or ())}) or any(not p.roles for p in pats)
        else:
            # a pattern with any act (`宾 * phase=Φ52`) names no act that could be missing
            ok = fired and (len(missing) < len(named) or any(not p.acts for p in pats))
        severity = "note" if ok else "error" if not fired else "warning"
        if not ok and absent:
            severity = "warning"
        msg = (
            Message("rulecheck.triggered")
            if ok
            else Message(
                "rulecheck.never-triggered",
                unstaged=Message("rulecheck.unstaged", acts=", ".join(missing)) if missing else "",
                absent=Message("rulecheck.absent", who=Join(absent)) if absent else "",
            )
        )
        if r.id in allowed:
            if ok:
                msg, ok, severity = (
                    Message("rulecheck.allow-listed", file=VACUITY_ALLOWLIST.name),
                    False,
                    "error",
                )
            else:
                msg, ok, severity = Message("rulecheck.not-staged", reason=allowed[r.id]), True, "note"
        out.append(Item("vacuity", r.id, ok, msg, r.location, r.citations[0].quote, r.citations[0].line, severity))
    return out


def check_consistency(rules: Sequence[Rule], stagings: Sequence[Trace], readings: dict[str, str]) -> list[Item]:
    out = []
    for t in stagings:
        result = check_trace(t, rules, readings)
        out.append(
            Item(
                "consistency",
                t.path,
                result.ok,
                Message("rulecheck.keeps")
                if result.ok
                else Message(
                    "rulecheck.violations",
                    n=len(result.findings),
                    rules=str(sorted({f.rule for f in result.findings})[:6]),
                ),
            )
        )
    out.append(_z3_consistency(rules))
    return out


def _z3_consistency(rules: Sequence[Rule], k: int = 4) -> Item:
    """All rules and machines together admit a trace of k real events (z3). Asked first without
    tracking (tracked assertions make z3 several times slower: it cannot simplify across them);
    only if they conflict is it asked again, tracking each rule, for the unsat core naming them."""
    import z3

    from xiangshe.constraints.search import Search, search_cast
    from xiangshe.constraints.solving import Solver
    from xiangshe.domain.vocabulary import vocabulary

    encoded = [r for r in rules if r.encoded]
    search = Search(k, set(vocabulary().acts), search_cast())
    formulas = [r.template.encode(search.sym) for r in encoded]
    real = [search.sym.slots["act"][t] != 0 for t in search.sym.steps]

    def solver() -> Solver:
        s = Solver()
        s.set("random_seed", 0)
        s.add(*search.sym.constraints, *search.constraints, *real)
        return s

    s = solver()
    s.add(*formulas)
    result = s.check()
    if result == z3.sat:
        return Item(
            "consistency",
            "z3",
            True,
            Message("rulecheck.z3-holds", rules=len(encoded), events=k),
        )
    if result == z3.unknown:
        return _gave_up(s)
    s = solver()
    s.set("core.minimize", True)
    tracked = {}
    for r, f in zip(encoded, formulas, strict=True):
        tracked[r.id] = r
        s.assert_and_track(f, z3.Bool(r.id))
    if s.check() != z3.unsat:  # unsat without tracking, but no core with it: z3 gave up on the core
        return _gave_up(s)
    core = sorted(str(c) for c in s.unsat_core())
    named = [f"{rid} 「{tracked[rid].citations[0].quote}」" for rid in core if rid in tracked]
    return Item(
        "consistency",
        "z3",
        False,
        Message("rulecheck.z3-conflict", events=k, rules="; ".join(named))
        if named
        else Message("rulecheck.z3-machines", events=k),
    )


def _gave_up(s: Solver) -> Item:
    """z3 answered unknown: a warning with its reason, never taken for consistency."""
    return Item(
        "consistency", "z3", False, Message("rulecheck.z3-gave-up", reason=s.reason_unknown()), severity="warning"
    )


def check_redundancy(
    rules: Sequence[Rule],
    readings: dict[str, str],
    examples: Mapping[str, Sequence[Trace]],
    depth: int,
    search_all: bool = False,
    progress: Progress | None = None,
    jobs: int = 1,
    subjects: Sequence[Rule] | None = None,
) -> list[Item]:
    """Is each encoded rule (of `subjects`; by default, of `rules`) independent of the machines and
    the other rules? A witness settles it:
    a trace that breaks the rule and nothing else (its bundled violating example, checked now under
    the readings in force). A rule without one is searched by z3 for a counterexample of at most
    `depth` steps (every rule is, with `search_all`); none found: reported as implied up to that
    length, never as a proof. With `jobs` > 1 the searches run in that many processes (each
    loads the rulebook under the same readings: only for rules of the rulebook)."""
    from xiangshe.constraints.search import witness

    encoded = [r for r in (rules if subjects is None else subjects) if r.encoded]
    verdicts: dict[str, Item] = {}
    to_search = []
    for i, r in enumerate(encoded, 1):
        if progress:
            progress(f"redundancy {i}/{len(encoded)} {r.id}: witness")
        seen = None if search_all else witness(r, examples.get(r.id, ()), rules, readings)
        if seen is not None:
            verdicts[r.id] = Item(
                "redundancy",
                r.id,
                True,
                Message("rulecheck.witness", path=seen.path),
                r.location,
                severity="note",
            )
        elif not depth:
            verdicts[r.id] = Item(
                "redundancy",
                r.id,
                True,
                Message("rulecheck.no-search"),
                r.location,
                severity="warning",
            )
        else:
            to_search.append(r)
    if jobs > 1 and len(to_search) > 1:
        from xiangshe.constraints.workers import pool

        with pool(jobs) as workers:  # terminated however the block is left (Ctrl-C: at once)
            pending = [workers.apply_async(_search_in_rulebook, (r.id, readings, depth)) for r in to_search]
            for n, (r, job) in enumerate(zip(to_search, pending, strict=True), 1):
                if progress:
                    progress(f"redundancy: z3 search {n}/{len(to_search)} {r.id}")
                verdicts[r.id] = _search_item(r, depth, *job.get())
    else:
        for n, r in enumerate(to_search, 1):
            if progress:
                progress(f"redundancy: z3 search {n}/{len(to_search)} {r.id}")
            verdicts[r.id] = _search_item(r, depth, *_search(r, rules, depth))
    return [verdicts[r.id] for r in encoded]


def _search(rule: Rule, rules: Sequence[Rule], depth: int) -> tuple[str, int | None, str]:
    from xiangshe.constraints.search import Disagreement, Exhausted, Unknown, refute

    try:
        outcome = refute(rule, rules, depth)
    except Disagreement as e:  # a bug of the z3 meaning or of the checker: report it, do not crash
        return "disagree", None, str(e).splitlines()[0]
    if isinstance(outcome, Exhausted):
        return "none", None, ""
    if isinstance(outcome, Unknown):
        return "unknown", None, outcome.reason
    return "found", outcome.steps, ""


def _search_in_rulebook(rule_id: str, readings: dict[str, str], depth: int) -> tuple[str, int | None, str]:
    """A worker's search: the rulebook is loaded anew in the worker, under the same readings."""
    from xiangshe.constraints.rulebook import active_rules

    rules = active_rules(readings)
    return _search(next(r for r in rules if r.id == rule_id), rules, depth)


def _search_item(r: Rule, depth: int, kind: str, steps: int | None, reason: str) -> Item:
    if kind == "none":
        return Item(
            "redundancy",
            r.id,
            True,
            Message("rulecheck.implied", depth=depth),
            r.location,
            r.citations[0].quote,
            r.citations[0].line,
            "warning",
        )
    if kind == "unknown":
        return Item(
            "redundancy", r.id, True, Message("rulecheck.inconclusive", reason=reason), r.location, severity="warning"
        )
    if kind == "disagree":
        return Item(
            "redundancy",
            r.id,
            False,
            Message("rulecheck.disagree", reason=reason),
            r.location,
            severity="error",
        )
    return Item("redundancy", r.id, True, Message("rulecheck.counterexample", steps=steps), r.location, severity="note")


def check_rulebook(
    rules: Sequence[Rule],
    tables: Sequence[Table],
    stagings: Sequence[Trace],
    readings: dict[str, str],
    examples: Mapping[str, Sequence[Trace]],
    redundancy: int = 16,
    search_all: bool = False,
    progress: Progress | None = None,
    jobs: int = 1,
    only: Sequence[Rule] | None = None,
) -> Report:
    """Every check on `rules`; with `only`, the checks of those rules alone: their vacuity, their
    consistency with the machines (in the stagings and in z3) and their independence of everything
    else in force (a witness breaks the rule and no other rule of `rules`)."""
    checked = rules if only is None else only
    report = Report(only=None if only is None else [r.id for r in only])
    steps: tuple[tuple[str, Callable[[], list[Item]]], ...] = (
        ("quotes", lambda: check_quotes(checked, tables)),
        ("machines", lambda: check_machines(tables)),
        ("vacuity", lambda: check_vacuity(checked, stagings, load_vacuity_allowlist(rules))),
        ("consistency", lambda: check_consistency(checked, stagings, readings)),
    )
    for name, step in steps:
        if progress:
            progress(name)
        report.add(*step())
    report.add(*check_redundancy(rules, readings, examples, redundancy, search_all, progress, jobs, checked))
    return report


def check_bundled(
    readings: dict[str, str],
    redundancy: int = 16,
    search_all: bool = False,
    progress: Progress | None = None,
    jobs: int = 1,
    only: Sequence[str] = (),
) -> Report:
    """`check_rulebook` on the rules in force under `readings`, the machines, and the bundled stagings
    and violating examples (what `xiangshe check-rules` checks); `only`: the ids of the rules to
    check (`--rule`), every rule in force when empty."""
    from xiangshe.constraints.rulebook import active_rules
    from xiangshe.domain import bundled
    from xiangshe.domain.parse import parse_file
    from xiangshe.fsm.table import tables

    rules = active_rules(readings)
    wanted = set(only) if only else None
    chosen = None if wanted is None else [r for r in rules if r.id in wanted]
    stagings = [parse_file(p, bundled.shown(p)) for p in bundled.stagings()]
    examples = {
        rid: [parse_file(p, bundled.shown(p)) for p in paths]
        for rid, paths in bundled.violations().items()
        if wanted is None or rid in wanted
    }
    return check_rulebook(rules, tables(), stagings, readings, examples, redundancy, search_all, progress, jobs, chosen)
