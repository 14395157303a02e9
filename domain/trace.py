"""A trace: a proposed staging of the ceremony, one event per step, with its cast.

Every event knows the file and line it came from. Persons are declared in the cast (or named by
a role that has one person, such as 主人, or by a role and a number, such as 众宾2); the pairs (耦)
give each shooter his pair and his side (上射 or 下射). Phase markers (`phase Φ21`) give each event
its phase and, through the vocabulary, its round of shooting. A trace is a whole ceremony unless
it declares itself a fragment (`fragment Φ03–Φ07`, before its first event).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import field

import msgspec

from xiangshe.domain.dataclass import dataclass

SIDES = ("上射", "下射")


@dataclass(frozen=True)
class Person:
    """A person of the cast: declared (`cast`), or named by a role that has one person (主人) or by a role and a
    number (众宾2)."""

    name: str
    role: str
    rank: str | None
    line: int | None = None  # the cast line that declared him, if any
    pair: str | None = None  # the name of his 耦
    side: str | None = None  # 上射 or 下射
    pair_line: int | None = None


@dataclass(frozen=True)
class Pair:
    """A pair (耦): its name and the names of its 上射 and 下射."""

    name: str
    upper: str
    lower: str
    line: int | None


@dataclass(frozen=True)
class ObjectRef:
    """One object instance: a kind and its instance (a number, or the owner of a personal object)."""

    kind: str
    instance: str
    #: `爵1`, `弓@甲`: made with the object (the events of a line read before share their object); a plain
    #: attribute, which reads faster than a cached property
    key: str = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        key = f"{self.kind}{self.instance}" if self.instance.isdigit() else f"{self.kind}@{self.instance}"
        object.__setattr__(self, "key", key)

    def __str__(self) -> str:
        return self.key


class Event(msgspec.Struct, frozen=True, gc=False):
    """One step of the staging: who does what (to which object, with which key=value), where in the file, in
    which phase and round.

    A frozen struct made in C (msgspec): a reader builds one a line, and a slotted frozen dataclass cost
    about 5,700 instructions to build and free (a Python `__init__`, then a class swap to stay frozen),
    as much as the rest of reading a remembered line; this costs about 1,400. Its fields read as fast as
    slots; it is compared and hashed by its fields, as a frozen dataclass; and it is never tracked by the
    cyclic collector (`gc=False`: an event refers to strings, tuples and an `ObjectRef`, never to an event)."""

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
    source_line: int | None = None  # the line of xiangsheli.txt the event enacts (`# L14 …`)

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

    line: int  # where it is written
    target: int | None  # the line whose findings it concerns (None: no statement follows)
    text: str  # after `xiangshe:` (a comment), or the field's value
    form: str  # "comment" or "field"


@dataclass(frozen=True)
class Fragment:
    """A trace that declares itself a part of the ceremony (`fragment Φ03–Φ07`): `check` then does
    not ask for the phases it leaves out, nor for what is still open at its end. `phases` is None
    when the declaration names none (`fragment` alone)."""

    line: int
    phases: tuple[str, ...] | None

    def label(self) -> str:
        if not self.phases:
            return "a fragment (its phases not named)"
        return f"a fragment ({phase_span(self.phases)})"


@dataclass(frozen=True)
class Occasion:
    """The occasion of the shooting, which no event carries: who holds it, in what building and where,
    with which 侯, 中 and 旌, and whether the ruler is present. A trace declares it in an `occasion`
    header (before its first event); what it leaves out takes the default domain/occasion.py derives
    from the presiding officer (the 记's own pairing of rank, 中 and 旌). `declared` names the fields the
    trace wrote; `line` is the header's line (None: nothing declared, every field is a default)."""

    presiding: str  # 州长 | 乡大夫 | 君
    venue: str  # 序 (榭, the text's 豫) | 庠 (the text's 堂)
    site: str | None  # 国中 | 郊 | 竟 (the ruler's); None: outside the city
    hou: str
    zhong: str
    jing: str
    jun: str  # 在 | 不在: the ruler present
    rank: str  # of the presiding officer: 士 | 大夫 | 君 (derived)
    line: int | None = None
    declared: tuple[str, ...] = ()

    FIELDS = ("presiding", "venue", "site", "hou", "zhong", "jing", "jun")

    def get(self, key: str) -> str:
        """A field's value, `none` for an absent site (as patterns write an absent value)."""
        value = getattr(self, key)
        return "none" if value is None else value

    def items(self, declared_only: bool = False) -> list[tuple[str, str]]:
        keys = [k for k in self.FIELDS if k in self.declared] if declared_only else self.FIELDS
        return [(k, self.get(k)) for k in keys if not (k == "site" and self.site is None and not declared_only)]

    def header(self) -> str:
        """The declaration as the line format writes it (the declared fields only)."""
        return " ".join(["occasion", *(f"{k}={v}" for k, v in self.items(True))])

    def label(self) -> str:
        return " ".join(f"{k}={v}" for k, v in self.items())


def phase_span(phases: tuple[str, ...] | list[str]) -> str:
    """Phase ids as runs: Φ03–Φ07, Φ21.

    >>> phase_span(["Φ03", "Φ04", "Φ05", "Φ21", "Φ23", "Φ24"])
    'Φ03–Φ05, Φ21, Φ23–Φ24'
    """
    nums = sorted({int(p[1:]) for p in phases})
    runs: list[list[int]] = []
    for n in nums:
        if runs and runs[-1][-1] == n - 1:
            runs[-1].append(n)
        else:
            runs.append([n])
    return ", ".join(f"Φ{r[0]:02d}" + (f"–Φ{r[-1]:02d}" if len(r) > 1 else "") for r in runs)


@dataclass
class Cast:
    """The persons of a trace, its pairs, the persons of each role, and the occasion it declares."""

    persons: dict[str, Person] = field(default_factory=dict)
    pairs: dict[str, Pair] = field(default_factory=dict)
    by_role: dict[str, list[str]] = field(default_factory=dict)
    #: the occasion the trace declares (its defaults filled in); None: nothing declared, and the
    #: default occasion (domain/occasion.py occasion_of) applies
    occasion: Occasion | None = None

    def add(self, person: Person) -> None:
        self.persons[person.name] = person
        self.by_role.setdefault(person.role, []).append(person.name)


@dataclass
class Trace:
    """A staging as read: its events, its cast, its phase markers, its lines, its suppressions and its fragment
    declaration."""

    path: str
    events: tuple[Event, ...]
    cast: Cast
    phase_lines: list[tuple[int, str]] = field(default_factory=list)
    source_lines: tuple[str, ...] = ()
    directives: list[Directive] = field(default_factory=list)
    fragment: Fragment | None = None  # None: the trace is a whole ceremony

    def __post_init__(self) -> None:
        # Tuples, not lists: a tuple of objects the collector never tracks (events: `gc=False`; strings)
        # is no longer tracked itself once it has survived a collection, so no later full collection
        # walks a staging's events and lines again. With lists, a process holding the 1M events of a
        # batch spent two-thirds as long in the collector as in the checks (BENCHMARKS.md).
        self.events = tuple(self.events)
        self.source_lines = tuple(self.source_lines)

    @property
    def occasion(self) -> Occasion:
        """The occasion of the staging: as declared, or the default one."""
        from xiangshe.domain.occasion import occasion_of

        return occasion_of(self.cast)

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
