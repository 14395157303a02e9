"""A baseline: the findings a set of stagings already has, so that `check` reports only new ones.

The file is JSON Lines, one finding a line (diffs and merges stay readable):

    {"path": "plans/2017.trace", "rule": "bu-guan-bu-shi", "fingerprint": "3f0c…", "line": 35, "message": "…"}

A finding is known by its trace (the path relative to the baseline file's directory), its rule and
a fingerprint of what it is about (the event in the vocabulary's words, not its line number), so
inserting or deleting lines above it, re-spacing it, adding a comment or writing it in traditional
characters does not make it new. `line` and `message` are there for people; matching ignores them.
Identical findings are matched one for one.
"""

from __future__ import annotations

import json
import os
from collections import Counter
from collections.abc import Iterable, Sequence
from pathlib import Path

from xiangshe.constraints.check import Finding, Result
from xiangshe.domain.dataclass import dataclass
from xiangshe.domain.errors import InputError
from xiangshe.domain.messages import Message
from xiangshe.domain.parse import MAX_BYTES

Key = tuple[str, str, str]  # path, rule, fingerprint
_FIELDS = ("path", "rule", "fingerprint")


def fingerprint(f: Finding) -> str:
    import hashlib

    return hashlib.sha256(f"{f.rule}\0{f.subject}".encode()).hexdigest()[:16]


def path_key(path: str, base: Path) -> str:
    """A trace's path relative to the baseline's directory, with / separators."""
    if path.startswith("<"):  # <stdin>, <trace>
        return path
    return os.path.relpath(Path(path).resolve(), base.resolve()).replace(os.sep, "/")


def key(f: Finding, path: str, base: Path) -> Key:
    return path_key(path, base), f.rule, fingerprint(f)


def render(results: Sequence[Result], base: Path) -> str:
    """The baseline of `results` (their findings, not what is already suppressed)."""
    rows = []
    for r in results:
        for f in r.findings:
            p, rule, fp = key(f, r.path, base)
            rows.append({"path": p, "rule": rule, "fingerprint": fp, "line": f.line, "message": f.message})
    rows.sort(key=lambda d: (d["path"], d["line"] or 0, d["rule"], d["fingerprint"]))
    return "".join(json.dumps(d, ensure_ascii=False) + "\n" for d in rows)


@dataclass(frozen=True)
class Baseline:
    path: Path
    shown: str  # the path as messages name it
    entries: Counter[Key]  # Key → how many

    @property
    def base(self) -> Path:
        return self.path.parent


def load(path: Path, shown: str) -> Baseline:
    """Read a baseline file; anything that is not one is bad input, located at its line."""

    def bad(line: int | None, message: str, excerpt: str | None = None) -> InputError:
        return InputError(
            shown, line, message, excerpt, hint="write a baseline with `xiangshe check --write-baseline FILE`"
        )

    try:
        if path.stat().st_size > MAX_BYTES:
            raise bad(None, f"the baseline is larger than {MAX_BYTES} bytes")
        text = path.read_bytes().decode("utf-8-sig")
    except FileNotFoundError:
        raise bad(None, Message("input.no-such-file")) from None
    except IsADirectoryError:
        raise bad(None, "is a directory, not a baseline file") from None
    except OSError as err:
        raise bad(None, f"cannot read: {err.strerror}") from None
    except UnicodeDecodeError:
        raise bad(None, "not UTF-8 text") from None
    entries: Counter[Key] = Counter()
    for n, raw in enumerate(text.splitlines(), 1):
        if not raw.strip():
            continue
        try:
            rec = json.loads(raw)
        except (json.JSONDecodeError, RecursionError) as err:
            raise bad(n, f"not valid JSON: {getattr(err, 'msg', 'nested too deeply')}", raw) from None
        if not isinstance(rec, dict) or not all(isinstance(rec.get(k), str) for k in _FIELDS):
            raise bad(n, "a baseline entry is an object with \"path\", \"rule\" and \"fingerprint\" strings", raw[:200])
        entries[(rec["path"], rec["rule"], rec["fingerprint"])] += 1
    return Baseline(path, shown, entries)


@dataclass(frozen=True)
class Match:
    """What the baseline did: findings it matched, and entries for the traces checked that matched none."""

    shown: str
    baselined: int
    absent: int


def split(
    findings: Iterable[Finding], path: str, baseline: Baseline, left: Counter[Key]
) -> tuple[list[Finding], list[Finding]]:
    """`findings` as (new, baselined), consuming the entries of `left` one for one."""
    new, known = [], []
    for f in findings:
        k = key(f, path, baseline.base)
        if left[k] > 0:
            left[k] -= 1
            known.append(f)
        else:
            new.append(f)
    return new, known


def absent(left: Counter[Key], paths: Iterable[str], baseline: Baseline) -> int:
    """How many entries for the traces at `paths` matched no finding."""
    keys = {path_key(p, baseline.base) for p in paths}
    return sum(n for (p, _, _), n in left.items() if p in keys and n > 0)
