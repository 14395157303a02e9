"""The fast paths of `check` give the results of the plain ones.

- `fsm.replay.replay` (edges looked up in a dict collected from each table's `transitions` Machine)
  gives the same Replay as `replay_triggers` (every event fired as a `transitions` trigger).
- `Context.hits` / `walk` (candidates from an index by act, phase and role, then a compiled test)
  find exactly the events that a plain reading of the pattern, event by event, matches; and so do
  the hits of every pattern found together in one pass (`constraints/network.py`, as `check` finds
  them), made anew for each staging, so that each branch works its signatures out first and then
  reads them back, and the acts it says the staging performs are those it performs.
- every rule's `holds` on the indexed Context equals `holds` on a Context that scans every event
  with that plain reading.
- an absence_between's `holds` (bisecting the instance's `after`s and `forbid`s at each `then`)
  equals the plain walk over every event of its three patterns (`walked_windows`).
- an alternate's `holds` (nothing, where every group's positions interleave) equals the plain walk
  over its events (`walked_alternation`).

On the bundled stagings and violations and on seeded mutants of the canonical ceremony (several
mutations each, random pairs), so that machines refuse and rules fire.

The inner loop (`-m "not z3 and not browser"`) takes one whole ceremony, mutant1 (a random cast,
and the most machine refusals of the twelve mutants, where the index meets the most distinct actors and states), and the
violating examples of one rule of each template kind and of every rule with a contested reading
(`rules_by_kind(…, 1)`): each template's patterns fire on a staging written to fire them. The
default run adds the canonical, the first variant, keeping and audit staging and two rules more of
each kind (`wide`); `-m slow` every staging and mutant.
"""

from __future__ import annotations

import random
from collections import Counter
from functools import cache
from pathlib import Path

import pytest
import tracegen
from sampling import rules_by_kind, tiered

from xiangshe.constraints.network import Network
from xiangshe.constraints.pattern import NONE, PERSON_ATTRS, Context, Pattern
from xiangshe.constraints.rulebook import rulebook
from xiangshe.constraints.templates import AbsenceBetween, Alternate, Violation, _alternating, _desc
from xiangshe.domain.messages import Message
from xiangshe.domain.parse import TraceErrors, parse_file, parse_lines
from xiangshe.domain.trace import Event, Trace
from xiangshe.domain.vocabulary import PERSON_KEYS
from xiangshe.fsm.replay import replay, replay_triggers

ROOT = Path(__file__).resolve().parents[1]
BUNDLED = sorted((ROOT / "traces").rglob("*.trace"))
RULES = [r for r in rulebook() if r.encoded]
PATTERNS = sorted({p for r in RULES for p in r.template.patterns()}, key=str)
#: the patterns walked together: neighbours in PATTERNS (overlapping or not), a pattern with itself, and three
WALKED = [PATTERNS[i : i + 2] for i in range(0, len(PATTERNS) - 1, 7)] + [PATTERNS[:1] * 2, PATTERNS[3:6]]
MUTANTS = 12
#: one, with a random cast (a whole ceremony: slow to scan): the one of the MUTANTS with the most machine
#: refusals (12 since the bows of passing of rounds 2–3 and of the penalty drinking were staged;
#: test_the_sampled_mutant_refuses_most holds it, and says which to take when a restaging changes the mutants)
SAMPLED_MUTANTS = (1,)
#: whole ceremonies are slow to scan plainly (~4 s each): by default the first variant, keeping and
#: audit staging (in name order)
WHOLE_EVERY = 100
#: the default sample: the canonical, the first variant, keeping and audit staging,
#: the violating examples of a few rules of each template kind, and the first mutants; the rest
#: under -m slow
SAMPLED_RULES = {r.id for r in rules_by_kind(RULES)}
#: the inner loop's sample: the sampled mutant and the violating examples of one rule of each kind (and the contested)
INNER_RULES = {r.id for r in rules_by_kind(RULES, 1)}


def in_sample(case: str) -> bool:
    if case.startswith("mutant"):
        return int(case.removeprefix("mutant")) in SAMPLED_MUTANTS
    path = Path(case)
    if path.parent.name == "violations":
        return path.name.split(".")[0] in SAMPLED_RULES
    if path.parent.name in ("variants", "keeps", "audit"):
        siblings = sorted(p.name for p in BUNDLED if p.parent.name == path.parent.name)
        return siblings.index(path.name) % WHOLE_EVERY == 0
    return True


def in_inner(case: str) -> bool:
    if case.startswith("mutant"):
        return int(case.removeprefix("mutant")) in SAMPLED_MUTANTS
    path = Path(case)
    return path.parent.name == "violations" and path.name.split(".")[0] in INNER_RULES


def mutant(seed: int, edits: int = 6) -> Trace:
    canon = tracegen.canonical()
    rng = random.Random(seed)
    got = tracegen.canonical_lines(canon)
    for _ in range(edits):
        got = tracegen.mutate(got, rng, canon)
    header = tracegen.random_header(canon, rng) if seed % 2 else tracegen.cast_header(canon)
    return parse_lines(tracegen.render(header, got), f"mutant{seed}.trace")


#: a case is a bundled staging's path (relative to the root) or mutantN; parsed when its test runs
CASES = [str(p.relative_to(ROOT)) for p in BUNDLED] + [f"mutant{i}" for i in range(MUTANTS)]


@cache
def load(case: str) -> Trace:
    return mutant(int(case.removeprefix("mutant"))) if case.startswith("mutant") else parse_file(ROOT / case, case)


def plain_value(ctx: Context, e: Event, key: str) -> str | None:
    """What a pattern's key reads of an event, spelled out (the specification of Context.value)."""
    if key == "actor":
        return e.actor
    if key == "obj":
        return e.obj.key if e.obj else None
    if key == "phase":
        return e.phase
    if key == "round":
        return str(e.round)
    if key == "obj.state":
        return ctx.replay.obj_state[e.index]
    head, dot, attr = key.partition(".")
    if dot:
        who = e.actor if head == "actor" else dict(e.attrs).get(head)
        if who is None:
            return None
        if attr in PERSON_ATTRS:
            return getattr(ctx.persons[who], attr)
        return ctx.replay.actor_state[e.index].get(attr)
    return dict(e.attrs).get(key)


def plain_matches(ctx: Context, p: Pattern, e: Event) -> bool:
    if p.acts is not None and e.act not in p.acts:
        return False
    if p.roles is not None and ctx.persons[e.actor].role not in p.roles:
        return False
    if p.objs is not None and (e.obj is None or e.obj.kind not in p.objs):
        return False
    for c in p.conds:
        v = plain_value(ctx, e, c.key)
        if c.key in PERSON_KEYS and v is not None:
            v = ctx.persons[v].role
        if ((v if v is not None else NONE) in c.values) == c.negate:
            return False
    return True


class ScanContext(Context):
    """A Context that finds a pattern's events by reading every event of the trace plainly (each
    pattern's scan is kept: the rules share patterns, and the test compares the same scans with
    the index)."""

    def __init__(self, trace: Trace, replay) -> None:
        super().__init__(trace, replay)
        self._plain: dict[Pattern, list[Event]] = {}

    def _hit(self, p: Pattern):
        got = self._plain.get(p)
        if got is None:
            got = self._plain[p] = [e for e in self.trace.events if plain_matches(self, p, e)]
        return got


@pytest.mark.parametrize(
    "sample", [in_inner, pytest.param(in_sample, marks=pytest.mark.wide)], ids=["inner", "default"]
)
def test_the_sample_exercises_refusals_and_rules(sample) -> None:
    ctxs = [Context(t, replay(t)) for t in map(load, filter(sample, CASES))]
    refusals = sum(len(c.replay.refusals) for c in ctxs)
    fired = sum(bool(r.template.holds(c)) for c in ctxs for r in RULES)
    assert refusals > 10 and fired > 20, (refusals, fired)


def test_the_sampled_mutant_refuses_most() -> None:
    refusals = {seed: len(replay(mutant(seed)).refusals) for seed in range(MUTANTS)}
    most = max(refusals, key=lambda seed: (refusals[seed], -seed))
    assert refusals[SAMPLED_MUTANTS[0]] == refusals[most], f"sample mutant{most} ({refusals})"


def test_the_sample_has_every_kind_of_staging() -> None:
    chosen = [c for c in CASES if in_sample(c)]
    assert {Path(c).parent.name for c in chosen if "/" in c} == {p.parent.name for p in BUNDLED}
    assert sum(c.startswith("mutant") for c in chosen) == len(SAMPLED_MUTANTS)
    kinds = {r.template.kind for r in RULES if r.id in SAMPLED_RULES}
    assert kinds == {r.template.kind for r in RULES}
    inner = [c for c in CASES if in_inner(c)]
    assert set(inner) <= set(chosen) and sum(c.startswith("mutant") for c in inner) == len(SAMPLED_MUTANTS)
    assert {r.template.kind for r in RULES if f"traces/violations/{r.id}.trace" in inner} == kinds


def walked_windows(t: AbsenceBetween, ctx: Context) -> list[Violation]:
    """An absence_between's violations found event by event: the window of each instance is opened
    (emptied) at each `after`, a `forbid` joins an open window, and a `then` closes its instance's
    window over the `forbid`s in it (the `then` first, then the `forbid`, then the `after` of an
    event that is more than one)."""
    window: dict[tuple[str | None, ...], list[int]] = {}
    reported: set[int] = set()
    out = []
    tk = ctx.keyer(tuple(a for a, _ in t.same))
    ok = ctx.keyer(tuple(b for _, b in t.same))
    same = _desc(t.same)
    for e in ctx.trace.events:
        is_then, is_forbid, is_after = (ctx.matches(p, e) for p in (t.then, t.forbid, t.after))
        if is_then and t.fault == "then":
            if bad := window.get(tk(e)):
                line = ctx.trace[bad[0]].line
                message = Message("absence-between.since", forbid=t.forbid, line=line, after=t.after, same=same)
                out.append(Violation(e.index, message))
        elif is_then:
            for at in window.get(tk(e), ()):
                if at not in reported:
                    reported.add(at)
                    message = Message(
                        "absence-between.before", forbid=t.forbid, after=t.after, then=t.then, line=e.line, same=same
                    )
                    out.append(Violation(at, message))
        if is_forbid and ok(e) in window:
            window[ok(e)].append(e.index)
        if is_after:
            window[ok(e)] = []
    return sorted(out, key=lambda v: v.at)


def walked_alternation(t: Alternate, ctx: Context) -> list[Violation]:
    """An alternate's violations found event by event: the `a`s and `b`s of each group counted, an
    event that breaks the alternation reported and its missing partner taken as come."""
    na: Counter[tuple[str | None, ...]] = Counter()
    nb: Counter[tuple[str | None, ...]] = Counter()
    tk = ctx.keyer(tuple(a for a, _ in t.same))
    ok = ctx.keyer(tuple(b for _, b in t.same))
    events = [(e, ctx.matches(t.a, e), ctx.matches(t.b, e)) for e in ctx.trace.events]
    with_a = {ok(e) for e, is_a, _ in events if is_a}
    out = []
    for e, is_a, is_b in events:
        if not (is_a or is_b) or (t.only_with_a and ok(e) not in with_a):
            continue
        k, k2 = tk(e), ok(e)
        if not ((is_a and na[k] == nb[k]) or (is_b and na[k] == nb[k] + 1)):
            got, want = (t.a, t.b) if is_a else (t.b, t.a)
            out.append(Violation(e.index, Message("alternate.due", got=got, want=want, same=_desc(t.same))))
            if is_a:
                nb[k2] = na[k2]
            else:
                na[k2] = nb[k2] + 1
        na[k2] += is_a
        nb[k2] += is_b
    return out


def mismatches(trace: Trace) -> list[str]:
    """Every difference between a fast path and its plain reference on `trace`."""
    out = []
    fast, slow = replay(trace), replay_triggers(trace)
    for field in ("refusals", "obj_state", "actor_state", "changes"):
        if getattr(fast, field) != getattr(slow, field):
            out.append(f"replay: the dict replay and the transitions triggers differ in {field}")
    ctx, scan = Context(trace, fast), ScanContext(trace, fast)
    for p in PATTERNS:
        want = [e.index for e in scan.hits(p)]
        if [e.index for e in ctx.hits(p)] != want:
            out.append(f"hits: the index finds other events than a plain scan for {p}")
        if [e.index for e in trace.events if ctx.matches(p, e)] != want:
            out.append(f"matches: Context.matches differs from a plain reading for {p}")
    together = Context(trace, fast, Network(PATTERNS))
    assert set(together.act_names()) == {e.act for e in trace.events}
    out += [
        f"network: the pass finds other events than a plain scan for {p}"
        for p in PATTERNS
        if [e.index for e in together.hits(p)] != [e.index for e in scan.hits(p)]
    ]
    for ps in WALKED:  # walk merges the hit lists of its patterns
        plain = [(e.index, flags) for e in trace.events if any(flags := tuple(plain_matches(ctx, p, e) for p in ps))]
        if [(e.index, flags) for e, flags in ctx.walk(*ps)] != plain:
            out.append(f"walk: the merged hits differ from a plain scan for {', '.join(map(str, ps))}")
    out += [
        f"holds: {r.id} on the index differs from a scan"
        for r in RULES
        if r.template.holds(ctx) != r.template.holds(scan)
    ]
    out += [
        f"holds: {r.id} differs from the walk over its windows"
        for r in RULES
        if isinstance(r.template, AbsenceBetween) and r.template.holds(ctx) != walked_windows(r.template, scan)
    ]
    out += [
        f"holds: {r.id} differs from the walk over its alternation"
        for r in RULES
        if isinstance(r.template, Alternate) and r.template.holds(ctx) != walked_alternation(r.template, scan)
    ]
    return out


@pytest.mark.parametrize("case", tiered(CASES, in_inner, in_sample, str))
def test_fast_paths_equal_their_plain_references(case: str) -> None:
    """The dict replay equals the transitions triggers; the indexed hits and matches equal a plain
    scan for every pattern of the rulebook; every rule's holds on the index equals holds on a scan."""
    found = mismatches(load(case))
    assert not found, f"{case}: {len(found)} mismatches\n" + "\n".join(found)


def test_a_repeated_event_is_resolved_again_once_the_cast_grows() -> None:
    """The parser reuses the resolution of an event written as an earlier one, while the cast is
    the same: a role with one person names him, but not once a second is declared."""
    with pytest.raises(TraceErrors) as err:
        parse_lines("cast 甲 众宾\n众宾 揖\n众宾 揖\ncast 乙 众宾\n众宾 揖\n", "m.trace")
    assert [(e.line, e.message) for e in err.value.errors] == [(5, "众宾 is ambiguous: the cast has 甲, 乙")]
    t = parse_lines("cast 甲 众宾\n众宾 揖\n众宾 揖\n众宾3 揖\n众宾3 揖 to=甲\n众宾3 揖\n", "m.trace")
    assert [(e.line, e.actor, e.attrs) for e in t.events] == [
        (2, "甲", ()),
        (3, "甲", ()),
        (4, "众宾3", ()),
        (5, "众宾3", (("to", "甲"),)),
        (6, "众宾3", ()),
    ]
    assert list(t.cast.persons) == ["甲", "众宾3"]


def test_alternating_positions_are_the_counted_alternation() -> None:
    """`_alternating` (Alternate.holds's shortcut) says yes exactly where counting each group's `a`s and
    `b`s event by event finds every event due, and no event is both an `a` and a `b`."""
    rng = random.Random(15)
    for _ in range(4000):
        a: dict[tuple[str | None, ...], list[int]] = {}
        b: dict[tuple[str | None, ...], list[int]] = {}
        only_with_a, fine, both, at = rng.random() < 0.5, True, False, 0
        for group in range(rng.randint(0, 3)):
            k = (str(group),)
            marks = [rng.choice("aabb-") for _ in range(rng.randint(0, 6))]  # -: both an `a` and a `b`
            both = both or "-" in marks
            na = nb = 0
            for m in marks:
                at += 1
                is_a, is_b = m in "a-", m in "b-"
                if is_a:
                    a.setdefault(k, []).append(at)
                if is_b:
                    b.setdefault(k, []).append(at)
                if only_with_a and not any(x in "a-" for x in marks):
                    continue
                fine = fine and ((is_a and na == nb) or (is_b and na == nb + 1))
                na, nb = na + is_a, nb + is_b
        assert _alternating(a, b, only_with_a) == (fine and not both), (a, b, only_with_a)


def test_keyers_read_what_a_plain_reading_reads() -> None:
    """`Context.keyer` (its shortcuts for the commonest keys and for the event's own fields) gives,
    for every correlation of the rulebook, the values a plain reading of each key gives."""
    keysets = {tuple(pair[side] for pair in r.template.correlation()) for r in RULES for side in (0, 1)}
    assert ("actor",) in keysets and ("phase",) in keysets and ("actor", "phase") in keysets
    trace = load("traces/canonical.trace")
    ctx = Context(trace, replay(trace))
    for keys in sorted(keysets):
        key = ctx.keyer(keys)
        wrong = [e.line for e in trace.events if key(e) != tuple(plain_value(ctx, e, k) for k in keys)]
        assert not wrong, f"{keys}: lines {wrong[:5]}"
