"""domain/bundled.py: the one list of the bundled stagings, and what reads it."""

from __future__ import annotations

from pathlib import Path

import xiangshe
from xiangshe.constraints import coverage
from xiangshe.constraints.rulebook import rulebook
from xiangshe.domain import bundled
from xiangshe.domain.libretto import bundle

ROOT = Path(__file__).resolve().parents[1]


def test_the_places_are_the_packages_traces() -> None:
    # the installed package's own traces (the checkout, when installed editable; site-packages from a wheel)
    package = Path(xiangshe.__file__).resolve().parent
    assert bundled.ROOT == package and bundled.TRACES == package / "traces"
    for place in (bundled.VARIANTS, bundled.VIOLATIONS, bundled.KEEPS, bundled.AUDIT):
        assert place.is_dir() and place.parent == bundled.TRACES
    assert bundled.CANONICAL.is_file() and bundled.MANIFEST.is_file()


def test_every_reader_uses_the_one_list() -> None:
    assert xiangshe.CANONICAL == bundle.CANONICAL == bundled.CANONICAL
    assert bundle.VARIANTS == bundled.VARIANTS and bundle.AUDIT == bundled.AUDIT
    assert coverage.VARIANTS_PATH == bundle.MANIFEST == bundled.MANIFEST


def test_stagings_are_the_canonical_ceremony_then_the_variants_sorted() -> None:
    stagings = bundled.stagings()
    assert stagings[0] == bundled.CANONICAL
    assert stagings[1:] == bundled.variants() == sorted(bundled.VARIANTS.glob("*.trace"))
    assert len(stagings) > 1  # the manifest lists variants: each is a file
    names = {p.stem for p in bundled.variants()}
    assert names == set(name for name, _ in coverage.option_sets()[1:])


def test_violations_are_grouped_by_the_rule_id_before_the_first_dot() -> None:
    by_rule = bundled.violations()
    ids = {r.id for r in rulebook()}
    assert set(by_rule) <= ids  # no orphan: every file names a rule
    every = sorted(bundled.VIOLATIONS.glob("*.trace"))
    assert sorted(p for paths in by_rule.values() for p in paths) == every
    numbered = next(p for p in every if p.name.count(".") == 2)  # <rule id>.N.trace
    rid = numbered.name.split(".")[0]
    assert numbered in by_rule[rid] and by_rule[rid] == bundled.of_rule(bundled.VIOLATIONS, rid)


def test_of_rule_does_not_take_a_rule_whose_id_only_begins_alike(tmp_path: Path) -> None:
    for name in ("wu-jie.trace", "wu-jie.2.trace", "wu-jie-er.trace", "wu.trace"):
        (tmp_path / name).write_text("", encoding="utf-8")
    assert [p.name for p in bundled.of_rule(tmp_path, "wu-jie")] == ["wu-jie.2.trace", "wu-jie.trace"]
    assert bundled.of_rule(tmp_path, "nothing") == []
    assert list(bundled.violations(tmp_path)) == ["wu-jie-er", "wu-jie", "wu"]


def test_violations_reads_the_directory_when_called(monkeypatch, tmp_path: Path) -> None:
    monkeypatch.setattr(bundled, "VIOLATIONS", tmp_path / "none")
    assert bundled.violations() == {}


def test_shown_is_relative_to_the_package() -> None:
    assert bundled.shown(bundled.CANONICAL) == "traces/canonical.trace"
    assert bundled.shown(bundled.CANONICAL, bundled.TRACES) == "canonical.trace"
