"""Random event lines for property tests: events drawn from a rule's own patterns (so that they
trigger it, or nearly), events of the canonical ceremony, and mutants of canonical windows."""

from __future__ import annotations

import random
from functools import cache
from pathlib import Path

from xiangshe.constraints.pattern import NONE, Pattern
from xiangshe.constraints.rulebook import Rule
from xiangshe.domain.parse import parse_file
from xiangshe.domain.trace import Trace
from xiangshe.domain.vocabulary import PERSON_KEYS, vocabulary

ROOT = Path(__file__).resolve().parents[1]
CANONICAL_PATH = ROOT / "traces" / "canonical.trace"

Line = tuple[str | None, str]  # (phase, event line)


@cache
def canonical() -> Trace:
    """The canonical ceremony, parsed once per process (read it, do not change it)."""
    return parse_file(CANONICAL_PATH, "traces/canonical.trace")


def cast_header(trace: Trace) -> str:
    return (
        "\n".join(line for line in trace.source_lines if line.split("#")[0].split()[:1] in (["cast"], ["pair"])) + "\n"
    )


def canonical_lines(trace: Trace) -> list[Line]:
    return [(e.phase, e.render()) for e in trace.events]


def render(header: str, lines: list[Line]) -> str:
    out = [header]
    for phase, line in lines:
        if phase:
            out.append(f"phase {phase}")
        out.append(line)
    return "\n".join(out) + "\n"


def _pick(rng: random.Random, options, fallback=None):
    options = sorted(options)
    return rng.choice(options) if options else fallback


def _focus(names: list[str], focus: frozenset[str], rng: random.Random) -> list[str]:
    """Prefer the few persons in focus, so that correlated events (same actor, pair…) co-occur."""
    near = [n for n in names if n in focus]
    return near if near and rng.random() < 0.8 else names


def from_pattern(
    p: Pattern, trace: Trace, rng: random.Random, faithful: float = 0.85, focus: frozenset[str] = frozenset()
) -> Line | None:
    """An event line that matches `p` (usually) — or misses it on one condition (sometimes)."""
    vocab = vocabulary()
    persons = trace.cast.persons
    conds = {c.key: c for c in p.conds}

    def ok_person(name: str, prefix: str) -> bool:
        person = persons[name]
        for key in ("rank", "side", "role"):
            c = conds.get(f"{prefix}.{key}")
            if c is not None:
                v = getattr(person, key)
                if ((v or NONE) in c.values) == c.negate:
                    return False
        return True

    roles = p.roles
    actors = [n for n, q in persons.items() if (roles is None or q.role in roles) and ok_person(n, "actor")]
    if not actors or rng.random() > faithful:
        actors = list(persons)
    actor = _pick(rng, _focus(actors, focus, rng))
    act = _pick(rng, p.acts) if p.acts is not None else _pick(rng, vocab.acts)
    parts = [actor, act]
    if p.objs is not None:
        kind = vocab.objects[_pick(rng, p.objs)]
        parts.append(kind.name if kind.personal else f"{kind.name}{rng.randint(1, min(kind.instances, 2))}")
    phase = _pick(rng, conds["phase"].values) if "phase" in conds else None
    if "round" in conds and phase is None:
        rounds = {int(v) for v in conds["round"].values}
        phase = _pick(rng, [pid for pid, ph in vocab.phases.items() if ph.round in rounds])
    if phase is None:
        phase = _pick(rng, vocab.phases)
    for key, c in conds.items():
        wanted = rng.random() < faithful
        if key in PERSON_KEYS:
            who = [n for n, q in persons.items() if (q.role in c.values) == (wanted != c.negate) and ok_person(n, key)]
            if who:
                parts.append(f"{key}={_pick(rng, _focus(who, focus, rng))}")
        elif key == "at" or key in vocab.attributes:
            values = vocab.places if key == "at" else vocab.attributes[key].values
            pool = [v for v in values if (v in c.values) == (wanted != c.negate)]
            v = _pick(rng, pool)
            if v is not None:
                parts.append(f"{key}={v}")
    for key in ("to", "for", "arrow"):  # correlations read these: give them values often
        if not any(w.startswith(key + "=") for w in parts) and rng.random() < 0.5:
            if key == "arrow":
                parts.append(f"arrow={rng.randint(1, 2)}")
            else:
                parts.append(f"{key}={_pick(rng, _focus(sorted(persons), focus, rng))}")
    return phase, " ".join(parts)


def pool_for(rule: Rule, trace: Trace, seed: int = 0, size: int = 40) -> list[Line]:
    """Lines that bear on `rule`: from its patterns, and canonical events its patterns match."""
    rng = random.Random(f"{rule.id}:{seed}")
    out: list[Line] = []
    pats = rule.template.patterns() if rule.template else []
    pairs = list(trace.cast.pairs.values())
    for _ in range(size):
        if pats:
            pair = rng.choice(pairs) if pairs else None
            focus = frozenset([pair.upper, pair.lower] if pair else []) | {rng.choice(sorted(trace.cast.persons))}
            line = from_pattern(rng.choice(pats), trace, rng, focus=focus)
            if line:
                out.append(line)
    canon = canonical_lines(trace)
    acts = {a for p in pats for a in (p.acts or ())}
    related = [x for x in canon if x[1].split()[1] in acts] or canon
    out += rng.sample(related, min(len(related), size // 2))
    return out


def mutate(lines: list[Line], rng: random.Random, trace: Trace) -> list[Line]:
    """One single-event mutation: delete, duplicate, swap neighbours, or substitute the actor."""
    if not lines:
        return lines
    i = rng.randrange(len(lines))
    op = rng.choice(["delete", "duplicate", "swap", "actor"])
    out = list(lines)
    if op == "delete" and len(out) > 1:
        del out[i]
    elif op == "duplicate":
        out.insert(i, out[i])
    elif op == "swap" and i + 1 < len(out):
        out[i], out[i + 1] = out[i + 1], out[i]
    elif op == "actor":
        phase, line = out[i]
        words = line.split()
        words[0] = rng.choice(sorted(trace.cast.persons))
        out[i] = (phase, " ".join(words))
    return out


def random_header(trace: Trace, rng: random.Random) -> str:
    """The cast of `trace` (plus a 君) with random pairs: cast rules need varied pairings."""
    persons = [p for p in trace.cast.persons.values() if p.line is not None]
    lines = [f"cast {p.name} {p.role}" for p in persons] + ["cast 君 君"]
    names = [p.name for p in persons] + ["君"]
    shooters = [
        n
        for n in names
        if trace.cast.persons.get(n) is None
        or trace.cast.persons[n].role in ("主人", "宾", "大夫", "众宾", "弟子", "君")
    ]
    rng.shuffle(shooters)
    for i in range(0, min(len(shooters) - 1, 2 * rng.randint(1, 5)), 2):
        lines.append(f"pair 耦{i} 上射={shooters[i]} 下射={shooters[i + 1]}")
    return "\n".join(lines) + "\n"


def example_windows(trace: Trace, violations: list[int], widths: tuple[int, ...] = (8, 24, 40)) -> list[list[Line]]:
    """Windows of a violating example that end at each violating event (and at its end); the
    wider ones keep the machine states that a rule's conditions read."""
    lines = canonical_lines(trace)
    ends = sorted({*violations, len(lines) - 1})
    out = []
    for width in widths:
        for end in ends:
            w = lines[max(0, end + 1 - width) : end + 1]
            if w not in out:
                out.append(w)
    return out


def walks_for(rule: Rule, trace: Trace, seed: int = 0, count: int = 12) -> list[list[Line]]:
    """Short traces that visit the rule's patterns in their order (first → then, after → forbid →
    then …), the events sharing a focus of persons, so that correlated events agree often."""
    rng = random.Random(f"walk:{rule.id}:{seed}")
    pats = rule.template.patterns() if rule.template else []
    pairs = list(trace.cast.pairs.values())
    out = []
    for _ in range(count if pats else 0):
        pair = rng.choice(pairs)
        focus = frozenset([pair.upper, pair.lower, rng.choice(sorted(trace.cast.persons))])
        walk = []
        for p in pats:
            for _ in range(rng.randint(1, 2)):
                line = from_pattern(p, trace, rng, faithful=0.95, focus=focus)
                if line:
                    walk.append(line)
        out.append(walk)
    return out
