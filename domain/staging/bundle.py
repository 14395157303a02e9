"""Regenerate the bundled stagings: `python -m domain.staging.bundle` (add --check to compare only)."""

from __future__ import annotations

import sys
import tomllib
from pathlib import Path

from xiangshe.domain.staging import Options, generate

ROOT = Path(__file__).resolve().parents[2]
CANONICAL = ROOT / "traces" / "canonical.trace"
VARIANTS = ROOT / "traces" / "variants"
MANIFEST = VARIANTS / "variants.toml"
CANONICAL_TITLE = "乡射礼 — the canonical ceremony, as the text tells it (default staging: one 大夫 present)"


def bundle() -> dict[Path, str]:
    """Every bundled staging: its path and the text the generator makes for it."""
    out = {CANONICAL: generate(Options(), CANONICAL_TITLE)}
    for name, spec in tomllib.loads(MANIFEST.read_text(encoding="utf-8")).items():
        spec = dict(spec)
        title = spec.pop("title")
        if "outcome" in spec:
            spec["outcome"] = tuple(spec["outcome"])
        out[VARIANTS / f"{name}.trace"] = generate(Options(**spec), f"乡射礼 — variant: {title}")
    return out


def main(argv: list[str]) -> int:
    stale = []
    for path, text in bundle().items():
        current = path.read_text(encoding="utf-8") if path.exists() else None
        if current != text:
            stale.append(path)
            if "--check" not in argv:
                path.write_text(text, encoding="utf-8")
    for p in stale:
        print(("stale: " if "--check" in argv else "wrote: ") + str(p.relative_to(ROOT)))
    return 1 if stale and "--check" in argv else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
