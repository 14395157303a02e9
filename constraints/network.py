"""The hits of a rulebook's patterns, found together in one pass over a trace's events (a
discrimination network, as a Rete network's alpha part), instead of pattern by pattern.

An event is sorted by its act, its actor's role and its phase (what `Compiled.acts`, `.roles` and
`.phases` say of a pattern's candidates) to the branch of that triple, made once per process: the
patterns such an event can match, split into those it then matches whatever else it says and those
with conditions still to test. What those conditions read of the event (an attribute, the role of
the person it names, the object's kind, a machine's state …) is its signature there; which of the
patterns a signature satisfies is worked out once per branch and signature and kept, so that a
condition shared by many patterns, and the same reading of many events, is decided once. Every
pattern's hits come out in trace order, as `Context` keeps them.

The answers are those of `Context.matches`, pattern by pattern: `cond_reader` reads what each
condition's test (`_check`) reads.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from itertools import chain
from operator import attrgetter

from xiangshe.constraints.pattern import Cond, Pattern, Persons, compiled, cond_reader, reads_attribute
from xiangshe.domain.trace import Event
from xiangshe.fsm.replay import Replay

#: what an event's signature in a branch is made of, as an expression of `e` (the event), `p` (the
#: persons) and `r` (the replay): the event's attributes as they stand (a condition on any of them is
#: decided from them), its object's kind, its object's state, and any other key's reading (`cond_reader`)
Signature = Callable[[Event, Persons, Replay], tuple[object, ...]]
_ATTRS, _KIND, _STATE = "attrs", "obj.kind", "obj.state"
_EXPRESSIONS = {_ATTRS: "e.attrs", _KIND: "(None if e.obj is None else e.obj.kind)", _STATE: "r.obj_state[e.index]"}
_signatures: dict[tuple[str, ...], Signature] = {}

#: a pattern with conditions left, in a branch: its position in the network, the kinds of object it
#: takes (None: any) and its conditions
Tested = tuple[int, "frozenset[str] | None", tuple[Cond, ...]]

#: a branch keeps at most this many signatures (beyond, an event's matches are worked out anew)
MEMO_LIMIT = 1 << 12  # a branch that reads free words (`words=…`) would otherwise keep each


def signature(parts: tuple[str, ...]) -> Signature:
    """The function reading the parts of an event's signature, in one call: generated once per
    parts, as `dataclasses` makes its methods, so that no call is made per part of it but for a
    key `cond_reader` reads."""
    got = _signatures.get(parts)
    if got is None:
        space: dict[str, object] = {}
        terms = []
        for j, part in enumerate(parts):
            if part in _EXPRESSIONS:
                terms.append(_EXPRESSIONS[part])
            else:
                space[f"read{j}"] = cond_reader(part)
                terms.append(f"read{j}(e, p, r)")
        text = f"def signature(e, p, r):\n    return ({', '.join(terms)},)\n"  # of the fixed terms above
        exec(text, space)
        made: Signature = space["signature"]  # type: ignore[assignment]
        got = _signatures[parts] = made
    return got


class Branch:
    """The patterns an event of one act, role and phase can match: `fixed` match it whatever else it
    says; the others (`tested`) are decided by its signature (`sign`: what `parts` name, read of the
    event), once per signature."""

    __slots__ = ("by_kind", "fixed", "memo", "parts", "sign", "tested")

    def __init__(self, fixed: tuple[int, ...], tested: tuple[Tested, ...], keys: set[str]) -> None:
        self.fixed, self.tested = fixed, tested
        parts = [_ATTRS] if any(reads_attribute(k) for k in keys) else []
        parts += [k for k in (_KIND, _STATE) if k in keys]
        parts += sorted(k for k in keys if not reads_attribute(k) and k not in (_KIND, _STATE))
        self.parts = tuple(parts)
        self.sign: Signature | None = signature(self.parts) if tested else None
        #: the signature is the object's kind alone (the commonest): `Network.run` reads it itself and
        #: keeps the matches by the kind, not by a one-element tuple
        self.by_kind = bool(tested) and self.parts == (_KIND,)
        self.memo: dict[object, tuple[int, ...]] = {}

    def matched(self, sig: tuple[object, ...]) -> tuple[int, ...]:
        """The positions of the patterns an event of this signature matches (kept for the next, by the
        signature, or by the kind alone in a branch `by_kind`)."""
        values: dict[str, str | None] = {}  # every part but the attributes reads a word or none
        attrs: dict[str, str] = {}
        for part, v in zip(self.parts, sig, strict=True):
            if part == _ATTRS:
                for k, a in v:  # type: ignore[attr-defined]
                    attrs.setdefault(k, a)  # the first, as Event.get reads
            else:
                values[part] = v  # type: ignore[assignment]
        out = list(self.fixed)
        for i, kinds, conds in self.tested:
            if kinds is not None and values[_KIND] not in kinds:
                continue
            for cond in conds:
                key = cond.key
                if not cond.admits(attrs.get(key) if reads_attribute(key) else values[key]):
                    break
            else:
                out.append(i)
        got = tuple(out)
        if len(self.memo) < MEMO_LIMIT:
            self.memo[sig[0] if self.by_kind else sig] = got
        return got


#: a pattern as the branches sort it: its position, its roles and phases (None: any), its kinds of
#: object (None: any), its conditions on the event's phase or actor's role (which the branch
#: decides), its other conditions, and the keys those read (with `obj.kind` for its kinds)
Entry = tuple[
    int,
    "frozenset[str] | None",
    "tuple[str, ...] | None",
    "frozenset[str] | None",
    tuple[Cond, ...],
    tuple[Cond, ...],
    frozenset[str],
]
#: the keys whose value is the same for every event of a branch
_BRANCH_KEYS = ("phase", "actor.role")


class Network:
    """The patterns of a set of rules (each distinct compiled pattern once), their branches made as
    events of a new act, role and phase come (branches of the same patterns are one)."""

    def __init__(self, patterns: Iterable[Pattern]) -> None:
        at: dict[int, int] = {}
        self.slots: list[int] = []  # the compiled patterns' slots (`Context`'s table of hits), by position
        by_act: dict[str | None, list[Entry]] = {}
        for p in patterns:
            c = compiled(p)
            if c.slot in at:
                continue
            i = at[c.slot] = len(self.slots)
            self.slots.append(c.slot)
            conds = [x for x in p.conds if x != c.done]
            rest = tuple(x for x in conds if x.key not in _BRANCH_KEYS)
            keys = frozenset([x.key for x in rest] + ([_KIND] if p.objs is not None else []))
            entry = (i, c.roles, c.phases, p.objs, tuple(x for x in conds if x.key in _BRANCH_KEYS), rest, keys)
            for act in c.acts if c.acts is not None else (None,):
                by_act.setdefault(act, []).append(entry)
        self._any_act = by_act.pop(None, [])
        self._by_act = by_act
        self._by_role: dict[tuple[str, str | None], list[Entry]] = {}
        self._branches: dict[tuple[str, str | None, str | None], Branch] = {}
        self._same: dict[tuple[tuple[int, ...], tuple[int, ...]], Branch] = {}  # by the positions it holds

    def branch(self, key: tuple[str, str | None, str | None]) -> Branch:
        """The branch of events of this act, actor's role and phase, made when first asked."""
        got = self._branches.get(key)
        if got is None:
            got = self._branches[key] = self._make(key)
        return got

    def _of(self, act: str, role: str | None) -> list[Entry]:
        """The patterns of this act (or of any act) that take this role (or any), found once."""
        got = self._by_role.get((act, role))
        if got is None:
            every = chain(self._by_act.get(act, ()), self._any_act)
            got = self._by_role[act, role] = [x for x in every if x[1] is None or role in x[1]]
        return got

    def _make(self, key: tuple[str, str | None, str | None]) -> Branch:
        act, role, phase = key
        fixed: list[int] = []
        tested: list[Tested] = []
        keys: set[str] = set()
        for i, _, phases, objs, decided, rest, reads in self._of(act, role):
            if phases is not None and phase not in phases:
                continue
            if decided and not all(x.admits(phase if x.key == "phase" else role) for x in decided):
                continue
            if not reads:
                fixed.append(i)
            else:
                tested.append((i, objs, rest))
                keys |= reads
        same = (tuple(fixed), tuple(t[0] for t in tested))
        got = self._same.get(same)
        if got is None:
            got = self._same[same] = Branch(same[0], tuple(tested), keys)
        return got

    def run(self, events: Sequence[Event], persons: Persons, replay: Replay) -> tuple[list[list[Event]], set[str]]:
        """Each pattern's hits among `events` (by position, in trace order) and the acts the events
        perform. An event of an act no pattern names is passed over at once (a selection of a few
        rules names few acts)."""
        n = len(self.slots)
        hits: list[list[Event]] = [[] for _ in range(n)]
        add = [h.append for h in hits]
        role = {name: p.role for name, p in persons.items()}
        acts = set(map(_ACT, events))
        unnamed = frozenset() if self._any_act else acts - self._by_act.keys()
        branches, branch = self._branches, self.branch  # made once per process, as events first need them
        for e in events:
            act = e.act
            if act in unnamed:
                continue
            key = (act, role[e.actor], e.phase)
            b = branches.get(key)
            if b is None:
                b = branch(key)
            sign = b.sign
            if sign is None:
                matched = b.fixed
            elif b.by_kind:
                o = e.obj
                kind = None if o is None else o.kind
                got = b.memo.get(kind)
                matched = got if got is not None else b.matched((kind,))
            else:
                sig = sign(e, persons, replay)
                got = b.memo.get(sig)
                matched = got if got is not None else b.matched(sig)
            for i in matched:
                add[i](e)
        return hits, acts


_ACT = attrgetter("act")
