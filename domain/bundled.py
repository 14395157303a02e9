"""The stagings bundled with xiangshe, in one place: where each kind lives under traces/.

- `canonical.trace`: the canonical ceremony (it keeps every machine and every rule);
- `variants/*.trace`: other performances of the libretto (they pass too), listed with their options
  in `variants/variants.toml`;
- `violations/<rule id>[.N].trace`: each rule's violating examples (each breaks that rule alone);
- `keeps/<rule id>[.N].trace`: stagings written to keep a rule where a reading too strong would not;
- `audit/*.trace`: the examples of the scoring audit.

The paths are read when a function is called, so a test may point VIOLATIONS elsewhere.
"""

from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
TRACES = ROOT / "traces"
CANONICAL = TRACES / "canonical.trace"
VARIANTS = TRACES / "variants"
MANIFEST = VARIANTS / "variants.toml"
VIOLATIONS = TRACES / "violations"
KEEPS = TRACES / "keeps"
AUDIT = TRACES / "audit"


def variants() -> list[Path]:
    """The variants' stagings, sorted."""
    return sorted(VARIANTS.glob("*.trace"))


def stagings() -> list[Path]:
    """The stagings that pass: the canonical ceremony, then the variants."""
    return [CANONICAL, *variants()]


def of_rule(directory: Path, rule_id: str) -> list[Path]:
    """A rule's files in `directory` (violations/ or keeps/): `<rule id>.trace` and `<rule id>.N.trace`.

    >>> [p.name for p in of_rule(VIOLATIONS, "wu-jie")]
    ['wu-jie.trace']
    """
    return sorted([*directory.glob(f"{rule_id}.trace"), *directory.glob(f"{rule_id}.*.trace")])


def violations(directory: Path | None = None) -> dict[str, list[Path]]:
    """The violating examples (default: VIOLATIONS), by rule id: the name up to its first dot."""
    out: dict[str, list[Path]] = {}
    for p in sorted((VIOLATIONS if directory is None else directory).glob("*.trace")):
        out.setdefault(p.name.split(".")[0], []).append(p)
    return out


def shown(path: Path, root: Path = ROOT) -> str:
    """A bundled file's name as messages show it: relative to the root of the package."""
    return str(path.relative_to(root))
