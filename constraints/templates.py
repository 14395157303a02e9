"""The closed set of rule templates. Each holds both meanings of a rule side by side:
`holds(ctx)` evaluates a concrete trace in Python (one pass over the events its patterns
match, as the Context indexes them, hashing on the correlated keys) and
`encode(sym)` gives the same statement over a bounded symbolic trace for z3.

`same` correlates two events: `same = ["obj"]` (the same cup), or a mapping from the keys of the
later (or `then`) event to those of the other one, `same = {for = "actor", arrow = "arrow"}`.

Where a violation is reported (`Violation.at`): at the FAULTY event, the one a corrected staging
would change, as early as the fault is certain. Per kind (each class says why):

- absence: the forbidden event.
- precedence: the `then` that came without its `first` (the missing event is no event; the `then`
  is where it was due).
- response: the `first` left unanswered (where the obligation was taken on; that no answer follows
  is known only at the end of the trace).
- unique / at_most: the occurrence that is one too many (the second; the (n+1)-th).
- count_before: the `then` at which the count is wrong.
- absence_between: the `forbid` event inside the window, once a `then` closes the window (until
  then an `after` could still open a fresh window and the `forbid` would be harmless); each such
  `forbid` once, however many `then`s close over it. A rule whose `forbid` stands for a debt (an
  event right in itself after which something is owed) says `fault = "then"`: the `then` is reported.
- alternate: the event that breaks the alternation; the alternation then resumes as if the missing
  partner had come, so that one missing (or extra) event is one violation, not one at every later
  event of its group.
- pair / cast_absence: no event (`at` is None); the line of the pair or cast statement.

`Violation.key` is the correlated instance a violation concerns (the values of the `same` keys),
for the kinds where one fault makes every later event of that instance fail: precedence (one missing
`first` leaves every later `then` of the instance without it), response (one missing `then` at the
end leaves every earlier unanswered `first` of it) and count_before (one missing or extra `first`
miscounts every later `then`). constraints/check.py groups such findings of a rule under the first
(`caused_by`); the kinds whose violations are each an event of their own (absence, unique, at_most,
absence_between, alternate after its resynchronisation) give no key. Where a violation is reported
and how many there are changes nothing about whether a trace holds: `clauses` (the z3 meaning) is
the same statement.
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from collections import Counter
from collections.abc import Callable
from dataclasses import Field
from operator import attrgetter
from typing import TYPE_CHECKING, Any, ClassVar, Literal, NewType

from xiangshe.constraints.pattern import NONE, Cond, Context, Pattern, reads_machines
from xiangshe.domain.dataclass import dataclass
from xiangshe.domain.messages import Message

if TYPE_CHECKING:
    import z3

    from xiangshe.constraints.smt import Symbolic
    from xiangshe.domain.occasion import Occasion
    from xiangshe.domain.trace import Cast, Person

Key = tuple[str | None, ...]  # a correlation key: the values of the `same` keys of an event
Same = tuple[tuple[str, str], ...]  # (key of the later/then event, key of the other event)
Op = Literal["==", "<=", ">="]  # how a count compares with n
Fault = Literal["forbid", "then"]  # which event of a broken window is reported (the first: the default)
OccasionField = NewType("OccasionField", str)  # a field of the occasion (domain/occasion.py FIELDS)


@dataclass(frozen=True)
class Violation:
    """What a template finds: where (an event, or a line of the cast) and what it says."""

    at: int | None  # event index, or None for a violation of the cast
    message: str
    line: int | None = None  # for cast violations: the line of the pair/cast statement
    key: Key | None = None  # the correlated instance, where its later violations follow
    # from its first (see the module's docstring)


def _keys(same: Same, side: int) -> tuple[str, ...]:
    return tuple(pair[side] for pair in same)


def _desc(same: Same) -> str:
    if not same:
        return ""
    parts = [a if a == b else f"{a}={b}" for a, b in same]
    return Message("same", keys=", ".join(parts))


class Template:
    """A rule template: the closed set of them is `KINDS`. A template class carries its whole
    contract, and every user (the checker, z3, the search, the vacuity check, explain, the `query`
    command, the reports, the benchmarks) derives what it needs from these facts, never from `kind`:

    - `fields`: the fields that are patterns of events (in the order they are shown);
      `person_fields`: the fields that are patterns of persons; `number_fields`: the numbers and
      comparisons (`n`, `op`); `same` (when the class has it) correlates the events;
    - `trigger_fields` (`triggers()`): the patterns whose events make the rule bite — it is vacuous
      where none occurs; none for a rule that holds throughout (a prohibition, a count, a rule of the
      cast or of the occasion);
    - `need_fields` (`needs()`): the patterns whose events answer a trigger — a debt: once a trigger
      occurs, the rule can only be kept by such events (the search's closure follows it); none for a
      rule kept by avoiding something (a prohibition, a count with an upper bound, a window that must
      stay empty: nothing is owed, and doing nothing keeps it);
    - `owed_after`: the debt is answered after its trigger (a fragment may end before the answer);
    - `of_cast`: a rule of the cast (persons, pairs), not of events: one clause for the whole trace;
    - `prohibition`: kept by a trace where nothing matches `forbidden()` (said plainly, no window);
    - `queryable`: a property the `query` command asks about (`QUERY_KINDS`);
    - `limit()` / `order()`: its shape as a bound on a count or as an ordering of two patterns, where
      it has one (the Declare translation of benchmarks/declare_subset.py)."""

    __dataclass_fields__: ClassVar[dict[str, Field[Any]]]  # every template in KINDS is a dataclass
    kind: ClassVar[str]
    fields: ClassVar[tuple[str, ...]]
    person_fields: ClassVar[tuple[str, ...]] = ()
    number_fields: ClassVar[tuple[str, ...]] = ()
    trigger_fields: ClassVar[tuple[str, ...]] = ()
    need_fields: ClassVar[tuple[str, ...]] = ()
    owed_after: ClassVar[bool] = False
    of_cast: ClassVar[bool] = False
    prohibition: ClassVar[bool] = False
    queryable: ClassVar[bool] = False

    def holds(self, ctx: Context) -> list[Violation]:
        raise NotImplementedError

    def clauses(self, sym: Symbolic) -> list[z3.BoolRef]:
        """The z3 meaning, one clause per step of the unrolling (what the rule requires of step i,
        given the steps before it); the cast rules give a single clause."""
        raise NotImplementedError

    def encode(self, sym: Symbolic) -> z3.BoolRef:
        return sym.all(self.clauses(sym))

    def patterns(self) -> list[Pattern]:
        return [getattr(self, f) for f in self.fields]

    def triggers(self) -> list[Pattern]:
        """The patterns whose events make the rule bite (it is vacuous where none occurs)."""
        return [getattr(self, f) for f in self.trigger_fields]

    def needs(self) -> list[Pattern]:
        """The patterns whose events answer a trigger (empty: nothing is ever owed)."""
        return [getattr(self, f) for f in self.need_fields]

    def speaks_of(self) -> list[Pattern]:
        """The events a rule is first seen at work on: its triggers, or for a rule that holds
        throughout, the events it counts (explain's passing window)."""
        limit = self.limit()
        return self.triggers() or ([limit[0]] if limit else [])

    def persons(self) -> list[PersonPattern]:
        """The person patterns (a rule of the cast: whom it speaks of first)."""
        return [getattr(self, f) for f in self.person_fields]

    def forbidden(self) -> Pattern | PersonPattern:
        """What nothing may match, for a prohibition."""
        raise TypeError(f"a {self.kind} rule is no prohibition")

    def applies(self, cast: Cast) -> bool:  # noqa: ARG002 — the cast matters to the rules of the occasion
        """Is the rule in force for a staging of this cast (its occasion)? See `condition()`."""
        return True

    def condition(self) -> str | None:
        """The condition on the occasion under which the rule is in force (None: always)."""
        return None

    def limit(self) -> tuple[Pattern, int] | None:
        """(pattern, n): at most n events may match the pattern (within each `same` group)."""
        return None

    def order(self) -> tuple[str, Pattern, Pattern] | None:
        """("precedence" | "response", first, then): the rule orders two patterns, nothing more."""
        return None

    def reads_machines(self) -> bool:
        """Does the rule read the machines' replay (a state, in a condition of one of its patterns
        or in a `same` key)? A check that applies no such rule and no machine need not replay."""
        keys = [c.key for p in self.patterns() for c in p.conds]
        keys += [k for pair in self.correlation() for k in pair]
        return any(reads_machines(k) for k in keys)

    def correlation(self) -> Same:
        """The `same` keys that correlate the events (none for a template without `same`)."""
        return getattr(self, "same", ())

    def same_text(self) -> str:
        return ", ".join(a if a == b else f"{a}={b}" for a, b in self.correlation())

    def gates(self) -> tuple[Gate | None, Gate | None]:
        """What the rule needs of a trace to find anything in it, and its triggers' gate (constraints/
        gates.py): kept with the template of a stored rulebook (`keep_gates`), else worked out."""
        kept: tuple[Gate | None, Gate | None] | None = self.__dict__.get(GATES)
        return kept if kept is not None else _gates(self)

    def shown(self) -> list[tuple[str, object, bool]]:
        """The fields as explain shows them: (name, value, is a pattern)."""
        out: list[tuple[str, object, bool]] = [(f, getattr(self, f), True) for f in self.fields]
        if self.same_text():
            out.append(("same", self.same_text(), False))
        out += [(f, getattr(self, f), True) for f in self.person_fields]
        out += [(f, getattr(self, f), False) for f in self.number_fields]
        return out


@dataclass(frozen=True)
class Absence(Template):
    """No event matches `pattern`."""

    pattern: Pattern
    kind: ClassVar[str] = "absence"
    fields: ClassVar[tuple[str, ...]] = ("pattern",)

    prohibition: ClassVar[bool] = True
    queryable: ClassVar[bool] = True

    def forbidden(self) -> Pattern:
        return self.pattern

    def limit(self) -> tuple[Pattern, int]:
        return self.pattern, 0

    def holds(self, ctx: Context) -> list[Violation]:
        message = Message("absence.forbidden", pattern=self.pattern)
        return [Violation(e.index, message) for e in ctx.hits(self.pattern)]

    def clauses(self, sym: Symbolic) -> list[z3.BoolRef]:
        return [sym.Not(sym.match(self.pattern, t)) for t in sym.steps]


@dataclass(frozen=True)
class Precedence(Template):
    """Every `then` event comes after a `first` event (that agrees with it on `same`).

    Reported at each `then` without an earlier `first`, with the instance as `key`: adding the one
    missing `first` before the earliest of them repairs them all."""

    first: Pattern
    then: Pattern
    same: Same = ()
    kind: ClassVar[str] = "precedence"
    fields: ClassVar[tuple[str, ...]] = ("first", "then")
    trigger_fields: ClassVar[tuple[str, ...]] = ("then",)

    need_fields: ClassVar[tuple[str, ...]] = ("first",)
    queryable: ClassVar[bool] = True

    def order(self) -> tuple[str, Pattern, Pattern]:
        return "precedence", self.first, self.then

    def holds(self, ctx: Context) -> list[Violation]:
        thens = ctx.hits(self.then)
        if not thens:
            return []
        firsts = ctx.hits(self.first)
        message = None
        out = []
        if not self.same:  # one instance: the `then`s up to the first `first` (an event both is a `then` first)
            end = firsts[0].index if firsts else len(ctx.trace)
            for e in thens:
                if e.index > end:
                    break
                message = message or Message("precedence.no-earlier", first=self.first, same=_desc(self.same))
                out.append(Violation(e.index, message, key=()))
            return out
        seen: set[Key] = set()
        tk, fk = ctx.keyer(_keys(self.same, 0)), ctx.keyer(_keys(self.same, 1))
        j, n = 0, len(firsts)
        for e in thens:  # the `first`s before it are seen (an event both is a `then` first)
            at = e.index
            while j < n and firsts[j].index < at:
                seen.add(fk(firsts[j]))
                j += 1
            if (k := tk(e)) not in seen:
                message = message or Message("precedence.no-earlier", first=self.first, same=_desc(self.same))
                out.append(Violation(at, message, key=k))
        return out

    def clauses(self, sym: Symbolic) -> list[z3.BoolRef]:
        return [
            sym.Implies(
                sym.match(self.then, i),
                sym.any(sym.And(sym.match(self.first, j), sym.agree(self.same, i, j)) for j in range(i)),
            )
            for i in sym.steps
        ]


@dataclass(frozen=True)
class Response(Template):
    """Every `first` event is followed by a `then` event (that agrees with it on `same`).

    Reported at each `first` left without a later `then`, with the instance as `key`: the unanswered
    ones of an instance are those after its last `then`, and one `then` after the last of them
    repairs them all."""

    first: Pattern
    then: Pattern
    same: Same = ()
    kind: ClassVar[str] = "response"
    fields: ClassVar[tuple[str, ...]] = ("first", "then")
    trigger_fields: ClassVar[tuple[str, ...]] = ("first",)

    need_fields: ClassVar[tuple[str, ...]] = ("then",)
    owed_after: ClassVar[bool] = True
    queryable: ClassVar[bool] = True

    def order(self) -> tuple[str, Pattern, Pattern]:
        return "response", self.first, self.then

    def holds(self, ctx: Context) -> list[Violation]:
        firsts = ctx.hits(self.first)
        if not firsts:
            return []
        thens = ctx.hits(self.then)
        message = None
        out = []
        if not self.same:  # one instance: the `first`s from the last `then` on (an event both is a `first` first)
            start = thens[-1].index if thens else -1
            for e in reversed(firsts):
                if e.index < start:
                    break
                message = message or Message("response.no-later", then=self.then, same=_desc(self.same))
                out.append(Violation(e.index, message, key=()))
            return out[::-1]
        seen: set[Key] = set()
        tk, fk = ctx.keyer(_keys(self.same, 0)), ctx.keyer(_keys(self.same, 1))
        j = len(thens) - 1
        for e in reversed(firsts):  # the `then`s after it are seen (an event both is a `first` first)
            at = e.index
            while j >= 0 and thens[j].index > at:
                seen.add(tk(thens[j]))
                j -= 1
            if (k := fk(e)) not in seen:
                message = message or Message("response.no-later", then=self.then, same=_desc(self.same))
                out.append(Violation(at, message, key=k))
        return out[::-1]

    def clauses(self, sym: Symbolic) -> list[z3.BoolRef]:
        # not prefix-closed: the clause of step j reads the steps after it
        return [
            sym.Implies(
                sym.match(self.first, j),
                sym.any(sym.And(sym.match(self.then, i), sym.agree(self.same, i, j)) for i in range(j + 1, sym.k)),
            )
            for j in sym.steps
        ]


@dataclass(frozen=True)
class Unique(Template):
    """No two events match `pattern` and agree on `same`.

    Reported at every repetition (no `key`: each is an event of its own to be taken out)."""

    pattern: Pattern
    same: Same = ()
    kind: ClassVar[str] = "unique"
    fields: ClassVar[tuple[str, ...]] = ("pattern",)

    queryable: ClassVar[bool] = True

    def limit(self) -> tuple[Pattern, int]:
        return self.pattern, 1

    def holds(self, ctx: Context) -> list[Violation]:
        first: dict[Key, int] = {}
        out = []
        tk, fk = ctx.keyer(_keys(self.same, 0)), ctx.keyer(_keys(self.same, 1))
        for e in ctx.hits(self.pattern):
            k = tk(e)
            if k in first:
                out.append(
                    Violation(
                        e.index,
                        Message(
                            "unique.again", pattern=self.pattern, same=_desc(self.same), line=ctx.trace[first[k]].line
                        ),
                    )
                )
            else:
                first.setdefault(fk(e), e.index)
        return out

    def clauses(self, sym: Symbolic) -> list[z3.BoolRef]:
        return [
            sym.all(
                sym.Not(sym.And(sym.match(self.pattern, i), sym.match(self.pattern, j), sym.agree(self.same, i, j)))
                for j in range(i)
            )
            for i in sym.steps
        ]


@dataclass(frozen=True)
class AtMost(Template):
    """At most `n` events match `pattern` among those that agree on `same`.

    Reported once per instance, at the (n+1)-th event."""

    pattern: Pattern
    n: int
    same: Same = ()
    kind: ClassVar[str] = "at_most"
    fields: ClassVar[tuple[str, ...]] = ("pattern",)

    number_fields: ClassVar[tuple[str, ...]] = ("n",)
    queryable: ClassVar[bool] = True

    def limit(self) -> tuple[Pattern, int]:
        return self.pattern, self.n

    def holds(self, ctx: Context) -> list[Violation]:
        count: Counter[Key] = Counter()
        out = []
        keys = ctx.keyer(_keys(self.same, 0))
        for e in ctx.hits(self.pattern):
            k = keys(e)
            count[k] += 1
            if count[k] == self.n + 1:
                out.append(
                    Violation(e.index, Message("at-most.more", n=self.n, pattern=self.pattern, same=_desc(self.same)))
                )
        return out

    def clauses(self, sym: Symbolic) -> list[z3.BoolRef]:
        return [
            sym.Implies(
                sym.match(self.pattern, i),
                sym.count(sym.And(sym.match(self.pattern, j), sym.agree(self.same, i, j)) for j in range(i + 1))
                <= sym.bound(self.n),
            )
            for i in sym.steps
        ]


_OPS: dict[str, Callable[[int, int], bool]] = {
    "==": lambda a, b: a == b,
    "<=": lambda a, b: a <= b,
    ">=": lambda a, b: a >= b,
}


@dataclass(frozen=True)
class CountBefore(Template):
    """At every `then` event, the number of earlier `first` events that agree on `same` is `op n`.

    Reported at each `then` where the count is wrong, with the instance as `key`: one missing or
    extra `first` miscounts every later `then` of the instance."""

    first: Pattern
    then: Pattern
    op: Op
    n: int
    same: Same = ()
    kind: ClassVar[str] = "count_before"
    fields: ClassVar[tuple[str, ...]] = ("first", "then")
    trigger_fields: ClassVar[tuple[str, ...]] = ("then",)

    number_fields: ClassVar[tuple[str, ...]] = ("n", "op")
    queryable: ClassVar[bool] = True

    def needs(self) -> list[Pattern]:
        """A count that must reach n > 0 owes its `first` events; an upper bound owes nothing."""
        return [self.first] if self.op in ("==", ">=") and self.n > 0 else []

    def order(self) -> tuple[str, Pattern, Pattern] | None:
        """At least one earlier `first`: a precedence."""
        return ("precedence", self.first, self.then) if (self.op, self.n) == (">=", 1) else None

    def holds(self, ctx: Context) -> list[Violation]:
        test = _OPS[self.op]
        if not ctx.hits(self.first) and test(0, self.n):
            return []  # every `then` counts none, and none is what it may count
        count: Counter[Key] = Counter()
        out = []
        tk, fk = ctx.keyer(_keys(self.same, 0)), ctx.keyer(_keys(self.same, 1))
        for e, (is_then, is_first) in ctx.walk(self.then, self.first):
            if is_then:
                have = count[tk(e)]
                if not test(have, self.n):
                    out.append(
                        Violation(
                            e.index,
                            Message(
                                "count-before.count",
                                have=have,
                                first=self.first,
                                same=_desc(self.same),
                                op=self.op,
                                n=self.n,
                            ),
                            key=tk(e),
                        )
                    )
            if is_first:
                count[fk(e)] += 1
        return out

    def clauses(self, sym: Symbolic) -> list[z3.BoolRef]:
        return [
            sym.Implies(
                sym.match(self.then, i),
                _OPS[self.op](
                    sym.count(sym.And(sym.match(self.first, j), sym.agree(self.same, i, j)) for j in range(i)),
                    sym.bound(self.n),
                ),
            )
            for i in sym.steps
        ]


@dataclass(frozen=True)
class AbsenceBetween(Template):
    """No `forbid` event lies between a `then` event and the latest earlier `after` event
    (all three agreeing on `same`).

    Reported at the `forbid` event: it is the act the text rules out (the wash inside the 旅, the
    guest who comes down with the host), and a staging is corrected by taking it out, not by moving
    the `then`. It is reported when a `then` closes its window (only then is it a violation: an
    `after` before any `then` opens a fresh window and leaves it harmless), once, however many `then`s
    close over it; every `forbid` of the window is reported. The message names the `then` (its line)
    that closed the window.

    Some rules use the window the other way round: the `forbid` event is right in itself and stands
    for what is then owed (the host's 卒觯 after which the 宾 must 辞洗 before the washing is done;
    the ruler's draining that the 宾 must answer, 夹爵; a 大夫's entrance that makes him the one
    pledged). There the fault is the `then` that comes while the debt is open: such a rule says
    `fault = "then"`, and it is reported at each `then` that closes a window with a `forbid` in it."""

    after: Pattern
    forbid: Pattern
    then: Pattern
    same: Same = ()
    fault: Fault = "forbid"  # the event reported
    kind: ClassVar[str] = "absence_between"
    fields: ClassVar[tuple[str, ...]] = ("after", "forbid", "then")
    trigger_fields: ClassVar[tuple[str, ...]] = ("then",)

    queryable: ClassVar[bool] = True

    def holds(self, ctx: Context) -> list[Violation]:
        """The window of a `then` (of its instance): the `forbid`s after the latest `after` before it
        (an event that is both a `forbid` and an `after` is in no window: the `after` opens a fresh
        one; a `then` that is also a `forbid` or an `after` closes the window before it). Found by
        bisecting the instance's `after`s and `forbid`s, in trace order (`Context.positions`, shared
        by the rules that correlate the same patterns on the same keys), at each `then` only: a
        walk over every `after` and `forbid` event gives the same (tests/test_fast_paths.py)."""
        if not ctx.hits(self.forbid) or not ctx.hits(self.after):
            return []  # no window is opened, or none holds a `forbid`: nothing to report either way
        thens = ctx.hits(self.then)
        if not thens:
            return []
        keys = _keys(self.same, 1)
        forbids, afters = ctx.positions(self.forbid, keys), ctx.positions(self.after, keys)
        reported: set[int] = set()
        out = []
        tk = ctx.keyer(_keys(self.same, 0))
        by_then = self.fault == "then"
        for e in thens:
            k = tk(e)
            fs = forbids.get(k)
            if fs is None:
                continue
            opened = afters.get(k)
            if opened is None:
                continue
            at = e.index
            j = bisect_left(opened, at)
            if j == 0:
                continue  # no window is open
            lo, hi = bisect_right(fs, opened[j - 1]), bisect_left(fs, at)
            if lo >= hi:
                continue  # the window holds no `forbid`
            if by_then:
                out.append(
                    Violation(
                        at,
                        Message(
                            "absence-between.since",
                            forbid=self.forbid,
                            line=ctx.trace[fs[lo]].line,
                            after=self.after,
                            same=_desc(self.same),
                        ),
                    )
                )
                continue
            for bad in fs[lo:hi]:
                if bad not in reported:
                    reported.add(bad)
                    out.append(
                        Violation(
                            bad,
                            Message(
                                "absence-between.before",
                                forbid=self.forbid,
                                after=self.after,
                                then=self.then,
                                line=e.line,
                                same=_desc(self.same),
                            ),
                        )
                    )
        out.sort(key=attrgetter("at"))  # every violation here is at an event
        return out

    def clauses(self, sym: Symbolic) -> list[z3.BoolRef]:
        # For a then-event i: a forbid at j < i violates when an `after` lies before j and no
        # `after` lies at j or between j and i (an event that is both forbid and after resets).
        clauses = []
        for i in sym.steps:
            a = [sym.And(sym.match(self.after, j), sym.agree(self.same, i, j)) for j in range(i)]
            f = [sym.And(sym.match(self.forbid, j), sym.agree(self.same, i, j)) for j in range(i)]
            bad = [sym.And(f[j], sym.any(a[:j]), sym.Not(sym.any(a[j:]))) for j in range(i)]
            clauses.append(sym.Implies(sym.match(self.then, i), sym.Not(sym.any(bad))))
        return clauses


@dataclass(frozen=True)
class Alternate(Template):
    """Within each group agreeing on `same`, `a` and `b` events alternate, beginning with `a`.

    Reported at the event that breaks the alternation (an `a` where a `b` was due, or a `b` where an
    `a` was due). The alternation then resumes as if the missing partner had come just before it:
    one missing or extra event is one violation, and the events after it, in their right order, are
    not reported again. (Whether the trace holds is unchanged: the first violation is where it was.)
    `only_with_a`: a group with no `a` event at all is not checked (its `b` events may come alone)."""

    a: Pattern
    b: Pattern
    same: Same = ()
    only_with_a: bool = False
    kind: ClassVar[str] = "alternate"
    fields: ClassVar[tuple[str, ...]] = ("a", "b")
    trigger_fields: ClassVar[tuple[str, ...]] = ("a", "b")

    need_fields: ClassVar[tuple[str, ...]] = ("a", "b")
    queryable: ClassVar[bool] = True

    def holds(self, ctx: Context) -> list[Violation]:
        keys = _keys(self.same, 0)
        if keys == _keys(self.same, 1) and _alternating(
            ctx.positions(self.a, keys), ctx.positions(self.b, keys), self.only_with_a
        ):
            return []  # every group alternates: the walk would find nothing
        na: Counter[Key] = Counter()
        nb: Counter[Key] = Counter()
        out = []
        tk, ok = ctx.keyer(_keys(self.same, 0)), ctx.keyer(_keys(self.same, 1))
        walked = ctx.walk(self.a, self.b)
        with_a = {ok(e) for e, (is_a, _) in walked if is_a} if self.only_with_a else None
        for e, (is_a, is_b) in walked:
            k = tk(e)
            if with_a is not None and ok(e) not in with_a:
                continue
            fine = (is_a and na[k] == nb[k]) or (is_b and na[k] == nb[k] + 1)
            k2 = ok(e)
            if not fine:
                got, want = (self.a, self.b) if is_a else (self.b, self.a)
                out.append(Violation(e.index, Message("alternate.due", got=got, want=want, same=_desc(self.same))))
                # resynchronise: the missing partner is taken as come just before this event
                if is_a:
                    nb[k2] = na[k2]
                else:
                    na[k2] = nb[k2] + 1
            na[k2] += is_a
            nb[k2] += is_b
        return out

    def clauses(self, sym: Symbolic) -> list[z3.BoolRef]:
        clauses = []
        for i in sym.steps:
            na = sym.count(sym.And(sym.match(self.a, j), sym.agree(self.same, i, j)) for j in range(i))
            nb = sym.count(sym.And(sym.match(self.b, j), sym.agree(self.same, i, j)) for j in range(i))
            # an event matching both is taken as an `a` when an `a` is due, else as a `b`
            fine = sym.Or(sym.And(sym.match(self.a, i), na == nb), sym.And(sym.match(self.b, i), na == nb + 1))
            if self.only_with_a:  # a group with no `a` anywhere in the trace is not checked
                fine = sym.Or(
                    fine, sym.count(sym.And(sym.match(self.a, j), sym.agree(self.same, i, j)) for j in sym.steps) == 0
                )
            clauses.append(sym.Implies(sym.Or(sym.match(self.a, i), sym.match(self.b, i)), fine))
        return clauses


def _alternating(a: dict[Key, list[int]], b: dict[Key, list[int]], only_with_a: bool) -> bool:
    """Do the `a` and `b` events of every group (their positions, each list in trace order) alternate,
    beginning with an `a`: a0 < b0 < a1 < b1 < …, as many `b`s as `a`s or one fewer (a group with
    `b`s and no `a` is not checked when `only_with_a`)? False also where an event is both an `a` and a
    `b` (the walk decides then). What `Alternate.holds` finds nothing in (tests/test_fast_paths.py)."""
    for k, bs in b.items():
        as_ = a.get(k)
        if as_ is None:
            if only_with_a:
                continue
            return False
        extra = len(as_) - len(bs)
        if extra != 0 and extra != 1:
            return False
        last = -1
        for x, y in zip(as_, bs, strict=False):  # one `a` more may follow the last `b`
            if not last < x < y:
                return False
            last = y
        if extra and as_[-1] <= last:
            return False
    return all(len(as_) <= 1 for k, as_ in a.items() if k not in b)


@dataclass(frozen=True)
class PersonPattern:
    """A condition on a person of the cast: `role=大夫 rank=大夫 side=上射` (all must hold)."""

    text: str
    conds: tuple[tuple[str, frozenset[str]], ...]

    def __str__(self) -> str:
        return self.text


@dataclass(frozen=True)
class PairRule(Template):
    """In every pair (耦), if one member matches `who`, the other matches `partner`."""

    who: PersonPattern
    partner: PersonPattern
    kind: ClassVar[str] = "pair"
    fields: ClassVar[tuple[str, ...]] = ()

    person_fields: ClassVar[tuple[str, ...]] = ("who", "partner")
    of_cast: ClassVar[bool] = True

    def holds(self, ctx: Context) -> list[Violation]:
        out = []
        persons = ctx.trace.cast.persons
        for pair in ctx.trace.cast.pairs.values():
            for me, other in ((pair.upper, pair.lower), (pair.lower, pair.upper)):
                if person_matches(self.who, persons[me]) and not person_matches(self.partner, persons[other]):
                    out.append(
                        Violation(
                            None,
                            Message(
                                "pair.partner", pair=pair.name, me=me, who=self.who, other=other, partner=self.partner
                            ),
                            pair.line,
                        )
                    )
        return out

    def clauses(self, sym: Symbolic) -> list[z3.BoolRef]:
        return [
            sym.all(
                sym.Implies(
                    sym.And(sym.same_pair(p, q), sym.person_match(self.who, p)), sym.person_match(self.partner, q)
                )
                for p in sym.persons
                for q in sym.persons
                if p != q and sym.pairable(p) and sym.pairable(q)
            )
        ]


@dataclass(frozen=True)
class CastAbsence(Template):
    """No person of the cast matches `who`."""

    who: PersonPattern
    kind: ClassVar[str] = "cast_absence"
    fields: ClassVar[tuple[str, ...]] = ()

    person_fields: ClassVar[tuple[str, ...]] = ("who",)
    of_cast: ClassVar[bool] = True
    prohibition: ClassVar[bool] = True

    def forbidden(self) -> PersonPattern:
        return self.who

    def holds(self, ctx: Context) -> list[Violation]:
        return [
            Violation(None, Message("cast-absence.present", person=p.name, who=self.who), p.pair_line or p.line)
            for p in ctx.trace.cast.persons.values()
            if person_matches(self.who, p)
        ]

    def clauses(self, sym: Symbolic) -> list[z3.BoolRef]:
        return [sym.all(sym.Not(sym.And(sym.present(p), sym.person_match(self.who, p))) for p in sym.persons)]


OccasionConds = tuple[tuple[str, frozenset[str], bool], ...]  # (field, values, negated): domain/occasion.py


def _occasion_text(occ: Occasion) -> str:
    return Message("occasion.at-line", line=occ.line) if occ.line is not None else Message("occasion.default")


@dataclass(frozen=True)
class OccasionRule(Template):
    """The occasion (the trace's `occasion` header, or the default) meets `require` whenever it meets
    `given` (always, when `given` is empty). A rule of the ceremony's parameters: it is checked once,
    at the header, whatever the events."""

    require: OccasionConds
    given: OccasionConds = ()
    kind: ClassVar[str] = "occasion"
    fields: ClassVar[tuple[str, ...]] = ()

    def broken(self, occ: Occasion) -> bool:
        from xiangshe.domain.occasion import satisfies

        return satisfies(occ, self.given) and not satisfies(occ, self.require)

    def holds(self, ctx: Context) -> list[Violation]:
        from xiangshe.domain.occasion import describe

        occ = ctx.trace.occasion
        if not self.broken(occ):
            return []
        have = " ".join(f"{k}={occ.get(k)}" for k in dict.fromkeys(k for k, _, _ in (*self.given, *self.require)))
        where, require = _occasion_text(occ), describe(self.require)
        message = (
            Message("occasion.must-have-given", occasion=where, have=have, given=describe(self.given), require=require)
            if self.given
            else Message("occasion.must-have", occasion=where, have=have, require=require)
        )
        return [Violation(None, message, occ.line)]

    def clauses(self, sym: Symbolic) -> list[z3.BoolRef]:
        from xiangshe.domain.occasion import occasion_of

        return [sym.any([]) if self.broken(occasion_of(sym.cast)) else sym.all([])]


@dataclass(frozen=True)
class OccasionAbsence(Template):
    """Under an occasion that meets `given`, no event matches `pattern`."""

    given: OccasionConds
    pattern: Pattern
    kind: ClassVar[str] = "occasion_absence"
    fields: ClassVar[tuple[str, ...]] = ("pattern",)

    prohibition: ClassVar[bool] = True

    def forbidden(self) -> Pattern:
        return self.pattern

    def applies(self, cast: Cast) -> bool:
        from xiangshe.domain.occasion import occasion_of, satisfies

        return satisfies(occasion_of(cast), self.given)

    def condition(self) -> str:
        from xiangshe.domain.occasion import describe

        return describe(self.given)

    def holds(self, ctx: Context) -> list[Violation]:
        if not self.applies(ctx.trace.cast):
            return []
        from xiangshe.domain.occasion import describe

        message = Message(
            "occasion-absence.forbidden",
            pattern=self.pattern,
            given=describe(self.given),
            occasion=_occasion_text(ctx.trace.occasion),
        )
        return [Violation(e.index, message) for e in ctx.hits(self.pattern)]

    def clauses(self, sym: Symbolic) -> list[z3.BoolRef]:
        if not self.applies(sym.cast):
            return []
        return [sym.Not(sym.match(self.pattern, t)) for t in sym.steps]


@dataclass(frozen=True)
class OccasionKind(Template):
    """An event matching `pattern` that names the kind of its object (`kind=…`) names the kind the
    occasion gives in `field` (鹿中 for the 中 of the default occasion …)."""

    pattern: Pattern
    field: OccasionField
    kind: ClassVar[str] = "occasion_kind"
    fields: ClassVar[tuple[str, ...]] = ("pattern",)

    def another(self, cast: Cast) -> tuple[str, Cond]:
        """The kind the occasion of this cast gives in `field`, and the condition of an event that
        names another (`kind!=<that kind>|none`): what `holds` tests and `other` adds to `pattern`."""
        from xiangshe.domain.occasion import occasion_of

        value = occasion_of(cast).get(self.field)
        return value, Cond("kind", frozenset({value, NONE}), True)

    def other(self, cast: Cast) -> tuple[str, Pattern]:
        """The occasion's value, and the pattern of an event that names another."""
        value, cond = self.another(cast)
        p = self.pattern
        return value, Pattern(f"{p.text} kind!={value}|none", p.roles, p.acts, p.objs, (*p.conds, cond))

    def holds(self, ctx: Context) -> list[Violation]:
        value, cond = self.another(ctx.trace.cast)  # tested on the hits of `pattern`, as `other` would match
        where = _occasion_text(ctx.trace.occasion)
        return [
            Violation(e.index, Message("occasion-kind.names", kind=kind, occasion=where, field=self.field, value=value))
            for e in ctx.hits(self.pattern)
            if cond.admits(kind := e.get("kind"))
        ]

    def clauses(self, sym: Symbolic) -> list[z3.BoolRef]:
        _, other = self.other(sym.cast)
        return [sym.Not(sym.match(other, t)) for t in sym.steps]


def person_matches(pp: PersonPattern, person: Person) -> bool:
    for key, values in pp.conds:
        v = getattr(person, key)
        if (v if v is not None else "none") not in values:
            return False
    return True


KINDS: dict[str, type[Template]] = {
    t.kind: t
    for t in (
        Absence,
        Precedence,
        Response,
        Unique,
        AtMost,
        CountBefore,
        AbsenceBetween,
        Alternate,
        PairRule,
        CastAbsence,
        OccasionRule,
        OccasionAbsence,
        OccasionKind,
    )
}


#: the kinds the `query` command asks about
QUERY_KINDS: tuple[str, ...] = tuple(k for k, t in KINDS.items() if t.queryable)


#: what a rule needs of a trace to find anything in it: (patterns, n, acts) — one of the patterns
#: matches more than n events, and so the trace has one of the acts (None: any act may do)
Gate = tuple[tuple[Pattern, ...], int, "frozenset[str] | None"]
GATES = "_gates"  # the attribute a stored rulebook's template keeps its gates in (`keep_gates`)


def _gate(patterns: list[Pattern], n: int) -> Gate:
    acts = None if any(p.acts is None for p in patterns) else frozenset().union(*(p.acts or () for p in patterns))
    return tuple(patterns), n, acts


def _gates(t: Template) -> tuple[Gate | None, Gate | None]:
    """(gate, triggers' gate): a rule with triggers bites where one occurs, and has them as its gate;
    one without has a bound on a count, or what a prohibition forbids, or none (it is checked on
    every trace)."""
    triggers = t.triggers()
    if triggers:
        by_trigger = _gate(triggers, 0)
        return by_trigger, by_trigger
    if (limit := t.limit()) is not None:
        return _gate([limit[0]], limit[1]), None
    if t.prohibition and isinstance(forbidden := t.forbidden(), Pattern):
        return _gate([forbidden], 0), None
    return None, None


def keep_gates(t: Template) -> None:
    """Keep the template's gates with it, for a rulebook stored in the cache (domain/cache.py): a
    check's plan (constraints/gates.py) then reads them. Not a field: equality and hash are the fields'."""
    object.__setattr__(t, GATES, _gates(t))
