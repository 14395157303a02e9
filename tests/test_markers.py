"""The markers that are left out unless asked for (tests/conftest.py): `install` and `wide` run
without -m and whenever -m names them, and are left out by an -m that does not; `slow` is left out
unless -m names it. A pytest run of its own, in this process, with the suite's conftest and
pyproject's markers, on four tests: one plain, one `install`, one `wide`, one `slow`."""

from __future__ import annotations

import os
import sys
import tomllib
from pathlib import Path
from types import SimpleNamespace

import conftest
import pytest
from conftest import ROOT, left_out, rules_out

pytest_plugins = ["pytester"]

TESTS = """
import pytest

def test_plain():
    pass

@pytest.mark.install
def test_builds():
    pass

@pytest.mark.wide
def test_more_cases():
    pass

@pytest.mark.slow
def test_every_case():
    pass
"""


class Item:
    """What the conftest's selection reads of a collected test: its markers (and its params)."""

    path = Path("test_x.py")

    def __init__(self, marker: str | None) -> None:
        self.marker = marker

    def get_closest_marker(self, name: str) -> object | None:
        return object() if name == self.marker else None


@pytest.fixture
def suite(pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch) -> pytest.Pytester:
    # the conftest's session fixture points the cache at a directory of the inner run's: undone after
    monkeypatch.setenv("XIANGSHE_CACHE_DIR", os.environ.get("XIANGSHE_CACHE_DIR", str(pytester.path / "cache")))
    ini = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["pytest"]["ini_options"]
    markers = "\n".join(f"    {m!r}," for m in ini["markers"])
    pytester.makepyprojecttoml(f'[tool.pytest.ini_options]\naddopts = "--strict-markers"\nmarkers = [\n{markers}\n]\n')
    pytester.makeconftest((ROOT / "tests" / "conftest.py").read_text(encoding="utf-8"))
    pytester.makepyfile(test_three=TESTS)
    return pytester


@pytest.mark.parametrize(
    ("args", "ran", "said"),
    [
        ([], {"test_plain", "test_builds", "test_more_cases"}, "1 slow"),  # the default run, as CI runs it
        (["-m", "not z3 and not browser"], {"test_plain"}, "1 install (*); 1 wide (*); 1 slow"),  # the inner loop
        (["-m", "not z3"], {"test_plain"}, "1 install (*); 1 wide (*); 1 slow"),
        (["-m", "install"], {"test_builds"}, "1 wide (*); 1 slow"),
        (["-m", "not install"], {"test_plain"}, "1 wide (*); 1 slow"),
        (["-m", "wide"], {"test_more_cases"}, "1 install (*); 1 slow"),
        (["-m", "wide or not wide"], {"test_plain", "test_more_cases"}, "1 install (*); 1 slow"),
        (["-m", "slow"], {"test_every_case"}, "1 install (*); 1 wide (*)"),
        (["-m", "slow or not slow"], {"test_plain", "test_every_case"}, "1 install (*); 1 wide (*)"),
        (
            ["-m", "slow or not slow or install or wide"],
            {"test_plain", "test_builds", "test_more_cases", "test_every_case"},
            None,
        ),
    ],
    ids=[
        "no-m",
        "inner-loop",
        "not-z3",
        "install",
        "not-install",
        "wide",
        "wide-or-not-wide",
        "slow",
        "slow-or-not-slow",
        "all",
    ],
)
def test_a_marker_left_out_unless_named(suite: pytest.Pytester, args: list[str], ran: set[str], said: str) -> None:
    result = suite.runpytest_inprocess("-p", "no:xdist", "-p", "no:cacheprovider", *args)
    got = {r.nodeid.split("::")[-1] for r in result.reprec.getreports("pytest_runtest_logreport") if r.when == "call"}
    assert got == ran
    result.assert_outcomes(passed=len(ran), deselected=4 - len(ran))
    if said is None:
        result.stdout.no_fnmatch_line("left out by marker*")
    else:
        result.stdout.fnmatch_lines([f"left out by marker: {said}*"])


def test_under_xdist_the_controller_prints_what_a_worker_left_out() -> None:
    """Under pytest-xdist (the default run's -n auto) the workers select: each puts its counts in its
    output to the controller, which prints them once in its summary."""
    config = SimpleNamespace(stash=pytest.Stash())  # the controller's
    for worker in ("gw0", "gw1"):
        node = SimpleNamespace(gateway=SimpleNamespace(id=worker), config=config, workeroutput={})
        worker_config = SimpleNamespace(
            stash=pytest.Stash(),
            workeroutput=node.workeroutput,  # what xdist sends the controller when the worker is done
            getoption=lambda _: "not z3",
            hook=SimpleNamespace(pytest_deselected=lambda items: None),  # noqa: ARG005
        )
        items = [Item("install"), Item("slow"), Item(None), Item("wide")]
        conftest.pytest_collection_modifyitems(worker_config, items)
        assert [i.marker for i in items] == [None]
        conftest.pytest_testnodedown(node, None)
    lines: list[str] = []
    conftest.pytest_terminal_summary(SimpleNamespace(write_line=lines.append), config)
    assert lines == [
        "left out by marker: 1 install (no -m runs them, or an -m naming install);"
        " 1 wide (no -m runs them, or an -m naming wide); 1 slow (-m slow)"
    ]


@pytest.mark.xdist_group("markers")
def test_xdist_groups_the_tests_of_an_xdist_group(request: pytest.FixtureRequest) -> None:
    """The default run sends the tests of an xdist_group to one worker (--dist loadgroup), so that
    a fixture the group shares is made once: pytest-xdist marks them in their node ids, which a
    pytest it cannot do this with leaves as they are (pyproject's pin)."""
    if not getattr(request.config.option, "loadgroup", False):
        pytest.skip("not an xdist worker under --dist loadgroup")
    assert request.node.nodeid.endswith("@markers")


@pytest.mark.parametrize(
    ("markexpr", "out"),
    [
        (None, ["slow"]),
        ("", ["slow"]),
        ("not z3 and not browser", ["install", "wide", "slow"]),
        ("installs", ["install", "wide", "slow"]),  # a longer name is not the marker's
        ("not slowly", ["install", "wide", "slow"]),
        ("not wider", ["install", "wide", "slow"]),
        ("(install)", ["wide", "slow"]),
        ("wide or not wide", ["install", "slow"]),
        ("slow and not install", ["wide"]),
        ("slow and not install and not wide", []),
    ],
)
def test_an_expression_names_a_marker_as_a_word(markexpr: str | None, out: list[str]) -> None:
    assert left_out(markexpr) == out


@pytest.mark.parametrize(
    ("markexpr", "out"),
    [
        ("not z3 and not browser", True),
        ("not browser and not  z3", True),
        ("not z3", True),
        (None, False),
        ("z3", False),
        ("not z3 or slow", False),  # a z3 test marked slow matches
        ("not (z3 and browser)", False),
        ("not z3x and not browser", False),
        ("not browser", False),
    ],
)
def test_an_expression_rules_a_marker_out_only_when_no_test_carrying_it_can_match(markexpr, out) -> None:
    assert rules_out(markexpr, "z3") is out


def test_the_solver_modules_are_not_collected_when_z3_is_ruled_out(
    suite: pytest.Pytester, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A module of SOLVER_MODULES is not even imported under an -m that rules z3 out; collected,
    one of its tests without the z3 marker stops the run (the list cannot drift from the modules).
    (The inner runs are in this process: where this worker has imported the real tests/test_search.py,
    the inner file of that name would be an import mismatch, so the name is set aside meanwhile.)"""
    monkeypatch.delitem(sys.modules, "test_search", raising=False)
    suite.makepyfile(test_search="import pytest\n\ndef test_unmarked():\n    pass\n")
    result = suite.runpytest_inprocess("-p", "no:xdist", "-m", "not z3 and not browser")
    result.assert_outcomes(passed=1, deselected=3)  # test_three's plain test; test_search's not collected
    result = suite.runpytest_inprocess("-p", "no:xdist", "-m", "not browser")
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines(["*test_search.py::test_unmarked is not marked z3*SOLVER_MODULES*"])
    suite.makepyfile(test_search="import pytest\n\npytestmark = pytest.mark.z3\n\ndef test_marked():\n    pass\n")
    suite.runpytest_inprocess("-p", "no:xdist", "-m", "not browser").assert_outcomes(passed=2, deselected=3)


def test_the_solver_refuses_a_test_not_marked_z3_and_the_fixtures_made_for_it(suite: pytest.Pytester) -> None:
    suite.makepyfile(
        test_solver="""
        import pytest
        import z3

        @pytest.fixture(scope="module")
        def solved():
            return z3.Solver().check()

        def test_calls_it():
            z3.Solver().check()

        def test_a_module_fixture_calls_it(solved):
            pass
        """
    )
    result = suite.runpytest_inprocess("-p", "no:xdist", "test_solver.py")
    result.assert_outcomes(failed=1, errors=1)  # (a test marked z3 may: the z3 tests of the default run)
    result.stdout.fnmatch_lines(["*test_a_module_fixture_calls_it calls the z3*"])  # (errors come first)
    result.stdout.fnmatch_lines(["*test_calls_it calls the z3 solver*"])


def test_a_sample_cannot_be_emptied_by_its_marks(suite: pytest.Pytester) -> None:
    """A parametrized test some of whose cases are `wide` keeps one case in the inner loop (neither
    wide nor slow), else the collection stops; a test marked wide as a whole is left out on purpose."""
    suite.makepyfile(
        test_family="""
        import pytest

        @pytest.mark.parametrize("n", [1, pytest.param(2, marks=pytest.mark.wide)])
        def test_kept(n):
            pass

        @pytest.mark.wide
        @pytest.mark.parametrize("n", [1, 2])
        def test_wide_on_purpose(n):
            pass
        """
    )
    result = suite.runpytest_inprocess("-p", "no:xdist", "-m", "not z3 and not browser", "test_family.py")
    result.assert_outcomes(passed=1, deselected=3)
    suite.makepyfile(
        test_family="""
        import pytest

        @pytest.mark.parametrize(
            "n", [pytest.param(1, marks=pytest.mark.wide), pytest.param(2, marks=pytest.mark.slow)]
        )
        def test_emptied(n):
            pass
        """
    )
    result = suite.runpytest_inprocess("-p", "no:xdist", "test_family.py")
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines(["*test_family.py::test_emptied: every case is marked wide or slow*"])


@pytest.mark.parametrize(
    ("markexpr", "inner", "tried"), [(None, False, [80, 30, 300]), ("not z3 and not browser", True, [20, 10, 75])]
)
def test_the_inner_loop_tries_a_quarter_of_each_propertys_examples(
    monkeypatch: pytest.MonkeyPatch, markexpr: str | None, inner: bool, tried: list[int]
) -> None:
    """conftest's `examples` (the Hypothesis budgets of test_fuzz and test_jsontext): the default
    run's in full, a quarter (at least 10) in the inner loop, as pytest's configuration says."""
    monkeypatch.setattr(conftest, "INNER_LOOP", conftest.INNER_LOOP)  # put back after
    conftest.pytest_configure(SimpleNamespace(getoption=lambda _: markexpr))
    assert conftest.INNER_LOOP is inner
    assert [conftest.examples(n) for n in (80, 30, 300)] == tried
