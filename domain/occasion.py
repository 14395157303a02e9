"""The occasion of a shooting: the parameters of the ceremony no event carries, declared by a trace's
`occasion` header and checked by the 记's rules about them (constraints/rules/h_ji.md).

    occasion presiding=州长 venue=序 zhong=鹿中 jing=翿旌 hou=采侯

Fields (their values and written forms are `[occasion.*]` of domain/vocabulary.toml):
  presiding  州长 | 乡大夫 | 君               who holds the shooting (rank 士, 大夫, 君)
  venue      序 (豫, 榭, 州学) | 庠 (堂, 乡学)   the building
  site       国中 | 郊 | 竟                   where the ruler shoots; absent: outside the city
  hou        采侯 熊侯 麋侯 虎豹布侯 鹿豕布侯 皮侯  the target
  zhong      鹿中 兕中 皮树中 闾中 虎中          the tally-holder
  jing       翿旌 物 旌 龙旃                   the 获者's flag
  jun        在 | 不在                        the ruler present (default: 在 if the cast has a 君)

A bare value names its field (`occasion 州长 序 鹿中`), since no value belongs to two fields.

The defaults. Nothing declared is the occasion the main text describes, as 郑玄 and 贾公彦 read it: the
州长 shooting in his 序 — 郑注 on 「乃席宾，南面东上」: 「不言於户牖之間者此射於序」; 贾疏: 「此據州長射於序
以其無室」, and on the first line: 「此州長亦諸侯之州長以士爲之是以經云釋獲者執鹿中記云士鹿中是皆爲此州長射而言」.
So presiding=州长, venue=序, zhong=鹿中 (经 「释获者执鹿中」), jing=翿旌 (记 「士，鹿中，翿旌以获」;
郑注: 「謂小國之州長也用翿爲旌以獲無物也」), hou=采侯 (郑注 on 「凡侯」: 「鄉射及賓射當張采矦二正」).
A declared presiding officer brings his own defaults, the 记's for his rank: a 乡大夫 shoots in the 庠
(郑注 on 「释获者执鹿中」: 「鹿中謂射於榭也於庠當兕中」; 贾疏 on 「旌，各以其物」: 「諸矦鄉大夫是大夫詢衆庶
射於庠諸矦州長是士春秋習射於榭」) with the 兕中 and his 物 (「大夫，兕中，各以其物获」); the 君 shoots in
the city (国中, the 燕射 — 郑注: 「國中城中也謂燕射也」) with the 皮树中 and the 翿旌 and, at the 燕射, the
兽侯 of his rank, the 麋侯 (郑注: 「此所謂獸矦也燕射則張之」); in the suburbs (郊, the 大射) the 闾中, the 旌
and the 皮侯 (郑注 on 「礼射不主皮」: 「天子大射張皮矦賓射張五采之矦燕射張獸矦」); at the border (竟, the 宾射)
the 虎中, the 龙旃 and the 采侯; in a 堂 with a 室 (庠: the 寝 or the 学).
"""

from __future__ import annotations

from dataclasses import field
from functools import cache

from xiangshe.domain.dataclass import dataclass
from xiangshe.domain.errors import did_you_mean
from xiangshe.domain.trace import Cast, Occasion
from xiangshe.domain.vocabulary import VOCABULARY_PATH, vocabulary

FIELDS = Occasion.FIELDS
DERIVED = ("rank",)  # conditions may test it; a trace cannot declare it

_JUN = {
    "values": ["在", "不在"],
    "slugs": ["present", "absent"],
    "en": ["ruler-present", "ruler-absent"],
    "gloss": "whether the ruler is present (记 「君在，大夫射，则肉袒」); default: 在 when the cast has a 君",
}


@dataclass(frozen=True)
class OccasionField:
    """A field of an `occasion` declaration: its key, gloss, values and their aliases, and its quote."""

    key: str
    gloss: str
    values: tuple[str, ...]
    aliases: dict[str, str] = field(default_factory=dict, compare=False)  # written form → value
    ranks: tuple[str, ...] = ()
    quote: tuple[str, ...] = ()

    def resolve(self, word: str) -> str | None:
        if word in self.values:
            return word
        if word in self.aliases:
            return self.aliases[word]
        folded = vocabulary().fold(word)
        if folded in self.values:
            return folded
        return self.aliases.get(folded, self.aliases.get(folded.lower()))


@cache
def occasion_fields() -> dict[str, OccasionField]:
    """The fields of the occasion ([occasion] of domain/vocabulary.toml), from the cache of derived
    artefacts when it is there (domain/cache.py)."""
    from xiangshe.domain.cache import derived

    return derived("occasion", (), load_occasion_fields)


def load_occasion_fields() -> dict[str, OccasionField]:
    import tomllib  # only when a source is read: the cache (domain/cache.py) spares the import

    data = tomllib.loads(VOCABULARY_PATH.read_text(encoding="utf-8")).get("occasion", {})
    out = {}
    for key in FIELDS:
        t = data.get(key, _JUN if key == "jun" else None)
        if t is None:
            raise KeyError(f"domain/vocabulary.toml has no [occasion.{key}]")
        values = tuple(t["values"])
        aliases = dict(t.get("forms", {}))
        for kind in ("slugs", "en"):
            for alias, value in zip(t.get(kind, ()), values, strict=True):
                aliases[alias.lower()] = value
        quote = t.get("quote", ())
        out[key] = OccasionField(
            key,
            t.get("gloss", ""),
            values,
            aliases,
            tuple(t.get("ranks", ())),
            tuple(quote) if isinstance(quote, list) else (quote,),
        )
    return out


def rank_of(presiding: str) -> str:
    f = occasion_fields()["presiding"]
    return f.ranks[f.values.index(presiding)]


def field_of_value(word: str) -> tuple[str, str] | None:
    """The field a bare value belongs to, and the value (州长 → presiding, 州长; 榭 → venue, 序)."""
    for key, f in occasion_fields().items():
        value = f.resolve(word)
        if value is not None:
            return key, value
    return None


def all_values() -> list[str]:
    return [v for f in occasion_fields().values() for v in (*f.values, *f.aliases)]


#: the 记's own pairing, by the presiding officer (and, for the ruler, the site): see the module doc
_BY_PRESIDING = {
    "州长": {"venue": "序", "hou": "采侯", "zhong": "鹿中", "jing": "翿旌"},
    "乡大夫": {"venue": "庠", "hou": "采侯", "zhong": "兕中", "jing": "物"},
}
_BY_SITE = {
    "国中": {"hou": "麋侯", "zhong": "皮树中", "jing": "翿旌"},
    "郊": {"hou": "皮侯", "zhong": "闾中", "jing": "旌"},
    "竟": {"hou": "采侯", "zhong": "虎中", "jing": "龙旃"},
}


def defaults(presiding: str, site: str | None) -> dict[str, str]:
    if presiding == "君":
        site = site or "国中"
        return {"venue": "庠", "site": site, **_BY_SITE[site]}
    return dict(_BY_PRESIDING[presiding]) | ({"site": site} if site else {})


def build(declared: dict[str, str], cast: Cast, line: int | None) -> Occasion:
    """The occasion from the declared fields, the rest by default."""
    presiding = declared.get("presiding", "州长")
    values = defaults(presiding, declared.get("site")) | {"presiding": presiding}
    values |= {k: v for k, v in declared.items() if k != "jun"}
    jun = declared.get("jun") or ("在" if presiding == "君" or cast.by_role.get("君") else "不在")
    return Occasion(
        presiding=presiding,
        venue=values["venue"],
        site=values.get("site"),
        hou=values["hou"],
        zhong=values["zhong"],
        jing=values["jing"],
        jun=jun,
        rank=rank_of(presiding),
        line=line,
        declared=tuple(k for k in FIELDS if k in declared),
    )


def occasion_of(cast: Cast) -> Occasion:
    """The occasion of a staging with this cast: the declared one, or the default."""
    return cast.occasion if cast.occasion is not None else build({}, cast, None)


def parse_words(words: list[str]) -> tuple[dict[str, str], list[tuple[str, str, str]]]:
    """`key=value` and bare values as fields; the errors as (message, hint, the word at fault)."""
    fields = occasion_fields()
    out: dict[str, str] = {}
    errors: list[tuple[str, str, str]] = []
    for w in words:
        if "=" in w:
            key, _, word = w.partition("=")
            f = fields.get(key)
            if f is None:
                errors.append(
                    (
                        f"occasion: unknown field {key}=",
                        f"the fields are {', '.join(FIELDS)}; " + did_you_mean(key, FIELDS),
                        w,
                    )
                )
                continue
            value = f.resolve(word)
            if value is None:
                errors.append(
                    (
                        f"occasion: {key} cannot be {word}",
                        f"{key} is one of {', '.join(f.values)}; "
                        + did_you_mean(vocabulary().fold(word), [*f.values, *f.aliases]),
                        w,
                    )
                )
                continue
        else:
            found = field_of_value(w)
            if found is None:
                errors.append(
                    (
                        f"occasion: {w} is not a value of any field",
                        "write key=value (presiding=州长 venue=序 zhong=鹿中 …); "
                        + did_you_mean(vocabulary().fold(w), all_values()),
                        w,
                    )
                )
                continue
            key, value = found
        if key in out and out[key] != value:
            errors.append((f"occasion: {key} is given twice ({out[key]}, {value})", "", w))
            continue
        out[key] = value
    return out, errors


def parse_conditions(text: str) -> tuple[tuple[str, frozenset[str], bool], ...]:
    """A rule's condition on the occasion, `key=v1|v2 key!=v`: (key, values, negated) triples.
    Raises ValueError (message, hint) on an unknown key or value."""
    fields = occasion_fields()
    out = []
    for w in text.split():
        negate = "!=" in w
        key, _, value = w.partition("!=" if negate else "=")
        if key == "rank":
            allowed = set(occasion_fields()["presiding"].ranks)
        elif key in fields:
            allowed = set(fields[key].values) | ({"none"} if key == "site" else set())
        else:
            raise ValueError(f"unknown occasion field {key}", did_you_mean(key, [*FIELDS, *DERIVED]))
        values = frozenset(value.split("|"))
        for v in values:
            if v not in allowed:
                raise ValueError(f"{key} cannot be {v}", did_you_mean(v, allowed))
        out.append((key, values, negate))
    return tuple(out)


def satisfies(occ: Occasion, conds: tuple[tuple[str, frozenset[str], bool], ...]) -> bool:
    return all((occ.get(key) in values) != negate for key, values, negate in conds)


def describe(conds: tuple[tuple[str, frozenset[str], bool], ...]) -> str:
    return " ".join(f"{k}{'!=' if n else '='}{'|'.join(sorted(v))}" for k, v, n in conds)
