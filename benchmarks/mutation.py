"""Mutation of the canonical ceremony: every single-event mutant, checked; which rules kill it.

    python benchmarks/mutation.py                       # every mutant, 2 processes; writes nothing
    python benchmarks/mutation.py --ops delete,swap --stride 10 --json a.json  # every 10th mutant
    python benchmarks/mutation.py --report docs/mutation-report.md --merge a.json b.json
    python benchmarks/mutation.py --differential 50     # Python vs z3 on mutants at every 50th event

Operators, on `traces/canonical.trace` (event i, 0-based):
  delete     remove event i
  duplicate  event i twice in a row
  swap       events i and i+1 exchanged
  actor      the actor of event i replaced by each other person who acts in the same phase (the
             persons present at that point of the ceremony; a personal object such as 矢 follows
             its new actor unless the event names a recipient with to=)

Each mutant is checked in-process by the checker the CLI uses (`constraints.check.check_trace`:
machines, every encoded rule in force, the scoring audit); an exception is a crash, reported as such.
A mutant is *rejected* if it has any finding, *accepted* otherwise. A mutant is *killed* by a rule
when the rule has a finding on it; the checker evaluates every rule whatever the machines say, so no
kill is masked by a machine refusal, but kills that a machine also makes are counted apart
("with a machine") from those that only rules make.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections import Counter, defaultdict
from collections.abc import Iterator
from dataclasses import dataclass, replace
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))

from xiangshe.constraints.check import check_trace  # noqa: E402
from xiangshe.constraints.rulebook import Rule, active_rules  # noqa: E402
from xiangshe.domain.parse import parse_file  # noqa: E402
from xiangshe.domain.trace import Event, ObjectRef, Trace  # noqa: E402
from xiangshe.domain.vocabulary import vocabulary  # noqa: E402

CANONICAL = ROOT / "traces" / "canonical.trace"
OPS = ("delete", "duplicate", "swap", "actor")


@dataclass(frozen=True)
class Mutant:
    op: str
    at: int  # the mutated event (0-based)
    detail: str = ""  # for `actor`: the new actor

    @property
    def name(self) -> str:
        return f"{self.op}@{self.at}" + (f"→{self.detail}" if self.detail else "")

    def events(self, ev: list[Event]) -> tuple[Event, ...]:
        i = self.at
        if self.op == "delete":
            return _renumber(ev[:i] + ev[i + 1 :])
        if self.op == "duplicate":
            return _renumber(ev[: i + 1] + ev[i:])
        if self.op == "swap":
            return _renumber(ev[:i] + [ev[i + 1], ev[i]] + ev[i + 2 :])
        return tuple(ev[:i] + [with_actor(ev[i], self.detail)] + ev[i + 1 :])


def _renumber(events: list[Event]) -> tuple[Event, ...]:
    return tuple(e if e.index == k else replace(e, index=k) for k, e in enumerate(events))


def with_actor(e: Event, who: str) -> Event:
    """Event `e` as if its line named `who` as the actor (a personal object follows the actor)."""
    obj = e.obj
    if obj is not None and vocabulary().objects[obj.kind].personal and e.get("to") is None:
        obj = ObjectRef(obj.kind, who)
    words = e.text.split(maxsplit=1)
    return replace(e, actor=who, obj=obj, text=" ".join([who, *words[1:]]))


def present(trace: Trace) -> dict[str | None, list[str]]:
    """The persons who act in each phase, in order of first appearance."""
    out: dict[str | None, list[str]] = defaultdict(list)
    for e in trace.events:
        if e.actor not in out[e.phase]:
            out[e.phase].append(e.actor)
    return out


def mutants(trace: Trace, ops: tuple[str, ...] = OPS) -> Iterator[Mutant]:
    ev = trace.events
    persons = present(trace)
    for i in range(len(ev)):
        if "delete" in ops:
            yield Mutant("delete", i)
        if "duplicate" in ops:
            yield Mutant("duplicate", i)
        if "swap" in ops and i + 1 < len(ev):
            yield Mutant("swap", i)
        if "actor" in ops:
            for who in persons[ev[i].phase]:
                if who != ev[i].actor:
                    yield Mutant("actor", i, who)


def as_trace(base: Trace, m: Mutant) -> Trace:
    return Trace(base.path, list(m.events(list(base.events))), base.cast, base.phase_lines, base.source_lines)


def judge(base: Trace, m: Mutant, rules: list[Rule]) -> tuple[str, ...] | str:
    """The sorted ids of what objects to mutant `m` (rules, machine.*, audit.*), or a crash."""
    try:
        result = check_trace(as_trace(base, m), rules)
    except Exception as err:  # a crash is what this benchmark is looking for
        return f"CRASH {type(err).__name__}: {err}"
    return tuple(sorted({f.rule for f in result.findings}))


# -- running, possibly in several processes -------------------------------------------------------

_STATE: dict = {}


def _init(ops: tuple[str, ...], stride: int) -> None:
    base = parse_file(CANONICAL, "traces/canonical.trace")
    _STATE.update(base=base, rules=active_rules(), ops=ops, stride=stride)


def _work(part: tuple[int, int]) -> list[tuple[str, str, int, tuple[str, ...] | str]]:
    k, parts = part
    base, rules, stride = _STATE["base"], _STATE["rules"], _STATE["stride"]
    out = []
    for j, m in enumerate(mutants(base, _STATE["ops"])):
        if j % stride == 0 and (j // stride) % parts == k:
            out.append((m.op, m.name, m.at, judge(base, m, rules)))
    return out


def run(ops: tuple[str, ...], stride: int, jobs: int) -> list[tuple[str, str, int, tuple[str, ...] | str]]:
    if jobs <= 1:
        _init(ops, stride)
        return _work((0, 1))
    import multiprocessing as mp

    with mp.get_context("fork").Pool(jobs, _init, (ops, stride)) as pool:
        parts = pool.map(_work, [(k, jobs) for k in range(jobs)])
    return sorted((r for p in parts for r in p), key=lambda r: (OPS.index(r[0]), r[2], r[1]))


# -- the report -------------------------------------------------------------------------------------


def summarise(results, rules: list[Rule]) -> dict:
    per_op: dict[str, Counter] = defaultdict(Counter)
    kills: Counter = Counter()
    kills_alone: Counter = Counter()  # mutants that this rule is the only one to reject
    kills_no_machine: Counter = Counter()  # mutants that no machine rejects, and this rule does
    machines: Counter = Counter()
    first: dict[str, str] = {}
    crashes = []
    deletions: dict[str, bool] = {}  # each deleted event (0-based, as text: JSON's keys): accepted?
    for op, name, at, verdict in results:
        per_op[op]["mutants"] += 1
        if op == "delete" and not isinstance(verdict, str):
            deletions[str(at)] = not verdict
        if isinstance(verdict, str):
            per_op[op]["crashed"] += 1
            crashes.append((name, verdict))
            continue
        per_op[op]["rejected" if verdict else "accepted"] += 1
        machine = [v for v in verdict if v.startswith("machine.")]
        per_op[op]["by a machine"] += bool(machine)
        per_op[op]["by rules only"] += bool(verdict) and not machine
        for v in verdict:
            (machines if v.startswith("machine.") else kills)[v] += 1
            first.setdefault(v, name)
            if not v.startswith("machine."):
                kills_alone[v] += len(verdict) == 1
                kills_no_machine[v] += not machine
    encoded = sorted(r.id for r in rules if r.encoded)
    return {
        "per_op": {op: dict(c) for op, c in per_op.items()},
        "kills": {r: kills.get(r, 0) for r in encoded} | {a: n for a, n in kills.items() if a.startswith("audit.")},
        "kills_alone": dict(kills_alone),
        "kills_no_machine": dict(kills_no_machine),
        "machines": dict(machines),
        "first": first,
        "crashes": crashes,
        "unkilled": [r for r in encoded if not kills.get(r)],
        "deletions": deletions,
    }


def merge(summaries: list[dict]) -> dict:
    """Add up the summaries of several runs (e.g. one per operator)."""
    out: dict = {
        "per_op": {},
        "kills": {},
        "kills_alone": {},
        "kills_no_machine": {},
        "machines": {},
        "first": {},
        "crashes": [],
        "runs": [],
        "deletions": {},
    }
    for s in summaries:
        out["deletions"] |= s.get("deletions", {})
        out["per_op"] |= s["per_op"]
        for key in ("kills", "kills_alone", "kills_no_machine", "machines"):
            for k, v in s[key].items():
                out[key][k] = out[key].get(k, 0) + v
        for k, v in s["first"].items():
            out["first"].setdefault(k, v)
        out["crashes"] += s["crashes"]
        out["runs"].append({k: s[k] for k in ("ops", "stride", "jobs", "seconds", "checked")})
    out["unkilled"] = sorted(r for r, n in out["kills"].items() if not n and not r.startswith("audit."))
    return out


def why_unkilled(rule: Rule, base: Trace) -> tuple[str, list[tuple[str, str, int]]]:
    """A first diagnosis from the rule's kind and, per pattern, the canonical events matching it."""
    from xiangshe.constraints.pattern import Context
    from xiangshe.fsm.replay import replay

    ctx = Context(base, replay(base))
    t = rule.template
    hits = {f: [e.index for e in base.events if ctx.matches(getattr(t, f), e)] for f in t.fields}
    counts = [(f, str(getattr(t, f)), len(hits[f])) for f in t.fields]
    if t.of_cast:
        return "about the cast (who is present, who is paired with whom): no event mutation changes it", counts
    if t.prohibition:
        return (
            "a prohibition that the ceremony keeps: it is broken only by an event matching its "
            "pattern, and no deletion, duplication, swap or change of actor among the persons "
            "present makes one"
        ), counts
    limit, order = t.limit(), t.order()
    if limit is not None and not any(hits[f] for f in t.fields):
        return "its pattern matches no event of the canonical ceremony: a duplication has nothing to repeat", counts
    if t.trigger_fields and not any(hits[f] for f in t.trigger_fields):
        return "never triggered by the canonical ceremony: its trigger matches no event", counts
    if (order is not None or "op" in t.number_fields) and not (hits["first"] and hits["then"]):
        return "never triggered by the canonical ceremony: one of its patterns matches no event", counts
    if "op" in t.number_fields:
        before = [sum(f < x for f in hits["first"]) for x in hits["then"]]
        gap = min(abs(x - y) for x in hits["then"] for y in hits["first"])
        return (
            f"the `first` events before each `then` must number {t.op} {t.n}; in the ceremony they "
            f"number {min(before)}–{max(before)} (correlation aside), and the nearest `first` is "
            f"{gap} events from a `then`, so a swap (one place) or a duplication does not change a "
            "count that matters"
        ), counts
    if order is not None and order[0] == "precedence":
        least = min(sum(f < x for f in hits["first"]) for x in hits["then"])
        if least >= 2:
            return (
                f"every `then` event has at least {least} matching `first` events before it "
                "(correlation aside): deleting one leaves another, and a swap moves it past "
                "nothing it needs"
            ), counts
        return (
            f"some `then` event has only {least} matching `first` event before it (correlation "
            "aside), but deleting it is not a violation once the correlation (same …) is applied: "
            "a `first` event of another key answers it"
        ), counts
    if order is not None:
        least = min(sum(x > f for x in hits["then"]) for f in hits["first"])
        return (f"every `first` event has at least {least} matching `then` events after it (correlation aside)"), counts
    return "triggered, and no single mutation breaks it (see the notes)", counts


NOTES = """\
What the diagnoses above come to, having looked at each kind:

- **The cast rules** (`pair`, `cast_absence`: 宾与主人为耦, 大夫与士为耦, 无介 …) speak of who is
  present and who is paired with whom. No event mutation touches the cast, so they cannot kill a
  mutant; their violating examples and the random pairings of tests/test_differential.py reach them.
- **Prohibitions** (`absence`) that the ceremony keeps are broken only by an event that matches the
  forbidden pattern. Deletion, duplication and swap re-use events that pass (the phase travels with
  its event) but may change the states they meet (deleting a 袒决遂 kills 袒决遂而后射), and a change
  of actor kills many more (主人降自阼阶 …). Those that stay unkilled forbid an act that no one present at that
  point performs at all (君 取矢, anyone in Φ52 as 宾, 释获 in round 1, 加席 taken): a change of actor cannot
  create the act. This is expected, not a weakness: the violating examples in traces/violations/
  break each of them.
- **Never triggered**: the 君 rules (君袒朱襦以射, 君乐作而后就物, 上射退于物一笴 …) need a 君, who is
  in no bundled staging; they are exercised by their violating examples only.
- **Precedence with several candidates**: 工即位而后旅 is satisfied by any 工's 升 or 坐 (8 before the
  旅, with no correlation per 工), so a staging in which one 工 never goes up passes; 献获者于侯 has
  2 candidates. 献释获者释弓矢 (same round) has two in round 2: the 释弓 of Φ32 and the 释弓矢 of
  Φ35 that the text pairs with the 献; deleting the latter is not noticed because the former still
  precedes the 献, although the 司射 took his bow up again in between. The rule's own note says
  that taking the bow up again is not checked. **These are weaknesses of the encodings** (reported,
  not changed here): a correlation per 工, and "no 执弓 between the 释弓 and the 献", would close them.
- **count_before with `== 0`** (射爵者辩乃彻丰与觯): broken only by moving a `first` event (彻丰)
  before a `then` (卒觯); the nearest is 8 events away, beyond a swap's one place. (大夫之耦为上 and
  乐作大夫不入, of the same form, are killed by changes of actor.)
- **absence_between** (不去旌, 立饮不拜既爵, 旅酬卒觯不拜, 无算爵, 作相为司正 …): broken only by a
  forbidden event inside a window. Deleting or duplicating the window's own events puts none inside,
  and since every swap was tried, no forbidden event stands next to a window's edge (with the same
  correlated person) where one swap would bring it in.
- Every rule in this list has a violating example in traces/violations/ that the checker rejects
  (tests/test_cli.py), so none is dead; they are simply out of reach of one mutation.\
"""


def acceptance(per_op: dict[str, dict[str, int]]) -> str:
    """What the runs say of "ok": the share of each operator's mutants that pass every check,
    computed from the runs reported (the report once carried a fixed sentence that went stale)."""
    parts = [
        f"{op}, {c.get('accepted', 0):,} of {c.get('mutants', 0):,} ({c.get('accepted', 0) / c['mutants']:.0%})"
        for op, c in sorted(per_op.items())
        if c.get("mutants")
    ]
    return (
        "What each operator leaves accepted (the mutant passes every machine and every rule): "
        + "; ".join(parts)
        + ". An accepted deletion is a staging without that event that `check` calls ok: some delete "
        "what the trace says twice or what no rule can require, the others are rules not yet "
        "written (the table of deletions by act above). An accepted swap of neighbours may be an "
        "order the text leaves free."
    )


def _deletions_by_act(deletions: dict[str, bool], base: Trace) -> list[str]:
    """The deletions accepted, by the act deleted: where "ok" is said of a staging missing an event."""
    if not deletions:
        return []
    done: Counter = Counter()
    accepted: Counter = Counter()
    example: dict[str, Event] = {}
    for at, ok in deletions.items():
        e = base.events[int(at)]
        done[e.act] += 1
        if ok:
            accepted[e.act] += 1
            example.setdefault(e.act, e)
    out = [
        "## Deletions accepted, by the act deleted",
        "",
        f"{sum(accepted.values())} of {len(deletions)} deletions checked are accepted: the staging without "
        "that event passes every check. Some delete what the trace says twice or what no rule can "
        "require; the others are rules not yet written. The acts most often accepted, with the first "
        "such event (its line in traces/canonical.trace):",
        "",
        "| act | accepted | deleted | first accepted |",
        "|---|---|---|---|",
    ]
    for act, n in sorted(accepted.items(), key=lambda kv: (-kv[1], kv[0]))[:40]:
        e = example[act]
        out.append(f"| {act} | {n} | {done[act]} | line {e.line}: `{e.render()}` |")
    return [*out, ""]


def write_report(summary: dict, base: Trace, rules: list[Rule], path: Path, differential: str, fuzz: str = "") -> None:
    by_id = {r.id: r for r in rules}
    total = sum(c.get("mutants", 0) for c in summary["per_op"].values())
    out = [
        "# Mutation of the canonical ceremony",
        "",
        "Generated by `python benchmarks/mutation.py --report docs/mutation-report.md` from the runs "
        "listed below; the operators and the meaning of *killed* are in the docstring of "
        "benchmarks/mutation.py. The checker evaluates every rule whatever the machines say "
        "(constraints/check.py), so no kill is masked by a machine refusal; *alone* counts the "
        "mutants that only this rule rejects, *no machine* those that no machine rejects.",
        "",
        f"Canonical ceremony: {len(base)} events, {len(base.cast.persons)} persons; "
        f"{sum(r.encoded for r in rules)} encoded rules in force (default readings).",
        "",
        "## Runs",
        "",
        "| operators | stride | mutants checked | seconds | processes |",
        "|---|---|---|---|---|",
    ]
    for r in summary["runs"]:
        out.append(f"| {', '.join(r['ops'])} | {r['stride']} | {r['checked']} | {r['seconds']} | {r['jobs']} |")
    out += [
        "",
        "## Mutants per operator",
        "",
        "| operator | mutants | accepted | rejected | by a machine | by rules only | crashed |",
        "|---|---|---|---|---|---|---|",
    ]
    for op in OPS:
        c = summary["per_op"].get(op)
        if c:
            out.append(
                f"| {op} | {c.get('mutants', 0)} | {c.get('accepted', 0)} | {c.get('rejected', 0)} | "
                f"{c.get('by a machine', 0)} | {c.get('by rules only', 0)} | {c.get('crashed', 0)} |"
            )
    out += ["", f"{total} mutants checked, {len(summary['crashes'])} crashed.", ""]
    for name, what in summary["crashes"][:20]:
        out.append(f"- crash: `{name}`: {what}")
    out += _deletions_by_act(summary.get("deletions", {}), base)
    out += [
        "",
        "## Kills per rule",
        "",
        "Every encoded rule in force, most kills first; the first mutant "
        "that each kills is an example (`op@event`, 0-based).",
        "",
        "| rule | name | kind | kills | alone | no machine | first |",
        "|---|---|---|---|---|---|---|",
    ]
    for rid, n in sorted(summary["kills"].items(), key=lambda kv: (-kv[1], kv[0])):
        r = by_id.get(rid)
        out.append(
            f"| {rid} | {r.name if r else '数获 audit'} | {r.template.kind if r else 'audit'} | {n} | "
            f"{summary['kills_alone'].get(rid, 0)} | {summary['kills_no_machine'].get(rid, 0)} | "
            f"{summary['first'].get(rid, '')} |"
        )
    out += ["", "## Kills per machine", "", "| machine | kills | first |", "|---|---|---|"]
    for m, n in sorted(summary["machines"].items(), key=lambda kv: (-kv[1], kv[0])):
        out.append(f"| {m} | {n} | {summary['first'].get(m, '')} |")
    out += [
        "",
        f"## Rules that kill none ({len(summary['unkilled'])})",
        "",
        "For each: the diagnosis computed from the rule's kind, and how many events of the "
        "canonical ceremony match each of its patterns (in the template's order).",
        "",
    ]
    for rid in summary["unkilled"]:
        r = by_id[rid]
        reason, counts = why_unkilled(r, base)
        out.append(
            f"- **{rid}** {r.name} ({r.template.kind}): {reason}. "
            + "; ".join(f"{f} `{p}` matches {n}" for f, p, n in counts)
        )
    out += [
        "",
        "## Notes on the rules that kill none",
        "",
        NOTES,
        "",
        acceptance(summary["per_op"]),
        "",
        "## Differential agreement on mutants",
        "",
        differential
        or "Not run for this report (`--differential STRIDE`, then `--differential-line` with its result line); "
        "tests/test_mutation.py compares the two meanings on sampled windows in every test run.",
        "",
    ]
    if fuzz:
        out += ["## Fuzzing (bad input)", "", fuzz, ""]
    path.write_text("\n".join(out), encoding="utf-8")


def differential(stride: int, shard: str = "0/1") -> str:
    """Python vs z3 on every rule for the mutants of tests/test_mutation.py at every STRIDE-th event
    (`shard` K/N: only the K-th of every N of those events, to share the work among processes)."""
    import test_mutation as tm

    k, n = (int(x) for x in shard.split("/"))
    t0, count, bad = time.perf_counter(), 0, []
    for i in list(range(0, len(tm.LINES), stride))[k::n]:
        for name, lines in tm.window_mutants(i, every_actor=True):
            count += 1
            bad += [f"{name}: {d}" for d in tm.compare(name, lines)]
    seconds = time.perf_counter() - t0
    line = (
        f"{count} mutants (windows of {tm.WIDTH} events, every operator at every {stride}th event, "
        f"every other person present for the actor) × {len(tm.RULES)} encoded rules = "
        f"{count * len(tm.RULES)} comparisons in {seconds:.0f} s: {len(bad)} disagreements"
    )
    print(line)
    for b in bad[:20]:
        print("DISAGREE", b)
    return line


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--ops", default=",".join(OPS), help="comma-separated operators")
    ap.add_argument("--stride", type=int, default=1, help="check every STRIDE-th mutant only")
    ap.add_argument("--jobs", type=int, default=2, help="processes")
    ap.add_argument("--json", type=Path, help="write the summary here (JSON)")
    ap.add_argument("--report", type=Path, help="write the markdown report from the --merge files")
    ap.add_argument("--merge", type=Path, nargs="*", default=[], help="summaries (--json) to report on")
    ap.add_argument(
        "--differential",
        type=int,
        metavar="STRIDE",
        help="compare Python and z3 on the mutants at every STRIDE-th event instead",
    )
    ap.add_argument(
        "--shard",
        default="0/1",
        metavar="K/N",
        help="with --differential: the K-th of N shares of the events (run N processes)",
    )
    ap.add_argument("--differential-line", default="", help="the result line of a --differential run")
    ap.add_argument("--fuzz-line", default="", help="the result line of benchmarks/fuzz.py, for the report")
    args = ap.parse_args(argv)
    if args.differential:
        differential(args.differential, args.shard)
        return 0
    if args.report:
        summary = merge([json.loads(p.read_text(encoding="utf-8")) for p in args.merge])
        base = parse_file(CANONICAL, "traces/canonical.trace")
        write_report(summary, base, active_rules(), args.report, args.differential_line, args.fuzz_line)
        return 0
    ops = tuple(o for o in args.ops.split(",") if o)
    assert set(ops) <= set(OPS), ops
    t0 = time.perf_counter()
    results = run(ops, args.stride, args.jobs)
    seconds = time.perf_counter() - t0
    summary = summarise(results, active_rules()) | {
        "ops": list(ops),
        "stride": args.stride,
        "jobs": args.jobs,
        "seconds": round(seconds, 1),
        "checked": len(results),
    }
    for op, c in summary["per_op"].items():
        print(f"{op:10} {c}")
    print(
        f"{len(results)} mutants checked in {seconds:.1f} s ({1000 * seconds / max(1, len(results)):.0f} ms "
        f"each, {args.jobs} processes); {len(summary['crashes'])} crashed; "
        f"{len(summary['unkilled'])} encoded rules kill none"
    )
    if args.json:
        args.json.write_text(json.dumps(summary, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    return 1 if summary["crashes"] else 0


if __name__ == "__main__":
    sys.exit(main())
