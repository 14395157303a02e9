"""Fuzz inputs for the parsers and the checker: mutated windows of the bundled traces in the four
formats (byte flips, line deletions, duplications and swaps, tokens replaced by words of the
vocabulary or by garbage), and the runners that the tests and benchmarks/fuzz.py share: a file
(`run`), the same bytes on standard input (`run_stdin`, as `check -` reads them), and a directory of
fuzz files (`run_directory`, as `check DIR` finds and checks them, one result per file).

Only the project's own input errors may come out of the runners: anything else is a bug.
"""

from __future__ import annotations

import random
from functools import cache
from pathlib import Path

from xiangshe.constraints.check import Result, check_source, check_trace
from xiangshe.constraints.rulebook import Rule, active_rules
from xiangshe.domain.errors import InputError
from xiangshe.domain.parse import TraceErrors, parse_file, parse_lines, to_jsonl
from xiangshe.domain.sources import SUFFIXES as READ_BY
from xiangshe.domain.sources import Source, expand
from xiangshe.domain.vocabulary import PERSON_KEYS, PLACE_KEYS, vocabulary
from xiangshe.fsm.table import table_for_object

ROOT = Path(__file__).resolve().parents[1]
SUFFIXES = ("trace", "jsonl", "json", "yaml", "yml")
GARBAGE = (
    "=",
    "==",
    "to=",
    "n=",
    "arrow=0",
    "arrow=99",
    "#",
    "# L",
    "# L99999",
    "L",
    "Φ",
    "Φ00",
    "\t",
    "\u2028",
    "\u3000",
    "\ufeff",
    "爵³",
    "爵٣",
    "１",
    "-",
    "- ",
    "{",
    "}",
    "[",
    "]",
    ":",
    '"',
    "'",
    "!!python/object/apply:os.system",
    "&a",
    "*a",
    "? ",
    "---",
    "...",
    "null",
    "~",
    "true",
    "1e999",
    "NaN",
    "9" * 30,
    "\\u0000",
    "\x00",
    "\x7f",
    "\ud7ff",
    "ｃａｓｔ",
    "cast",
    "pair",
    "phase",
    "上射=",
    "下射=",
    "rank=大夫",
    "😀",
    "\u202e",
    "a" * 300,
)


@cache
def words() -> tuple[str, ...]:
    v = vocabulary()
    out = [*v.acts, *v.objects, *v.roles, *v.places, *v.phases, *v.ranks]
    out += [f"{k}=" for k in (*PERSON_KEYS, *PLACE_KEYS, *v.attributes)]
    out += [f"{k}={x}" for k, a in v.attributes.items() for x in a.values[:4]]
    return tuple(sorted(set(out)))


@cache
def bundled() -> tuple[tuple[str, tuple[str, ...], tuple[str, ...]], ...]:
    """(name, header lines, body lines) of every bundled trace."""
    out = []
    for p in [ROOT / "traces" / "canonical.trace", *sorted((ROOT / "traces").glob("*/*.trace"))]:
        lines = p.read_text(encoding="utf-8").splitlines()
        head = [x for x in lines if x.split("#")[0].split()[:1] in (["cast"], ["pair"])]
        body = [x for x in lines if x not in head]
        out.append((p.name, tuple(head), tuple(body)))
    return tuple(out)


@cache
def rules() -> tuple[Rule, ...]:
    return tuple(active_rules())


def window(rng: random.Random, max_lines: int = 60) -> list[str]:
    """A random stretch of a bundled trace, with its cast and a phase line so that it parses."""
    _, head, body = rng.choice(bundled())
    start = rng.randrange(len(body))
    stretch = list(body[start : start + rng.randint(1, max_lines)])
    phase = next((x for x in reversed(body[:start]) if x.startswith("phase ")), None)
    return list(head) + ([phase] if phase else []) + stretch


def _records(lines: list[str]) -> list[dict[str, str]] | None:
    import json

    try:
        return [json.loads(x) for x in to_jsonl(parse_lines("\n".join(lines) + "\n", "<fuzz>")).splitlines()]
    except TraceErrors:
        return None


def _write(records: list[dict[str, str]], suffix: str) -> list[str]:
    import json

    if suffix == "jsonl":
        return [json.dumps(r, ensure_ascii=False) for r in records]
    if suffix == "json":  # one array, a record a line (numbers as JSON numbers)

        def value(v: str) -> str:
            return v if v.isascii() and v.isdigit() and not v.startswith("0") else json.dumps(v, ensure_ascii=False)

        body = [
            "  {" + ", ".join(f"{json.dumps(k, ensure_ascii=False)}: {value(v)}" for k, v in r.items()) + "}"
            for r in records
        ]
        return ["[", *(x + "," for x in body[:-1]), *body[-1:], "]"]
    return ["- {" + ", ".join(f"{k}: {v}" for k, v in r.items()) + "}" for r in records]


def _as_format(lines: list[str], suffix: str) -> list[str]:
    records = _records(lines) if suffix != "trace" else None
    return lines if records is None else _write(records, suffix)


def _edit_records(records: list[dict[str, str]], rng: random.Random) -> list[dict[str, str]]:
    """Structural edits of records: delete, duplicate, swap, or a value replaced by one alike."""
    out = list(records)
    for _ in range(rng.randint(1, 4)):
        i = rng.randrange(len(out))
        op = rng.choice(["delete", "duplicate", "swap", "value", "value"])
        if op == "delete" and len(out) > 1:
            del out[i]
        elif op == "duplicate":
            out.insert(i, out[i])
        elif op == "swap" and i + 1 < len(out):
            out[i], out[i + 1] = out[i + 1], out[i]
        elif op == "value":
            rec = dict(out[i])
            key = rng.choice(sorted(rec))
            token = rec[key] if key in ("act", "obj", "actor", "phase") else f"{key}={rec[key]}"
            rec[key] = _alike(token, rng).partition("=")[2] or _alike(token, rng)
            kind = vocabulary().object_kind(rec.get("obj", ""))
            table = table_for_object(kind[0].name) if kind else None
            if key == "act" and table is not None and rng.random() < 0.8:
                rec[key] = rng.choice(sorted(table.acts))  # an act its machine knows
            out[i] = rec
    return out


def _alike(token: str, rng: random.Random) -> str:
    """Another word of the same kind: an act for an act, a place for a place, a person for a person."""
    v = vocabulary()
    key, eq, _ = token.partition("=")
    if eq:
        if key in v.attributes:
            return f"{key}={rng.choice(v.attributes[key].values)}"
        if key in PLACE_KEYS:
            return f"{key}={rng.choice(sorted(v.places))}"
        return f"{key}={rng.choice(sorted(v.roles))}"
    for kind in (v.acts, v.objects, v.phases):
        if token in kind:
            return rng.choice(sorted(kind))
    return rng.choice(sorted(r for r, t in v.roles.items() if t.single))


def mutate(lines: list[str], rng: random.Random, rounds: int | None = None, garbage: bool = True) -> bytes:
    """A few random edits of `lines`, as bytes; with `garbage`, tokens may become garbage and bits
    of the encoding may flip, else the edits are structural and use words of the vocabulary."""
    lines = list(lines)
    pool = words()
    for _ in range(rounds if rounds is not None else rng.randint(1, 4)):
        op = rng.choice(["delete", "duplicate", "swap", "word", "word"] + ["garbage", "insert"] * garbage)
        if not lines:
            lines.append("")
        i = rng.randrange(len(lines))
        if op == "delete":
            del lines[i]
        elif op == "duplicate":
            lines.insert(i, lines[i])
        elif op == "swap" and i + 1 < len(lines):
            lines[i], lines[i + 1] = lines[i + 1], lines[i]
        elif op in ("word", "garbage"):
            toks = lines[i].split(" ")
            j = rng.randrange(len(toks))
            toks[j] = (
                _alike(toks[j], rng) if op == "word" and not garbage else rng.choice(pool if op == "word" else GARBAGE)
            )
            lines[i] = " ".join(toks)
        elif op == "insert":
            lines.insert(i, " ".join(rng.choice(pool + GARBAGE) for _ in range(rng.randint(1, 6))))
    return bytes(_bytes(lines, rng, garbage))


def _bytes(lines: list[str], rng: random.Random, garbage: bool) -> bytearray:
    data = bytearray("\n".join(lines).encode("utf-8", "surrogatepass") + b"\n")
    if garbage and rng.random() < 0.25 and data:
        for _ in range(rng.randint(1, 3)):
            data[rng.randrange(len(data))] ^= 1 << rng.randrange(8)
    return data


def fuzz_input(rng: random.Random) -> tuple[str, bytes]:
    """One fuzz input: (suffix, content)."""
    suffix = rng.choice(SUFFIXES)
    kind = rng.random()
    if kind < 0.1:
        return suffix, rng.randbytes(rng.randint(0, 400))
    if kind < 0.2:
        return suffix, "".join(
            rng.choice(GARBAGE + words()) + rng.choice([" ", "\n", ""]) for _ in range(rng.randint(0, 40))
        ).encode("utf-8", "surrogatepass")
    if kind < 0.6:  # structural edits with words of the vocabulary
        lines = window(rng)
        records = _records(lines) if suffix != "trace" else None
        if records:
            return suffix, bytes(_bytes(_write(_edit_records(records, rng), suffix), rng, False))
        return suffix, mutate(lines, rng, garbage=False)
    return suffix, mutate(_as_format(window(rng), suffix), rng)


def run(path: Path) -> str:
    """Parse and check a file the way `xiangshe check` does: 'ok', 'violations' or 'bad input'.
    Any other exception is a bug and propagates."""
    try:
        result = check_trace(parse_file(path, path.name), list(rules()))
    except (TraceErrors, InputError):
        return "bad input"
    return "ok" if result.ok else "violations"


def outcome(result: Result) -> str:
    return "bad input" if result.input_errors else "ok" if result.ok else "violations"


def run_stdin(data: bytes, suffix: str) -> str:
    """The same bytes as `check - --stdin-format FMT` reads them from standard input."""
    import io

    source = Source(f"fuzz.{suffix}", None, READ_BY[f".{suffix}"])
    try:
        result = check_trace(source.read(stdin=io.BytesIO(data)), list(rules()))
    except (TraceErrors, InputError):
        return "bad input"
    return "ok" if result.ok else "violations"


def fuzz_directory(rng: random.Random, root: Path, files: int | None = None) -> list[Path]:
    """A directory of fuzz inputs, some in subdirectories, beside files `check DIR` must skip (hidden,
    other suffixes); returns the staging files, as `check` should find them (sorted by path)."""
    made = []
    for i in range(files if files is not None else rng.randint(1, 6)):
        suffix, data = fuzz_input(rng)
        where = root / rng.choice(["", "a", "a/b", "c"])
        where.mkdir(parents=True, exist_ok=True)
        name = f"f{i}.{suffix.upper() if rng.random() < 0.2 else suffix}"
        (where / name).write_bytes(data)
        made.append(where / name)
    (root / ".hidden").mkdir(exist_ok=True)
    (root / ".hidden" / "skipped.trace").write_bytes(b"\x00 never read")
    (root / "notes.txt").write_bytes(b"not a staging")
    return sorted(made, key=lambda p: p.parts)


def run_directory(root: Path) -> list[tuple[Path, str]]:
    """`check DIR` as the command line does it: each staging found, with its outcome."""
    found = expand([str(root)], str)
    return [(s.path or Path(s.display), outcome(check_source(s, list(rules())))) for s in found]
