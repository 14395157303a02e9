"""Which rules can find anything in a trace, read from each template's contract
(constraints/templates.py), so that a check evaluates only those: a rule is vacuous where none of its
triggers occurs; a bound on a count (`limit`) holds where at most n events match its pattern; a
prohibition holds where nothing matches what it forbids. Most rules of the rulebook speak of acts a
short staging never performs: the acts a gate needs are compared with the trace's before any
pattern is looked at."""

from __future__ import annotations

import weakref
from collections.abc import Callable, Collection, Sequence, Sized
from functools import cached_property

from xiangshe.constraints.network import Network
from xiangshe.constraints.pattern import Context
from xiangshe.constraints.rulebook import Rule
from xiangshe.constraints.templates import Gate, Template


def triggered(t: Template) -> Gate | None:
    """The rule bites where one of its triggers occurs (None: it has none, it holds throughout)."""
    return t.gates()[1]


def gate(t: Template) -> Gate | None:
    """What a rule needs of a trace to find anything in it (None: it is checked on every trace)."""
    return t.gates()[0]


#: the events a plan checks, for each of its rules, before it finds hits with its network
#: (`Plan.network_for`): making the network (for the whole rulebook, some 1,400 patterns and the
#: branches of a whole ceremony's events) costs more than a whole ceremony gains from it, under the
#: whole rulebook or a selection of a hundred rules (callgrind figures: docs/performance.md)
NETWORK_AFTER = 40


class Plan:
    """The encoded rules of a sequence of rules, in order, with their gates and their triggers'
    gates, and for each act the rules whose gate (or triggers' gate) it may open: a trace's few acts
    name the few rules worth a look."""

    def __init__(self, rules: Sequence[Rule]) -> None:
        self.rules = rules
        self.snapshot = tuple(rules)  # a list may change after it was given
        self.entries: list[tuple[Rule, Gate | None, Gate | None]] = []
        for r in rules:
            if r.meaning is not None:  # an encoded rule (a rule with triggers has them as its gate)
                self.entries.append((r, *r.meaning.gates()))
        self._gates = [g for _, g, _ in self.entries]
        self._triggers = [t for _, _, t in self.entries]
        self._gated = self._index(self._gates)
        self.throughout = tuple(r.id for r, _, t in self.entries if t is None)
        self._with_triggers = [(i, r.id) for i, (r, _, t) in enumerate(self.entries) if t is not None]
        self._last: tuple[weakref.ref[Context], set[int]] | None = None  # the last trace's open gates
        self.ids = frozenset(r.id for r, _, _ in self.entries)  # the encoded rules'
        self._only: dict[frozenset[str], Plan] = {}
        self._checked = 0  # the events of the traces checked with this plan (`network_for`)

    @cached_property
    def read_machines(self) -> frozenset[str]:
        """The encoded rules that read the machines' replay (a state: Template.reads_machines), found
        when first asked (a check that replays for its machines does not ask)."""
        return frozenset(r.id for r, _, _ in self.entries if r.template.reads_machines())

    @cached_property
    def network(self) -> Network:
        """The patterns of the encoded rules, whose hits a check finds in one pass over a trace's
        events (constraints/network.py), made when first asked."""
        return Network(p for r, _, _ in self.entries for p in r.template.patterns())

    def network_for(self, trace: Sized) -> Network | None:
        """The network a check of `trace` finds its hits with, once this plan has checked (with this
        trace) NETWORK_AFTER events for each of its rules in this process (about 40,000 for the whole
        rulebook, 4,000 for a selection of a hundred rules); before, None: each pattern's hits are
        found as asked for. Both find the same hits (tests/test_fast_paths.py); the network costs
        more to make than one staging gains from it, and less than a batch does."""
        self._checked += len(trace)
        return self.network if self._checked >= NETWORK_AFTER * len(self.entries) else None

    @cached_property
    def _triggered(self) -> tuple[list[int], dict[str, list[int]]]:
        """The index of the triggers' gates (`reached`), made when first needed."""
        return self._index(self._triggers)

    def only(self, applied: Collection[str]) -> Plan:
        """The plan of the encoded rules among these that `applied` names (`check --select`: a check
        looks at no other rule's gates or triggers), made once for each set of ids."""
        key = applied if isinstance(applied, frozenset) else frozenset(applied)
        if self.ids <= key:
            return self
        got = self._only.get(key)
        if got is None:
            if len(self._only) >= 16:
                self._only.clear()
            got = self._only[key] = Plan(tuple(r for r, _, _ in self.entries if r.id in key))
        return got

    @staticmethod
    def _index(gs: list[Gate | None]) -> tuple[list[int], dict[str, list[int]]]:
        always: list[int] = []  # the entries to look at whatever the acts
        by_act: dict[str, list[int]] = {}
        for i, g in enumerate(gs):
            if g is None or g[2] is None:
                always.append(i)
            else:
                for act in g[2]:
                    by_act.setdefault(act, []).append(i)
        return always, by_act

    def run(self, ctx: Context, keep: Callable[[Rule], bool] | None = None) -> list[Rule]:
        """The rules that may find something in the trace of `ctx`, in order; with `keep`, only
        those it keeps (the others' gates are not looked at)."""
        entries = self.entries
        opened = self._open(ctx, self._gated, self._gates, None if keep is None else lambda i: keep(entries[i][0]))
        self._last = (weakref.ref(ctx), set(opened)) if keep is None else None
        return [entries[i][0] for i in opened]

    def reached(self, ctx: Context) -> tuple[tuple[str, ...], tuple[str, ...]]:
        """The ids of the rules with triggers, split into those whose triggers occur in the trace of
        `ctx` and those whose triggers do not."""
        last = self._last
        if last is not None and last[0]() is ctx:  # a rule with triggers has them as its gate
            hit = last[1]
        else:
            hit = set(self._open(ctx, self._triggered, self._triggers, exists=True))
        entries = self.entries
        yes = tuple(entries[i][0].id for i in sorted(hit) if entries[i][2] is not None)
        no = tuple(rule for i, rule in self._with_triggers if i not in hit)
        return yes, no

    @staticmethod
    def _open(
        ctx: Context,
        index: tuple[list[int], dict[str, list[int]]],
        gs: list[Gate | None],
        keep: Callable[[int], bool] | None = None,
        exists: bool = False,
    ) -> list[int]:
        """The positions of the gates `gs` that the trace of `ctx` opens (None: always open), of
        those `keep` keeps; with `exists`, a trigger's gate is opened by its first match (its hits
        are not all found: the rule is not evaluated)."""
        always, by_act = index
        acts = ctx.act_names()
        lists = [always, *(got for a in acts if a is not None and (got := by_act.get(a)))]
        out = []
        for i in sorted({i for one in lists for i in one}):
            if keep is not None and not keep(i):
                continue
            g = gs[i]
            if g is None:
                out.append(i)
            elif exists and g[1] == 0:
                if any(ctx.occurs(p) for p in g[0]):
                    out.append(i)
            elif any(len(ctx.hits(p)) > g[1] for p in g[0]):
                out.append(i)
        return out


_plans: dict[int, Plan] = {}


def plan(rules: Sequence[Rule]) -> Plan:
    """The plan of `rules`, made once per sequence of rules (`active_rules` gives the same one for
    the same readings; a list is compared with what it held)."""
    got = _plans.get(id(rules))
    if got is None or got.rules is not rules or (not isinstance(rules, tuple) and got.snapshot != tuple(rules)):
        if len(_plans) >= 16:
            _plans.clear()
        got = _plans[id(rules)] = Plan(rules)
    return got
