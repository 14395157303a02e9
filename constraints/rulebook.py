"""The literate rulebook: `constraints/rules/*.md`, prose with fenced ```rule blocks of TOML.

Each block declares one rule: its ASCII `id`, its Chinese `name` (the catalogue's id phrase), its
`catalogue` id, unique to it (R001–R207 for the entry it comes from; R010a, R010b … for further rules
drawn from the same entry, so that `counterexample R010a` names one rule), the `quote`s of the text it enforces
(located automatically; missing or ambiguous is a load error), and either a template (`kind` with
its patterns) or a `status` of `descriptive` or `deferred` with a `reason`. The markdown headings
above a block become the rule's breadcrumb in every message. Directly above each block stands the
block quote of the passages it encodes, `> QUOTE (Ln)` per quote (`block_quote`; written by
`python -m xiangshe.constraints.literate`); a block without it, or whose block quote differs from
its located quotes, is a load error at the block quote's line. A load error is located at the line
of the key it is about. The language is documented in docs/rulebook.md.
"""

from __future__ import annotations

import os
import re
from dataclasses import MISSING, field
from functools import cache
from pathlib import Path
from typing import Any, Literal, get_args, get_origin, get_type_hints

from xiangshe.constraints.pattern import Pattern, check_same, keep_layout, parse_pattern
from xiangshe.constraints.readings import defaults, parse_when
from xiangshe.constraints.templates import (
    KINDS,
    QUERY_KINDS,
    OccasionConds,
    OccasionField,
    PersonPattern,
    Same,
    Template,
    keep_gates,
)
from xiangshe.domain.dataclass import dataclass
from xiangshe.domain.errors import RulebookError, did_you_mean
from xiangshe.domain.messages import Message
from xiangshe.domain.regex import lazy
from xiangshe.domain.text import TEXT, Citation
from xiangshe.domain.vocabulary import Vocabulary, vocabulary

RULES_DIR = Path(__file__).with_name("rules")
STATUSES = ("encoded", "descriptive", "deferred")
_ID = lazy(r"^[a-z0-9]+(?:[-.][a-z0-9]+)*$")
_CATALOGUE = lazy(r"^R\d{3}[a-z]?$")
PERSON_KEYS = ("role", "rank", "side")


@dataclass(frozen=True)
class Rule:
    """A rule of the rulebook, or a property asked with `query` (`asked`). An encoded rule has a
    template (`meaning`) and a rule of another status has none: the constructor refuses anything
    else, so that `rule.template` of an encoded rule is always a Template."""

    id: str
    name: str
    catalogue: str | None
    status: str
    citations: tuple[Citation, ...]
    meaning: Template | None  # the template, exactly when the rule is encoded
    path: str
    line: int
    headings: tuple[str, ...] = ()
    reason: str | None = None
    reading: str | None = None
    category: str | None = None
    extra: dict[str, Any] = field(default_factory=dict, compare=False, hash=False)
    when: tuple[tuple[str, str], ...] = ()  # the readings under which the rule is active
    asked: bool = False  # a property asked with `query`, not a rule drawn from the text

    def __post_init__(self) -> None:
        if self.status not in STATUSES:
            raise ValueError(f"rule {self.id}: status {self.status!r} is not one of {', '.join(STATUSES)}")
        if (self.status == "encoded") != (self.meaning is not None):
            raise ValueError(f"rule {self.id}: an encoded rule has a template, and only an encoded rule has one")

    @property
    def template(self) -> Template:
        """The template of an encoded rule (AttributeError for a descriptive or deferred rule)."""
        if self.meaning is None:
            raise AttributeError(f"rule {self.id} is {self.status}: it has no template")
        return self.meaning

    def active(self, readings: dict[str, str] | None) -> bool:
        chosen = readings if readings is not None else defaults()
        return all(chosen.get(point) == option for point, option in self.when)

    @property
    def encoded(self) -> bool:
        return self.status == "encoded"

    @property
    def location(self) -> str:
        return f"{self.path}:{self.line}"


def _person_pattern(text: str, vocab: Vocabulary, where: str, at: int) -> PersonPattern:
    conds = []
    for w in text.split():
        key, _, value = w.partition("=")
        if key not in PERSON_KEYS or not value:
            raise RulebookError(where, at, f"person pattern 「{text}」: write role=…, rank=…, side=…")
        values = frozenset(value.split("|"))
        if key == "role":
            for v in values:
                if vocab.canonical_role(v) is None:
                    raise RulebookError(
                        where, at, Message("input.unknown-role", word=v), hint=did_you_mean(v, vocab.roles)
                    )
            values = frozenset().union(*(vocab.role_family(vocab.canonical_role(v) or v) for v in values))
        if key == "rank" and not values <= set(vocab.ranks) | {"none"}:
            raise RulebookError(where, at, f"unknown rank in 「{text}」")
        if key == "side" and not values <= {"上射", "下射", "none"}:
            raise RulebookError(where, at, f"side is 上射 or 下射 in 「{text}」")
        conds.append((key, values))
    return PersonPattern(text, tuple(conds))


def _same(value: Any, vocab: Vocabulary, where: str, at: int) -> tuple[tuple[str, str], ...]:
    if value is None:
        return ()
    if isinstance(value, list):
        pairs = tuple((str(k), str(k)) for k in value)
    elif isinstance(value, dict):
        pairs = tuple((str(k), str(v)) for k, v in value.items())
    else:
        raise RulebookError(where, at, "same is a list of keys or a table {later_key = \"earlier_key\"}")
    check_same(pairs, vocab, where, at)
    return pairs


def _count(name: str, value: Any, where: str, at: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise RulebookError(where, at, f"{name} is a whole number ≥ 0, not {value!r}")
    return value


def _flag(name: str, value: Any, where: str, at: int) -> bool:
    if not isinstance(value, bool):
        raise RulebookError(where, at, f"{name} is true or false, not {value!r}")
    return value


def _conditions(name: str, value: Any, where: str, at: int) -> OccasionConds:
    """A condition on the occasion (domain/occasion.py)."""
    from xiangshe.domain.occasion import parse_conditions

    try:
        return parse_conditions(value)
    except ValueError as err:
        message, hint = err.args
        raise RulebookError(where, at, f"{name} 「{value}」: {message}", hint=hint) from None


def _occasion_field(name: str, value: Any, where: str, at: int) -> OccasionField:
    from xiangshe.domain.occasion import FIELDS

    if value not in FIELDS:
        hint = did_you_mean(str(value), FIELDS)
        raise RulebookError(where, at, f"{name} {value!r} is not a field of the occasion", hint=hint)
    return OccasionField(value)


@cache
def _field_types(kind: str) -> dict[str, Any]:
    """The declared type of each field of a template kind: what the loader reads it as."""
    return get_type_hints(KINDS[kind])


def _read(kind: Any, name: str, value: Any, vocab: Vocabulary, where: str, at: int) -> object:
    """The value of field `name`, read as its declared type `kind` says (templates.py): a pattern of
    events, a pattern of persons, the correlation `same`, a count, a flag, a closed choice (Literal),
    conditions on the occasion or one of its fields. A type the loader cannot read is a bug."""
    if kind is Pattern:
        return parse_pattern(value, vocab, where, at)
    if kind is PersonPattern:
        return _person_pattern(value, vocab, where, at)
    if kind == Same:
        return _same(value, vocab, where, at)
    if kind is int:
        return _count(name, value, where, at)
    if kind is bool:
        return _flag(name, value, where, at)
    if kind == OccasionConds:
        return _conditions(name, value, where, at)
    if kind is OccasionField:
        return _occasion_field(name, value, where, at)
    if get_origin(kind) is Literal:
        choices = get_args(kind)
        if value not in choices:
            shown = " or ".join(f"{c!r}" for c in choices)
            raise RulebookError(where, at, f"{name} is {shown}, not {value!r}", hint=f"{name} = {choices[0]!r}")
        return value
    raise TypeError(f"a template field of type {kind!r} has no reader")  # pragma: no cover (a new type)


def _template(
    data: dict[str, Any], vocab: Vocabulary, where: str, block: int, keys: dict[str, int] | None = None
) -> Template:
    """The rule's template; an error is located at the line of the offending key (`keys`: key → line),
    else at the block (its fence line)."""
    keys = keys or {}
    kind = data.pop("kind")
    cls = KINDS.get(kind)
    if cls is None:
        at = keys.get("kind", block)
        raise RulebookError(where, at, f"unknown rule kind {kind!r}", hint=did_you_mean(kind, KINDS))
    args: dict[str, object] = {}
    hints = _field_types(kind)
    for name, spec in cls.__dataclass_fields__.items():
        if name in ("kind", "fields"):
            continue
        if name not in data:
            if spec.default is not MISSING:  # an optional field
                continue
            raise RulebookError(where, keys.get("kind", block), f"a {kind} rule needs `{name}`")
        args[name] = _read(hints[name], name, data.pop(name), vocab, where, keys.get(name, block))
    try:
        return cls(**args)
    except TypeError as err:
        raise RulebookError(where, keys.get("kind", block), f"{kind}: {err}") from None


def query_rule(data: dict[str, Any], vocab: Vocabulary | None = None) -> Rule:
    """The property the `query` command asks about, as a rule: `data` holds its `kind` and the
    fields the kind reads (patterns as written, `same` as a list or a table, `n`, `op` …; fields of
    other kinds are ignored). Raises RulebookError (at `query`) for a bad kind or field, or a
    kind that is not a property of traces (`QUERY_KINDS`: not the rules of the cast or occasion)."""
    kind = data.get("kind")
    if kind in KINDS and not KINDS[kind].queryable:
        raise RulebookError("query", 0, f"a {kind} rule is not a property to query", hint=", ".join(QUERY_KINDS))
    template = _template(dict(data), vocab or vocabulary(), "query", 0)  # it takes what it reads
    return Rule("query", "查询", None, "encoded", (TEXT.cite("乡射之礼"),), template, "query", 0, asked=True)


def _citations(data: dict[str, Any], where: str, at: int) -> tuple[Citation, ...]:
    quotes = data.pop("quote", None)
    items: list[Any] = []
    if isinstance(quotes, str):
        items = [{"text": quotes}]
    elif isinstance(quotes, list):
        items = [{"text": q} if isinstance(q, str) else q for q in quotes]
    items += data.pop("quotes", [])
    if not items:
        raise RulebookError(where, at, "a rule must quote the text it enforces (quote = \"…\")")
    return tuple(TEXT.cite(q["text"], q.get("line"), where=where, at=at) for q in items)


_KEY = lazy(r"^\s*([A-Za-z0-9_-]+)\s*=")
_TOML_AT = lazy(r"\s*\(at line (\d+), column \d+\)$")


def key_lines(body: str, at: int) -> dict[str, int]:
    """The line (in the file, the body starting at line `at`) of each top-level key of a rule block;
    the lines inside a multi-line string are skipped."""
    keys: dict[str, int] = {}
    in_string = False
    for offset, text in enumerate(body.splitlines()):
        if not in_string:
            m = _KEY.match(text)
            if m:
                keys.setdefault(m.group(1), at + offset)
        if text.count('"""') % 2:
            in_string = not in_string
    return keys


def parse_rule_block(body: str, where: str, at: int, headings: tuple[str, ...], vocab: Vocabulary) -> Rule:
    """One rule from the TOML of its block, whose ```rule fence is line `at` of `where` (the rule's
    location); an error is located at the line of the key it is about."""
    import tomllib  # only when a source is read: the cache (domain/cache.py) spares the import

    try:
        data = tomllib.loads(body)
    except tomllib.TOMLDecodeError as err:
        message = str(err)
        m = _TOML_AT.search(message)
        line = at + int(m.group(1)) if m else at
        message = _TOML_AT.sub("", message)
        raise RulebookError(where, line, f"rule block is not valid TOML: {message}") from None
    keys = key_lines(body, at + 1)

    def line_of(key: str) -> int:
        return keys.get(key, at)

    rid = data.pop("id", None)
    if not isinstance(rid, str) or not _ID.match(rid):
        raise RulebookError(where, line_of("id"), f"rule id {rid!r} must be an ASCII slug such as bu-guan-bu-shi")
    name = data.pop("name", None)
    if not name:
        raise RulebookError(where, line_of("name"), f"rule {rid} needs a Chinese `name`")
    catalogue = data.pop("catalogue", None)
    if catalogue is not None and (not isinstance(catalogue, str) or not _CATALOGUE.match(catalogue)):
        raise RulebookError(
            where,
            line_of("catalogue"),
            f"rule {rid} needs a `catalogue` id of the form R001 (or R001a for "
            f"a second rule drawn from the same entry), not {catalogue!r}",
        )
    status = data.pop("status", "encoded")
    if status not in STATUSES:
        raise RulebookError(where, line_of("status"), f"status {status!r}", hint=did_you_mean(status, STATUSES))
    quote_at = line_of("quote") if "quote" in keys else line_of("quotes")
    citations = _citations(data, where, quote_at)
    reason = data.pop("reason", None)
    reading = data.pop("reading", None)
    category = data.pop("category", None)
    template = None
    if status == "encoded":
        if "kind" not in data:
            raise RulebookError(where, at, f"rule {rid} is encoded but has no `kind`")
        template = _template(data, vocab, where, at, keys)
    elif not reason:
        raise RulebookError(where, line_of("status"), f"a {status} rule needs a `reason`")
    when = parse_when(data.pop("when", None), where, line_of("when"))
    extra = {k: data.pop(k) for k in list(data) if k in ("note", "readings")}
    if data:
        raise RulebookError(where, line_of(next(iter(data))), f"unknown field(s) in rule {rid}: {', '.join(data)}")
    return Rule(
        rid, name, catalogue, status, citations, template, where, at, headings, reason, reading, category, extra, when
    )


def line_ref(citation: Citation) -> str:
    """`L190`, or `L24–25` for a quote that runs over two lines of the text."""
    if citation.end_line != citation.line:
        return f"L{citation.line}–{citation.end_line}"
    return f"L{citation.line}"


def block_quote(rule: Rule) -> list[str]:
    """The markdown block quote that stands above a rule's block: each passage it encodes, with its line."""
    return [f"> {c.quote} ({line_ref(c)})" for c in rule.citations]


def _check_block_quote(rule: Rule, lines: list[str], fence: int, where: str) -> None:
    """The block quote directly above the ```rule fence (line index `fence`) is the rule's own."""
    first = fence
    while first > 0 and lines[first - 1].startswith(">"):
        first -= 1
    found = [line.rstrip() for line in lines[first:fence]]
    expected = block_quote(rule)
    if found == expected:
        return
    hint = "write directly above the block:\n    " + "\n    ".join(expected)
    if not found:
        raise RulebookError(
            where, fence + 1, f"rule {rule.id} has no block quote of the passage it encodes above it", hint=hint
        )
    for offset, (got, want) in enumerate(zip(found, expected, strict=False)):
        if got != want:
            raise RulebookError(
                where,
                first + offset + 1,
                f"rule {rule.id}: the block quote differs from its quote: {got!r}",
                hint=hint,
            )
    more = "fewer" if len(found) < len(expected) else "more"
    raise RulebookError(
        where, first + 1, f"rule {rule.id}: the block quote has {more} lines than the rule has quotes", hint=hint
    )


def parse_rule_file(path: Path, vocab: Vocabulary, root: Path) -> list[Rule]:
    """The rules of one literate file; each ```rule block stands under the block quote of its passages."""
    where = str(path.relative_to(root))
    rules = []
    headings: list[tuple[int, str]] = []
    lines = path.read_text(encoding="utf-8").splitlines()
    i = 0
    while i < len(lines):
        line = lines[i]
        m = re.match(r"^(#{1,6})\s+(.*)$", line)
        if m:
            level = len(m.group(1))
            headings = [h for h in headings if h[0] < level] + [(level, m.group(2).strip())]
        if line.strip() == "```rule":
            start = i + 1
            j = start
            while j < len(lines) and lines[j].strip() != "```":
                j += 1
            if j == len(lines):
                raise RulebookError(where, start, "unclosed ```rule block")
            rule = parse_rule_block("\n".join(lines[start:j]), where, start, tuple(h for _, h in headings), vocab)
            _check_block_quote(rule, lines, i, where)
            rules.append(rule)
            i = j
        i += 1
    return rules


def load_rules(rules_dir: Path = RULES_DIR) -> tuple[Rule, ...]:
    vocab = vocabulary()
    root = rules_dir.parents[1]
    rules: list[Rule] = []
    for path in sorted(rules_dir.glob("*.md")):
        rules += parse_rule_file(path, vocab, root)
    seen: dict[str, Rule] = {}
    for r in rules:
        if r.catalogue is None:
            raise RulebookError(
                r.path,
                r.line,
                f"rule {r.id} needs a `catalogue` id (R001, or R001a for a second rule drawn from the same entry)",
            )
        for key in (r.id, r.name, r.catalogue):
            if key in seen:
                raise RulebookError(r.path, r.line, f"{key} is already used by the rule at {seen[key].location}")
            seen[key] = r
    return tuple(sorted(rules, key=lambda r: (r.catalogue or "R999", r.id)))


def cached_rules(rules_dir: Path = RULES_DIR) -> tuple[Rule, ...]:
    """`load_rules(rules_dir)`, from the cache of derived artefacts when its files are unchanged
    (domain/cache.py): the key hashes every rule file, as named in the rules' locations, besides the
    package's code and data. A rulebook that does not load is never stored: its error is raised anew."""
    from xiangshe.domain.cache import derived

    try:  # the folder listed, not globbed (pathlib's glob: half a million instructions more)
        names = sorted(n for n in os.listdir(rules_dir) if n.endswith(".md"))
    except OSError:  # no such folder: load_rules says so
        names = []
    shown = rules_dir.relative_to(rules_dir.parents[1]).as_posix()
    sources = [(f"{shown}/{name}", rules_dir / name) for name in names]
    return derived("rulebook", sources, lambda: _with_kept_layouts_and_gates(load_rules(rules_dir)))


def _with_kept_layouts_and_gates(rules: tuple[Rule, ...]) -> tuple[Rule, ...]:
    """The rules, each pattern of their templates keeping its layout (pattern.py `keep_layout`) and
    each template its gates (templates.py `keep_gates`): the stored rulebook carries them, and a check
    does not work them out again for each pattern and rule."""
    for r in rules:
        if r.meaning is not None:
            for value in vars(r.meaning).values():
                if isinstance(value, Pattern):
                    keep_layout(value)
            keep_gates(r.meaning)
    return rules


@cache
def rulebook() -> tuple[Rule, ...]:
    return cached_rules()


_active: dict[tuple[int, tuple[tuple[str, str], ...] | None], tuple[tuple[Rule, ...], tuple[Rule, ...]]] = {}


def active_rules(readings: dict[str, str] | None = None) -> tuple[Rule, ...]:
    """The rules in force under the chosen readings (the defaults if None), found once per readings."""
    book = rulebook()
    key = (id(book), tuple(sorted(readings.items())) if readings is not None else None)
    got = _active.get(key)
    if got is None or got[0] is not book:
        chosen = readings if readings is not None else defaults()  # made once, not once a rule
        got = _active[key] = (book, tuple(r for r in book if r.active(chosen)))
    return got[1]


def find_rule(word: str, rules: tuple[Rule, ...] | None = None) -> list[Rule]:
    """Rules named by their ASCII id, their Chinese name, or their catalogue id."""
    rules = rules if rules is not None else rulebook()
    upper = word.upper()
    return [r for r in rules if word in (r.id, r.name) or upper == (r.catalogue or "").upper()]
