"""The JSON Schema of trace files in their record form (YAML, JSON, or one JSON Lines record), generated
from the vocabulary: every role, object, place, act, attribute value and phase is an enum with its
English gloss and slug as the description, so editors complete and validate traces. The ASCII
aliases xiangshe also reads (each word's pinyin slug and English alias: `shi-huo`, `release-tally`)
are in the enums too, described as the word they stand for; traditional characters, which xiangshe
folds, and other letter cases are not.

The committed copy is `schemas/trace.schema.json`; a test keeps it equal to what this module
generates. After changing `domain/vocabulary.toml`, regenerate it:

    python -m xiangshe.domain.schema --write

What the schema cannot know: whether a person named in an event was declared (`cast`), and whether
an act is one the object's machine knows. `xiangshe check` says so, located, with "did you mean".
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

from xiangshe.domain.vocabulary import MAX_INSTANCE, PERSON_KEYS, PLACE_KEYS, Term, Vocabulary, vocabulary

SCHEMA_PATH = Path(__file__).resolve().parents[1] / "schemas" / "trace.schema.json"
DIALECT = "http://json-schema.org/draft-07/schema#"  # what editors implement fully
SCHEMA_ID = "urn:xiangshe:schema:trace"


def _describe(term: Term) -> str:
    return f"{term.gloss} ({term.slug})" if term.gloss else term.slug


def _enum(names: list[str], descriptions: list[str], title: str) -> dict:
    """An enum with per-value descriptions (`enumDescriptions`: shown by VS Code and the YAML
    language server when completing; ignored by validators)."""
    return {"title": title, "type": "string", "enum": names, "enumDescriptions": descriptions}


def _terms(terms, title: str, extra=None) -> dict:
    """An enum of vocabulary terms, then their ASCII aliases (slug, English), each described."""
    names, descriptions = [], []
    for t in terms:
        names.append(t.name)
        descriptions.append(extra(t) if extra else _describe(t))
    for t in terms:
        for alias in (t.slug, t.en):
            if alias and alias not in names:
                names.append(alias)
                descriptions.append(f"= {t.name}: {t.gloss}")
    return _enum(names, descriptions, title)


#: the characters that are syntax in an ECMA-262 regular expression: JSON Schema's `pattern` is
#: ECMA-262 with the `u` flag, where escaping anything else (`\-`, `\#`, `\ `, as Python's
#: `re.escape` does) is a syntax error
_ECMA_SYNTAX = frozenset("^$\\.*+?()[]{}|/")


def ecma_escape(word: str) -> str:
    """`word` as a literal in an ECMA-262 unicode-mode regular expression (and in Python's `re`).

    >>> ecma_escape("shi-huo.zhe(2)")
    'shi-huo\\\\.zhe\\\\(2\\\\)'
    """
    return "".join("\\" + c if c in _ECMA_SYNTAX else c for c in word)


def _alternation(words) -> str:
    return "|".join(ecma_escape(w) for w in sorted(words, key=lambda w: (-len(w), w)))


def _person(v: Vocabulary) -> dict:
    words = {
        **{r.name: _describe(r) for r in v.roles.values()},
        **{alias: f"{_describe(v.roles[name])}; another name of {name}" for alias, name in v.role_alias.items()},
        **{a: f"= {r.name}: {r.gloss}" for r in v.roles.values() for a in (r.slug, r.en) if a},
    }
    reserved = sorted({*v.acts, *v.objects})
    return {
        "title": "a person",
        "description": "a role that has one person in the ceremony (主人, 宾, 司射 …), a role and a "
        "number (众宾2, 弟子5), or a name declared with a cast record",
        "anyOf": [
            _enum(list(words), list(words.values()), "a role naming its one person"),
            {"title": "a role and a number", "type": "string", "pattern": f"^(?:{_alternation(words)})-?[1-9][0-9]*$"},
            {
                "title": "a name declared with a cast record",
                "type": "string",
                "pattern": r"^[^\s=#]+$",
                "not": {"enum": reserved},
            },
        ],
    }


def _object(v: Vocabulary) -> dict:
    kinds = list(v.objects.values())
    numbered = [k for k in kinds if k.instances > 1 and not k.personal]
    return {
        "title": "an object",
        "description": "an object kind, optionally with its instance number (爵, 爵2, 觯3); 弓 and 矢 "
        "are personal and take no number",
        "anyOf": [
            _terms(
                kinds,
                "an object kind",
                lambda k: (
                    _describe(k)
                    + (
                        f"; numbered 1–{MAX_INSTANCE}"
                        if k.instances > 1 and not k.personal
                        else "; personal"
                        if k.personal
                        else ""
                    )
                ),
            ),
            *(
                {
                    "title": f"{k.name} 1–{MAX_INSTANCE}",
                    "type": "string",
                    "pattern": f"^(?:{ecma_escape(k.name)}|(?:{_alternation(a for a in (k.slug, k.en) if a)})-?)"
                    f"(?:[1-9][0-9]{{0,{len(str(MAX_INSTANCE)) - 1}}})$",
                }
                for k in numbered
            ),
        ],
    }


def _attribute_value(values: tuple[str, ...], gloss: str, aliases: dict[str, str]) -> dict:
    """An attribute's closed set of values; numbers may be written bare in YAML (`arrow: 1`)."""
    enum: list = list(values)
    enum += [int(x) for x in values if x.isdigit()]
    return {
        "description": gloss,
        "enum": enum + list(aliases),
        "enumDescriptions": [gloss] * len(values)
        + [f"{x}" for x in values if x.isdigit()]
        + [f"= {value}" for value in aliases.values()],
    }


def _count_value(gloss: str) -> dict:
    """A count: a whole number, in ASCII digits (bare in YAML and JSON: `chun: 3`) or Chinese
    numerals as the text writes them (三, 十一, 一百零一; domain/numerals.py reads them)."""
    from xiangshe.domain.numerals import CHARS

    chars = "".join(sorted(CHARS))
    return {
        "description": gloss,
        "oneOf": [{"type": "integer", "minimum": 0}, {"type": "string", "pattern": f"^(?:[0-9]+|[{chars}]+)$"}],
    }


#: a record's inline suppression (constraints/suppress.py)
IGNORE = {
    "type": "string",
    "pattern": "^[^:：]*[^\\s:：][^:：]*[:：]\\s*\\S",
    "description": "an inline suppression with its reason, \"RULE, …: reason\": the findings of "
    "these checks at this record are not violations (xiangshe check lists them as "
    "suppressed)",
}


def _occasion() -> dict:
    """The `occasion` record: its fields as one string (`"presiding=州长 zhong=鹿中"`, bare values
    allowed) or beside it (`{"occasion": "", "presiding": "州长"}`), each field an enum of its values
    and their other written forms (domain/occasion.py)."""
    from xiangshe.domain.occasion import occasion_fields

    fields = occasion_fields()
    words = {k: [*f.values, *f.aliases] for k, f in fields.items()}
    word = "|".join(
        [f"(?:{ecma_escape(k)})=(?:{_alternation(ws)})" for k, ws in words.items()]
        + [_alternation({w for ws in words.values() for w in ws})]
    )
    props: dict = {
        "occasion": {
            "type": "string",
            "pattern": f"^\\s*(?:(?:{word})(?:\\s+|$))*$",
            "description": "the occasion's fields, key=value or a bare value, e.g. presiding=州长 venue=序 "
            "zhong=鹿中; empty when the fields stand beside it; what is left out takes the "
            "default (the 州长 in his 序: docs/trace-format.md)",
        }
    }
    for k, f in fields.items():
        props[k] = _enum(
            [*f.values, *f.aliases],
            [f.gloss] * len(f.values) + [f"= {value}" for value in f.aliases.values()],
            f"occasion: {k}",
        )
    props["ignore"] = IGNORE
    return {
        "title": "the occasion: presiding officer, venue, site, 侯, 中, 旌, the ruler's presence",
        "type": "object",
        "required": ["occasion"],
        "properties": props,
        "additionalProperties": False,
    }


def trace_schema(v: Vocabulary | None = None) -> dict:
    """The schema: a trace is a list of records (cast, pair, phase, event)."""
    v = v or vocabulary()
    places = _terms(v.places.values(), "a place")
    event_props: dict = {
        "actor": {"$ref": "#/definitions/person", "description": "who acts"},
        "act": _terms(v.acts.values(), "an act"),
        "obj": {"$ref": "#/definitions/object"},
    }
    for key in PERSON_KEYS:
        event_props[key] = {
            "$ref": "#/definitions/person",
            "description": {"to": "the person addressed or served", "for": "the person credited (a tally)"}.get(
                key, key
            ),
        }
    for key in PLACE_KEYS:
        event_props[key] = {"$ref": "#/definitions/place"}
    for key, attr in v.attributes.items():
        event_props[key] = (
            _count_value(attr.gloss) if attr.count else _attribute_value(attr.values, attr.gloss, attr.aliases)
        )
    event_props["src"] = {
        "type": "string",
        "pattern": r"^L[1-9][0-9]*$",
        "description": "the line of xiangsheli.txt the event enacts (L14)",
    }
    event_props["ignore"] = IGNORE
    phases = list(v.phases.values())
    return {
        "$schema": DIALECT,
        "$id": SCHEMA_ID,
        "title": "xiangshe trace",
        "description": "A staging of 《仪礼·乡射礼》 as a list of records: "
        "fragment, occasion, cast, pair, phase and events "
        "(a YAML trace, a JSON trace, or the lines of a JSON Lines trace as an array). "
        "Generated from the vocabulary by `python -m xiangshe.domain.schema --write`.",
        "type": "array",
        "items": {"$ref": "#/definitions/record"},
        "definitions": {
            "record": {
                "anyOf": [
                    {"$ref": "#/definitions/event"},
                    {"$ref": "#/definitions/phase"},
                    {"$ref": "#/definitions/fragment"},
                    {"$ref": "#/definitions/occasion"},
                    {"$ref": "#/definitions/cast"},
                    {"$ref": "#/definitions/pair"},
                ]
            },
            "event": {
                "title": "an event: ACTOR ACT [OBJECT] [key=value …]",
                "type": "object",
                "required": ["actor", "act"],
                "properties": event_props,
                "additionalProperties": False,
            },
            "phase": {
                "title": "the phase of the following events",
                "type": "object",
                "required": ["phase"],
                "properties": {
                    "phase": _enum(
                        [p.id for p in phases],
                        [f"{p.name} ({p.paragraph}" + (f", round {p.round})" if p.round else ")") for p in phases],
                        "a phase Φ01–Φ52",
                    ),
                    "ignore": IGNORE,
                },
                "additionalProperties": False,
            },
            "fragment": {
                "title": "the trace is a part of the ceremony, not the whole: the phases it covers",
                "type": "object",
                "required": ["fragment"],
                "properties": {
                    "fragment": {
                        "type": "string",
                        "pattern": "^(|\\s*Φ\\d\\d(\\s*(–|—|-|\\.\\.|~)\\s*Φ\\d\\d)?"
                        "(\\s*[,，、\\s]\\s*Φ\\d\\d(\\s*(–|—|-|\\.\\.|~)\\s*Φ\\d\\d)?)*\\s*)$",
                        "description": "phases or spans of phases, e.g. Φ21–Φ22 or Φ03–Φ07, Φ21; "
                        "empty: a part whose phases are not named",
                    },
                    "ignore": IGNORE,
                },
                "additionalProperties": False,
            },
            "occasion": _occasion(),
            "cast": {
                "title": "a person declared: NAME ROLE [rank]",
                "type": "object",
                "required": ["cast", "role"],
                "properties": {
                    "cast": {
                        "type": "string",
                        "pattern": r"^[^\s=#]+$",
                        "not": {"enum": sorted({*v.acts, *v.objects})},
                        "description": "the person's name (any word but a word of the vocabulary)",
                    },
                    "role": _person(v)["anyOf"][0] | {"title": "a role"},
                    "rank": _enum(
                        [*v.ranks, *v.rank_aliases],
                        [f"rank {r}" for r in v.ranks] + [f"= {r}" for r in v.rank_aliases.values()],
                        "a rank",
                    ),
                    "ignore": IGNORE,
                },
                "additionalProperties": False,
            },
            "pair": {
                "title": "a pair (耦): who is the 上射 and who the 下射",
                "type": "object",
                "required": ["pair", "上射", "下射"],
                "properties": {
                    "pair": {"type": "string", "description": "the pair's name (上耦, 次耦 …)"},
                    "上射": {"$ref": "#/definitions/person"},
                    "下射": {"$ref": "#/definitions/person"},
                    "ignore": IGNORE,
                },
                "additionalProperties": False,
            },
            "person": _person(v),
            "object": _object(v),
            "place": places,
        },
    }


def render(schema: dict) -> str:
    return json.dumps(schema, ensure_ascii=False, indent=2) + "\n"


def main(argv: list[str]) -> int:
    text = render(trace_schema())
    if argv[1:] == ["--write"]:
        SCHEMA_PATH.write_text(text, encoding="utf-8")
        print(f"wrote {SCHEMA_PATH.name}", file=sys.stderr)
    elif argv[1:]:
        print("usage: python -m xiangshe.domain.schema [--write]", file=sys.stderr)
        return 2
    else:
        sys.stdout.write(text)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
