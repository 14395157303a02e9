"""The controlled vocabulary of traces: roles, objects, places, acts, attributes and phases.

All of it is data in `vocabulary.toml`, in the text's own characters, each entry with an ASCII
slug and an English gloss. Everything else (parsers, machines, rules) looks words up here.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path

from domain.errors import RulebookError

VOCABULARY_PATH = Path(__file__).with_name("vocabulary.toml")

#: event keys whose values are persons, places, or closed attribute values
PERSON_KEYS = ("to", "for")
PLACE_KEYS = ("at",)


@dataclass(frozen=True)
class Term:
    """A word of the vocabulary: a place, an act, or the base of a role or object kind."""

    name: str
    slug: str
    gloss: str
    quote: str | None = None


@dataclass(frozen=True)
class Role(Term):
    single: bool = False
    rank: str | None = None
    aliases: tuple[str, ...] = ()


@dataclass(frozen=True)
class ObjectKind(Term):
    instances: int = 1
    personal: bool = False


@dataclass(frozen=True)
class Attribute:
    key: str
    gloss: str
    values: tuple[str, ...]


@dataclass(frozen=True)
class Phase:
    id: str
    name: str
    round: int
    paragraph: str
    order: int


@dataclass
class Vocabulary:
    ranks: tuple[str, ...]
    roles: dict[str, Role]
    objects: dict[str, ObjectKind]
    places: dict[str, Term]
    acts: dict[str, Term]
    attributes: dict[str, Attribute]
    phases: dict[str, Phase]
    role_alias: dict[str, str] = field(default_factory=dict)

    def __post_init__(self) -> None:
        for role in self.roles.values():
            for alias in role.aliases:
                self.role_alias[alias] = role.name

    def canonical_role(self, name: str) -> str | None:
        if name in self.roles:
            return name
        return self.role_alias.get(name)

    def object_kind(self, token: str) -> tuple[ObjectKind, str] | None:
        """Split an object token such as 爵2 into its kind and its instance suffix."""
        for n in range(len(token), 0, -1):
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
        if slug in slugs:
            raise RulebookError(path, None,
                                f"slug {slug!r} of [{section}.{name}] is also the slug of {slugs[slug]}")
        slugs[slug] = name
        if "aliases" in entry:
            entry["aliases"] = tuple(entry["aliases"])
        try:
            out[name] = cls(name=name, slug=slug, gloss=gloss, **entry)
        except TypeError as err:
            raise RulebookError(path, None, f"[{section}.{name}]: {err}") from None
    return out


def load_vocabulary(path: Path = VOCABULARY_PATH) -> Vocabulary:
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
        key: Attribute(key, a.get("gloss", ""), tuple(str(v) for v in a["values"]))
        for key, a in data.get("attributes", {}).items()
    }
    vocab = Vocabulary(
        ranks=tuple(data["ranks"]["order"]),
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
    return load_vocabulary()
