"""reports/jsontext.py writes what json.dumps(…, ensure_ascii=False, indent=2) writes, character for
character: on any JSON value (hypothesis), on the edge cases of the standard library's encoder, and
on what `check` renders of real stagings. (300 random documents in the default run, 75 in the inner
loop: conftest's `examples`.)"""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest
from conftest import examples
from hypothesis import given, settings
from hypothesis import strategies as st

from xiangshe.constraints.check import check_trace
from xiangshe.constraints.rulebook import active_rules
from xiangshe.domain.parse import parse_file
from xiangshe.reports import render
from xiangshe.reports.jsontext import dumps

ROOT = Path(__file__).resolve().parents[1]


def expected(doc: object, indent: str = "") -> str:
    return json.dumps(doc, ensure_ascii=False, indent=2).replace("\n", "\n" + indent)


scalars = st.none() | st.booleans() | st.integers() | st.floats() | st.text()
keys = st.text() | st.integers() | st.booleans() | st.none() | st.floats(allow_nan=False)
values = st.recursive(
    scalars,
    lambda inner: (
        st.lists(inner, max_size=5) | st.lists(inner, max_size=5).map(tuple) | st.dictionaries(keys, inner, max_size=5)
    ),
    max_leaves=40,
)


@settings(max_examples=examples(300), deadline=None)
@given(values, st.sampled_from(["", "    ", "\t"]))
def test_as_json_dumps_writes_it(doc: object, indent: str) -> None:
    assert dumps(doc, indent) == expected(doc, indent)


@pytest.mark.parametrize(
    "doc",
    [
        {},
        [],
        {"a": [], "b": {}, "c": [[]], "d": [{}]},
        ["引号\"与\\反斜杠", "\n\t\x00\x1f\x7f", "\u2028\u2029", "😀 \ud800"],
        [math.nan, math.inf, -math.inf, 0.1, 1e16, -0.0, 5e-324],
        {7: "int key", 2.5: "float key", True: "true key", None: "null key"},
        [True, False, None, 0, -1, 10**30],
    ],
)
def test_edge_cases(doc: object) -> None:
    assert dumps(doc) == expected(doc)
    assert dumps(doc, "    ") == expected(doc, "    ")


class Flag(int):
    """An int subclass: written as its int value, as json.dumps does."""

    def __repr__(self) -> str:
        return "Flag()"


def test_subclasses_as_their_base() -> None:
    class Word(str):
        pass

    doc = {Word("k"): [Flag(3), Word("v")]}
    assert dumps(doc) == expected(doc)


@pytest.mark.parametrize("bad", [{"a": {1, 2}}, [object()], {(1, 2): "tuple key"}])
def test_what_json_cannot_hold_is_refused(bad: object) -> None:
    with pytest.raises(TypeError):
        json.dumps(bad, ensure_ascii=False, indent=2)
    with pytest.raises(TypeError):
        dumps(bad)


@pytest.mark.parametrize(
    "name", ["canonical.trace", "violations/bu-guan-bu-shi.trace", "violations/bin-li-ci-xu.trace"]
)
def test_a_checked_staging_as_check_writes_it(name: str) -> None:
    path = ROOT / "traces" / name
    result = check_trace(parse_file(path, name), active_rules())
    doc = render.trace_json(result)
    assert dumps(doc, "    ") == expected(doc, "    ")
