"""Which checks apply: `--select` / `--ignore` terms, as ruff and flake8 take them.

A check is an encoded rule, a machine (`machine.<slug>`), a check of the scoring audit
(`audit.<catalogue>`) or `suppression.unused` (an inline suppression that suppresses nothing). A
term names one or more of them:

- a rule's ASCII id (`bu-guan-bu-shi`), Chinese name (`不贯不释`) or catalogue id (`R120a` names
  one rule; `R120` names the entry: every rule drawn from it, R120, R120a …; an audit check carries
  its catalogue id too: `R132` names audit.r132 and the rules of R132);
- `machine.<slug>` or a machine's name (`machine.jue`, `爵`); `audit.r132`;
- a group: `ALL`; `machine`, `audit`, `suppression`, `rule` (every check of that kind); a rule
  category (`ordering`, `pairing`, `scoring` — with the audit — …); a section of the rulebook by its
  letter (`A` … `I`, the files of constraints/rules/ whose names begin with it); a catalogue prefix (`R1`, `R12`).

Unknown terms are bad input with a "did you mean". `select` (default: ALL) minus `ignore` is what
applies; per-file ignores take more away from the files their glob matches.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from functools import cache
from pathlib import Path

from xiangshe.constraints.rulebook import Rule, rulebook
from xiangshe.constraints.scope import IDS as SCOPE_IDS
from xiangshe.constraints.scope import NAMES
from xiangshe.constraints.scoring import AUDIT_CHECKS, audit_id, audit_name
from xiangshe.domain.dataclass import dataclass
from xiangshe.domain.errors import InputError, did_you_mean
from xiangshe.domain.messages import Message
from xiangshe.domain.regex import lazy
from xiangshe.domain.text import TEXT, Citation
from xiangshe.fsm.table import tables

UNUSED = "suppression.unused"
KINDS = ("rule", "machine", "audit", "scope", "suppression")
_SECTION = lazy(r"^[a-z]\d?_")  # a_xian_chou.md, and a2_L003-029.md: section A
_CATALOGUE_PREFIX = lazy(r"^[RN]\d{0,2}$")
_CATALOGUE = lazy(r"^[RN]\d{2,3}[A-Z]?$")
_ENTRY = lazy(r"^R\d{3}$")


@dataclass(frozen=True)
class CheckInfo:
    """One check that `check` can make, with the words a term may name it by."""

    id: str
    name: str
    catalogue: str | None
    kind: str  # rule, machine, audit, suppression
    category: str | None  # the rule's category; machine; scoring (the audit)
    section: str | None  # A … I: the letter of the rulebook file the rule is written in
    citation: Citation


def _section(r: Rule) -> str | None:
    stem = re.split(r"[\\/]", r.path)[-1]
    return stem[0].upper() if _SECTION.match(stem) else None


@cache
def universe() -> tuple[CheckInfo, ...]:
    """Every check a term can name: every rule of the rulebook (under any reading, encoded or not),
    every machine, every check of the scoring audit, and suppression.unused."""
    out = [CheckInfo(r.id, r.name, r.catalogue, "rule", r.category, _section(r), r.citations[0]) for r in rulebook()]
    out += [CheckInfo(f"machine.{t.slug}", t.name, None, "machine", "machine", None, t.edges[0].cite) for t in tables()]
    out += [
        CheckInfo(audit_id(c), audit_name(c), c, "audit", "scoring", None, TEXT.cite(q)) for c, _, q in AUDIT_CHECKS
    ]
    out += [CheckInfo(i, NAMES[i], None, "scope", "scope", None, TEXT.cite("乡射之礼")) for i in SCOPE_IDS]
    out.append(CheckInfo(UNUSED, "未用之豁免", None, "suppression", None, None, TEXT.cite("乡射之礼")))
    return tuple(out)


@cache
def by_id() -> dict[str, CheckInfo]:
    return {c.id: c for c in universe()}


def in_force(rules: Sequence[Rule]) -> tuple[str, ...]:
    """The ids of the checks `check` makes under the rules in force (their order is the report's)."""
    return tuple(
        [r.id for r in rules if r.encoded]
        + [f"machine.{t.slug}" for t in tables()]
        + [audit_id(c) for c, _, _ in AUDIT_CHECKS]
        + list(SCOPE_IDS)
        + [UNUSED]
    )


@cache
def _groups() -> dict[str, frozenset[str]]:
    """Group words (lower case) → the ids they name."""
    out: dict[str, set[str]] = {"all": {c.id for c in universe()}}
    for c in universe():
        out.setdefault(c.kind, set()).add(c.id)
        if c.category:
            out.setdefault(c.category.lower(), set()).add(c.id)
        if c.section:
            out.setdefault(c.section.lower(), set()).add(c.id)
    return {k: frozenset(v) for k, v in out.items()}


@cache
def _words() -> dict[str, frozenset[str]]:
    """Exact words (ids, names, catalogue ids; ASCII ones in lower case) → the ids they name."""
    out: dict[str, set[str]] = {}
    for c in universe():
        for w in (c.id, c.name, c.catalogue):
            if w:
                out.setdefault(w.lower() if w.isascii() else w, set()).add(c.id)
    return {k: frozenset(v) for k, v in out.items()}


def known_words() -> list[str]:
    """What a term may be, for "did you mean": ids, names, catalogue ids and group words."""
    words = [w for c in universe() for w in (c.id, c.name, c.catalogue) if w]
    sections = {c.section for c in universe() if c.section}
    return words + ["ALL", *sorted(set(_groups()) - {"all"} - {s.lower() for s in sections}), *sorted(sections)]


def resolve(term: str) -> frozenset[str] | None:
    """The ids a term names, or None if it names nothing."""
    word = term.strip()
    key = word.lower() if word.isascii() else word
    if _ENTRY.match(word.upper()):  # R120: the entry, so every rule drawn from it (R120, R120a …)
        ids = frozenset(
            c.id for c in universe() if c.catalogue and re.sub(r"[a-z]$", "", c.catalogue).upper() == word.upper()
        )
        if ids:
            return ids
    found = _words().get(key)
    if found is not None:
        return found
    group = _groups().get(key)
    if group is not None:
        return group
    if _CATALOGUE_PREFIX.match(word.upper()):
        ids = frozenset(c.id for c in universe() if c.catalogue and c.catalogue.upper().startswith(word.upper()))
        return ids or None
    return None


@dataclass(frozen=True)
class Term:
    """A term as written, where it was written (for errors), and the ids it names."""

    text: str
    where: str  # --select, a config file, a trace
    line: int | None
    ids: frozenset[str]

    def __str__(self) -> str:
        return self.text


def terms(values: Iterable[str], where: str, line: int | None = None, excerpt: str | None = None) -> tuple[Term, ...]:
    """Comma-separated terms (`R120,machine.jue`; also ，and 、), each resolved; an unknown one is
    bad input."""
    out = []
    for value in values:
        for word in re.split(r"[,，、]", value):
            word = word.strip()
            if not word:
                continue
            ids = resolve(word)
            if ids is None:
                zero = word.upper().replace("O", "0")  # R12O: a letter O for a zero
                hint = (
                    Message("input.did-you-mean", words=zero)
                    if _CATALOGUE.match(zero) and resolve(zero)
                    else did_you_mean(word, known_words())
                )
                raise InputError(where, line, Message("input.unknown-rule", word=word), excerpt, hint=hint)
            out.append(Term(word, where, line, ids))
    return tuple(out)


def _ids(ts: Iterable[Term]) -> frozenset[str]:
    return frozenset(i for t in ts for i in t.ids)


@dataclass(frozen=True)
class Selection:
    """`select` (None: everything) minus `ignore`; per-file ignores (glob → terms), matched against
    a trace's path relative to `base` (the config file's directory) or, without a `/` in the glob,
    against its file name."""

    select: tuple[Term, ...] | None = None
    ignore: tuple[Term, ...] = ()
    per_file: tuple[tuple[str, tuple[Term, ...]], ...] = ()
    base: Path | None = None

    @property
    def default(self) -> bool:
        return self.select is None and not self.ignore and not self.per_file

    def applied(self, ids: Iterable[str]) -> tuple[str, ...]:
        """Of `ids`, those the selection applies to every file."""
        if self.select is None and not self.ignore:
            return tuple(ids)
        chosen = _ids(self.select) if self.select is not None else None
        ignored = _ids(self.ignore)
        return tuple(i for i in ids if (chosen is None or i in chosen) and i not in ignored)

    def ignored_in(self, path: str) -> frozenset[str]:
        """The ids the per-file ignores take away from the trace at `path` (as shown)."""
        if not self.per_file or path.startswith("<"):
            return frozenset()
        from fnmatch import fnmatchcase

        p = Path(path).resolve()
        try:
            rel = p.relative_to(self.base.resolve()).as_posix() if self.base else p.as_posix()
        except ValueError:
            rel = p.as_posix()
        out: set[str] = set()
        for glob, ts in self.per_file:
            if fnmatchcase(rel, glob) or ("/" not in glob and fnmatchcase(p.name, glob)):
                out |= _ids(ts)
        return frozenset(out)

    def describe(self) -> str:
        """Where the selection comes from, for the text output: `--select R120; ignore machine in
        pyproject.toml`."""
        parts = []
        for key, ts in (("select", self.select or ()), ("ignore", self.ignore)):
            by_where: dict[str, list[str]] = {}
            for term in ts:
                by_where.setdefault(term.where, []).append(term.text)
            parts += [
                f"--{key} {','.join(words)}" if where.startswith("--") else f"{key} {','.join(words)} in {where}"
                for where, words in by_where.items()
            ]
        return "; ".join(parts)
