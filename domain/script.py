"""Any script the users write in: fold a word of a trace to the characters of the vocabulary.

The vocabulary is written in the simplified characters of the text. A word a user writes in
traditional characters (鄉射禮, 觶, 賓), in a variant form that converters miss (筭, 醻, 矦), or in
Japanese forms (釈, 拝) folds to the vocabulary's form:

    the curated table (variants.toml) → NFKC → OpenCC t2s → the curated table again

NFKC is applied to CJK compatibility ideographs (U+F900…, U+2F800…) and full-width letters and
digits only: the vocabulary's quoted words keep their full-width punctuation (，。《》).

Only words that must name something of the vocabulary are folded (roles, persons, acts, objects,
places, attribute values): never notes or comments, where a mechanical conversion is lossy
(縣 → 县, 乾 → 干). OpenCC is imported only when a word is not found as written, so checking a
trace written in the vocabulary's own characters never loads it.
"""

from __future__ import annotations

import tomllib
import unicodedata
from functools import cache, lru_cache
from pathlib import Path

VARIANTS_PATH = Path(__file__).with_name("variants.toml")


@cache
def variants() -> dict[str, str]:
    """The curated table: variant character → the character the vocabulary uses."""
    data = tomllib.loads(VARIANTS_PATH.read_text(encoding="utf-8"))
    table: dict[str, str] = {}
    for section in data.values():
        table.update(section)
    return table


def apply_variants(word: str) -> str:
    """Replace each variant character by its vocabulary form.

    >>> apply_variants("筭")
    '算'
    """
    table = variants()
    return "".join(table.get(c, c) for c in word)


@cache
def _converter(config: str):
    import opencc  # lazily: ~20 ms, and only for words not found as written

    return opencc.OpenCC(config)


def to_simplified(text: str) -> str:
    """OpenCC t2s (traditional → simplified characters)."""
    return _converter("t2s").convert(text)


def to_traditional(text: str) -> str:
    """OpenCC s2t (simplified → traditional characters)."""
    return _converter("s2t").convert(text)


def _compatible(c: str) -> bool:
    cp = ord(c)
    return 0xF900 <= cp <= 0xFAFF or 0x2F800 <= cp <= 0x2FA1F or (0xFF10 <= cp <= 0xFF5A and c.isalnum())


def nfkc(word: str) -> str:
    """NFKC on compatibility ideographs and full-width letters and digits only.

    >>> nfkc("\uf96f決拾２，")
    '說決拾2，'
    """
    return "".join(unicodedata.normalize("NFKC", c) if _compatible(c) else c for c in word)


@lru_cache(maxsize=1 << 16)  # bounded: a file of a million different words is not kept whole
def fold(word: str) -> str:
    """A word as the vocabulary would write it: variants, NFKC, OpenCC t2s, variants.

    >>> fold("鄉射禮"), fold("醻"), fold("衆賓2")
    ('乡射礼', '酬', '众宾2')
    """
    w = nfkc(apply_variants(word))
    if w.isascii():
        return w
    return apply_variants(to_simplified(w))
