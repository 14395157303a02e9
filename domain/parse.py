"""Read traces: the line format people write (`.trace`), JSON Lines for machines (`.jsonl`), and the
same records as one JSON document (`.json`) or a YAML list (`.yaml`, `.yml`).

Line format, one statement per line, `#` starts a comment:

    fragment Φ21–Φ22                  the trace is a part of the ceremony (before any event; omit it
                                      for a whole ceremony)
    occasion presiding=州长 venue=序    the occasion (before any event; what is left out takes the
                                      default, domain/occasion.py): presiding venue site hou zhong jing jun
    cast 甲 弟子                      a person: name, role, [rank=…]
    pair 上耦 上射=甲 下射=乙          a pair (耦) and its two sides
    phase Φ21                         every following event belongs to this phase
    上射 射 矢 arrow=1 result=中正       an event: actor, act, [object], key=value …

JSON Lines: one JSON object per line, either an event `{"actor", "act", "obj"?, key: value …}`
or a directive `{"cast": name, "role": …}`, `{"pair": name, "上射": …, "下射": …}`,
`{"phase": "Φ21"}`, `{"fragment": "Φ21–Φ22"}`, `{"occasion": "presiding=州长 zhong=鹿中"}` (or flat:
`{"occasion": "", "presiding": "州长", "zhong": "鹿中"}`). JSON: an array of those records. All are
read into the same Trace, with the file and line of every event. Which reader a file takes, and
where its bytes come from (a file, a directory, standard input), is domain/sources.py's business;
here are the readers and the bounded reading of bytes they share.
"""

from __future__ import annotations

import bisect
import errno
import json
import os
import re
import stat
from collections.abc import Callable, Iterable, Iterator, Sequence
from functools import partial
from pathlib import Path
from typing import BinaryIO

from xiangshe.domain.errors import InputError, TraceError, did_you_mean
from xiangshe.domain.gcpause import gc_paused
from xiangshe.domain.messages import Localised, Message
from xiangshe.domain.regex import lazy
from xiangshe.domain.trace import (
    SIDES,
    Cast,
    Directive,
    Event,
    Fragment,
    ObjectRef,
    Pair,
    Person,
    Trace,
    phase_span,
)
from xiangshe.domain.vocabulary import (
    MAX_INSTANCE,
    PERSON_KEYS,
    PLACE_KEYS,
    ObjectKind,
    Vocabulary,
    split_number,
    vocabulary,
)

MAX_BYTES = 64 * 1024 * 1024  # documented limit on one trace file (the default of check --max-input-size)
LIMIT_HINT = Message("input.limit-hint")
MAX_ERRORS = 20
_SIDE_ALIASES = {"shang-she": "上射", "xia-she": "下射", "upper": "上射", "lower": "下射"}
#: `# L14 主人坐取爵于上篚`: the text line an event enacts, matched where its comment begins (after the #)
_SOURCE = re.compile(r"\s*L([0-9]{1,9})\b")
_DIRECTIVE = re.compile(r"#\s*xiangshe\s*:(.*)$")  # `# xiangshe: ignore[R120] reason`
# line breaks as editors count them (str.splitlines also breaks at \v, \f, \x1c-\x1e, \x85, U+2028/9,
# which may stand inside a JSON string); YAML counts \x85, U+2028 and U+2029 as breaks too
_BREAKS = re.compile(r"\r\n|\r|\n")
_YAML_BREAKS = lazy(r"\r\n|[\r\n\x85\u2028\u2029]")


def _lines(text: str, breaks: re.Pattern = _BREAKS) -> list[str]:
    # without a \r (or YAML's other breaks) a text breaks at \n alone: str.split, not the pattern
    lines = text.split("\n") if breaks is _BREAKS and "\r" not in text else breaks.split(text)
    return lines[:-1] if lines and lines[-1] == "" else lines


def _ascii_number(s: str, digits: int = 9) -> int | None:
    """`s` as a number if it is 1–`digits` ASCII digits (not ³ or ٣, not 5,000 digits)."""
    return int(s) if s.isascii() and s.isdigit() and len(s) <= digits else None


class TraceErrors(Exception):
    """The errors found in one trace file: at most MAX_ERRORS, and how many more there were."""

    def __init__(self, errors: Sequence[InputError], more: int = 0) -> None:
        super().__init__(errors[0].render())
        self.errors, self.more = errors, more

    def __reduce__(self):  # pickled to and from worker processes (check --jobs): rebuilt from its errors
        return (type(self), (self.errors, self.more))

    def render(self, lang: str | None = None) -> str:
        if lang is None:
            return Localised(self.render)
        out = [e.render(lang) for e in self.errors]
        if self.more:
            more = Message(
                "input.more-one" if self.more == 1 else "input.more",
                path=self.errors[0].path,
                n=self.more,
                shown=len(self.errors),
            )
            out.append(more.render(lang))
        return "\n".join(out)


#: an event's words as the vocabulary and the cast name them: actor, act, object, attributes, object word
_Words = tuple[str, str, ObjectRef | None, tuple[tuple[str, str], ...], str | None]

#: at most this many event lines (and as many events' words) are remembered by the readers of a process
_KNOWN_LINES = 1 << 16


class _Pairs(dict[str, "tuple[str, str] | None"]):
    """The words of events read by this process: a word key=value as (key, value) (split at its first
    =, as `_split_kv` splits it), any other word as None; at most _KNOWN_LINES of them remembered."""

    def __missing__(self, word: str) -> tuple[str, str] | None:
        key, eq, value = word.partition("=")
        pair = (key, value) if eq else None
        if len(self) < _KNOWN_LINES:
            self[word] = pair
        return pair


class _Sources(dict[str, "int | None"]):
    """The comments of events read by this process (after their #), each with the line of the text it
    names (`# L14 …`: 14), or None; at most _KNOWN_LINES of them remembered."""

    def __missing__(self, comment: str) -> int | None:
        m = _SOURCE.match(comment)
        line = int(m.group(1)) if m else None
        if len(self) < _KNOWN_LINES:
            self[comment] = line
        return line


class _Seen:
    """The events the readers of this process have read before, with one vocabulary: their words, and
    the lines of JSON Lines and the statements of the line format (a line without its comment) that
    wrote them, each with the person words it holds, when these are the names the event's persons
    have in the cast. Such an event reads alike in any trace whose cast has those names (a person
    word that the cast has is that person: `_Reader.person`; the other words are the vocabulary's),
    so a batch of stagings that share most lines reads each of them once, and a staging each of its
    repeated statements. Only events read without error are kept, at most _KNOWN_LINES of each kind;
    and the words key=value and the objects that `_Reader.plain` read, which depend on the
    vocabulary alone."""

    def __init__(self, vocab: Vocabulary) -> None:
        self.vocab = vocab
        self.words: dict[tuple, tuple[frozenset[str], _Words]] = {}
        self.lines: dict[bytes, tuple] = {}  # JSON Lines: by a line's bytes
        #: the statements of the line format (a line without its comment, stripped) that wrote them
        self.bodies: dict[str, tuple[frozenset[str], _Words]] = {}
        self.pairs = _Pairs()
        self.sources = _Sources()
        #: an object word (爵2, 矢) and whose it is if personal (the recipient, else the actor; a word
        #: of an object that is not personal is keyed by that person too) → the object
        self.objects: dict[tuple[str, str], ObjectRef] = {}

    def remember_words(self, key: tuple, value: tuple[frozenset[str], _Words]) -> None:
        if len(self.words) < _KNOWN_LINES:
            self.words[key] = value

    def remember_object(self, key: tuple[str, str], value: ObjectRef) -> None:
        if len(self.objects) < _KNOWN_LINES:
            self.objects[key] = value

    def remember_body(self, body: str, value: tuple[frozenset[str], _Words]) -> None:
        if len(self.bodies) < _KNOWN_LINES:
            self.bodies[body] = value


_SEEN: list[_Seen] = []  # the one of the vocabulary used last


def _seen(vocab: Vocabulary) -> _Seen:
    if not _SEEN or _SEEN[0].vocab is not vocab:
        _SEEN[:] = [_Seen(vocab)]
    return _SEEN[0]


def forget() -> None:
    """Forget the events read before: the next trace reads as in a fresh process (benchmarks, tests)."""
    _SEEN.clear()


class _Reader:
    """Shared by both formats: the cast, person and object resolution, the events."""

    def __init__(self, path: str, vocab: Vocabulary, lines: list[str]) -> None:
        self.path, self.vocab, self.lines = path, vocab, lines
        self.cast = Cast()
        self.errors: list[InputError] = []
        self.more = 0  # errors past MAX_ERRORS, counted, not shown
        self.events: list[Event] = []
        self.phase: str | None = None
        self.phase_lines: list[tuple[int, str]] = []
        self.directives: list[Directive] = []
        self.fragment: Fragment | None = None
        self.occasion: tuple[int, dict[str, str]] | None = None  # its line and declared fields
        self._resolved: dict[tuple, tuple] = {}
        self._failed: dict[tuple, int] = {}  # the events that did not resolve: how many errors
        self._seen = _seen(vocab)
        #: the person words of the event read last, when its words depend on the cast only by their
        #: being in it (see `_Seen`); else None
        self.names: frozenset[str] | None = None
        #: the line numbers read so far, as the int objects the events' lines hold (numbers[k] == k), for
        #: a reader that records them: an event's index takes the one of its value, so that a large trace
        #: keeps one int object an event, not two (32 bytes an event)
        self.numbers: list[int] = [0]
        #: the pairs key=value `plain` reads: the vocabulary's plain pairs, and a person key (to=, for=)
        #: with each of the first `_paired` persons of the cast (which only grows)
        self._pairs: set[tuple[str, str]] = set(vocab.plain_pairs)
        self._paired = 0

    # -- errors -------------------------------------------------------------------------------
    def fail(
        self,
        line: int,
        message: str,
        hint: str | Callable[[], str] | None = None,
        column: int | None = None,
        word: str | None = None,
    ) -> None:
        """An error at `line`; past MAX_ERRORS only counted. A hint may be given as a function,
        called only for an error that is shown ("did you mean" compares the word with many). The
        column is where the error is, or where `word` (the word at fault) first stands in the line."""
        if len(self.errors) >= MAX_ERRORS:
            self.more += 1
            return
        excerpt = self.lines[line - 1] if 0 < line <= len(self.lines) else None
        if column is None and word and excerpt is not None and word in excerpt:
            column = excerpt.index(word) + 1
        self.errors.append(TraceError(self.path, line, message, excerpt, hint() if callable(hint) else hint, column))

    # -- cast ---------------------------------------------------------------------------------
    def declare(self, line: int, name: str, role_word: str, rank: str | None) -> None:
        role = self.vocab.resolve("roles", role_word)
        if role is None:
            self.fail(
                line,
                Message("input.unknown-role", word=role_word),
                word=role_word,
                hint=lambda: self.vocab.suggest("roles", role_word, self.vocab.roles),
            )
            return
        name = self.person_name(name, role)
        if name in self.cast.persons:
            self.fail(line, f"{name} is declared twice (first at line {self.cast.persons[name].line})")
            return
        if rank is not None:
            written, rank = rank, self.vocab.resolve("ranks", rank)
            if rank is None:
                self.fail(
                    line,
                    Message("input.unknown-rank", word=written),
                    lambda: self.vocab.suggest("ranks", written, self.vocab.ranks),
                )
                return
        if name in self.vocab.acts or name in self.vocab.objects:
            self.fail(line, f"{name} is a word of the vocabulary; choose another name for a person")
            return
        self.cast.add(Person(name, role, rank or self.vocab.roles[role].rank, line))

    def person_name(self, name: str, role: str) -> str:
        """A declared name as the vocabulary writes it when it names the declared role in another
        script or by an alias (賓 → 宾, 衆賓2 → 众宾2, guest → 宾, zhong-bin2 → 众宾2); else as written."""
        if self.vocab.canonical_role(name) is not None:
            return name
        head, digits = split_number(name)
        if digits and self.vocab.canonical_role(head) is not None:
            return name
        if self.vocab.resolve("roles", name) == role:
            return role
        head, digits = split_number(self.vocab.fold(name))
        if digits and self.vocab.resolve("roles", head.rstrip("-")) == role:
            return role + digits
        return name

    def declare_pair(self, line: int, name: str, sides: dict[str, str]) -> None:
        sides = {_SIDE_ALIASES.get(k.lower(), k) if k not in SIDES else k: v for k, v in sides.items()}
        if set(sides) != set(SIDES):
            self.fail(line, f"pair {name} needs 上射=… and 下射=…")
            return
        if name in self.cast.pairs:
            self.fail(line, f"pair {name} is declared twice")
            return
        names = []
        for side in SIDES:
            who = self.person(line, sides[side])
            if who is None:
                return
            person = self.cast.persons[who]
            if person.pair is not None:
                self.fail(line, f"{who} is already in pair {person.pair} (line {person.pair_line})")
                return
            names.append(who)
        if names[0] == names[1]:
            self.fail(line, f"pair {name} pairs {names[0]} with himself")
            return
        for who, side in zip(names, SIDES, strict=True):
            p = self.cast.persons[who]
            self.cast.persons[who] = Person(p.name, p.role, p.rank, p.line, name, side, line)
        self.cast.pairs[name] = Pair(name, names[0], names[1], line)

    def person(self, line: int, token: str) -> str | None:
        """Resolve a person token: a declared name, a role with one person, or role+number."""
        if token in self.cast.persons:
            return token
        role = self.vocab.resolve("roles", token)
        if role is not None:
            holders = self.cast.by_role.get(role, [])
            if len(holders) == 1:
                return holders[0]
            if self.vocab.roles[role].single and not holders:
                self.cast.add(Person(role, role, self.vocab.roles[role].rank))
                return role
            if len(holders) > 1:
                self.fail(line, f"{token} is ambiguous: the cast has {', '.join(holders)}")
            else:
                self.fail(
                    line,
                    f"{token} is a role with several persons; name one "
                    f"({token}1, {token}2 …) or declare `cast NAME {token}`",
                )
            return None
        head, digits = split_number(token)
        role = self.vocab.canonical_role(head) if digits else None
        if role is not None:
            self.cast.add(Person(token, role, self.vocab.roles[role].rank))
            return token
        folded = self.vocab.fold(token)  # 衆賓2, zhong-bin2, guests-2 → 众宾2
        head, digits = split_number(folded)
        role = self.vocab.resolve("roles", head.rstrip("-")) if digits and head else None
        if role is not None:
            name = role + digits
            if name not in self.cast.persons:
                self.cast.add(Person(name, role, self.vocab.roles[role].rank))
            return name
        if not token.isascii():  # a declared name written in another script
            from xiangshe.domain.script import fold

            same = [n for n in self.cast.persons if fold(n) == fold(token)]
            if len(same) == 1:
                return same[0]
        self.fail(
            line,
            Message("input.unknown-person", word=token),
            word=token,
            hint=lambda: self.vocab.suggest(
                "persons", token, [*self.cast.persons, *(r for r, t in self.vocab.roles.items() if t.single)]
            ),
        )
        return None

    # -- events -------------------------------------------------------------------------------
    def obj(self, line: int, token: str, actor: str, to: str | None) -> ObjectRef | None:
        found = self.vocab.resolve_object(token)
        if found is None:
            self.fail(
                line,
                Message("input.unknown-object", word=token),
                word=token,
                hint=lambda: self.vocab.suggest("objects", token, self.vocab.objects),
            )
            return None
        kind, suffix = found
        ref = _instance(kind, suffix, actor, to)
        if ref is not None:
            return ref
        if kind.personal:
            self.fail(
                line,
                f"{kind.name} is personal (each person has his own): write "
                f"{kind.name} alone; it is the actor's, or the recipient's with to=",
            )
        else:
            top = MAX_INSTANCE if kind.instances > 1 else 1
            self.fail(
                line,
                f"{token}: {kind.name} has instances 1–{top}",
                f"write {kind.name} or {kind.name}1 … {kind.name}{top}"
                if top > 1
                else f"write {kind.name} (there is one {kind.name})",
            )
        return None

    def event(
        self,
        line: int,
        text: str,
        actor_token: str,
        act: str,
        obj_token: str | None,
        attrs: Sequence[tuple[str, str]],
        source_line: int | None = None,
    ) -> None:
        # an event written as one read before (in any trace) whose persons were named as the cast names
        # them takes its words, if the cast has them too (`_Seen`)
        shared = (actor_token, act, obj_token, tuple(attrs))
        hit = self._seen.words.get(shared)
        if hit is not None and self.cast.persons.keys() >= hit[0]:
            self.names, words = hit
        else:
            found = self._words(line, shared)
            if found is None:
                return
            words = found
        actor, act, obj, resolved, obj_token = words
        phase = self.phase
        rnd = self.vocab.phases[phase].round if phase else 0
        index = len(self.events)
        if index < len(self.numbers):
            index = self.numbers[index]
        self.events.append(Event(index, line, actor, act, obj, resolved, phase, rnd, text, obj_token, source_line))

    def _words(self, line: int, shared: tuple) -> _Words | None:
        """An event's words, resolved (or None, its errors reported); remembered for this trace while its
        cast is the same (it only grows), and for every trace (`_Seen`) when they are the cast's names."""
        found = self.plain(*shared)
        if found is not None:
            self._seen.remember_words(shared, found)
            self.names = found[0]
            return found[1]
        actor_token, act, obj_token, attrs = shared
        key = (*shared, len(self.cast.persons))
        words = self._resolved.get(key)
        if words is None:
            failed = self._failed.get(key)
            if failed is not None and len(self.errors) >= MAX_ERRORS:
                self.more += failed  # past the cap an error seen before is only counted
                return None
            before = len(self.errors) + self.more
            words = self._resolve(line, actor_token, act, obj_token, list(attrs))
            if words is None:
                self._failed[key] = len(self.errors) + self.more - before
                return None
            self._resolved[key] = words
        tokens = [actor_token, *(v for k, v in attrs if k in PERSON_KEYS)]
        names = [words[0], *(v for k, v in words[3] if k in PERSON_KEYS)]
        if tokens == names:
            self.names = frozenset(names)
            self._seen.remember_words(shared, (self.names, words))
        else:
            self.names = None
        return words

    def plain(
        self, actor: str, act: str, obj_token: str | None, attrs: tuple[tuple[str, str], ...]
    ) -> tuple[frozenset[str], _Words] | None:
        """The words of an event written in the plain words of its cast and the vocabulary, with the
        person names it holds: its actor and persons named as the cast has them, its act, places and
        values the vocabulary's own words, no key twice, and its object a kind and an instance of it
        (爵2). `_resolve` gives such an event these very words, with no error and no person added;
        here they are found by a few look-ups (the key=value pairs all at once: the vocabulary's
        `plain_pairs` and a person key with each person of the cast). None for any other event (an
        alias, another script, a role for its holder, a count, an error …): `_resolve` reads it."""
        persons = self.cast.persons
        if actor not in persons or act not in self.vocab.acts:
            return None
        to = None
        if not attrs:
            names = frozenset([actor])
        else:
            if len(persons) != self._paired:  # the pairs of the persons named since
                self._pairs.update((key, name) for name in list(persons)[self._paired :] for key in PERSON_KEYS)
                self._paired = len(persons)
            given = dict(attrs)
            if len(given) != len(attrs) or not self._pairs.issuperset(attrs):  # a key twice, or another word
                return None
            to = given.get("to")
            names = frozenset([actor, *filter(None, map(given.get, PERSON_KEYS))])  # ("" names no person)
        obj = None
        if obj_token is not None:
            owner = to or actor
            obj = self._seen.objects.get((obj_token, owner))
            if obj is None:
                found = self.vocab.object_kind(obj_token)
                obj = _instance(*found, actor, to) if found is not None else None
                if obj is None:
                    return None
                self._seen.remember_object((obj_token, owner), obj)
        return names, (actor, act, obj, attrs, obj_token)

    def _resolve(
        self, line: int, actor_token: str, act: str, obj_token: str | None, attrs: list[tuple[str, str]]
    ) -> _Words | None:
        """An event's words as the vocabulary and the cast name them, or None (errors reported)."""
        vocab = self.vocab
        actor = self.person(line, actor_token)
        written, resolved_act = act, vocab.resolve("acts", act)
        if resolved_act is None:
            self.fail(
                line,
                Message("input.unknown-act", word=written),
                word=written,
                hint=lambda: vocab.suggest("acts", written, vocab.acts),
            )
            return None
        resolved: list[tuple[str, str]] = []
        seen: set[str] = set()
        ok = actor is not None
        for key, value in attrs:
            if key in seen:
                self.fail(line, f"{key}= is given twice")
                ok = False
                continue
            seen.add(key)
            if key in PERSON_KEYS:
                who = self.person(line, value)
                ok = ok and who is not None
                resolved.append((key, who or value))
            elif key in PLACE_KEYS:
                place = vocab.resolve("places", value)
                if place is None:
                    self.fail(
                        line,
                        Message("input.unknown-place", word=value),
                        word=value,
                        hint=partial(vocab.suggest, "places", value, vocab.places),
                    )
                    ok = False
                resolved.append((key, place or value))
            elif key in vocab.attributes:
                allowed = vocab.attributes[key].values
                found = vocab.resolve(f"attr:{key}", value)
                if found is None and vocab.attributes[key].count:
                    self.fail(line, f"{key}={value}: {key} is a count, a whole number (3, 三, 十一 …)")
                    ok = False
                elif found is None:
                    self.fail(
                        line,
                        Message("input.one-of", key=key, value=value, allowed=", ".join(allowed)),
                        partial(vocab.suggest, f"attr:{key}", value, allowed),
                    )
                    ok = False
                resolved.append((key, found or value))
            else:
                self.fail(
                    line,
                    Message("input.unknown-key", word=f"{key}="),
                    word=f"{key}=",
                    hint=partial(did_you_mean, key, vocab.event_keys),
                )
                ok = False
        if not ok or actor is None:
            return None
        to = dict(resolved).get("to")
        obj = self.obj(line, obj_token, actor, to) if obj_token is not None else None
        if obj_token is not None and obj is None:
            return None
        if obj_token is not None and obj is not None and not obj_token.startswith(obj.kind):
            kind, suffix = vocab.resolve_object(obj_token) or (None, "")
            obj_token = obj.kind + suffix  # the vocabulary's form: 觶2 → 觯2, jue2 → 爵2
        return actor, resolved_act, obj, tuple(resolved), obj_token

    def set_fragment(self, line: int, spec: object) -> None:
        """`fragment Φ03–Φ07` (also Φ03-Φ07, Φ03..Φ07, lists with commas or spaces, or nothing):
        once, before the first event."""
        if self.fragment is not None:
            self.fail(line, f"a second fragment declaration (the first is at line {self.fragment.line})")
            return
        if self.events:
            self.fail(
                line,
                "a fragment declaration goes before the first event",
                hint=f"move it above line {self.events[0].line}",
            )
            return
        if spec is True or spec is None:
            spec = ""
        if isinstance(spec, list) and all(isinstance(x, str) for x in spec):
            spec = ",".join(spec)
        if not isinstance(spec, str):
            self.fail(line, f"fragment: write the phases it covers, e.g. Φ03–Φ07, not {spec!r}")
            return
        phases: list[str] = []
        order = list(self.vocab.phases)
        for part in re.split(r"[,，、\s]+", spec.strip()):
            if not part:
                continue
            ends = re.split(r"\.\.|[–—~-]", part)
            if len(ends) > 2 or not all(ends):
                self.fail(
                    line,
                    f"fragment: {part} is not a phase or a span of phases",
                    hint="write Φ03–Φ07, Φ21 or Φ03–Φ07, Φ21",
                )
                return
            bad = [p for p in ends if p not in self.vocab.phases]
            if bad:
                self.fail(
                    line,
                    Message("input.fragment-phase", word=bad[0]),
                    word=bad[0],
                    hint=partial(did_you_mean, bad[0], self.vocab.phases),
                )
                return
            i, j = order.index(ends[0]), order.index(ends[-1])
            if j < i:
                self.fail(line, f"fragment: {part} runs backwards", hint=f"write {ends[-1]}–{ends[0]}")
                return
            phases += order[i : j + 1]
        self.fragment = Fragment(line, tuple(dict.fromkeys(phases)) or None)

    def set_occasion(self, line: int, spec: object) -> None:
        """`occasion presiding=州长 venue=序 …` (or bare values; JSON: an object or a string): once,
        before the first event."""
        from xiangshe.domain.occasion import parse_words

        if self.occasion is not None:
            self.fail(line, f"a second occasion declaration (the first is at line {self.occasion[0]})")
            return
        if self.events:
            self.fail(
                line,
                "an occasion declaration goes before the first event",
                hint=f"move it above line {self.events[0].line}",
            )
            return
        if isinstance(spec, dict):
            words = []
            for k, v in spec.items():
                if not isinstance(v, str) or not v or any(c.isspace() for c in v):
                    self.fail(line, f"occasion: {k} must be one word, not {v!r}")
                    return
                words.append(f"{k}={v}")
        elif isinstance(spec, str):
            words = spec.split()
        else:
            self.fail(line, f"occasion: write its fields, e.g. presiding=州长 venue=序, not {spec!r}")
            return
        fields, errors = parse_words(words)
        for message, hint, bad in errors:
            self.fail(line, message, hint=hint or None, word=bad)
        if not errors:
            self.occasion = (line, fields)

    def set_phase(self, line: int, pid: str) -> None:
        if pid not in self.vocab.phases:
            self.fail(line, Message("input.unknown-phase", word=pid), lambda: did_you_mean(pid, self.vocab.phases))
            return
        self.phase = pid
        self.phase_lines.append((line, pid))

    def finish(self) -> Trace:
        if not self.events and not self.errors:
            self.fail(1, "the trace has no events")
        if self.occasion is not None and not self.errors:
            from xiangshe.domain.occasion import build

            line, fields = self.occasion
            if fields.get("jun") == "不在" and (self.cast.by_role.get("君") or fields.get("presiding") == "君"):
                why = (
                    f"the cast has a 君 ({', '.join(self.cast.by_role['君'])})"
                    if self.cast.by_role.get("君")
                    else "the 君 presides"
                )
                self.fail(line, f"occasion: jun=不在, but {why}", word="jun=不在")
            else:
                self.cast.occasion = build(fields, self.cast, line)
        self.numbers = []
        if self.errors:
            raise TraceErrors(self.errors, self.more)
        events, lines = tuple(self.events), tuple(self.lines)
        return Trace(self.path, events, self.cast, self.phase_lines, lines, self.directives, self.fragment)


def _instance(kind: ObjectKind, suffix: str, actor: str, to: str | None) -> ObjectRef | None:
    """The object of `kind` that a token names by its `suffix`, or None if the suffix names none. A
    personal object takes no suffix: it is the recipient's (to=), else the actor's. A numbered kind
    (instances > 1) takes any number 1–9999 (a staging may need more than the canonical's), or none
    (1); a kind of one instance takes none."""
    if kind.personal:
        return None if suffix else ObjectRef(kind.name, to or actor)
    top = MAX_INSTANCE if kind.instances > 1 else 1
    number = 1 if suffix == "" else _ascii_number(suffix, 4) or 0
    return ObjectRef(kind.name, str(number)) if 1 <= number <= top else None


#: an event's words as written: actor, act, object, attributes (as `_Reader.event` takes them)
_Event = tuple[str, str, str | None, tuple[tuple[str, str], ...]]
_HEADS = frozenset(["fragment", "occasion", "phase", "cast", "pair"])  # the words that begin a declaration


def _split_kv(words: Iterable[str]) -> tuple[list[str], list[tuple[str, str]]]:
    plain, kv = [], []
    for w in words:
        if "=" in w:
            k, _, v = w.partition("=")
            kv.append((k, v))
        else:
            plain.append(w)
    return plain, kv


HEAD_BYTES = 8192  # a NUL byte in these makes a file binary


def _read_upto(stream: BinaryIO, n: int, into: bytearray) -> bytearray:
    """Add at most n bytes of `stream` to `into`: fewer only at its end (a pipe may deliver them
    piecemeal)."""
    end = len(into) + n
    while len(into) < end:
        chunk = stream.read(min(end - len(into), 1 << 20))
        if not chunk:
            break
        into += chunk
    return into


def read_bounded(stream: BinaryIO, display: str, limit: int = MAX_BYTES) -> bytearray:
    """The bytes of a trace from any stream — a file, a pipe, a FIFO, a device, standard input —
    reading at most `limit` + 1 of them: more is refused, so /dev/zero or an endless pipe cannot
    run the reader out of memory. A NUL byte in the first HEAD_BYTES is refused at once (binary)."""
    try:
        data = _read_upto(stream, min(HEAD_BYTES, limit + 1), bytearray())
        _not_binary(data, display)
        if len(data) == HEAD_BYTES:
            _read_upto(stream, limit + 1 - HEAD_BYTES, data)
    except OSError as err:
        raise TraceErrors(
            [TraceError(display, None, Message("input.cannot-read", reason=err.strerror or str(err)))]
        ) from None
    if len(data) > limit:
        raise TraceErrors([TraceError(display, 1, Message("input.too-large", limit=limit), hint=LIMIT_HINT)])
    return data


def _not_binary(data: bytes | bytearray, display: str) -> None:
    head = data[:HEAD_BYTES]
    if b"\x00" in head:
        line = head[: head.index(b"\x00")].count(b"\n") + 1
        raise TraceErrors([TraceError(display, line, Message("input.binary"))])


_BOM = b"\xef\xbb\xbf"  # the byte-order mark in UTF-8


def _unmarked(data: bytes | bytearray) -> bytes | bytearray:
    """`data` without a leading byte-order mark (one is dropped, as utf-8-sig drops it)."""
    return data[3:] if data[:3] == _BOM else data


def decode(data: bytes | bytearray, display: str) -> str:
    """A trace's bytes as text: UTF-8 (a byte-order mark is dropped), never binary."""
    _not_binary(data, display)
    try:  # as data.decode("utf-8-sig"), which looks its codec up (and imports it) on every call
        return _unmarked(data).decode("utf-8")
    except UnicodeDecodeError as err:  # (its start counted after the mark, as utf-8-sig counts it)
        line = data[: err.start].count(b"\n") + 1
        raise TraceErrors([TraceError(display, line, Message("input.not-utf8"))]) from None


def read_path_data(path: Path, display: str, limit: int = MAX_BYTES) -> bytearray:
    """The bytes of a trace file (`decode` makes them text). A regular file over `limit` bytes is refused
    before it is read; any other file (a FIFO, a device such as /dev/zero) is read up to the limit and
    refused past it."""
    try:
        with path.open("rb") as f:
            info = os.fstat(f.fileno())
            if stat.S_ISDIR(info.st_mode):
                raise IsADirectoryError(errno.EISDIR, os.strerror(errno.EISDIR))
            if stat.S_ISREG(info.st_mode) and info.st_size > limit:
                message = Message("input.file-too-large", size=info.st_size, limit=limit)
                raise TraceErrors([TraceError(display, 1, message, hint=LIMIT_HINT)])
            return read_bounded(f, display, limit)
    except OSError as err:
        raise TraceErrors(
            [TraceError(display, None, Message("input.cannot-read", reason=err.strerror or str(err)))]
        ) from None


def _common_event(words: list[str], pair_of: Callable[[str], tuple[str, str] | None]) -> _Event | None:
    """The words of an event of the common shape ACTOR ACT [OBJECT] [key=value …] (a word with = is a
    key=value, split at its first =), as `_Reader.event` takes them; None for any other statement: a
    declaration, or an event that is not of this shape (`_statement` says what is wrong with it)."""
    if len(words) < 2 or words[0] in _HEADS or "=" in words[0] or "=" in words[1]:
        return None
    size = 3 if len(words) > 2 and "=" not in words[2] else 2
    attrs = tuple(map(pair_of, words[size:]))
    if None in attrs:  # a word without = after the key=value pairs began
        return None
    return (words[0], words[1], words[2] if size == 3 else None, attrs)  # type: ignore[return-value]  # (no None)


def _statement(r: _Reader, n: int, words: list[str]) -> None:
    """A statement of the line format that is not an event of the common shape (`_common_event`): a
    declaration, or an event with its error."""
    head = words[0]
    if head in ("cast", "pair"):
        plain, kv = _split_kv(words[1:])
    if head == "fragment":
        r.set_fragment(n, " ".join(words[1:]))
    elif head == "occasion":
        r.set_occasion(n, " ".join(words[1:]))
    elif head == "phase":
        if len(words) < 2:
            r.fail(n, "phase needs an id such as Φ21")
        else:
            r.set_phase(n, words[1])
    elif head == "cast":
        rank = dict(kv).get("rank")
        extra = [k for k, _ in kv if k != "rank"]
        if len(plain) != 2 or extra:
            r.fail(n, "cast needs NAME ROLE [rank=…]")
        else:
            r.declare(n, plain[0], plain[1], rank)
    elif head == "pair":
        if len(plain) != 1:
            r.fail(n, "pair needs NAME 上射=… 下射=…")
        else:
            r.declare_pair(n, plain[0], dict(kv))
    else:  # an event not of the shape ACTOR ACT [OBJECT] [key=value …] (read above): what is wrong
        rest, _ = _split_kv(words)
        if len(rest) < 2:
            r.fail(n, "an event needs at least an actor and an act: ACTOR ACT [OBJECT] [key=value …]")
        elif len(rest) > 3:
            r.fail(
                n,
                f"too many words before key=value: {' '.join(rest[3:])}",
                "an event is ACTOR ACT [OBJECT] [key=value …]; a recipient is to=…, a place at=…",
            )
        else:
            r.fail(n, "key=value pairs come after ACTOR ACT [OBJECT]")


@gc_paused()
def parse_lines(text: str, path: str = "<trace>", vocab: Vocabulary | None = None) -> Trace:
    """Parse the line format. A statement written as one read before (in this trace or another) is
    not read again when the cast has its persons (`_Seen`): it takes the earlier one's words, as
    `_Reader.event` would."""
    lines = _lines(text)
    r = _Reader(path, vocab or vocabulary(), lines)
    waiting: list[tuple[int, str]] = []  # directives on lines of their own, for the next statement
    numbers, events = r.numbers, r.events
    add_number, add_event = numbers.append, events.append
    phases, persons = r.vocab.phases, r.cast.persons.keys()
    seen = r._seen
    known = seen.bodies  # a statement read before → its person names, its words
    source_of = seen.sources.__getitem__  # a comment → the line of the text it names, or None
    pair_of = seen.pairs.__getitem__  # a word key=value → (key, value); any other word → None
    phase, rnd = None, 0
    for n, raw in enumerate(lines, 1):
        add_number(n)
        cut = raw.find("#")
        body = (raw if cut < 0 else raw[:cut]).strip()
        if cut >= 0 and "xiangshe" in raw and (m := _DIRECTIVE.search(raw, cut)):
            if body:
                r.directives.append(Directive(n, n, m.group(1).strip(), "comment"))
            else:
                waiting.append((n, m.group(1).strip()))
        if not body:
            continue
        if waiting:
            r.directives += [Directive(at, n, text, "comment") for at, text in waiting]
            waiting.clear()
        hit = known.get(body)
        source_line = source_of(raw[cut + 1 :]) if cut >= 0 else None
        if hit is None or not persons >= hit[0]:  # (a statement remembered leaves the cast as it is)
            words = body.split()
            shared = _common_event(words, pair_of)
            if shared is None:  # a declaration, or an event of another shape
                _statement(r, n, words)
                continue
            hit = r.plain(*shared)
            if hit is None:  # the long way
                r.names = None
                count = len(events)
                r.event(n, raw, *shared, source_line)
                if len(events) > count and r.names is not None:
                    e = events[-1]
                    seen.remember_body(body, (r.names, (e.actor, e.act, e.obj, e.attrs, e.obj_token)))
                continue
            if len(known) < _KNOWN_LINES:  # (seen.remember_body, without the call)
                known[body] = hit
        actor, act, obj, attrs, obj_token = hit[1]
        if r.phase is not phase:
            phase = r.phase
            rnd = phases[phase].round if phase else 0
        index = numbers[len(events)]  # the int of an earlier line number (`_Reader.numbers`)
        add_event(Event(index, n, actor, act, obj, attrs, phase, rnd, raw, obj_token, source_line))
    r.directives += [Directive(at, None, text, "comment") for at, text in waiting]
    return r.finish()


_NOT_ATTRIBUTES = frozenset(["actor", "act", "obj", "src"])  # the fields of an event record that are not key=value


def _record(r: _Reader, n: int, rec: dict[str, str], raw: str) -> None:
    """One record of JSON Lines or YAML: an event, or a cast / pair / phase directive."""
    if "ignore" in rec:  # a suppression: "ignore": "R120: reason"
        rec = dict(rec)
        r.directives.append(Directive(n, n, rec.pop("ignore"), "field"))
    if "fragment" in rec:
        r.set_fragment(n, rec["fragment"])
    elif "occasion" in rec:
        spec: object = rec["occasion"]
        rest = {k: v for k, v in rec.items() if k != "occasion"}
        if spec in (True, None, "") and rest:  # flat: {"occasion": "", "presiding": …}
            spec = rest
        elif rest:
            r.fail(
                n, f"an occasion record has its fields inside \"occasion\" or beside it, not both ({', '.join(rest)})"
            )
            return
        r.set_occasion(n, spec if spec not in (True, None) else "")
    elif "phase" in rec:
        r.set_phase(n, rec["phase"])
    elif "cast" in rec:
        if "role" not in rec:
            r.fail(n, "a cast record needs \"role\"")
        else:
            r.declare(n, rec["cast"], rec["role"], rec.get("rank"))
    elif "pair" in rec:
        r.declare_pair(n, rec["pair"], {k: v for k, v in rec.items() if k != "pair"})
    elif "actor" not in rec or "act" not in rec:
        r.fail(n, "an event record needs \"actor\" and \"act\"")
    else:
        attrs = [(k, v) for k, v in rec.items() if k not in _NOT_ATTRIBUTES]
        src = rec.get("src", "")
        r.event(
            n, raw, rec["actor"], rec["act"], rec.get("obj"), attrs, _ascii_number(src[1:]) if src[:1] == "L" else None
        )


class _DuplicateKey(Exception):
    pass


def _no_duplicate_keys(pairs: list[tuple[str, object]]) -> dict[str, object]:
    out = dict(pairs)
    if len(out) != len(pairs):
        seen: set[str] = set()
        for key, _ in pairs:
            if key in seen:
                raise _DuplicateKey(key)
            seen.add(key)
    return out


# one decoder for every line (json.loads with a hook builds a decoder per call)
_JSON = json.JSONDecoder(object_pairs_hook=_no_duplicate_keys)


def parse_jsonl(text: str, path: str = "<trace>", vocab: Vocabulary | None = None) -> Trace:
    """Parse JSON Lines (one JSON object per line). An event line written as one read before (in this
    trace or another) is not read again when the cast has its persons (`_Seen`): it takes the earlier
    one's words (as `_Reader.event` would) and shares its text."""
    return _parse_jsonl(text.encode("utf-8", "surrogatepass"), path, vocab, None)


def parse_jsonl_data(data: bytes | bytearray, path: str = "<trace>", vocab: Vocabulary | None = None) -> Trace:
    """`parse_jsonl(decode(data, path))`, the bytes of a file decoded line by line: a line read before
    is looked up by its bytes and never decoded again. Bytes that are not UTF-8 give `decode`'s error,
    and that one alone, as when the whole file was decoded before any line was read."""
    _not_binary(data, path)
    return _parse_jsonl(_unmarked(data), path, vocab, data)


@gc_paused()
def _parse_jsonl(
    data: bytes | bytearray, path: str, vocab: Vocabulary | None, whole: bytes | bytearray | None
) -> Trace:
    """The JSON Lines of `data`, UTF-8; `whole`: the file's bytes, which `decode` rejects when a line is
    not UTF-8 (None: `data` is text encoded here, its lone surrogates kept, and no line is rejected)."""
    lines: list[str] = []
    r = _Reader(path, vocab or vocabulary(), lines)
    phases, events, persons = r.vocab.phases, r.events, r.cast.persons.keys()
    known = r._seen.lines  # an event line's bytes → its person names, its words, its text
    add_line, add_event = lines.append, events.append
    numbers = r.numbers
    add_number = numbers.append
    n, phase, rnd = 0, None, 0
    for chunk in _line_chunks(data):
        for line in chunk:
            n += 1
            add_number(n)
            hit = known.get(line)
            if hit is not None and persons >= hit[0]:  # a line that is remembered leaves the cast as it is
                _, actor, act, obj, attrs, obj_token, source_line, raw = hit
                add_line(raw)
                if r.phase is not phase:
                    phase = r.phase
                    rnd = phases[phase].round if phase else 0
                index = numbers[len(events)]  # the int of an earlier line number (`_Reader.numbers`)
                add_event(Event(index, n, actor, act, obj, attrs, phase, rnd, raw, obj_token, source_line))
                continue
            try:
                raw, utf8 = line.decode("utf-8"), True
            except UnicodeDecodeError:
                if whole is not None:
                    decode(whole, path)  # raises: the file is not UTF-8 (here first), as decoding it whole says
                raw, utf8 = line.decode("utf-8", "surrogatepass"), False
            add_line(raw)
            count, directives = len(events), len(r.directives)
            r.names = None
            _jsonl_line(r, n, raw)
            if utf8 and len(events) > count and r.names is not None and len(r.directives) == directives:
                if len(known) < _KNOWN_LINES:
                    e = events[-1]
                    known[line] = (r.names, e.actor, e.act, e.obj, e.attrs, e.obj_token, e.source_line, raw)
    return r.finish()


_BREAKS_BYTES = re.compile(rb"\r\n|\r|\n")


def _line_chunks(data: bytes | bytearray, size: int = 1 << 20) -> Iterator[list[bytes]]:
    """The lines of `data` as `_lines` splits text (\\r\\n, \\r or \\n: in UTF-8 these bytes are never part of
    another character), a list for each piece of about `size` bytes (a piece ends after a \\n, so that
    \\r\\n is never cut): a large file is not split all at once."""
    start, end = 0, len(data)
    while start < end:
        cut = data.find(b"\n", start + size)
        stop = end if cut < 0 else cut + 1
        piece = bytes(data[start:stop])
        lines = _BREAKS_BYTES.split(piece) if b"\r" in piece else piece.split(b"\n")
        if lines[-1] == b"":
            lines.pop()
        yield lines
        start = stop


_scan = _JSON.scan_once  # type: ignore[attr-defined]  # the decoder's C scanner (typeshed does not list it)


def _jsonl_line(r: _Reader, n: int, raw: str) -> None:
    """One line of JSON Lines: a record (see `_record`), or its error."""
    if not raw.strip():
        return
    try:
        if raw.startswith("\ufeff"):  # as json.loads: a byte-order mark is not JSON
            raise json.JSONDecodeError("Unexpected UTF-8 BOM (decode using utf-8-sig)", raw, 0)
        try:  # the C scanner alone; anything but one JSON value filling the line is read again by decode
            rec, end = _scan(raw, 0)
        except StopIteration:
            end = -1
        if end != len(raw):
            rec = _JSON.decode(raw)
    except _DuplicateKey as err:
        r.fail(n, f"duplicate key {err.args[0]}")
        return
    except json.JSONDecodeError as err:
        r.fail(n, f"not valid JSON: {err.msg} (column {err.colno})", column=err.colno)
        return
    except RecursionError:
        r.fail(n, "JSON nested too deeply")
        return
    if not isinstance(rec, dict):
        r.fail(n, "each line must be a JSON object")
        return
    bad = [k for k, v in rec.items() if not isinstance(v, str)]
    if bad:
        r.fail(n, f"values must be strings: {', '.join(bad)}")
        return
    _record(r, n, rec, raw)


_PLAIN_TAGS = {
    "tag:yaml.org,2002:str",
    "tag:yaml.org,2002:int",
    "tag:yaml.org,2002:float",
    "tag:yaml.org,2002:bool",
    "tag:yaml.org,2002:null",
}


@gc_paused()
def parse_yaml(text: str, path: str = "<trace>", vocab: Vocabulary | None = None) -> Trace:
    """Parse a YAML trace: a list of the same records as JSON Lines, e.g. `- {actor: 甲, act: 射}`.

    The document is only composed, never constructed: no tag can run code, and every scalar is
    read as the text the user wrote. Duplicate keys are errors, and so are aliases (`*name`): a
    staging never needs them, and they let a few lines stand for billions of nodes.
    """
    import yaml

    lines = _lines(text, _YAML_BREAKS)
    r = _Reader(path, vocab or vocabulary(), lines)
    loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
    try:
        if "*" in text:  # an alias needs one: else no need to look
            alias = next((e for e in yaml.parse(text, Loader=loader) if isinstance(e, yaml.AliasEvent)), None)
            if alias is not None:
                r.fail(
                    alias.start_mark.line + 1,
                    f"YAML aliases (*{alias.anchor}) are not allowed in a "
                    "trace: write each record out (an alias can make a small file stand for a huge one)",
                )
                return r.finish()
        root = yaml.compose(text, Loader=loader)
    except yaml.MarkedYAMLError as err:
        mark = err.problem_mark
        r.fail(mark.line + 1 if mark else 1, f"not valid YAML: {err.problem}", column=mark.column + 1 if mark else None)
        return r.finish()
    except (yaml.YAMLError, RecursionError) as err:
        r.fail(1, f"not valid YAML: {err}")
        return r.finish()
    if root is None:
        return r.finish()
    if not isinstance(root, yaml.SequenceNode):
        r.fail(root.start_mark.line + 1, "a YAML trace is a list of records (- actor: … act: …)")
        return r.finish()
    for item in root.value:
        n = item.start_mark.line + 1
        if item.tag not in _PLAIN_TAGS | {"tag:yaml.org,2002:map", "tag:yaml.org,2002:seq"}:
            r.fail(n, f"tag {item.tag} is not allowed in a trace")
            continue
        if not isinstance(item, yaml.MappingNode):
            r.fail(n, "each record is a mapping (actor: …, act: …)")
            continue
        rec: dict[str, str] = {}
        ok = True
        for key, value in item.value:
            if not isinstance(key, yaml.ScalarNode) or not isinstance(value, yaml.ScalarNode):
                r.fail(key.start_mark.line + 1, "keys and values must be plain words")
                ok = False
                break
            if value.tag not in _PLAIN_TAGS or key.tag not in _PLAIN_TAGS:
                r.fail(value.start_mark.line + 1, f"tag {value.tag} is not allowed in a trace")
                ok = False
                break
            if key.value in rec:
                r.fail(key.start_mark.line + 1, f"duplicate key {key.value}")
                ok = False
                break
            rec[key.value] = value.value
        if ok:
            _record(r, n, rec, lines[n - 1] if n <= len(lines) else "")
    return r.finish()


_WHITESPACE = re.compile(r"[ \t\n\r]*")  # JSON's whitespace


class _JSONStop(Exception):
    """The JSON document cannot be read further (the error is reported)."""


class _JSONDocument:
    """A JSON trace read record by record, each record key by key, so that every record, every
    duplicate key and every syntax error is located on its line. The values (and the words of the
    syntax) are read by the json module: only the framing of the array and its objects is here."""

    def __init__(self, text: str, r: _Reader) -> None:
        self.text, self.r = text, r
        self.starts = [0] + [m.end() for m in _BREAKS.finditer(text)]

    def line(self, pos: int) -> int:
        """The line of a position; the end of the text is on the last line."""
        return min(bisect.bisect_right(self.starts, pos), max(len(self.r.lines), 1))

    def skip(self, pos: int) -> int:
        space = _WHITESPACE.match(self.text, pos)
        assert space is not None  # [ \t\n\r]* matches everywhere
        return space.end()

    def at(self, pos: int) -> str:
        return self.text[pos : pos + 1]

    def fail(self, pos: int, message: str) -> _JSONStop:
        self.r.fail(self.line(pos), message)
        return _JSONStop()

    def syntax(self, pos: int, message: str) -> _JSONStop:
        column = pos - self.starts[self.line(pos) - 1] + 1
        return self.fail(pos, f"not valid JSON: {message} (column {column})")

    def value(self, pos: int) -> tuple[object, int]:
        try:
            return _JSON.raw_decode(self.text, pos)
        except json.JSONDecodeError as err:
            raise self.syntax(err.pos, err.msg) from None
        except _DuplicateKey as err:
            raise self.fail(pos, f"duplicate key {err.args[0]}") from None
        except RecursionError:
            raise self.fail(pos, "JSON nested too deeply") from None

    def records(self) -> None:
        i = self.skip(0)
        if i == len(self.text):
            return  # empty: "the trace has no events"
        if self.at(i) != "[":
            found, _ = self.value(i)  # not JSON at all, or JSON but not an array
            self.r.fail(
                self.line(i),
                'a JSON trace is an array of records: [{"actor": …, "act": …}, …]',
                "one JSON object per line is JSON Lines: name the file .jsonl" if isinstance(found, dict) else None,
            )
            raise _JSONStop()
        i = self.skip(i + 1)
        if self.at(i) == "]":
            i += 1
        else:
            while True:
                i = self.skip(self.record(i))
                if self.at(i) == ",":
                    i = self.skip(i + 1)
                elif self.at(i) == "]":
                    i += 1
                    break
                else:
                    raise self.syntax(i, "Expecting ',' delimiter")
        i = self.skip(i)
        if i != len(self.text):
            raise self.syntax(i, "Extra data")

    def record(self, start: int) -> int:
        """Read the record at `start` (reporting what is wrong with it); return where it ends."""
        if self.at(start) != "{":
            _, end = self.value(start)
            self.r.fail(self.line(start), "each record is a JSON object")
            return end
        rec: dict[str, object] = {}
        first, ok = None, True
        i = self.skip(start + 1)
        if self.at(i) == "}":
            i += 1
        else:
            while True:
                if self.at(i) != '"':
                    raise self.syntax(i, "Expecting property name enclosed in double quotes")
                key_at = i
                try:
                    key, i = json.decoder.scanstring(self.text, i + 1)  # type: ignore[attr-defined]  # public, not in typeshed
                except json.JSONDecodeError as err:
                    raise self.syntax(err.pos, err.msg) from None
                first = key_at if first is None else first
                i = self.skip(i)
                if self.at(i) != ":":
                    raise self.syntax(i, "Expecting ':' delimiter")
                at = self.skip(i + 1)
                value, i = self.value(at)
                if isinstance(value, (int, float)) and not isinstance(value, bool):
                    value = self.text[at:i]  # a number as written, as YAML reads it
                if key in rec and ok:
                    self.r.fail(self.line(key_at), f"duplicate key {key}")
                    ok = False
                rec[key] = value
                i = self.skip(i)
                if self.at(i) == ",":
                    i = self.skip(i + 1)
                elif self.at(i) == "}":
                    i += 1
                    break
                else:
                    raise self.syntax(i, "Expecting ',' delimiter")
        n = self.line(first if first is not None else start)  # a record is at its first key
        bad = [k for k, v in rec.items() if not isinstance(v, str)]
        if ok and bad:
            self.r.fail(n, f"values must be strings or numbers: {', '.join(bad)}")
        elif ok:
            lines = self.r.lines
            _record(self.r, n, rec, lines[n - 1] if n <= len(lines) else "")  # type: ignore[arg-type]
        return i


@gc_paused()
def parse_json(text: str, path: str = "<trace>", vocab: Vocabulary | None = None) -> Trace:
    """Parse a JSON trace: an array of the same records as JSON Lines and YAML, e.g.
    `[{"cast": "甲", "role": "弟子"}, {"actor": "甲", "act": "射", "obj": "矢", "arrow": 1}]`.
    As in YAML (and as the trace schema allows), a number is read as written (`1` is "1"); any
    other value that is not a string is an error. A record is located at its first key; duplicate
    keys are errors."""
    lines = _lines(text)
    r = _Reader(path, vocab or vocabulary(), lines)
    try:
        _JSONDocument(text, r).records()
    except _JSONStop:
        pass
    return r.finish()


#: the readers by format name (`--stdin-format`, and sources.SUFFIXES maps file suffixes to these)
READERS = {"trace": parse_lines, "jsonl": parse_jsonl, "json": parse_json, "yaml": parse_yaml}


def parse_file(
    path: Path, display: str | None = None, vocab: Vocabulary | None = None, limit: int = MAX_BYTES
) -> Trace:
    """Parse a trace file by its suffix (see domain/sources.py): `.trace`, `.jsonl`, `.json`,
    `.yaml`, `.yml`, in any letter case; any other suffix is an input error. A file over `limit`
    bytes is an input error too."""
    from xiangshe.domain.sources import parse_path

    return parse_path(path, display, vocab, limit)


def event_record(e: Event) -> dict[str, str]:
    """An event as a JSON Lines record."""
    rec = {"actor": e.actor, "act": e.act}
    if e.obj_token is not None:
        rec["obj"] = e.obj_token
    rec.update(dict(e.attrs))
    if e.source_line is not None:
        rec["src"] = f"L{e.source_line}"
    return rec


def to_jsonl(trace: Trace) -> str:
    """The trace as JSON Lines: its fragment declaration, cast, pairs, then events with phase
    records where the phase changes."""
    out: list[dict] = []
    if trace.fragment is not None:
        out.append({"fragment": phase_span(trace.fragment.phases) if trace.fragment.phases else ""})
    if trace.cast.occasion is not None:
        out.append({"occasion": trace.cast.occasion.header().removeprefix("occasion").strip()})
    for p in trace.cast.persons.values():
        if p.line is not None:
            out.append({"cast": p.name, "role": p.role} | ({"rank": p.rank} if p.rank else {}))
    for pair in trace.cast.pairs.values():
        out.append({"pair": pair.name, "上射": pair.upper, "下射": pair.lower})
    phase = None
    for e in trace.events:
        if e.phase != phase and e.phase is not None:
            out.append({"phase": e.phase})
            phase = e.phase
        out.append(event_record(e))
    return "".join(json.dumps(r, ensure_ascii=False) + "\n" for r in out)


def to_lines(trace: Trace) -> str:
    """The trace in the line format."""
    out = []
    if trace.fragment is not None:
        out.append("fragment" + (f" {phase_span(trace.fragment.phases)}" if trace.fragment.phases else ""))
    if trace.cast.occasion is not None:
        out.append(trace.cast.occasion.header())
    for p in trace.cast.persons.values():
        if p.line is not None:
            out.append(f"cast {p.name} {p.role}" + (f" rank={p.rank}" if p.rank else ""))
    for pair in trace.cast.pairs.values():
        out.append(f"pair {pair.name} 上射={pair.upper} 下射={pair.lower}")
    phase = None
    for e in trace.events:
        if e.phase != phase and e.phase is not None:
            out.append(f"phase {e.phase}")
            phase = e.phase
        out.append(e.render() + (f"    # L{e.source_line}" if e.source_line else ""))
    return "\n".join(out) + "\n"
