"""The controlled vocabulary of traces: roles, objects, places, acts, attributes and phases.

All of it is data in `vocabulary.toml`, in the text's own characters, each entry with an ASCII
slug and an English gloss. Everything else (parsers, machines, rules) looks words up here.

A word of a trace resolves (`Vocabulary.resolve`) as written; else folded to the vocabulary's
characters (traditional, variant and Japanese forms: `domain.script.fold`); else as an alias: the
entry's pinyin slug or its English alias (`en`), case-insensitive.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import field
from functools import cache, cached_property
from pathlib import Path

from xiangshe.domain.dataclass import dataclass
from xiangshe.domain.errors import RulebookError, did_you_mean
from xiangshe.domain.messages import Message

VOCABULARY_PATH = Path(__file__).with_name("vocabulary.toml")

#: event keys whose values are persons, places, or closed attribute values
PERSON_KEYS = ("to", "for")
PLACE_KEYS = ("at",)
_DIGITS = re.compile(r"\d*")
#: the highest instance number of a numbered object kind (爵1 … 爵9999): a kind whose `instances`
#: is above 1 takes any number up to this (a staging may need more 觯 than the canonical); its
#: `instances` is what the canonical uses and a search enumerates
MAX_INSTANCE = 9999


def split_number(word: str) -> tuple[str, str]:
    """A word as what comes before its trailing digits and the digits (any length of word: the
    digits are found from the end).

    >>> split_number("众宾12"), split_number("jue-cup-2"), split_number("宾")
    (('众宾', '12'), ('jue-cup-', '2'), ('宾', ''))
    """
    digits = _DIGITS.match(word[::-1])
    assert digits is not None  # \d* matches at the start of every string
    n = digits.end()
    return word[: len(word) - n], word[len(word) - n :]


@dataclass(frozen=True)
class Term:
    """A word of the vocabulary: a place, an act, or the base of a role or object kind."""

    name: str
    slug: str
    gloss: str
    quote: str | None = None
    en: str | None = None


@dataclass(frozen=True)
class Role(Term):
    """A role (主人, 宾, 众宾 …): whether one person holds it, its rank, its other names."""

    single: bool = False
    rank: str | None = None
    aliases: tuple[str, ...] = ()
    kind_of: str | None = None  # an office held by one of another role (大师: one of the 工)


@dataclass(frozen=True)
class ObjectKind(Term):
    """A kind of object (爵, 觯, 弓 …): how many instances it has, and whether each person has his own."""

    instances: int = 1
    personal: bool = False


@dataclass(frozen=True)
class Attribute:
    """An event key (arrow=, result= …): its gloss and the values it takes (or a count)."""

    key: str
    gloss: str
    values: tuple[str, ...]
    aliases: dict[str, str] = field(default_factory=dict, compare=False)  # slug / en → value
    #: a count: any whole number ≥ 0, in ASCII digits or Chinese numerals (domain/numerals.py),
    #: read as its ASCII digits; `values` is then empty
    count: bool = False


@dataclass(frozen=True)
class Phase:
    """A phase of the ceremony (Φ01 …): its name, its round of shooting, its paragraph and its place in order."""

    id: str
    name: str
    round: int
    paragraph: str
    order: int


@dataclass
class Vocabulary:
    """The words a trace may use (domain/vocabulary.toml): ranks, roles, objects, places, acts, keys and phases."""

    ranks: tuple[str, ...]
    roles: dict[str, Role]
    objects: dict[str, ObjectKind]
    places: dict[str, Term]
    acts: dict[str, Term]
    attributes: dict[str, Attribute]
    phases: dict[str, Phase]
    role_alias: dict[str, str] = field(default_factory=dict)
    rank_aliases: dict[str, str] = field(default_factory=dict)
    #: per section (roles, objects, places, acts, ranks, attr:KEY): lower-cased slug / en → key
    ascii_aliases: dict[str, dict[str, str]] = field(default_factory=dict)
    #: every character of every key: a word made only of these needs no folding
    chars: frozenset[str] = frozenset()

    def __post_init__(self) -> None:
        for role in self.roles.values():
            for alias in role.aliases:
                self.role_alias[alias] = role.name
        for section in ("roles", "objects", "places", "acts"):
            table = self.ascii_aliases.setdefault(section, {})
            for term in getattr(self, section).values():
                for alias in (term.slug, term.en):
                    if alias:
                        table[alias.lower()] = term.name
        self.ascii_aliases["ranks"] = {k.lower(): v for k, v in self.rank_aliases.items()}
        for attr in self.attributes.values():
            self.ascii_aliases[f"attr:{attr.key}"] = {k.lower(): v for k, v in attr.aliases.items()}
        words = [*self.roles, *self.role_alias, *self.objects, *self.places, *self.acts, *self.ranks]
        words += [v for a in self.attributes.values() for v in a.values]
        self.chars = frozenset("".join(words))

    # -- resolution of the words of a trace ----------------------------------------------------
    def _exact(self, section: str, word: str) -> str | None:
        if section == "roles":
            return self.canonical_role(word)
        if section == "ranks":
            return word if word in self.ranks else None
        if section.startswith("attr:"):
            attr = self.attributes[section[5:]]
            if attr.count:
                from xiangshe.domain.numerals import read_count

                n = read_count(word)
                return None if n is None else str(n)
            return word if word in attr.values else None
        return word if word in getattr(self, section) else None

    def fold(self, word: str) -> str:
        """The word in the vocabulary's characters (OpenCC is loaded only if some character is
        not one of the vocabulary's)."""
        if word.isascii() or all(c.isascii() for c in set(word).difference(self.chars)):
            return word
        from xiangshe.domain.script import fold

        return fold(word)

    def resolve(self, section: str, word: str) -> str | None:
        """The key that `word` names in `section` (roles, objects, places, acts, ranks, attr:KEY):
        as written, folded (traditional and variant characters), or by its slug or English alias."""
        found = self._exact(section, word)
        if found is not None:
            return found
        folded = self.fold(word)
        if folded != word:
            found = self._exact(section, folded)
            if found is not None:
                return found
        return self.ascii_aliases.get(section, {}).get(folded.lower())

    def suggest(self, section: str, word: str, choices: Iterable[str]) -> str:
        """A "did you mean" for an unknown word: among the slugs and English aliases if it is ASCII,
        else among `choices`, shown in traditional characters if the user wrote traditional."""
        aliases = self.ascii_aliases.get(section)
        if word.isascii() and aliases:
            return did_you_mean(word.lower(), aliases)
        folded = self.fold(word)
        hint = did_you_mean(folded, choices)
        if folded != word:
            from xiangshe.domain.script import to_traditional

            hint = (  # the words suggested, not the sentence: a Message keeps its id
                Message(hint.name, **{k: to_traditional(str(v)) for k, v in hint.params.items()})
                if isinstance(hint, Message)
                else to_traditional(hint)
            )
        return hint

    def resolve_object(self, token: str) -> tuple[ObjectKind, str] | None:
        """An object token (爵2, 觶2, jue2, jue-cup-2) as its kind and instance suffix."""
        found = self.object_kind(token)
        if found is not None:
            return found
        folded = self.fold(token)
        found = self.object_kind(folded) if folded != token else None
        if found is not None:
            return found
        head, digits = split_number(folded)  # an alias with an instance number: jue-cup2, jue-cup-2
        name = self.ascii_aliases["objects"].get(head.removesuffix("-").lower())
        return (self.objects[name], digits) if name else None

    @cached_property
    def plain_pairs(self) -> frozenset[tuple[str, str]]:
        """The key=value pairs of an event that name a place or a closed value in the vocabulary's own
        words (not a person's key: PERSON_KEYS; not a count, whose numerals `resolve` reads), as
        (key, value): what `resolve` gives back as written, with no alias nor other script. A
        reader's first look-up (domain/parse.py `_Reader.plain`); any other pair goes the long way."""
        pairs = {(key, place) for key in PLACE_KEYS for place in self.places}
        for key, attr in self.attributes.items():
            if key not in PLACE_KEYS and key not in PERSON_KEYS and not attr.count:
                pairs.update((key, value) for value in attr.values)
        return frozenset(pairs)

    @cached_property
    def _longest_object(self) -> int:
        return max(map(len, self.objects), default=0)

    def canonical_role(self, name: str) -> str | None:
        if name in self.roles:
            return name
        return self.role_alias.get(name)

    def role_family(self, role: str) -> frozenset[str]:
        """A role and the offices held by one of its persons (工 → 工, 大师): what a rule's 工 names."""
        return frozenset([role, *(r for r, t in self.roles.items() if t.kind_of == role)])

    def object_kind(self, token: str) -> tuple[ObjectKind, str] | None:
        """Split an object token such as 爵2 into its kind and its instance suffix (the longest kind
        that begins it: no longer than the longest name of an object, however long the token)."""
        for n in range(min(len(token), self._longest_object), 0, -1):
            kind = self.objects.get(token[:n])
            if kind is not None:
                return kind, token[n:]
        return None

    @property
    def event_keys(self) -> tuple[str, ...]:
        return (*PERSON_KEYS, *PLACE_KEYS, *self.attributes)


def _terms(table: dict, cls: type, path: str, section: str) -> dict:
    out = {}
    slugs: dict[str, str] = {}
    for name, entry in table.items():
        entry = dict(entry)
        slug = entry.pop("slug", None)
        gloss = entry.pop("gloss", "")
        if not slug or not slug.isascii():
            raise RulebookError(path, None, f"[{section}.{name}] needs an ASCII slug")
        en = entry.get("en")
        if en is not None and (not en.isascii() or not en or " " in en):
            raise RulebookError(path, None, f"[{section}.{name}] en must be one ASCII word (hyphens join)")
        for alias in (slug, en):
            if alias is None:
                continue
            if alias.lower() in slugs:
                raise RulebookError(
                    path,
                    None,
                    f"alias {alias!r} of [{section}.{name}] is also an alias (slug or en) of {slugs[alias.lower()]}",
                )
            slugs[alias.lower()] = name
        if "aliases" in entry:
            entry["aliases"] = tuple(entry["aliases"])
        try:
            out[name] = cls(name=name, slug=slug, gloss=gloss, **entry)
        except TypeError as err:
            raise RulebookError(path, None, f"[{section}.{name}]: {err}") from None
    return out


def _value_aliases(table: dict, values: list, path: str, section: str) -> dict[str, str]:
    """`slugs` and `en`: lists of ASCII aliases of `values`, in the same order."""
    out: dict[str, str] = {}
    for kind in ("slugs", "en"):
        aliases = table.get(kind)
        if aliases is None:
            continue
        if len(aliases) != len(values):
            raise RulebookError(path, None, f"[{section}] {kind} has {len(aliases)} entries for {len(values)} values")
        for alias, value in zip(aliases, values, strict=True):
            key = str(alias).lower()
            if not key.isascii() or out.get(key, str(value)) != str(value):
                raise RulebookError(
                    path,
                    None,
                    f"[{section}] alias {alias!r} is not ASCII or names two values ({out.get(key)}, {value})",
                )
            out[key] = str(value)
    return out


def load_vocabulary(path: Path = VOCABULARY_PATH) -> Vocabulary:
    import tomllib  # only when a source is read: the cache (domain/cache.py) spares the import

    where = str(path)
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except tomllib.TOMLDecodeError as err:
        raise RulebookError(where, None, f"not valid TOML: {err}") from None
    phases = {
        pid: Phase(pid, p["name"], int(p.get("round", 0)), p.get("paragraph", ""), order)
        for order, (pid, p) in enumerate(sorted(data.get("phases", {}).items()), 1)
    }
    attributes = {
        key: Attribute(
            key,
            a.get("gloss", ""),
            tuple(str(v) for v in a.get("values", ())),
            _value_aliases(a, a.get("values", ()), where, f"attributes.{key}"),
            bool(a.get("count", False)),
        )
        for key, a in data.get("attributes", {}).items()
    }
    vocab = Vocabulary(
        ranks=tuple(data["ranks"]["order"]),
        rank_aliases=_value_aliases(data["ranks"], data["ranks"]["order"], where, "ranks"),
        roles=_terms(data.get("roles", {}), Role, where, "roles"),
        objects=_terms(data.get("objects", {}), ObjectKind, where, "objects"),
        places=_terms(data.get("places", {}), Term, where, "places"),
        acts=_terms(data.get("acts", {}), Term, where, "acts"),
        attributes=attributes,
        phases=phases,
    )
    for role in vocab.roles.values():
        if role.rank is not None and role.rank not in vocab.ranks:
            raise RulebookError(where, None, f"[roles.{role.name}] has unknown rank {role.rank!r}")
    return vocab


@cache
def vocabulary() -> Vocabulary:
    """The package's vocabulary, from the cache of derived artefacts when it is there (domain/cache.py)."""
    from xiangshe.domain.cache import derived

    return derived("vocabulary", (), load_vocabulary)
