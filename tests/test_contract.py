"""Each template kind's contract (constraints/templates.py) is the one place its users read: the
search's obligations, the vacuity check, explain, scope, the reports, the `query` command and the
benchmarks derive from it, and none of them dispatches on a kind's name."""

from __future__ import annotations

import re
import typing
from pathlib import Path

import pytest

from xiangshe.constraints.pattern import Context, Pattern
from xiangshe.constraints.rulebook import Rule, query_rule, rulebook
from xiangshe.constraints.scope import reached
from xiangshe.constraints.search import obligations
from xiangshe.constraints.templates import KINDS, QUERY_KINDS, PersonPattern
from xiangshe.domain.errors import RulebookError
from xiangshe.domain.parse import parse_lines
from xiangshe.fsm.replay import replay

ROOT = Path(__file__).resolve().parents[1]
#: the users of the contract: none may name a template kind to decide what to do
USERS = [
    "constraints/search.py",
    "constraints/rulecheck.py",
    "constraints/explain.py",
    "constraints/scope.py",
    "constraints/check.py",
    "reports/render.py",
    "reports/explain.py",
    "verify.py",
    "benchmarks/declare_subset.py",
    "benchmarks/mutation.py",
]
#: one rule of the rulebook per kind (every kind the rulebook uses)
BY_KIND = {r.template.kind: r for r in reversed(rulebook()) if r.encoded}


@pytest.mark.parametrize("path", USERS)
def test_no_user_dispatches_on_a_kind(path: str) -> None:
    """No `t.kind == …`, `kind in (…)`, `kind = t.kind`, nor a table keyed by kinds (the old
    `explain.TRIGGER`): a kind's name is only shown, never decided on."""
    source = (ROOT / path).read_text(encoding="utf-8").replace("obj.kind", "")
    names = "|".join(KINDS)
    compared = rf"\bkind\s*(==|!=)\s*[\"']({names})[\"']|\bkind\s+in\s+[(\[{{][^)\]}}]*[\"']({names})[\"']"
    assert not re.search(compared, source), f"{path} compares a template's kind"
    assert not re.search(r"\bkind\s*=\s*\w+(\.template)?\.kind\b", source), f"{path} dispatches on kind"
    keyed = {k for k in KINDS if re.search(rf"[\"']{k}[\"']\s*:", source)}
    assert len(keyed) < 2, f"{path} has a table keyed by template kinds {sorted(keyed)}"


@pytest.mark.parametrize("kind", sorted(KINDS))
def test_the_contract_is_well_formed(kind: str) -> None:
    cls = KINDS[kind]
    hints = typing.get_type_hints(cls)
    for f in cls.fields:
        assert hints[f] is Pattern, f"{kind}.{f} is listed as a pattern"
    for f in cls.person_fields:
        assert hints[f] is PersonPattern, f"{kind}.{f} is listed as a person pattern"
    for f in cls.number_fields:
        assert f in hints, f"{kind}.{f}"
    declared = {n for n in cls.__dataclass_fields__}
    patterns = {n for n in declared if hints[n] is Pattern}
    assert patterns == set(cls.fields), f"{kind}: every pattern field is in `fields`"
    assert {n for n in declared if hints[n] is PersonPattern} == set(cls.person_fields)
    assert set(cls.trigger_fields) <= set(cls.fields) and set(cls.need_fields) <= set(cls.fields)
    assert not (cls.need_fields and not cls.trigger_fields), f"{kind}: a debt needs a trigger"
    assert not (cls.owed_after and not cls.need_fields)
    assert not (cls.of_cast and cls.fields), f"{kind}: a rule of the cast has no event patterns"
    assert not (cls.queryable and (cls.of_cast or not cls.fields))


@pytest.mark.parametrize("kind", sorted(BY_KIND))
def test_every_user_derives_the_same_triggers(kind: str) -> None:
    rule = BY_KIND[kind]
    t = rule.template
    triggers, needs = obligations(rule)
    assert needs == t.needs()
    assert triggers == (t.triggers() if t.needs() else [])
    # scope: a rule with no trigger holds throughout; one with triggers is reached or vacuous
    trace = parse_lines("cast 主人 主人\ncast 宾 宾\n主人 揖\n", "t.trace")
    always, yes, no = reached(Context(trace, replay(trace)), [rule])
    assert (rule.id in always) == (not t.triggers())
    assert (rule.id in yes or rule.id in no) == bool(t.triggers())
    if t.prohibition:
        assert t.forbidden() is not None and not t.needs()
    if t.limit() is not None:
        assert not t.needs(), "a bound on a count owes nothing"


def test_the_triggers_the_semantics_gives() -> None:
    """The one answer where the old copies disagreed: a response's `first` triggers it (and obliges
    its `then`, owed after it); an absence_between is triggered by its `then` but owes nothing (a
    window is kept by doing nothing in it); a count with an upper bound owes nothing."""
    assert KINDS["response"].trigger_fields == ("first",) and KINDS["response"].need_fields == ("then",)
    assert KINDS["response"].owed_after
    assert KINDS["absence_between"].trigger_fields == ("then",) and not KINDS["absence_between"].need_fields
    assert [k for k, c in KINDS.items() if c.of_cast] == ["pair", "cast_absence"]
    le = query_rule({"kind": "count_before", "first": "* 射", "then": "* 释获", "op": "<=", "n": 4})
    assert le.template.triggers() and not le.template.needs()


def test_the_query_command_offers_the_queryable_kinds() -> None:
    from xiangshe.verify import cli

    kind = next(p for p in cli.commands["query"].params if p.name == "kind")
    assert tuple(kind.type.choices) == QUERY_KINDS


def test_query_rule_is_a_rule_asked() -> None:
    r = query_rule({"kind": "precedence", "first": "* 洗 爵", "then": "* 实 爵", "same": ["obj"]})
    assert r.asked and r.encoded and r.template.kind == "precedence"
    assert r.template.correlation() == (("obj", "obj"),)
    with pytest.raises(RulebookError, match="not a property"):
        query_rule({"kind": "pair", "who": "role=大夫", "partner": "role=大夫"})
    with pytest.raises(RulebookError, match="needs `then`"):
        query_rule({"kind": "response", "first": "* 洗 爵"})


def test_an_encoded_rule_has_a_template_and_no_other_does() -> None:
    r = next(r for r in rulebook() if r.encoded)
    with pytest.raises(ValueError, match="encoded rule has a template"):
        Rule(r.id, r.name, r.catalogue, "encoded", r.citations, None, r.path, r.line)
    with pytest.raises(ValueError, match="encoded rule has a template"):
        Rule(r.id, r.name, r.catalogue, "descriptive", r.citations, r.template, r.path, r.line, reason="x")
    other = next(r for r in rulebook() if not r.encoded)
    with pytest.raises(AttributeError, match="has no template"):
        _ = other.template
