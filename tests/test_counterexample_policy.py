"""constraints/counterexample.py, called directly: z3's shortest counterexample, else a bundled
violating example that breaks the rule alone, else none; and reports/outputs.py's rendering of it."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from xiangshe.constraints import search
from xiangshe.constraints.check import check_trace
from xiangshe.constraints.counterexample import Counterexample, counterexample, fallback, target
from xiangshe.constraints.rulebook import active_rules, find_rule
from xiangshe.domain import bundled
from xiangshe.domain.errors import InputError, UsageError
from xiangshe.domain.parse import parse_lines
from xiangshe.reports.outputs import counterexample_file, counterexample_json, counterexample_output

RULES = active_rules()
READINGS: dict[str, str] = {}
[RULE] = find_rule("bu-guan-bu-shi")


def test_target_takes_an_id_a_name_or_a_catalogue_id() -> None:
    assert target("bu-guan-bu-shi", RULES) == target("不贯不释", RULES) == target("r120", RULES) == RULE


def test_target_refuses_what_names_no_rule_in_force_with_a_hint() -> None:
    with pytest.raises(UsageError) as err:
        target("不贯不放", RULES)
    assert isinstance(err.value, InputError)
    assert err.value.render().startswith("error: 不贯不放 is not an encoded rule in force; did you mean")
    with pytest.raises(UsageError, match="not an encoded rule in force"):
        target("bu-guan-bu-shi", [r for r in RULES if r is not RULE])  # not under these readings


def solved(test):
    """The tests of what z3 found (the module's fixtures search with it): marked z3, and grouped so that
    one worker makes the fixtures, once."""
    return pytest.mark.z3(pytest.mark.xdist_group("counterexample-policy")(test))


@pytest.fixture(scope="module")
def shortest() -> Counterexample:
    return counterexample(RULE, RULES, READINGS, 12)


@solved
def test_z3s_counterexample_is_the_shortest_and_breaks_only_the_rule(shortest: Counterexample) -> None:
    assert isinstance(shortest.outcome, search.Refuted)
    assert shortest.found and shortest.shortest and shortest.source is None and shortest.exit_code == 1
    assert shortest.steps == shortest.outcome.steps == len(parse_lines(shortest.text, "<cx>"))
    findings = check_trace(parse_lines(shortest.text, "<cx>")).findings
    assert {f.rule for f in findings} == {RULE.id}


@pytest.fixture(scope="module")
def bundled_one() -> Counterexample:
    return counterexample(RULE, RULES, READINGS, 1)  # z3 finds none of 1 step


@solved
def test_with_none_from_z3_a_bundled_example_is_the_counterexample(bundled_one: Counterexample) -> None:
    assert isinstance(bundled_one.outcome, search.Exhausted)
    assert bundled_one.found and not bundled_one.shortest and bundled_one.exit_code == 1
    assert bundled_one.source == str(bundled.VIOLATIONS / "bu-guan-bu-shi.trace")  # as `display` shows it
    trace = parse_lines(bundled_one.text, "<cx>")
    assert bundled_one.steps == len(trace)
    assert {f.rule for f in check_trace(trace).findings} == {RULE.id}


def test_the_fallback_names_the_example_as_it_is_asked_to(monkeypatch: pytest.MonkeyPatch) -> None:
    found = fallback(RULE, RULES, READINGS, lambda p: f"shown/{p.name}")
    assert found is not None and found[1] == "shown/bu-guan-bu-shi.trace"
    monkeypatch.setattr(bundled, "VIOLATIONS", Path("no-such-directory"))
    assert fallback(RULE, RULES, READINGS) is None


@pytest.mark.z3
def test_with_no_example_either_there_is_none_and_the_exit_says_so(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(bundled, "VIOLATIONS", Path("no-such-directory"))
    none = counterexample(RULE, RULES, READINGS, 1)
    assert not none.found and none.text is None and none.steps is None and none.exit_code == 0
    gave_up = Counterexample(RULE, 4, READINGS, search.Unknown("rlimit", 3))
    assert gave_up.exit_code == 3


@solved
def test_the_json_document_keeps_its_fields_and_their_order(
    shortest: Counterexample, bundled_one: Counterexample
) -> None:
    base = ["rule", "name", "catalogue", "depth", "found", "steps", "trace_file", "readings"]
    doc = counterexample_json(shortest, "cx.trace")
    assert list(doc) == [*base, "shortest", "trace"] and doc["trace_file"] == "cx.trace"
    doc = counterexample_json(bundled_one)
    assert list(doc) == [*base, "outcome", "shortest", "source", "trace"]
    assert doc["outcome"] == "none up to 1 steps" and doc["found"] is True and doc["trace_file"] is None
    none = counterexample_json(Counterexample(RULE, 4, READINGS, search.Unknown("rlimit", 3)))
    assert list(none) == [*base, "outcome"] and none["outcome"] == "unknown: rlimit" and none["found"] is False
    assert json.loads(counterexample_output(bundled_one, "json")) == counterexample_json(bundled_one)


@solved
def test_the_text_says_where_a_counterexample_comes_from(bundled_one: Counterexample) -> None:
    text = counterexample_output(bundled_one, "text", "saved.trace")
    first, second = text.splitlines()[:2]
    assert "no counterexample" in first or "none" in first
    assert "the bundled violating example" in second and bundled_one.source in second
    none = counterexample_output(Counterexample(RULE, 4, READINGS, search.Exhausted(4)), "text")
    assert len(none.splitlines()) == 1 and RULE.id in none


@solved
def test_the_saved_file_says_what_it_is_and_checks_to_the_rule(
    shortest: Counterexample, bundled_one: Counterexample
) -> None:
    text = counterexample_file(shortest)
    assert text.startswith(f"# a counterexample to {RULE.id} ({RULE.catalogue} {RULE.name}): ")
    assert f"{shortest.steps} steps, shortest;" in text.splitlines()[0]
    assert f"minimised from {bundled_one.source}, not shown to be shortest" in counterexample_file(bundled_one)
    assert {f.rule for f in check_trace(parse_lines(text, "cx.trace")).findings} == {RULE.id}


@pytest.mark.z3
def test_a_search_past_its_work_budget_gives_up_and_the_bundled_example_stands_in(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The budget bounds z3's work over the whole search, not one check: with room for the first
    checks only, the deepening stops early (unknown), where without a budget it finds one."""
    assert isinstance(search.refute(RULE, RULES, 12), search.Refuted)
    out = search.refute(RULE, RULES, 12, budget=200_000)
    assert isinstance(out, search.Unknown) and out.reason == search.SPENT
    monkeypatch.setattr(search, "BUDGET", 200_000)
    cx = counterexample(RULE, RULES, READINGS, 12)
    assert cx.found and not cx.shortest and isinstance(cx.outcome, search.Unknown)
    assert {f.rule for f in check_trace(parse_lines(cx.text or "", "<cx>")).findings} == {RULE.id}


@pytest.mark.z3
def test_a_stage_is_not_built_when_what_is_left_of_the_budget_is_less_than_the_last_check_spent(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """bu-guan-bu-shi spends ~0.41 M units on its stages of 1 and 2 steps, the last check ~0.19 M:
    with a budget of 0.5 M the stage of 4 steps is not built (its unrolling costs more than the
    short ones), and the answer is the same as if z3 had spent the rest: the budget is spent."""
    built: list[int] = []
    within = search._refute_within

    def counted(rule, others, depth, *args, **kwargs):  # type: ignore[no-untyped-def]
        built.append(depth)
        return within(rule, others, depth, *args, **kwargs)

    monkeypatch.setattr(search, "_refute_within", counted)
    out = search.refute(RULE, RULES, 12, budget=500_000)
    assert isinstance(out, search.Unknown) and out.reason == search.SPENT and out.depth == 3
    assert built == [1, 2]
    built.clear()
    assert isinstance(search.refute(RULE, RULES, 12, budget=10_000_000), search.Refuted) and built == [1, 2, 4]


@pytest.mark.z3
def test_the_counterexample_is_the_same_in_two_processes_with_other_hash_seeds_when_the_budget_runs_out() -> None:
    """The work budget is z3's resource count, never time, and nothing fed to z3 is ordered by a
    string's hash: the same rule under the same budget gives the same answer and the same
    counterexample in two processes whatever PYTHONHASHSEED is (here the budget runs out, and the
    bundled example, minimised, stands in)."""
    import os
    import subprocess
    import sys

    script = (
        "import json\n"
        "from xiangshe.constraints import search\n"
        "from xiangshe.constraints.counterexample import counterexample\n"
        "from xiangshe.constraints.rulebook import active_rules, find_rule\n"
        "from xiangshe.reports.outputs import counterexample_json\n"
        "rules = active_rules()\n"
        "[rule] = find_rule('bu-guan-bu-shi')\n"
        "search.BUDGET = 500_000\n"
        "print(json.dumps(counterexample_json(counterexample(rule, rules, {}, 12)), ensure_ascii=False))\n"
    )
    docs = [
        json.loads(
            subprocess.run(
                [sys.executable, "-c", script],
                capture_output=True,
                text=True,
                check=True,
                env={**os.environ, "PYTHONHASHSEED": seed},
            ).stdout
        )
        for seed in ("1", "2")
    ]
    assert docs[0] == docs[1]
    assert docs[0]["found"] and docs[0]["shortest"] is False and docs[0]["outcome"].startswith("unknown: ")


@pytest.mark.z3
def test_a_bundled_example_minimised_up_to_its_bound_says_it_is_not_minimal(monkeypatch: pytest.MonkeyPatch) -> None:
    """A bundled example can be a whole ceremony: its minimising replays at most REPLAYS events.
    Stopped there, it is still a counterexample (every step was confirmed), and says it is not minimal."""
    from xiangshe.constraints import counterexample as module

    full = fallback(RULE, RULES, READINGS)
    assert full is not None and full[2] is True
    monkeypatch.setattr(module, "REPLAYS", 300)
    part = fallback(RULE, RULES, READINGS)
    assert part is not None and part[2] is False and part[1] == full[1]
    assert len(part[0].splitlines()) > len(full[0].splitlines())
    assert {f.rule for f in check_trace(parse_lines(part[0], "<cx>")).findings} == {RULE.id}
    cx = counterexample(RULE, RULES, READINGS, 1)
    assert cx.found and not cx.minimal and cx.text == part[0]
    doc = counterexample_json(cx)
    assert doc["minimal"] is False and list(doc)[-3:] == ["source", "minimal", "trace"]
    assert "not minimal either" in counterexample_output(cx, "text")
    assert "nor minimal" in counterexample_file(cx).splitlines()[0]


@pytest.mark.z3
def test_a_rule_under_the_rulers_presence_gets_a_counterexample_the_checker_confirms() -> None:
    """search.decode writes the occasion the clauses were built under: the search cast has a 君, so
    `jun=在` by default; a candidate in which he does not act declared no 君 and read as `jun=不在`, and
    the checker denied what z3 found (an internal error, exit 70, for jun-zai-da-fu-bu-tan-xun-ru)."""
    [rule] = find_rule("jun-zai-da-fu-bu-tan-xun-ru")
    found = counterexample(rule, RULES, READINGS, 4)
    assert found.text is not None and found.source is None  # z3's own, not the bundled fallback
    trace = parse_lines(found.text, "<counterexample>")
    assert trace.occasion.jun == "在"
    assert rule.id in {f.rule for f in check_trace(trace, RULES).findings}
