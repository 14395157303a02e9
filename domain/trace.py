"""A trace: a proposed staging of the ceremony, one event per step, with its cast.

Every event knows the file and line it came from. Persons are declared in the cast (or named by
a role that has one person, such as 主人, or by a role and a number, such as 众宾2); the pairs (耦)
give each shooter his pair and his side (上射 or 下射). Phase markers (`phase Φ21`) give each event
its phase and, through the vocabulary, its round of shooting.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field

SIDES = ("上射", "下射")


@dataclass(frozen=True)
class Person:
    name: str
    role: str
    rank: str | None
    line: int | None = None          # the cast line that declared him, if any
    pair: str | None = None          # the name of his 耦
    side: str | None = None          # 上射 or 下射
    pair_line: int | None = None


@dataclass(frozen=True)
class Pair:
    name: str
    upper: str
    lower: str
    line: int | None


@dataclass(frozen=True)
class ObjectRef:
    """One object instance: a kind and its instance (a number, or the owner of a personal object)."""

    kind: str
    instance: str

    @property
    def key(self) -> str:
        return f"{self.kind}{self.instance}" if self.instance.isdigit() else f"{self.kind}@{self.instance}"

    def __str__(self) -> str:
        return self.key


@dataclass(frozen=True)
class Event:
    index: int
    line: int
    actor: str
    act: str
    obj: ObjectRef | None
    attrs: tuple[tuple[str, str], ...]
    phase: str | None
    round: int
    text: str
    obj_token: str | None = None
    source_line: int | None = None   # the line of xiangsheli.txt the event enacts (`# L14 …`)

    def get(self, key: str) -> str | None:
        for k, v in self.attrs:
            if k == key:
                return v
        return None

    def render(self) -> str:
        parts = [self.actor, self.act]
        if self.obj_token is not None:
            parts.append(self.obj_token)
        parts += [f"{k}={v}" for k, v in self.attrs]
        return " ".join(parts)


@dataclass(frozen=True)
class Directive:
    """A suppression as written in a trace, before it is read (constraints/suppress.py reads it):
    a comment `# xiangshe: ignore[R120] reason` in the line format, or a record's `ignore` field
    (`"ignore": "R120: reason"`) in JSON Lines and YAML."""

    line: int                 # where it is written
    target: int | None        # the line whose findings it concerns (None: no statement follows)
    text: str                 # after `xiangshe:` (a comment), or the field's value
    form: str                 # "comment" or "field"


@dataclass
class Cast:
    persons: dict[str, Person] = field(default_factory=dict)
    pairs: dict[str, Pair] = field(default_factory=dict)
    by_role: dict[str, list[str]] = field(default_factory=dict)

    def add(self, person: Person) -> None:
        self.persons[person.name] = person
        self.by_role.setdefault(person.role, []).append(person.name)


@dataclass
class Trace:
    path: str
    events: list[Event]
    cast: Cast
    phase_lines: list[tuple[int, str]] = field(default_factory=list)
    source_lines: list[str] = field(default_factory=list)
    directives: list[Directive] = field(default_factory=list)

    def __iter__(self) -> Iterator[Event]:
        return iter(self.events)

    def __len__(self) -> int:
        return len(self.events)

    def __getitem__(self, i: int) -> Event:
        return self.events[i]

    def line_text(self, line: int) -> str:
        if 0 < line <= len(self.source_lines):
            return self.source_lines[line - 1]
        return ""
