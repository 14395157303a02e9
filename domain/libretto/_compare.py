"""TEMPORARY (removed with the old generator): the libretto's events against domain/staging's.

    python -m xiangshe.domain.libretto._compare [Φ05 Φ13]   # first and last phase to compare
"""
from __future__ import annotations

import sys
import tomllib
from itertools import zip_longest

from xiangshe.domain import staging as old
from xiangshe.domain import libretto as new
from xiangshe.domain.libretto.bundle import MANIFEST


def events(text: str, lo: str, hi: str) -> list[tuple[str, str]]:
    out, phase = [], ""
    for row in text.splitlines():
        row = row.split("#", 1)[0].strip()
        if not row or row.split()[0] in ("cast", "pair", "occasion", "fragment"):
            continue
        if row.startswith("phase "):
            phase = row.split()[1]
            continue
        if lo <= phase <= hi:
            out.append((phase, " ".join(row.split())))
    return out


def specs():
    yield "canonical", {}
    for name, spec in tomllib.loads(MANIFEST.read_text(encoding="utf-8")).items():
        spec = {k: v for k, v in spec.items() if k != "title"}
        if "outcome" in spec:
            spec["outcome"] = tuple(spec["outcome"])
        if "arrows" in spec:
            spec["arrows"] = {k: tuple(v) for k, v in spec["arrows"].items()}
        yield name, spec
    yield "seed7-zuo", {"seed": 7, "outcome": ("左", "钧"), "zhongbin": 12, "zhongbin_pairs": 3, "dafu": 3}
    yield "zhugong2", {"zhugong": 2, "dafu": 2, "zhongbin": 9}


def main(argv: list[str]) -> int:
    lo, hi = (argv + ["Φ01", "Φ52"])[:2] if argv else ("Φ01", "Φ52")
    bad = 0
    for name, spec in specs():
        a = events(old.generate(old.Options(**spec)), lo, hi)
        b = events(new.generate(new.Options(**spec)), lo, hi)
        for i, (x, y) in enumerate(zip_longest(a, b)):
            if x != y:
                bad += 1
                print(f"{name}: event {i} differs: old {x}  new {y}")
                break
        else:
            print(f"{name}: {len(a)} events equal")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
