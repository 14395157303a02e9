"""Event patterns: what a rule's `first`, `then`, `pattern` … match.

A pattern has the shape of an event, `ACTOR ACT [OBJECT] [condition …]`:

    释获者 释获                         the act 释获 by a 释获者
    * 射 * result=中正 round=2|3         any shot that hits the 正, in round 2 or 3
    * 献|酢 觯                           an offering made with a 觯
    * 祭 觯 obj.state=实·不洗            a libation from a cup filled without washing
    司正 * * actor.司马=执弓             anything the 司马 does while holding the bow

ACTOR is a role (or `*`), ACT an act, OBJECT an object kind; `a|b` gives alternatives.
A condition is `key=v1|v2` or `key!=v`; `none` stands for an absent value. Keys:
  to, for (their role), at, and the attributes of the vocabulary (result, beat, side, arrow, n,
  words); phase, round; actor.role / actor.rank / actor.side / actor.pair (and the same for to.,
  for.); obj.state (the object's machine state before the event); actor.<machine> (the state of
  that machine of the actor before the event).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Collection, Sequence
from itertools import chain, count
from operator import attrgetter
from typing import TYPE_CHECKING, Any

from xiangshe.domain.dataclass import dataclass
from xiangshe.domain.errors import RulebookError, did_you_mean
from xiangshe.domain.messages import Message
from xiangshe.domain.trace import SIDES, Event, Person, Trace
from xiangshe.domain.vocabulary import PERSON_KEYS, PLACE_KEYS, Vocabulary
from xiangshe.fsm.replay import Replay
from xiangshe.fsm.table import Table, table_for_object, table_named, tables

if TYPE_CHECKING:
    from xiangshe.constraints.network import Network

PERSON_ATTRS = ("role", "rank", "side", "pair")
NONE = "none"


@dataclass(frozen=True)
class Cond:
    """A condition of a pattern: `key=value|value` (or `key!=…`) on an event."""

    key: str
    values: frozenset[str]
    negate: bool = False

    def __str__(self) -> str:
        return f"{self.key}{'!=' if self.negate else '='}{'|'.join(sorted(self.values))}"

    def admits(self, value: str | None) -> bool:
        """Whether an event whose `key` reads `value` (None: it has none, written `none`) meets the
        condition: the test of every reading of a condition (`_check`'s closures make it inline)."""
        return ((value if value is not None else NONE) in self.values) != self.negate


@dataclass(frozen=True)
class Pattern:
    """An event pattern of a rule, as written (`text`): its roles, acts and objects (None: any) and its other
    conditions."""

    text: str
    roles: frozenset[str] | None
    acts: frozenset[str] | None
    objs: frozenset[str] | None
    conds: tuple[Cond, ...]

    def __str__(self) -> str:
        return self.text

    def __getstate__(self) -> dict[str, Any]:
        """What is pickled: the fields and a kept layout, not the compiled pattern of this process."""
        if COMPILED not in self.__dict__:
            return self.__dict__
        return {k: v for k, v in self.__dict__.items() if k != COMPILED}


def _alts(word: str) -> frozenset[str] | None:
    return None if word == "*" else frozenset(word.split("|"))


def parse_pattern(text: str, vocab: Vocabulary, where: str = "<rule>", at: int | None = None) -> Pattern:
    """Parse and validate a pattern; unknown words are errors with "did you mean"."""

    def fail(msg: str, hint: str | None = None) -> RulebookError:
        return RulebookError(where, at, f"pattern 「{text}」: {msg}", hint=hint)

    words = text.split()
    plain = [w for w in words if "=" not in w]
    if len(plain) < 2 or len(plain) > 3 or words[: len(plain)] != plain:
        raise fail("a pattern is ACTOR ACT [OBJECT] [key=value …]")
    roles, acts = _alts(plain[0]), _alts(plain[1])
    objs = _alts(plain[2]) if len(plain) == 3 else None
    if roles is not None:
        canon: set[str] = set()
        for r in roles:
            c = vocab.canonical_role(r)
            if c is None:
                raise fail(Message("input.unknown-role", word=r), did_you_mean(r, vocab.roles))
            canon |= vocab.role_family(c)
        roles = frozenset(canon)
    for a in acts or ():
        if a not in vocab.acts:
            raise fail(Message("input.unknown-act", word=a), did_you_mean(a, vocab.acts))
    for o in objs or ():
        if o not in vocab.objects:
            raise fail(Message("input.unknown-object-kind", word=o), did_you_mean(o, vocab.objects))
    conds = []
    for w in words[len(plain) :]:
        negate = "!=" in w
        key, _, value = w.partition("!=" if negate else "=")
        values = frozenset(value.split("|"))
        allowed = _allowed_values(key, vocab, objs)
        if allowed is None:
            raise fail(Message("input.unknown-key", word=key), did_you_mean(key, _known_keys(vocab)))
        if key in PERSON_KEYS or key.endswith(".role"):
            values = frozenset(vocab.canonical_role(v) or v for v in values)
            values = frozenset().union(*(vocab.role_family(v) if v in vocab.roles else {v} for v in values))
        for v in values:
            if v != NONE and v not in allowed:
                raise fail(f"{key} cannot be {v}", did_you_mean(v, allowed))
        conds.append(Cond(key, values, negate))
    return Pattern(text, roles, acts, objs, tuple(conds))


def _known_keys(vocab: Vocabulary) -> list[str]:
    keys = [*PERSON_KEYS, *PLACE_KEYS, *vocab.attributes, "phase", "round", "obj.state"]
    keys += [f"{p}.{a}" for p in ("actor", *PERSON_KEYS) for a in PERSON_ATTRS]
    keys += [f"actor.{t.name}" for t in tables() if t.is_person]
    return keys


def _allowed_values(key: str, vocab: Vocabulary, objs: frozenset[str] | None) -> set[str] | None:
    """The values a condition on `key` may test, or None if the key is unknown."""
    if key in PERSON_KEYS:
        return set(vocab.roles) | set(vocab.role_alias)
    if key in PLACE_KEYS:
        return set(vocab.places)
    if key in vocab.attributes:
        return set(vocab.attributes[key].values)
    if key == "phase":
        return set(vocab.phases)
    if key == "round":
        return {"0", "1", "2", "3"}
    if key == "obj.state":
        kinds = objs or set(vocab.objects)
        return {s for k in kinds if (t := table_for_object(k)) for s in t.states}
    head, _, attr = key.partition(".")
    if head in ("actor", *PERSON_KEYS):
        if attr == "role":
            return set(vocab.roles) | set(vocab.role_alias)
        if attr == "rank":
            return set(vocab.ranks)
        if attr == "side":
            return set(SIDES)
        if attr == "pair":
            return None  # pairs are compared with `same`, not with literal values
        if head == "actor":
            t = table_named(attr)
            if t is not None and t.is_person:
                return set(t.states)
    return None


def key_kind(key: str) -> str:
    """The kind of value a key carries, for comparing two keys with `same`."""
    if key in ("actor", *PERSON_KEYS):
        return "person"
    if key.endswith(".pair"):
        return "pair"
    if key.endswith(".side"):
        return "side"
    if key.endswith(".rank"):
        return "rank"
    if key.endswith(".role"):
        return "role"
    if key == "obj":
        return "obj"
    if key.startswith("actor.") or key == "obj.state":
        return "state:" + key
    return key


Persons = dict[str, Person]
#: a compiled condition's test of an event, given the trace's persons and its replay
Check = Callable[[Event, Persons, Replay], bool]


class Compiled:
    """A pattern compiled once per process (equal patterns share one): where its candidates come
    from (an index of the trace's events by act, else by phase, else by the actor's role, each split
    by role when the pattern names roles) and the test of its other conditions."""

    __slots__ = ("acts", "done", "field", "keys", "phases", "roles", "slot", "split", "test", "values")

    def __init__(self, p: Pattern, slot: int) -> None:
        self.slot = slot  # its place in a Context's table of hits
        self.acts, self.roles = p.acts, p.roles
        kept: Layout | None = p.__dict__.get(LAYOUT)
        got: Layout = kept if kept is not None else layout(p)
        self.phases, self.field, self.values, self.split, self.keys, self.done = got
        self.test: Check | None = _test(p, self.done)  # all but `done`, which the candidates' phase answers


LAYOUT = "_layout"  # the attribute a rulebook's pattern keeps its layout in (`keep_layout`)

#: (phases, field, values, split, keys, done): see `layout`
Layout = tuple["tuple[str, ...] | None", "str | None", "tuple[str, ...]", int, "tuple[object, ...]", "Cond | None"]


def layout(p: Pattern) -> Layout:
    """Where a pattern's candidates come from, as `Compiled` keeps it: the phases an act's events are
    split by (a pattern of acts in given phases), the field its candidates are indexed by (act, else
    phase, else role; None: every event) and the values it takes there, which of a Context's indices
    of the events holds them (`Context._splits`: by act, by act and role, by act and phase, by act,
    role and phase; a pattern of no act takes the groups of its phases (4), its roles (5), or its
    phases and roles (6) from those of every act) with the keys of its groups there, and the
    condition on the phase that this split makes true of every candidate (None: none)."""
    by_phase = next((c for c in p.conds if c.key == "phase" and not c.negate), None)
    phases = by_phase.values if by_phase is not None and NONE not in by_phase.values else None
    split_phases = tuple(sorted(phases)) if phases is not None and p.acts is not None else None
    field: str | None
    values: tuple[str, ...]
    if p.acts is not None:
        field, values = "act", tuple(sorted(p.acts))
    elif phases is not None:
        field, values = "phase", tuple(sorted(phases))
    elif p.roles is not None:
        field, values = "role", tuple(sorted(p.roles))
    else:
        field, values = None, ()
    split = 0
    keys: tuple[object, ...] = values
    if field == "phase":
        split = 4 if p.roles is None else 6
    elif field == "role":
        split = 5
    elif p.acts is not None:
        roles = tuple(sorted(p.roles)) if p.roles is not None else None
        if roles is not None and split_phases is not None:
            split, keys = 3, tuple((a, r, ph) for a in values for r in roles for ph in split_phases)
        elif roles is not None:
            split, keys = 1, tuple((a, r) for a in values for r in roles)
        elif split_phases is not None:
            split, keys = 2, tuple((a, ph) for a in values for ph in split_phases)
    return split_phases, field, values, split, keys, by_phase if split_phases is not None else None


def keep_layout(p: Pattern) -> None:
    """Keep the pattern's layout with it, for a rulebook stored in the cache (domain/cache.py): a
    check then reads it instead of working it out again for each of the rulebook's patterns. Not a
    field: the pattern's equality and hash are its fields'."""
    object.__setattr__(p, LAYOUT, layout(p))


def _test(p: Pattern, done: Cond | None = None) -> Check | None:
    """The pattern's test of an event, but for its acts and roles (its candidates have those);
    None when it has nothing more to test."""
    checks: list[Check] = []
    conds = [_check(c) for c in p.conds if c is not done]
    if p.objs is not None:
        objs = p.objs
        if len(conds) == 1:  # the commonest test: an object's kind and one condition, in one call
            c0 = conds[0]

            def of_kind_and(e: Event, persons: Persons, replay: Replay) -> bool:
                o = e.obj
                return o is not None and o.kind in objs and c0(e, persons, replay)

            return of_kind_and

        def of_kind(e: Event, _persons: Persons, _replay: Replay) -> bool:
            o = e.obj
            return o is not None and o.kind in objs

        checks.append(of_kind)
    checks += conds
    if not checks:
        return None
    if len(checks) == 1:
        return checks[0]
    if len(checks) == 2:
        c0, c1 = checks

        def both(e: Event, persons: Persons, replay: Replay) -> bool:
            return c0(e, persons, replay) and c1(e, persons, replay)

        return both

    def every(e: Event, persons: Persons, replay: Replay) -> bool:
        for check in checks:
            if not check(e, persons, replay):
                return False
        return True

    return every


def _check(c: Cond) -> Check:
    """A condition's test of an event."""
    key, values, negate = c.key, c.values, c.negate
    if reads_attribute(key):  # an attribute of the event

        def attribute(e: Event, _persons: Persons, _replay: Replay) -> bool:
            for k, v in e.attrs:
                if k == key:
                    return (v in values) != negate
            return (NONE in values) != negate

        return attribute
    if key == "phase":

        def phase(e: Event, _persons: Persons, _replay: Replay) -> bool:
            v = e.phase
            return ((v if v is not None else NONE) in values) != negate

        return phase
    if key == "obj.state":

        def obj_state(e: Event, _persons: Persons, replay: Replay) -> bool:
            v = replay.obj_state[e.index]
            return ((v if v is not None else NONE) in values) != negate

        return obj_state
    head, _, attr = key.partition(".")
    if head == "actor" and attr not in PERSON_ATTRS:  # the state of one of the actor's machines

        def actor_state(e: Event, _persons: Persons, replay: Replay) -> bool:
            v = replay.actor_state[e.index].get(attr)
            return ((v if v is not None else NONE) in values) != negate

        return actor_state
    if key in PERSON_KEYS:  # the role of the person the event names (`to`, `for` …), read from its attributes

        def person(e: Event, persons: Persons, _replay: Replay) -> bool:
            for k, v in e.attrs:
                if k == key:
                    return (persons[v].role in values) != negate
            return (NONE in values) != negate

        return person
    if head == "actor" and attr in PERSON_ATTRS:  # an attribute of the actor (his role, rank, side, pair)

        def of_actor(e: Event, persons: Persons, _replay: Replay) -> bool:
            v = getattr(persons[e.actor], attr)
            return ((v if v is not None else NONE) in values) != negate

        return of_actor
    read = _reader(key)

    def value(e: Event, persons: Persons, replay: Replay) -> bool:
        v = read(e, persons, replay)
        return ((v if v is not None else NONE) in values) != negate

    return value


#: the keys read from the event's own fields, not from its attributes
_FIELDS = ("actor", "obj", "phase", "round")


def reads_attribute(key: str) -> bool:
    """Is `key` an attribute of the event (`result`, `at` …), read from its `attrs`?"""
    return "." not in key and key not in PERSON_KEYS and key not in _FIELDS


def cond_reader(key: str) -> Callable[[Event, Persons, Replay], str | None]:
    """A function reading the value a condition on `key` tests (`_check`), None where the event has
    none (a condition's `none`): the event's attribute, its phase, the object's state, a state of
    the actor's, the role of the person the event names (`to`, `for`), an attribute of the actor's,
    else what `_reader` reads. A condition holds of an event where `(value or none) in values` is
    not `negate` (constraints/network.py decides many conditions from one such reading)."""
    if reads_attribute(key):
        return lambda e, _p, _r: e.get(key)
    if key == "phase":
        return lambda e, _p, _r: e.phase
    head, _, attr = key.partition(".")
    if key in PERSON_KEYS:

        def role_of(e: Event, persons: Persons, _replay: Replay) -> str | None:
            who = e.get(key)
            return None if who is None else persons[who].role

        return role_of
    if head == "actor" and attr in PERSON_ATTRS:
        return lambda e, p, _r: getattr(p[e.actor], attr)
    return _reader(key)  # obj.state, a state of the actor's, round, and a person's attribute or state


def reads_machines(key: str) -> bool:
    """Does a condition or a correlation on `key` read the machines' replay: the object's state
    (`obj.state`) or the state of one of a person's machines (`actor.司马`, `to.<machine>`)? Every
    other key is read from the event and the cast (`_reader`, `_check`: a key with a dot whose part
    after it is no person's attribute reads `Replay.actor_state`, `obj.state` its `obj_state`)."""
    _, dot, attr = key.partition(".")
    return bool(dot) and attr not in PERSON_ATTRS


def _reader(key: str) -> Callable[[Event, Persons, Replay], str | None]:
    """A function reading `key` of an event, given the trace's persons and its replay."""
    if key == "actor":
        return lambda e, _p, _r: e.actor
    if key == "obj":
        return lambda e, _p, _r: e.obj.key if e.obj else None
    if key == "phase":
        return lambda e, _p, _r: e.phase
    if key == "round":
        return lambda e, _p, _r: str(e.round)
    if key == "obj.state":
        return lambda e, _p, r: r.obj_state[e.index]
    head, dot, attr = key.partition(".")
    if not dot:
        return lambda e, _p, _r: e.get(key)
    if head == "actor":
        if attr in PERSON_ATTRS:
            return lambda e, p, _r: getattr(p[e.actor], attr)
        return lambda e, _p, r: r.actor_state[e.index].get(attr)

    def of_person(e: Event, persons: Persons, replay: Replay) -> str | None:
        who = e.get(head)
        if who is None:
            return None
        if attr in PERSON_ATTRS:
            value: str | None = getattr(persons[who], attr)
            return value
        return replay.actor_state[e.index].get(attr)

    return of_person


_slots = count()
#: the compiled patterns, one per distinct pattern (by value), by the pattern's text: equal patterns
#: have equal texts, and a text is hashed at once where a pattern's hash is that of all its sets
_by_text: dict[str, list[tuple[Pattern, Compiled]]] = {}
COMPILED = "_compiled"  # the attribute a pattern object keeps its compiled pattern in, in this process


def compiled(p: Pattern) -> Compiled:
    """The pattern compiled: kept by the pattern object itself, else found by its value, else made."""
    got: Compiled | None = p.__dict__.get(COMPILED)
    if got is not None:
        return got
    same = _by_text.setdefault(p.text, [])
    c = next((c for q, c in same if q == p), None)  # equal sets of a rulebook are one object: `is` answers
    if c is None:
        c = Compiled(p, next(_slots))
        same.append((p, c))
    object.__setattr__(p, COMPILED, c)  # not a field (equality and hash are the fields'), never pickled
    return c


class Context:
    """A trace with its replay: the values patterns and correlations read.

    The events a pattern matches are found once per Context and kept: its candidates come from an
    index of the trace's events by act (else by phase) and by the actor's role, and only its other
    conditions are tested, by a function compiled once per pattern (`compiled`). A rule visits only
    those events. Given a network (constraints/network.py: a check's in a batch), the events of
    every pattern it holds are found together, in one pass, when the first is asked for. Nothing a
    Context makes refers back to it, so that it is freed as soon as the check is done, without
    waiting for the collector.
    """

    def __init__(self, trace: Trace, replay: Replay, network: Network | None = None) -> None:
        self.trace, self.replay = trace, replay
        #: the patterns whose hits are all found in one pass when the first is asked for (None: each
        #: pattern's found when asked for, or the pass is made)
        self._network = network
        self._acts: set[str] | None = None  # the acts performed, when the network's pass has found them
        self.persons = trace.cast.persons
        self._keyers: dict[tuple[str, ...], Callable[[Event], tuple[str | None, ...]]] = {}
        self._split: tuple[dict[Any, list[Event]], ...] | None = None  # by act, and role, and phase
        self._getters: dict[str, Callable[[Event], str | None]] = {}
        self._hits: dict[int, Sequence[Event]] = {}  # by the compiled pattern's slot
        self._occurs: dict[int, bool] = {}  # by the compiled pattern's slot, when its hits were not needed
        #: the indices of a pattern's events by their correlation key, by the compiled pattern's slot and the keys
        self._positions: dict[tuple[int, tuple[str, ...]], dict[tuple[str | None, ...], list[int]]] = {}

    def getter(self, key: str) -> Callable[[Event], str | None]:
        """A function reading `key` of an event (what `value` returns), made once per key."""
        got = self._getters.get(key)
        if got is None:
            got = self._getters[key] = self._make_getter(key)
        return got

    def _make_getter(self, key: str) -> Callable[[Event], str | None]:
        if key == "actor":
            return attrgetter("actor")
        if key == "phase":
            return attrgetter("phase")
        if "." not in key and key not in _FIELDS:
            return lambda e: e.get(key)
        read, persons, replay = _reader(key), self.persons, self.replay
        return lambda e: read(e, persons, replay)

    def matches(self, p: Pattern, e: Event) -> bool:
        c = compiled(p)
        if c.acts is not None and e.act not in c.acts:
            return False
        if c.roles is not None and self.persons[e.actor].role not in c.roles:
            return False
        if c.phases is not None and e.phase not in c.phases:
            return False
        return c.test is None or c.test(e, self.persons, self.replay)

    def act_names(self) -> Collection[str]:
        """The acts the trace performs."""
        if self._network is not None:
            self._run_network()
        return self._acts if self._acts is not None else self._splits()[0].keys()

    def _run_network(self) -> None:
        """Find the hits of every pattern of the network, in one pass (`constraints/network.py`)."""
        network, self._network = self._network, None
        assert network is not None
        hits, self._acts = network.run(self.trace.events, self.persons, self.replay)
        table = self._hits
        for slot, found in zip(network.slots, hits, strict=True):
            table.setdefault(slot, found)

    def _splits(self) -> tuple[dict[Any, list[Event]], ...]:
        """The events of each act, then of each act and role, of each act and phase, and of each
        act, role and phase (`Compiled.split`, `Compiled.keys`), in trace order, made in one pass
        when first asked."""
        got = self._split
        if got is None:
            by_act: defaultdict[Any, list[Event]] = defaultdict(list)
            by_role: defaultdict[Any, list[Event]] = defaultdict(list)
            by_phase: defaultdict[Any, list[Event]] = defaultdict(list)
            by_both: defaultdict[Any, list[Event]] = defaultdict(list)
            role = {name: p.role for name, p in self.persons.items()}
            for e in self.trace.events:
                act, r, ph = e.act, role[e.actor], e.phase
                by_act[act].append(e)
                by_role[act, r].append(e)
                by_phase[act, ph].append(e)
                by_both[act, r, ph].append(e)
            for index in (by_act, by_role, by_phase, by_both):
                index.default_factory = None
            got = self._split = (by_act, by_role, by_phase, by_both)
        return got

    def _groups(self, c: Compiled) -> list[list[Event]] | None:
        """The events of the pattern's acts (else of its phases, else of its roles), and of its
        roles and phases, in groups, each in trace order (None: every event)."""
        if c.field is None:
            return None
        split = self._splits()
        if c.split < 4:
            events_of = split[c.split]
            return [g for k in c.keys if (g := events_of.get(k))]
        if c.split == 4:  # a pattern of phases: the groups of its phases (of every act)
            phases = c.values
            return [g for (_, ph), g in split[2].items() if ph in phases]
        if c.split == 5:  # a pattern of roles: the groups of its roles
            roles = c.values
            return [g for (_, r), g in split[1].items() if r in roles]
        wanted, named = c.values, c.roles or frozenset()  # a pattern of phases and roles
        return [g for (_, r, ph), g in split[3].items() if ph in wanted and r in named]

    def _candidates(self, c: Compiled) -> Sequence[Event]:
        """The events of the pattern's acts (else of its phases) and of its roles, in trace order
        (a sequence the caller does not change: the trace's own tuple when the pattern names no act)."""
        groups = self._groups(c)
        if groups is None:
            return self.trace.events
        if not groups:
            return []
        if len(groups) == 1:
            return groups[0]
        return sorted(chain.from_iterable(groups), key=_INDEX)

    def hits(self, p: Pattern) -> Sequence[Event]:
        """The events that match `p`, in trace order."""
        return self._hit(p)

    def _hit(self, p: Pattern) -> Sequence[Event]:
        c = p.__dict__.get(COMPILED) or compiled(p)  # `compiled`'s first look, in place: the hottest call of a check
        got = self._hits.get(c.slot)
        if got is not None:
            return got
        if self._network is not None:
            self._run_network()
            got = self._hits.get(c.slot)
        if got is None:
            found = self._candidates(c)
            test = c.test
            if test is not None and found:
                persons, replay = self.persons, self.replay
                found = [e for e in found if test(e, persons, replay)]
            got = self._hits[c.slot] = found
        return got

    def positions(self, p: Pattern, keys: tuple[str, ...]) -> dict[tuple[str | None, ...], list[int]]:
        """The indices of the events that match `p`, by their values of `keys` (`keyer`), each list in
        trace order; made once per pattern and keys (the rules that correlate equal patterns on equal
        keys share it)."""
        slot = (compiled(p).slot, keys)
        got = self._positions.get(slot)
        if got is None:
            got = self._positions[slot] = {}
            key = self.keyer(keys)
            by_actor = key is _actor_key  # the commonest key, read in the loop itself
            for e in self._hit(p):
                k = (e.actor,) if by_actor else key(e)
                at = got.get(k)
                if at is None:
                    got[k] = [e.index]
                else:
                    at.append(e.index)
        return got

    def occurs(self, p: Pattern) -> bool:
        """Whether some event matches `p`: its hits when they are known, else the first match found
        (the others are not looked for)."""
        c = compiled(p)
        got = self._hits.get(c.slot)
        if got is None and self._network is not None:
            self._run_network()
            got = self._hits.get(c.slot)
        if got is not None:
            return bool(got)
        found = self._occurs.get(c.slot)
        if found is None:
            found = self._occurs[c.slot] = self._first(c)
        return found

    def _first(self, c: Compiled) -> bool:
        groups, test, events = self._groups(c), c.test, self.trace.events
        if test is None:
            return bool(events) if groups is None else any(groups)
        persons, replay = self.persons, self.replay
        if groups is None:
            return any(test(e, persons, replay) for e in events)
        return any(test(e, persons, replay) for g in groups for e in g)

    def walk(self, *patterns: Pattern) -> list[tuple[Event, tuple[bool, ...]]]:
        """The events that match any of `patterns`, in trace order, each with which ones it matches."""
        hit = [self._hit(p) for p in patterns]
        if len(hit) == 1:
            return [(e, _ONE) for e in hit[0]]
        if len(hit) == 2:
            return _merge(hit[0], hit[1])
        if len(hit) == 3:
            return _merge_third(_merge(hit[0], hit[1]), hit[2])
        flags: dict[int, list[bool]] = {}  # the hits' lists are sorted by index: no sets are kept for this
        for k, found in enumerate(hit):
            for e in found:
                got = flags.get(e.index)
                if got is None:
                    got = flags[e.index] = [False] * len(hit)
                got[k] = True
        events = self.trace.events
        return [(events[i], tuple(flags[i])) for i in sorted(flags)]

    def keyer(self, keys: tuple[str, ...]) -> Callable[[Event], tuple[str | None, ...]]:
        """A function giving an event's values of `keys` (its correlation key), made once per keys."""
        got = self._keyers.get(keys)
        if got is None:
            gets = [self.getter(k) for k in keys]
            if not gets:
                got = _no_key
            elif keys == ("actor",):  # the commonest key, read in the keyer's own call
                got = _actor_key
            elif keys == ("phase",):
                got = _phase_key
            elif len(keys) > 1 and all(k in ("actor", "phase") for k in keys):  # the event's own fields: one C call
                got = attrgetter(*keys)
            elif len(gets) == 1:
                g0 = gets[0]

                def got(e: Event) -> tuple[str | None, ...]:
                    return (g0(e),)

            elif len(gets) == 2:
                g0, g1 = gets

                def got(e: Event) -> tuple[str | None, ...]:
                    return (g0(e), g1(e))

            else:

                def got(e: Event) -> tuple[str | None, ...]:
                    return tuple(g(e) for g in gets)

            self._keyers[keys] = got
        return got


_ONE = (True,)
_INDEX = attrgetter("index")
_FIRST, _SECOND, _BOTH = (True, False), (False, True), (True, True)


def _merge(a: Sequence[Event], b: Sequence[Event]) -> list[tuple[Event, tuple[bool, ...]]]:
    """The events of two lists in trace order (each sorted by index), each with the lists it is in."""
    if not b:
        return [(e, _FIRST) for e in a]
    if not a:
        return [(e, _SECOND) for e in b]
    out: list[tuple[Event, tuple[bool, ...]]] = []
    add = out.append
    i = j = 0
    na, nb = len(a), len(b)
    x, y = a[0], b[0]
    xi, yi = x.index, y.index
    while True:
        if xi < yi:
            add((x, _FIRST))
            i += 1
            if i == na:
                break
            x = a[i]
            xi = x.index
        elif yi < xi:
            add((y, _SECOND))
            j += 1
            if j == nb:
                break
            y = b[j]
            yi = y.index
        else:
            add((x, _BOTH))
            i += 1
            j += 1
            if i == na or j == nb:
                break
            x, y = a[i], b[j]
            xi, yi = x.index, y.index
    out += [(e, _FIRST) for e in a[i:]]
    out += [(e, _SECOND) for e in b[j:]]
    return out


#: the flags of an event of the first two lists, in the third or not (made once: no tuple made an event)
_WITH_THIRD: dict[tuple[bool, ...], tuple[bool, ...]] = {f: (*f, True) for f in (_FIRST, _SECOND, _BOTH)}
_WITHOUT_THIRD: dict[tuple[bool, ...], tuple[bool, ...]] = {f: (*f, False) for f in (_FIRST, _SECOND, _BOTH)}
_THIRD = (False, False, True)


def _merge_third(two: list[tuple[Event, tuple[bool, ...]]], c: Sequence[Event]) -> list[tuple[Event, tuple[bool, ...]]]:
    """`_merge` of two lists (`two`, with their flags) merged with a third list, in trace order."""
    out: list[tuple[Event, tuple[bool, ...]]] = []
    add = out.append
    j, nc = 0, len(c)
    ci = c[0].index if nc else -1
    for e, flags in two:
        i = e.index
        while 0 <= ci < i:
            add((c[j], _THIRD))
            j += 1
            ci = c[j].index if j < nc else -1
        if ci == i:
            add((e, _WITH_THIRD[flags]))
            j += 1
            ci = c[j].index if j < nc else -1
        else:
            add((e, _WITHOUT_THIRD[flags]))
    out += [(e, _THIRD) for e in c[j:]]
    return out


def _no_key(_e: Event) -> tuple[()]:
    return ()


def _actor_key(e: Event) -> tuple[str | None, ...]:
    return (e.actor,)


def _phase_key(e: Event) -> tuple[str | None, ...]:
    return (e.phase,)


def same_keys(vocab: Vocabulary) -> list[str]:
    """The keys `same` can correlate (in the Python checker and in z3 alike): the event's own
    words, its phase and round, and the role, rank, side or pair of a person it names."""
    keys = ["actor", "act", "obj", *PERSON_KEYS, *PLACE_KEYS, *vocab.attributes, "phase", "round"]
    return keys + [f"{p}.{a}" for p in ("actor", *PERSON_KEYS) for a in PERSON_ATTRS]


def check_same(same: tuple[tuple[str, str], ...], vocab: Vocabulary, where: str, at: int | None) -> None:
    """Correlated keys must be keys `same` knows, and carry the same kind of value."""
    known = same_keys(vocab)
    for key in (k for pair in same for k in pair):
        if key not in known:
            raise RulebookError(
                where, at, f"same: {key!r} is not a key that can be correlated", hint=did_you_mean(key, known)
            )
    for a, b in same:
        if key_kind(a) != key_kind(b):
            raise RulebookError(where, at, f"same: {a} and {b} carry different kinds of value")


def machines_of(pattern: Pattern) -> list[Table]:
    """The machine tables whose states a pattern reads."""
    out = []
    for c in pattern.conds:
        if c.key == "obj.state":
            out += [t for k in (pattern.objs or ()) if (t := table_for_object(k))]
        elif c.key.startswith("actor.") and c.key[6:] not in PERSON_ATTRS:
            t = table_named(c.key[6:])
            if t:
                out.append(t)
    return out
