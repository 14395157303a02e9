"""The vacuity allow-list (constraints/vacuity.toml): an allowed vacuous rule is a note, not a warning;
an entry for a triggered rule (stale) or for no rule is refused."""

from __future__ import annotations

from pathlib import Path

import pytest

from xiangshe.constraints.rulebook import active_rules
from xiangshe.constraints.rulecheck import VACUITY_ALLOWLIST, check_vacuity, load_vacuity_allowlist
from xiangshe.domain.parse import parse_lines

RULES = active_rules({})
BY_ID = {r.id: r for r in RULES}
# a staging in which the 君 shoots once, bared to the red under-jacket; no 大夫 bares (肉袒)
STAGING = parse_lines("""fragment Φ27
cast 君 君
cast 小臣 小臣
phase Φ27
小臣 取 矢 to=君
君 袒朱襦
君 执弓 弓
小臣 授 矢 to=君
君 射 矢 arrow=1 result=不中
""")
TRIGGERED, VACUOUS = "jun-tan-zhu-ru-yi-she", "da-fu-yu-shi-she-tan-xun-ru"


def _item(items, rid):
    return next(i for i in items if i.subject == rid)


def test_without_the_list_a_vacuous_rule_warns():
    items = check_vacuity([BY_ID[TRIGGERED], BY_ID[VACUOUS]], [STAGING])
    assert _item(items, TRIGGERED).ok
    assert not _item(items, VACUOUS).ok and _item(items, VACUOUS).severity == "warning"


def test_an_allowed_vacuous_rule_is_a_note():
    items = check_vacuity([BY_ID[VACUOUS]], [STAGING], {VACUOUS: "the reason"})
    item = _item(items, VACUOUS)
    assert item.ok and item.severity == "note" and item.message == "not staged: the reason"


def test_an_allowed_triggered_rule_is_a_stale_entry():
    item = _item(check_vacuity([BY_ID[TRIGGERED]], [STAGING], {TRIGGERED: "no reason"}), TRIGGERED)
    assert not item.ok and item.severity == "error" and "remove the entry" in item.message


@pytest.mark.parametrize(
    "text, error",
    [
        ('[[allow]]\nrule = "no-such-rule"\nreason = "x"\n', "no rule 'no-such-rule'"),
        (f'[[allow]]\nrule = "{VACUOUS}"\n', "write rule ="),
        (f'[[allow]]\nrule = "{VACUOUS}"\nreason = "x"\n[[allow]]\nrule = "{VACUOUS}"\nreason = "y"\n', "twice"),
        ('[allowed]\nx = 1\n', "unknown table"),
    ],
)
def test_the_loader_refuses_a_bad_entry(tmp_path: Path, text: str, error: str):
    path = tmp_path / "vacuity.toml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(ValueError, match=error):
        load_vacuity_allowlist(RULES, path)


def test_the_bundled_list_loads():
    assert VACUITY_ALLOWLIST.exists()
    assert set(load_vacuity_allowlist(RULES)) <= set(BY_ID)


def test_the_bundled_list_is_exactly_the_rules_the_bundled_stagings_leave_vacuous():
    """Both ways, as `xiangshe check-rules` reads them: a rule the canonical ceremony and the variants
    never trigger must be on the list (with its reason), and an entry for a rule they do trigger is
    stale and fails."""
    from xiangshe.constraints.readings import defaults
    from xiangshe.domain.parse import parse_file

    root = VACUITY_ALLOWLIST.parents[1]
    paths = [root / "traces" / "canonical.trace", *sorted((root / "traces" / "variants").glob("*.trace"))]
    stagings = [parse_file(p, str(p.relative_to(root))) for p in paths]
    rules = active_rules(defaults())
    items = check_vacuity(rules, stagings, load_vacuity_allowlist(rules))
    bad = [f"{i.subject}: {i.message}" for i in items if not i.ok]
    assert not bad, "vacuity (add a vacuous rule to constraints/vacuity.toml, remove a stale entry):\n" + "\n".join(bad)
