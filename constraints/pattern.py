"""Event patterns: what a rule's `first`, `then`, `pattern` … match.

A pattern has the shape of an event, `ACTOR ACT [OBJECT] [condition …]`:

    释获者 释获                         the act 释获 by a 释获者
    * 射 * result=贯 round=2|3          any shot that pierces, in round 2 or 3
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

from dataclasses import dataclass

from domain.errors import RulebookError, did_you_mean
from domain.trace import SIDES, Event, Trace
from domain.vocabulary import PERSON_KEYS, PLACE_KEYS, Vocabulary
from fsm.replay import Replay
from fsm.table import Table, table_for_object, table_named, tables

PERSON_ATTRS = ("role", "rank", "side", "pair")
NONE = "none"


@dataclass(frozen=True)
class Cond:
    key: str
    values: frozenset[str]
    negate: bool = False

    def __str__(self) -> str:
        return f"{self.key}{'!=' if self.negate else '='}{'|'.join(sorted(self.values))}"


@dataclass(frozen=True)
class Pattern:
    text: str
    roles: frozenset[str] | None
    acts: frozenset[str] | None
    objs: frozenset[str] | None
    conds: tuple[Cond, ...]

    def __str__(self) -> str:
        return self.text


def _alts(word: str) -> frozenset[str] | None:
    return None if word == "*" else frozenset(word.split("|"))


def parse_pattern(text: str, vocab: Vocabulary, where: str = "<rule>", at: int | None = None
                  ) -> Pattern:
    """Parse and validate a pattern; unknown words are errors with "did you mean"."""
    def fail(msg: str, hint: str | None = None) -> RulebookError:
        return RulebookError(where, at, f"pattern 「{text}」: {msg}", hint=hint)

    words = text.split()
    plain = [w for w in words if "=" not in w]
    if len(plain) < 2 or len(plain) > 3 or words[:len(plain)] != plain:
        raise fail("a pattern is ACTOR ACT [OBJECT] [key=value …]")
    roles, acts = _alts(plain[0]), _alts(plain[1])
    objs = _alts(plain[2]) if len(plain) == 3 else None
    if roles is not None:
        canon = set()
        for r in roles:
            c = vocab.canonical_role(r)
            if c is None:
                raise fail(f"unknown role {r}", did_you_mean(r, vocab.roles))
            canon.add(c)
        roles = frozenset(canon)
    for a in acts or ():
        if a not in vocab.acts:
            raise fail(f"unknown act {a}", did_you_mean(a, vocab.acts))
    for o in objs or ():
        if o not in vocab.objects:
            raise fail(f"unknown object kind {o}", did_you_mean(o, vocab.objects))
    conds = []
    for w in words[len(plain):]:
        negate = "!=" in w
        key, _, value = w.partition("!=" if negate else "=")
        values = frozenset(value.split("|"))
        allowed = _allowed_values(key, vocab, objs)
        if allowed is None:
            raise fail(f"unknown key {key}", did_you_mean(key, _known_keys(vocab)))
        if key in PERSON_KEYS or key.endswith(".role"):
            values = frozenset(vocab.canonical_role(v) or v for v in values)
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
            return None       # pairs are compared with `same`, not with literal values
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


class Context:
    """A trace with its replay: the values patterns and correlations read."""

    def __init__(self, trace: Trace, replay: Replay) -> None:
        self.trace, self.replay = trace, replay
        self.persons = trace.cast.persons

    def value(self, e: Event, key: str) -> str | None:
        if key == "actor":
            return e.actor
        if key == "obj":
            return e.obj.key if e.obj else None
        if key == "phase":
            return e.phase
        if key == "round":
            return str(e.round)
        if key == "obj.state":
            return self.replay.obj_state[e.index]
        head, dot, attr = key.partition(".")
        if dot:
            who = e.actor if head == "actor" else e.get(head)
            if who is None:
                return None
            if attr in PERSON_ATTRS:
                p = self.persons[who]
                return getattr(p, attr)
            return self.replay.actor_state[e.index].get(attr)
        return e.get(key)

    def matches(self, p: Pattern, e: Event) -> bool:
        if p.acts is not None and e.act not in p.acts:
            return False
        if p.roles is not None and self.persons[e.actor].role not in p.roles:
            return False
        if p.objs is not None and (e.obj is None or e.obj.kind not in p.objs):
            return False
        for c in p.conds:
            v = self.value(e, c.key)
            if c.key in PERSON_KEYS and v is not None:
                v = self.persons[v].role
            hit = (v if v is not None else NONE) in c.values
            if hit == c.negate:
                return False
        return True

    def key(self, e: Event, keys: tuple[str, ...]) -> tuple[str | None, ...]:
        return tuple(self.value(e, k) for k in keys)


def check_same(same: tuple[tuple[str, str], ...], where: str, at: int | None) -> None:
    """Correlated keys must carry the same kind of value."""
    for a, b in same:
        if key_kind(a) != key_kind(b) and not (key_kind(a).startswith("state:")
                                                and key_kind(b).startswith("state:")):
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
