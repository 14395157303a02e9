"""JSON text as `json.dumps(doc, ensure_ascii=False, indent=2)` writes it, character for character,
several times faster: with an indent, the standard library leaves its C encoder aside and encodes
in Python one token at a time, which made most of the time `check --format json` spends writing a
large batch. Here each container is one join of its members, and strings go through the standard
library's own (C) string encoder. Only what JSON can hold is accepted: str, int, float, bool,
None, lists, tuples and dicts (keys str, int, float, bool or None, as `json.dumps` turns them into
strings); anything else is a TypeError, as there.
"""

from __future__ import annotations

from json.encoder import encode_basestring  # the C encoder when there is one, as json.dumps uses

INF = float("inf")


def dumps(doc: object, indent: str = "") -> str:
    """`json.dumps(doc, ensure_ascii=False, indent=2)`, each line after the first prefixed with
    `indent` (an element nested that deep)."""
    return _value(doc, indent)


def _float(o: float) -> str:
    if o != o:  # noqa: PLR0124 — NaN, as json.dumps writes it (allow_nan)
        return "NaN"
    if o == INF:
        return "Infinity"
    if o == -INF:
        return "-Infinity"
    return float.__repr__(o)


def _key(k: object) -> str:
    if isinstance(k, str):
        return encode_basestring(k)
    if isinstance(k, float):
        return encode_basestring(_float(k))
    if k is True:
        return '"true"'
    if k is False:
        return '"false"'
    if k is None:
        return '"null"'
    if isinstance(k, int):
        return encode_basestring(int.__repr__(k))
    raise TypeError(f"keys must be str, int, float, bool or None, not {k.__class__.__name__}")


def _value(o: object, indent: str) -> str:
    # the order of json.encoder's tests: a str subclass is a str, a bool is not an int
    if isinstance(o, str):
        return encode_basestring(o)
    if o is None:
        return "null"
    if o is True:
        return "true"
    if o is False:
        return "false"
    if isinstance(o, int):
        return int.__repr__(o)
    if isinstance(o, float):
        return _float(o)
    if isinstance(o, (list, tuple)):
        if not o:
            return "[]"
        inner = indent + "  "
        members = [encode_basestring(v) if type(v) is str else _value(v, inner) for v in o]
        return f"[\n{inner}" + f",\n{inner}".join(members) + f"\n{indent}]"
    if isinstance(o, dict):
        if not o:
            return "{}"
        inner = indent + "  "
        items = [
            (encode_basestring(k) if type(k) is str else _key(k))
            + ": "
            + (encode_basestring(v) if type(v) is str else _value(v, inner))
            for k, v in o.items()
        ]
        return f"{{\n{inner}" + f",\n{inner}".join(items) + f"\n{indent}}}"
    raise TypeError(f"Object of type {o.__class__.__name__} is not JSON serializable")
