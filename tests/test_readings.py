"""Contested readings: defaults, selection, refusal of unencodable readings, and rule activation."""

from __future__ import annotations

from pathlib import Path

import pytest

from xiangshe.constraints import scoring
from xiangshe.constraints.readings import defaults, points, select
from xiangshe.constraints.rulebook import active_rules, rulebook
from xiangshe.domain.errors import InputError


def test_every_point_has_a_default_with_a_source() -> None:
    for p in points().values():
        assert p.default in p.options and p.options[p.default].source
        assert p.options[p.default].encoded


def _consulted_by_audit(point: str) -> bool:
    return f'chosen["{point}"]' in Path(scoring.__file__).read_text(encoding="utf-8")


def test_every_point_is_in_use() -> None:
    """`check` prints the readings in force: none may be printed that nothing checks. A point is in
    use when a rule's `when` names it, an encoded rule quotes its disputed words, or the scoring
    audit consults it."""
    for name, p in points().items():
        by_when = any(pt == name for r in rulebook() for pt, _ in r.when)
        by_quote = any(p.quote in c.quote or c.quote in p.quote for r in rulebook() if r.encoded for c in r.citations)
        assert by_when or by_quote or _consulted_by_audit(name), f"no rule or check uses [{name}]"


def test_every_other_encoded_option_changes_something() -> None:
    """Selecting a non-default reading that can be checked switches some rule or the audit."""
    for name, p in points().items():
        for o in p.options.values():
            if o.encoded and o.name != p.default:
                assert any((name, o.name) in r.when for r in rulebook()) or _consulted_by_audit(name), (
                    f"{name}={o.name} changes nothing"
                )


def test_selection_order_defaults_file_then_choices(tmp_path: Path) -> None:
    f = tmp_path / "r.toml"
    f.write_text('guan = "hou"\nxian-huo = "whole"\n', encoding="utf-8")
    chosen = select(["xian-huo=margin"], f)
    assert chosen["guan"] == "hou" and chosen["xian-huo"] == "margin"
    assert set(chosen) == set(defaults())


@pytest.mark.parametrize(
    ("choice", "expected"),
    [
        ("gaun=zheng", "unknown reading point gaun"),
        ("guan=kong", "guan has no reading kong"),
        ("guan", "write point=option"),
        ("guan=jin", "cannot be checked"),
        ("guan=ao", "whether it stayed in the cloth"),
    ],
)
def test_bad_choices_are_input_errors(choice: str, expected: str) -> None:
    with pytest.raises(InputError) as err:
        select([choice])
    assert expected in err.value.render()


def test_readings_select_different_rules() -> None:
    default = {r.id for r in active_rules()}
    hou = {r.id for r in active_rules(defaults() | {"guan": "hou"})}
    assert "bu-guan-bu-shi" in default and "bu-guan-bu-shi-hou" not in default
    assert "bu-guan-bu-shi-hou" in hou and "bu-guan-bu-shi" not in hou
    assert len(default) == len(hou)


def test_every_when_names_a_real_reading() -> None:
    for r in rulebook():
        for point, option in r.when:
            assert option in points()[point].options


def test_readme_shows_every_point_with_its_default() -> None:
    readme = (Path(__file__).resolve().parents[1] / "README.md").read_text(encoding="utf-8")
    rows = {line.split("|")[1].strip(): line for line in readme.splitlines() if line.startswith("| `")}
    for name, p in points().items():
        row = next((r for k, r in rows.items() if k.startswith(f"`{name}`")), None)
        assert row is not None, f"README has no row for {name}"
        assert row.split("|")[2].strip().startswith(f"`{p.default}`"), f"README's default for {name}"
