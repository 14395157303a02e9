"""Replay a trace through `transitions` machines built from the tables.

Every object instance named in the trace runs the machine of its kind; every person runs the
machines of his role (and the shooter's machine if he is in a pair). An act that a machine cannot
take in its state is a refusal: it is reported, and the machine stays where it was, so that
replay goes on and every refusal of a trace is found (the z3 relation has the same meaning).

`replay` reads each step from the edges of the table's `transitions` Machine, collected once per
table into a dict act → state → state: the tables have no callbacks and no conditions (nothing z3
could not see), so firing a trigger does no more than that lookup, and the lookup costs a hundredth
of a trigger. `replay_triggers` fires every event as a trigger on a `transitions` model; the tests
hold the two to the same result. The edges of the package's tables are kept with the other derived
artefacts (domain/cache.py): a run that finds them there does not import `transitions`.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import field
from functools import cache
from typing import TYPE_CHECKING, Any

from xiangshe.domain.dataclass import dataclass
from xiangshe.domain.trace import Event, Person, Trace
from xiangshe.fsm.table import Table, table_for_object, tables

if TYPE_CHECKING:
    from transitions import Machine

Edges = dict[str, dict[str, str]]  # act → source state → destination state


def _machine(**config: Any) -> Machine:
    """A `transitions` Machine (imported when one is first needed; its log is kept to errors)."""
    import logging

    from transitions import Machine

    logging.getLogger("transitions").setLevel(logging.ERROR)
    return Machine(**config)


@dataclass(frozen=True)
class Refusal:
    """An event a machine could not take in its state."""

    event: Event
    table: Table
    instance: str
    state: str
    allowed: tuple[str, ...]


Changes = tuple[tuple[str, str, str], ...]  # (instance or machine, state before, state after) …
NO_CHANGES: Changes = ()


@dataclass
class Replay:
    """What replay found, and the states it went through. The per-event records are shared where they
    are equal (a 1M-event trace repeats a few hundred of them): read them, never change them."""

    refusals: list[Refusal] = field(default_factory=list)
    #: per event: the state of the object's machine before it (None if it has none)
    obj_state: list[str | None] = field(default_factory=list)
    #: per event: the state of each of the actor's machines before it, by machine name
    actor_state: list[dict[str, str]] = field(default_factory=list)
    #: per event: the states after it of the instances it moved, for counterexample display
    changes: list[Changes] = field(default_factory=list)


class _Model:
    """One instance's model object: transitions binds `state` and `trigger` on it."""

    state: str  # bound by transitions
    trigger: Callable[[str], bool]  # bound by transitions

    def __init__(self, key: str) -> None:
        self.key = key


def person_tables(person: Person) -> list[Table]:
    return [t for t in tables() if person.role in t.roles or (t.shooters and person.pair)]


@dataclass(frozen=True)
class Steps:
    """A table's machine as a lookup: for each act it knows, the state each source goes to."""

    table: Table
    by_act: dict[str, dict[str, str]]
    name: str
    initial: str
    label: str | None  # how a change is labelled: the table's name (persons), else None


_STEPS: dict[int, Steps] = {}
_OBJECT_STEPS: dict[str, Steps | None] = {}


def machine_edges(table: Table) -> Edges:
    """The edges of `table`'s `transitions` Machine."""
    machine = _machine(model=None, **table.config())
    by_act: Edges = {}
    for act, event in machine.events.items():
        row = by_act[act] = {}
        for source, found in event.transitions.items():
            if len(found) != 1 or found[0].conditions:
                raise ValueError(f"{table.path}: {act} from {source} is not one plain edge")
            dest = found[0].dest
            row[source] = source if dest is None else dest
    return by_act


@cache
def package_edges() -> dict[str, Edges]:
    """The edges of every table of the package, by table name, from the cache of derived artefacts
    when they are there (domain/cache.py: keyed by the tables' files and the code)."""
    from xiangshe.domain.cache import derived

    return derived("machine-edges", (), lambda: {t.name: machine_edges(t) for t in tables()})


def steps(table: Table) -> Steps:
    """The edges of `table`'s `transitions` Machine, collected once per table (for one of the
    package's tables, read from the cache of derived artefacts)."""
    got = _STEPS.get(id(table))
    if got is None or got.table is not table:
        own = any(t is table for t in tables())
        by_act = package_edges()[table.name] if own else machine_edges(table)
        got = _STEPS[id(table)] = Steps(
            table, by_act, table.name, table.initial, table.name if table.is_person else None
        )
    return got


def object_steps(kind: str) -> Steps | None:
    """The machine of an object kind (None if the kind has none)."""
    if kind not in _OBJECT_STEPS:
        t = table_for_object(kind)
        _OBJECT_STEPS[kind] = steps(t) if t is not None else None
    return _OBJECT_STEPS[kind]


class _Instances:
    """One transitions Machine per table, holding a model for every instance met so far."""

    def __init__(self) -> None:
        self.machines: dict[str, Machine] = {}
        self.models: dict[tuple[str, str], _Model] = {}

    def get(self, table: Table, key: str) -> _Model:
        model = self.models.get((table.name, key))
        if model is None:
            model = _Model(key)
            machine = self.machines.get(table.name)
            if machine is None:
                machine = self.machines[table.name] = _machine(model=[model], **table.config())
            else:
                machine.add_model(model)
            self.models[(table.name, key)] = model
        return model


def replay(trace: Trace) -> Replay:
    """Replay `trace`: the same result as `replay_triggers`, by dict lookups.

    Each instance's state is a one-element list (a cell); an event reads the state of its object's
    machine, then each of its actor's, taking the act where the machine knows it. The instances an
    event touches are distinct, so reading each state just before its own move reads the states
    before the event."""
    out = Replay()
    refusals, obj_states, actor_states, all_changes = (out.refusals, out.obj_state, out.actor_state, out.changes)
    by_person = {
        name: [(m, [m.initial]) for m in map(steps, person_tables(p))] for name, p in trace.cast.persons.items()
    }
    # each person's states by machine name, as one dict shared by the events that find them alike: made
    # anew (or found among those made before) only when one of his machines moves
    snapshot: dict[str, dict[str, str]] = {}
    seen: dict[tuple[str, ...], dict[str, str]] = {}  # (person, his states …) → their shared dict
    shared: dict[Changes, Changes] = {}  # an event's changes, shared with the events that make the same
    allowed: dict[tuple[int, str], tuple[str, ...]] = {}  # (id of the table, state) → the acts it allows there
    objects: dict[str, Steps | None] = {}
    cells: dict[str, list[str]] = {}  # by the object's key
    for e in trace.events:
        act = e.act
        changed: list[tuple[str, str, str]] | None = None
        obj_state = None
        o = e.obj
        if o is not None:
            if o.kind in objects:
                m = objects[o.kind]
            else:
                m = objects[o.kind] = object_steps(o.kind)
            if m is not None:
                key = o.key  # names the kind, so the machine too: one cell per key
                cell = cells.get(key)
                if cell is None:
                    cell = cells[key] = [m.initial]
                obj_state = before = cell[0]
                row = m.by_act.get(act)
                if row is not None:
                    dest = row.get(before)
                    if dest is None:
                        refusals.append(Refusal(e, m.table, key, before, _allowed(m, before, allowed)))
                    elif dest != before:
                        cell[0] = dest
                        changed = [(m.label or key, before, dest)]
        actor = e.actor
        actor_state = snapshot.get(actor)
        if actor_state is None:
            actor_state = snapshot[actor] = _shared_states(actor, by_person.get(actor, ()), seen)
        moved = False
        for m, cell in by_person.get(actor, ()):
            row = m.by_act.get(act)
            if row is not None:
                before = cell[0]
                dest = row.get(before)
                if dest is None:
                    refusals.append(Refusal(e, m.table, actor, before, _allowed(m, before, allowed)))
                elif dest != before:
                    cell[0] = dest
                    moved = True
                    if changed is None:
                        changed = []
                    changed.append((m.label or actor, before, dest))
        if moved:
            del snapshot[actor]
        obj_states.append(obj_state)
        actor_states.append(actor_state)
        if changed is None:
            all_changes.append(NO_CHANGES)
        else:
            made = tuple(changed)
            all_changes.append(shared.setdefault(made, made))
    return out


def _allowed(m: Steps, state: str, made: dict[tuple[int, str], tuple[str, ...]]) -> tuple[str, ...]:
    """The acts `m` allows in `state` (one tuple for every refusal there)."""
    got = made.get((id(m.table), state))
    if got is None:
        got = made[(id(m.table), state)] = tuple(m.table.allowed(state))
    return got


def _shared_states(
    actor: str, machines: Sequence[tuple[Steps, list[str]]], seen: dict[tuple[str, ...], dict[str, str]]
) -> dict[str, str]:
    """The states of `actor`'s machines now, by machine name: the dict made for them before, if any."""
    states = [cell[0] for _, cell in machines]
    key = (actor, *states)
    got = seen.get(key)
    if got is None:
        got = seen[key] = {m.name: state for (m, _), state in zip(machines, states, strict=True)}
    return got


def replay_triggers(trace: Trace) -> Replay:
    """Replay `trace` firing every event as a trigger on a `transitions` model of each instance."""
    from transitions import MachineError

    out = Replay()
    inst = _Instances()
    by_person = {name: person_tables(p) for name, p in trace.cast.persons.items()}
    for e in trace.events:
        moves: list[tuple[Table, str]] = []
        obj_state = None
        if e.obj is not None:
            t = table_for_object(e.obj.kind)
            if t is not None:
                obj_state = inst.get(t, e.obj.key).state
                if e.act in t.acts:
                    moves.append((t, e.obj.key))
        actor_state = {}
        for t in by_person.get(e.actor, ()):
            actor_state[t.name] = inst.get(t, e.actor).state
            if e.act in t.acts:
                moves.append((t, e.actor))
        out.obj_state.append(obj_state)
        out.actor_state.append(actor_state)
        changed = []
        for t, key in moves:
            model = inst.get(t, key)
            before = model.state
            try:
                model.trigger(e.act)
            except MachineError:
                out.refusals.append(Refusal(e, t, key, before, tuple(t.allowed(before))))
                continue
            if model.state != before:
                changed.append((t.name if t.is_person else key, before, model.state))
        out.changes.append(tuple(changed))
    return out
