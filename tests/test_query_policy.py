"""The query command's policy, called directly (constraints/query.py): the property from the options,
and the answer's verdict and exit status for each of z3's outcomes."""

from __future__ import annotations

import pytest

from xiangshe.constraints import search
from xiangshe.constraints.query import ask, fields
from xiangshe.constraints.readings import defaults
from xiangshe.constraints.rulebook import active_rules
from xiangshe.domain.errors import InputError


def test_fields_keep_the_options_given_in_order_and_read_same() -> None:
    data = fields("precedence", ("obj", "for=actor"), pattern=None, first="* 洗 爵", then="* 实 爵", n=None)
    assert data == {"kind": "precedence", "first": "* 洗 爵", "then": "* 实 爵", "same": {"obj": "obj", "for": "actor"}}
    assert list(data) == ["kind", "first", "then", "same"]


def test_a_property_that_is_not_one_is_an_input_error() -> None:
    with pytest.raises(InputError):
        ask({"kind": "precedence", "first": "* 洗 爵"}, [], defaults(), 2)  # no `then`


@pytest.mark.parametrize(
    ("outcome", "holds", "code"),
    [(search.Exhausted(4), True, 0), (search.Unknown("timeout", 3), None, 3)],
    ids=["exhausted", "unknown"],
)
def test_the_answer_says_what_z3_said(monkeypatch: pytest.MonkeyPatch, outcome, holds, code) -> None:
    monkeypatch.setattr(search, "refute", lambda *_a, **_k: outcome)
    answer = ask({"kind": "absence", "pattern": "主人 揖"}, active_rules(defaults()), defaults(), 4)
    assert (answer.holds, answer.exit_code, answer.text) == (holds, code, None)
    assert answer.reason == ("timeout" if holds is None else None)


@pytest.mark.z3
def test_a_counterexample_is_minimised_and_refutes() -> None:
    answer = ask({"kind": "absence", "pattern": "主人 揖"}, active_rules(defaults()), defaults(), 6)
    assert answer.holds is False and answer.exit_code == 1 and "主人 揖" in answer.text
    assert answer.steps is not None and answer.steps >= 1
