"""The Declare-expressible subset of the rulebook, as a pm4py Declare model over activity labels.

An event's activity label is `ROLE ACT OBJECT-KIND @PHASE` (the actor's role, the act, the kind of
the object if any, the phase): `主人 献 爵 @Φ05`. The same labelling feeds pm4py's log, the naive
checker and the mapping back to our rules.

A pattern of the rulebook is a set of labels when it tests only what a label carries: the actor's
role, the act, the object kind, and conditions on `phase`, `round` (a function of the phase) or
`actor.role`. Over the labels that occur in a batch of traces, a rule is translated when:

| our template | Declare (pm4py) | condition |
|---|---|---|
| absence P | absence(b) for each label b of P | |
| at_most P n=0 | absence(b) for each label b of P | |
| precedence F → T | precedence(a, b) for each label b of T | F is one label a (none: absence of T); no `same` |
| count_before F → T >= 1 | as precedence | |
| response F → T | response(a, b) for each label a of F | T is one label b (none: absence of F); no `same` |
| precedence a → b and response a → b | succession(a, b) | rules over the same two labels, in the same order |

pm4py's succession(a, b) is exactly precedence(a, b) and response(a, b) together (both absent, or both
present with the first a before the first b and the last a before the last b), so a pair of our rules
that translates to both is one succession constraint, named by both rules. The rulebook has such
pairs: 「视侯中，俯正足」 (in Φ20 the 司射 sets his feet only after his look at the target, and his look is
always followed by it: you-she-shi-hou-zhong-er-zheng-zu and you-she-shi-hou-zhong-fu-zheng-zu) and
「南扬弓，命去侯」 with 「获者执旌许诺」 (the 司马's raised bow and the 获者's answer in Φ21: si-ma-yang-gong and
qu-hou-huo-zhe-xu-nuo). No rule of ours is an existence: none requires an event to occur whatever the
staging stages (what a whole ceremony owes, its phases and the answers still due, is checked by
the scope of the staging, which a Declare model, one for every trace, cannot condition on), so the
model has no existence constraint rather than an invented one.

Everything else is outside plain Declare and is listed with the reason: a `same` correlation
(the same cup, the same arrow, the same round …: data-aware Declare would be needed); a condition
on data a label does not carry (to=, at=, words=, result=, the object's or actor's machine state …);
a branched `first` or `then` (several labels on the side that must be a single activity: pm4py has no
branched Declare); counting (at_most n ≥ 1, unique, count_before other than ≥ 1: pm4py implements
no absence2/3, and its `nonsuccession` is the negation of succession, not "no B after A");
alternation (our `alternate` also forbids two A in a row without requiring a final B: neither
altresponse nor altprecedence); absence_between; and the rules on the cast (pair, cast_absence),
which are not about events.

A label-level pair (a, a) is not a pm4py precedence/response (pm4py compares the first/last
occurrences, so precedence(a, a) always holds); our rule then says "never", and is translated as
absence(a).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from xiangshe.constraints.pattern import Context, Pattern
from xiangshe.constraints.rulebook import Rule
from xiangshe.constraints.templates import AbsenceBetween, Alternate, Template
from xiangshe.domain.trace import Event, Trace

LABEL_KEYS = {"phase", "round", "actor.role"}  # condition keys a label decides

ABSENCE, PRECEDENCE, RESPONSE, SUCCESSION = "absence", "precedence", "response", "succession"
Constraint = tuple[str, tuple[str, ...]]  # (template, (a,) or (a, b))


def label(trace: Trace, e: Event) -> str:
    role = trace.cast.persons[e.actor].role
    obj = f" {e.obj.kind}" if e.obj is not None else ""
    return f"{role} {e.act}{obj} @{e.phase or '-'}"


def labels(trace: Trace) -> list[str]:
    persons = trace.cast.persons
    return [
        f"{persons[e.actor].role} {e.act}{' ' + e.obj.kind if e.obj is not None else ''} @{e.phase or '-'}"
        for e in trace.events
    ]


@dataclass
class Universe:
    """The labels that occur in a batch, each with one event that carries it (a label decides every
    pattern that passes `label_only`, so one event per label is enough to match patterns)."""

    samples: dict[str, tuple[Context, Event]] = field(default_factory=dict)

    def add(self, trace: Trace) -> list[str]:
        out = labels(trace)
        ctx = None
        for lab, e in zip(out, trace.events, strict=True):
            if lab not in self.samples:
                ctx = ctx or Context(trace, None)  # no condition read here needs the replay
                self.samples[lab] = (ctx, e)
        return out

    def match(self, p: Pattern) -> list[str]:
        return sorted(lab for lab, (ctx, e) in self.samples.items() if ctx.matches(p, e))


def label_only(p: Pattern) -> str | None:
    """None if a label decides `p`, else why not."""
    keys = sorted({c.key for c in p.conds} - LABEL_KEYS)
    return None if not keys else "condition on " + ", ".join(f"{k}=" for k in keys)


@dataclass
class Translation:
    rules: list[Rule]  # the rules in the subset
    constraints: dict[str, list[Constraint]]  # rule id → its Declare constraints
    excluded: dict[str, str]  # rule id → why not
    faults: dict[str, dict[str, Constraint]]  # rule id → {label of a reported event: the constraint it breaks}

    def model(self) -> dict[str, dict[str | tuple[str, ...], dict[str, int]]]:
        """The pm4py Declare model: template → {a or (a, b): {"support", "confidence"}} (a unary
        template is keyed by the activity itself, as `pm4py.discover_declare` writes it: a 1-tuple
        would never be found in a trace, and the constraint would silently always hold)."""
        out: dict = defaultdict(dict)
        for cs in self.constraints.values():
            for template, acts in cs:
                out[template][acts[0] if len(acts) == 1 else acts] = {"support": 1, "confidence": 1}
        return dict(out)

    def all_constraints(self) -> list[Constraint]:
        return sorted({c for cs in self.constraints.values() for c in cs})

    def broken_by_ours(self, trace: Trace, labs: Sequence[str], ctx: Context | None = None) -> set[Constraint]:
        """The Declare constraints our templates find broken in `trace` (its labels `labs`): each
        violation our rule reports is at an event whose label names the constraint it breaks."""
        ctx = ctx or Context(trace, None)
        out = set()
        for rule in self.rules:
            faults = self.faults[rule.id]
            for v in rule.template.holds(ctx):
                out.add(faults[labs[v.at]])
        return out

    def to_json(self) -> dict:
        """The model as JSON (pm4py's worker reads it back with `model_from_json`) and the rules."""
        return {
            "model": [[t, list(a)] for t, a in self.all_constraints()],
            "rules": [r.id for r in self.rules],
        }

    def with_partners(self, rule_ids: Iterable[str]) -> set[str]:
        """Rules broken, as a Declare tool can name them: a succession is broken when either of its
        rules is, and names both (a rule whose every constraint is a succession brings its partners;
        any other rule stands alone, and a partner it would hide shows as a mismatch)."""
        by = self.by_constraint()
        out = set(rule_ids)
        for rid in rule_ids:
            cs = self.constraints.get(rid, [])
            if cs and all(t == SUCCESSION for t, _ in cs):
                out.update(r for c in cs for r in by[c])
        return out

    def by_constraint(self) -> dict[Constraint, list[str]]:
        out: dict = defaultdict(list)
        for rid, cs in self.constraints.items():
            for c in cs:
                out[c].append(rid)
        return dict(out)


Faulty = dict[str, Constraint]  # the label of the event our rule reports → the Declare constraint it breaks


def _absences(labs: Iterable[str]) -> Faulty:
    return {b: (ABSENCE, (b,)) for b in labs}


#: why a template that is neither a bound on a count nor an ordering has no Declare template in pm4py
NO_COUNTERPART: dict[type[Template], str] = {
    Alternate: "alternation without a final B: neither altresponse nor altprecedence",
    AbsenceBetween: "absence between two events: not a Declare template",
}


def translate_rule(rule: Rule, universe: Universe) -> Faulty | str:
    """The Declare constraints of `rule` over the universe's labels, each under the label of the
    event where our template reports its violation (templates.py: the `then` of a precedence, the
    `first` of a response, the forbidden event), or why it has none."""
    t = rule.template
    if t.of_cast:
        return "a rule on the cast (pairs, persons), not on events"
    if t.correlation():
        return "correlates events on data (same " + ", ".join(a for a, _ in t.correlation()) + ")"
    for p in t.patterns():
        why = label_only(p)
        if why:
            return why
    limit, order = t.limit(), t.order()
    if limit is not None and t.condition() is None:
        pattern, n = limit
        if n == 0:
            return _absences(universe.match(pattern))
        return "counts occurrences (at most n ≥ 1): no absence2/3 in pm4py's Declare"
    if order is None:
        if "op" in t.number_fields:
            return f"counts earlier events ({t.op} {t.n}): not a Declare template in pm4py"
        return NO_COUNTERPART.get(type(t), f"template {t.kind} has no Declare counterpart")
    shape, first, then = order
    firsts, thens = universe.match(first), universe.match(then)
    if shape == "precedence":
        if len(firsts) > 1:
            return f"branched precedence: 「{first}」 is {len(firsts)} activities"
        if not firsts:
            return _absences(thens)
        a = firsts[0]
        return {b: (ABSENCE, (b,)) if b == a else (PRECEDENCE, (a, b)) for b in thens}
    if len(thens) > 1:
        return f"branched response: 「{then}」 is {len(thens)} activities"
    if not thens:
        return _absences(firsts)
    b = thens[0]
    return {a: (ABSENCE, (a,)) if a == b else (RESPONSE, (a, b)) for a in firsts}


def model_from_json(data: dict) -> dict:
    """pm4py's Declare model from `Translation.to_json()` (a unary template keyed by the activity)."""
    out: dict = defaultdict(dict)
    for template, acts in data["model"]:
        out[template][acts[0] if len(acts) == 1 else tuple(acts)] = {"support": 1, "confidence": 1}
    return dict(out)


def translate(rules: Sequence[Rule], universe: Universe) -> Translation:
    subset: list[Rule] = []
    constraints: dict[str, list[Constraint]] = {}
    excluded: dict[str, str] = {}
    faults: dict[str, Faulty] = {}
    for rule in rules:
        if not rule.encoded:
            continue
        got = translate_rule(rule, universe)
        if isinstance(got, str):
            excluded[rule.id] = got
        else:
            subset.append(rule)
            faults[rule.id] = got
    _successions(faults)
    constraints = {rid: list(f.values()) for rid, f in faults.items()}
    return Translation(subset, constraints, excluded, faults)


def _successions(faults: dict[str, Faulty]) -> None:
    """A precedence(a, b) and a response(a, b) of the model, from whichever rules, become the one
    succession(a, b) in each of those rules (pm4py's succession is the two together)."""
    made = {c for f in faults.values() for c in f.values()}
    both = {acts for t, acts in made if t == PRECEDENCE and (RESPONSE, acts) in made}
    for f in faults.values():
        for lab, (t, acts) in f.items():
            if t in (PRECEDENCE, RESPONSE) and acts in both:
                f[lab] = (SUCCESSION, acts)
