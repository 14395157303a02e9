"""Machine tables: the one definition of each officer's and each vessel's state machine.

A table is data (`fsm/tables/*.toml`): the kinds of object or the roles it applies to, an initial
state, and edges `act: source → dest`, each quoting the text verbatim. The `transitions` machine
that replays traces, the z3 transition relation, the diagrams and the docs are all derived from it.
There are no callbacks and no conditions: nothing that z3 could not see.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path
from typing import Any

from xiangshe.domain.dataclass import dataclass
from xiangshe.domain.errors import RulebookError
from xiangshe.domain.text import TEXT, Citation
from xiangshe.domain.vocabulary import Vocabulary, vocabulary

TABLES_DIR = Path(__file__).with_name("tables")


@dataclass(frozen=True)
class Edge:
    """One edge of a machine table: an act that moves the machine from one state to another, with its quote."""

    act: str
    source: str
    dest: str
    cite: Citation
    defined_at: int  # line of the edge in its table file


@dataclass(frozen=True)
class Table:
    """A machine table (fsm/tables/*.toml): a person's or an object's states and the acts between them."""

    name: str
    slug: str
    gloss: str
    path: str
    initial: str
    edges: tuple[Edge, ...]
    objects: tuple[str, ...] = ()  # object kinds whose instances run this machine
    roles: tuple[str, ...] = ()  # roles whose persons run this machine
    shooters: bool = False  # every person in a pair (耦) runs this machine
    state_gloss: tuple[tuple[str, str], ...] = ()
    final: tuple[str, ...] = ()  # states where an instance's part in the ceremony ends

    @property
    def states(self) -> tuple[str, ...]:
        named = [self.initial, *(s for e in self.edges for s in (e.source, e.dest)), *(s for s, _ in self.state_gloss)]
        return tuple(dict.fromkeys(named))

    @property
    def acts(self) -> tuple[str, ...]:
        return tuple(dict.fromkeys(e.act for e in self.edges))

    @property
    def is_person(self) -> bool:
        return not self.objects

    def step(self, state: str, act: str) -> Edge | None:
        for e in self.edges:
            if e.act == act and e.source == state:
                return e
        return None

    def allowed(self, state: str) -> list[str]:
        return [e.act for e in self.edges if e.source == state]

    def config(self) -> dict[str, Any]:
        """The table as keyword arguments for `transitions.Machine`."""
        return {
            "states": list(self.states),
            "initial": self.initial,
            "transitions": [{"trigger": e.act, "source": e.source, "dest": e.dest} for e in self.edges],
            "auto_transitions": False,
            "send_event": False,
        }


def _line_of(raw_lines: list[str], needle: str, start: int = 0) -> int:
    for n in range(start, len(raw_lines)):
        if needle in raw_lines[n]:
            return n + 1
    return 0


def load_table(path: Path, vocab: Vocabulary) -> Table:
    import tomllib  # only when a source is read: the cache (domain/cache.py) spares the import

    where = str(path.relative_to(path.parents[2])) if len(path.parents) > 2 else str(path)
    raw = path.read_text(encoding="utf-8")
    raw_lines = raw.splitlines()
    try:
        data = tomllib.loads(raw)
    except tomllib.TOMLDecodeError as err:
        raise RulebookError(where, None, f"not valid TOML: {err}") from None
    for key in ("name", "slug", "initial", "edges"):
        if key not in data:
            raise RulebookError(where, None, f"a machine table needs `{key}`")
    objects = tuple(data.get("objects", ()))
    roles = tuple(data.get("roles", ()))
    for kind in objects:
        if kind not in vocab.objects:
            raise RulebookError(where, _line_of(raw_lines, "objects"), f"unknown object kind {kind}")
    for role in roles:
        if vocab.canonical_role(role) != role:
            raise RulebookError(where, _line_of(raw_lines, "roles"), f"unknown role {role}")
    edges: list[Edge] = []
    seen: dict[tuple[str, str], Edge] = {}
    cursor = 0
    for item in data["edges"]:
        quote = item.get("quote", "")
        at = _line_of(raw_lines, f'"{quote}"', cursor) or _line_of(raw_lines, quote, 0)
        cursor = max(cursor, at)
        act = item.get("act")
        if act not in vocab.acts:
            raise RulebookError(where, at, f"edge act {act!r} is not in the vocabulary")
        cite = TEXT.cite(quote, item.get("line"), where=where, at=at)
        sources = item["from"] if isinstance(item["from"], list) else [item["from"]]
        for source in sources:
            dest = item.get("to", source)
            edge = Edge(act, source, dest, cite, at)
            if (act, source) in seen and seen[(act, source)].dest != dest:
                raise RulebookError(
                    where, at, f"{act} from {source} goes to both {seen[(act, source)].dest} and {dest}"
                )
            seen[(act, source)] = edge
            edges.append(edge)
    glosses = tuple((str(k), str(v)) for k, v in data.get("states", {}).items())
    table = Table(
        data["name"],
        data["slug"],
        data.get("gloss", ""),
        where,
        data["initial"],
        tuple(edges),
        objects,
        roles,
        bool(data.get("shooters", False)),
        glosses,
        tuple(data.get("final", ())),
    )
    for state in table.final:
        if state not in table.states:
            raise RulebookError(where, _line_of(raw_lines, "final"), f"final state {state} is not a state")
    if table.initial not in {e.source for e in edges} | {e.dest for e in edges}:
        raise RulebookError(where, None, f"initial state {table.initial} has no edge")
    return table


@cache
def tables() -> tuple[Table, ...]:
    """All machine tables, sorted by name, checked against each other; from the cache of derived
    artefacts when it is there (domain/cache.py: the tables are among the package's data it hashes)."""
    from xiangshe.domain.cache import derived

    return derived("tables", (), load_tables)


def load_tables() -> tuple[Table, ...]:
    """All machine tables, read from `TABLES_DIR`, sorted by name, checked against each other."""
    vocab = vocabulary()
    out = sorted((load_table(p, vocab) for p in sorted(TABLES_DIR.glob("*.toml"))), key=lambda t: t.slug)
    owner: dict[str, str] = {}
    for t in out:
        for kind in t.objects:
            if kind in owner:
                raise RulebookError(t.path, None, f"{kind} already has the machine {owner[kind]}")
            owner[kind] = t.name
    names = [t.name for t in out]
    if len(set(names)) != len(names):
        raise RulebookError(str(TABLES_DIR), None, "two machine tables share a name")
    return tuple(out)


def table_for_object(kind: str) -> Table | None:
    for t in tables():
        if kind in t.objects:
            return t
    return None


def table_named(name: str) -> Table | None:
    for t in tables():
        if t.name == name or t.slug == name:
            return t
    return None
