"""What `check`'s summary lines and exit status need of a batch, kept as each staging is done: counts,
the scopes' union, the first few scopes, and the per-file lines of the linter — never the stagings'
results themselves, so that a batch of any size is summed up in the same memory."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import field
from typing import TYPE_CHECKING

from xiangshe.constraints.check import Result, causes
from xiangshe.domain.dataclass import dataclass

if TYPE_CHECKING:
    from xiangshe.constraints.lint import Outcome
    from xiangshe.constraints.scope import Scope

SCOPE_LINES = 10  # past this many stagings, one line sums up their scopes


@dataclass
class Tally:
    """The counts of a batch of stagings as they are checked: what the closing summary says."""

    stagings: int = 0
    readable: int = 0
    causes: int = 0  # findings that do not follow from another
    findings: int = 0
    events: int = 0
    bad: int = 0  # stagings read that have findings
    inline: int = 0  # findings suppressed inline
    scoped: int = 0
    whole: int = 0  # scoped stagings of the whole ceremony
    reached: set[str] = field(default_factory=set)
    rules: set[str] = field(default_factory=set)  # reached or not
    scopes: list[tuple[str, Scope]] = field(default_factory=list)  # the first SCOPE_LINES + 1
    also_not_applied: list[tuple[str, list[str]]] = field(default_factory=list)  # per-file-ignores

    @classmethod
    def of(cls, results: Iterable[Result], lint: Outcome | None = None) -> Tally:
        tally = cls()
        for r in results:
            tally.add(r, lint)
        return tally

    def add(self, r: Result, lint: Outcome | None = None) -> None:
        """Count one staging (`lint`: the checks the selection applies to none)."""
        self.stagings += 1
        self.inline += sum(1 for s in r.suppressed if s.kind == "inline")
        if lint is not None:
            everywhere = set(lint.not_applied)
            extra = [i for i in r.not_applied if i not in everywhere]
            if extra:
                self.also_not_applied.append((r.path, extra))
        if not r.readable:
            return
        self.readable += 1
        self.causes += sum(1 for c in causes(r.findings) if c is None)
        self.findings += len(r.findings)
        self.events += r.events
        self.bad += not r.ok
        s = r.scope
        if s is not None:
            self.scoped += 1
            self.whole += s.whole
            self.reached.update(s.reached)
            self.rules.update(s.reached, s.unreached)
            if len(self.scopes) <= SCOPE_LINES:
                self.scopes.append((r.path, s))

    def merge(self, other: Tally) -> None:
        """Count the stagings `other` counted, after these."""
        for name in ("stagings", "readable", "causes", "findings", "events", "bad", "inline", "scoped", "whole"):
            setattr(self, name, getattr(self, name) + getattr(other, name))
        self.reached |= other.reached
        self.rules |= other.rules
        self.scopes += other.scopes[: SCOPE_LINES + 1 - len(self.scopes)]
        self.also_not_applied += other.also_not_applied

    @property
    def unreadable(self) -> int:
        return self.stagings - self.readable

    @property
    def exit_code(self) -> int:
        """2: a staging could not be read; 1: findings; 0: none."""
        return 2 if self.unreadable else 1 if self.findings else 0
