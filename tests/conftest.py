"""Shared test setup: the golden-output flag, Hypothesis profiles, the repository root, the markers
(and their guard), and the data many test modules read (loaded once per session).

Markers (declared in pyproject): `z3` — the test calls the solver (in this process or in a
subprocess); `browser` — it runs headless Chromium; `install` — it builds the package or installs
it into an environment of its own (the wheel, pre-commit's hook environment); `wide` — the default
run's sample beyond the inner loop's (each family keeps a stratified sample of its own in the inner
loop, said in its docstring); `slow` — the full breadth beyond the default sample. A test not
marked `z3` that calls the solver in this process, or one of whose fixtures (of any scope) does,
fails: the marker cannot drift from what the test does, so `-m "not z3"` runs without it (and does
not even collect the modules in SOLVER_MODULES).

Three markers are left out unless asked for (tests/test_markers.py holds this):
- `install` and `wide` run in the default run (no `-m`: CI keeps them) and whenever the `-m`
  expression names them (`-m install`, `-m "wide or not wide"`); an `-m` expression that does not
  name one leaves it out, so the inner loop is plainly `-m "not z3 and not browser"`.
- `slow` is left out unless the `-m` expression names it, the default run included (`-m slow`;
  `-m "not z3"` leaves it out). `-m "slow or not slow or install or wide"` runs everything.
The terminal summary says how many tests each left out and how to run them."""

from __future__ import annotations

import atexit
import gc
import os
import re
import shutil
import sys
import tempfile
from collections.abc import Generator
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings

ROOT = Path(__file__).resolve().parents[1]


#: the run's bytecode directory for the processes its tests start (see _started_processes_keep_bytecode)
PYC_DIR = "XIANGSHE_TESTS_PYCACHE"


def _a_bytecode_directory_for_the_run() -> None:
    """Made once, by the run's first process (the xdist controller, or the only process), removed at
    its end; the workers inherit its name in the environment."""
    if os.environ.get(PYC_DIR) or not sys.flags.dont_write_bytecode or os.environ.get("PYTHONPYCACHEPREFIX"):
        return
    os.environ[PYC_DIR] = tempfile.mkdtemp(prefix="xiangshe-tests-pyc-")
    atexit.register(shutil.rmtree, os.environ[PYC_DIR], ignore_errors=True)


_a_bytecode_directory_for_the_run()

settings.register_profile(
    "ci",
    derandomize=True,
    database=None,
    deadline=None,
    max_examples=3,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
)
settings.register_profile(
    "dev", deadline=None, max_examples=10, suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much]
)
settings.register_profile(
    "thorough",
    derandomize=True,
    database=None,
    deadline=None,
    max_examples=300,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption("--update-golden", action="store_true", help="rewrite tests/golden/*.out from the current output")


#: commands that search with the solver: a test parametrized with a run of one of them is marked z3
SOLVER_COMMANDS = {"check-rules", "counterexample", "query"}


def _runs_a_solver_command(item: pytest.Item) -> bool:
    params = getattr(getattr(item, "callspec", None), "params", {})
    return any(isinstance(v, (tuple, list)) and v[:1] and v[0] in SOLVER_COMMANDS for v in params.values())


def names(markexpr: str, marker: str) -> bool:
    """Whether the `-m` expression names the marker (a word of it, not a part of a longer name)."""
    return re.search(rf"(?<!\w){re.escape(marker)}(?!\w)", markexpr) is not None


def left_out(markexpr: str | None) -> list[str]:
    """The markers whose tests are deselected under this `-m` expression (None or "": no -m):
    `slow` unless the expression names it; `install` and `wide` when an expression is given that
    does not."""
    expr = markexpr or ""
    return [m for m in ("install", "wide", "slow") if not names(expr, m) and (expr or m == "slow")]


#: whether this run leaves the `wide` cases out (the inner loop): set when pytest is configured,
#: before the test modules are collected
INNER_LOOP = False


def pytest_configure(config: pytest.Config) -> None:
    global INNER_LOOP
    INNER_LOOP = "wide" in left_out(config.getoption("markexpr"))


def examples(n: int) -> int:
    """A property's number of Hypothesis examples (`@settings(max_examples=examples(n))`): n in the
    default run, a quarter of them (at least 10) in the inner loop. The ci profile derandomizes, so
    the inner loop tries the first of the same examples."""
    return max(10, n // 4) if INNER_LOOP else n


#: how to run the tests a marker left out, for the terminal summary
HOW_TO_RUN = {
    "install": "no -m runs them, or an -m naming install",
    "wide": "no -m runs them, or an -m naming wide",
    "slow": "-m slow",
}
#: per marker, how many tests it left out: in the config's stash, and in an xdist worker's output to its controller
LEFT_OUT = pytest.StashKey[dict[str, int]]()


#: the test modules whose every test is marked z3 (by their pytestmark): an -m expression that rules z3
#: out does not even collect them (each xdist worker would import them and make their thousands of
#: tests, only to deselect them); a run that collects them fails if one of their tests is not marked z3
SOLVER_MODULES = frozenset({"test_differential.py", "test_mutation.py", "test_search.py", "test_templates.py"})


def rules_out(markexpr: str | None, marker: str) -> bool:
    """Whether no test marked `marker` can match the -m expression, whatever its other markers: the
    expression is a plain conjunction (no `or`, no parentheses) with `not MARKER` among its terms."""
    expr = markexpr or ""
    if re.search(r"\bor\b|[()]", expr):
        return False
    return any(term.split() == ["not", marker] for term in re.split(r"\band\b", expr))


def pytest_ignore_collect(collection_path: Path, config: pytest.Config) -> bool | None:
    if collection_path.name in SOLVER_MODULES and rules_out(config.getoption("markexpr"), "z3"):
        return True
    return None  # pytest decides


def _param_marked(item: pytest.Item, marker: str) -> bool:
    """Whether the case itself (its pytest.param), not its function or module, carries the marker."""
    return any(m.name == marker for m in getattr(getattr(item, "callspec", None), "marks", ()))


def _every_family_keeps_an_inner_case(items: list[pytest.Item]) -> None:
    """A parametrized test some of whose cases are marked `wide` keeps at least one case in the inner
    loop (neither `wide` nor `slow`): a sample cannot be emptied by its marks. (A test or module
    marked `wide` as a whole says so on purpose, and is not a case of this.)"""
    families: dict[tuple[str, str], list[pytest.Item]] = {}
    for item in items:
        if getattr(item, "callspec", None) is not None:
            families.setdefault((str(item.path), getattr(item, "originalname", item.name)), []).append(item)
    for members in families.values():
        if any(_param_marked(i, "wide") for i in members) and all(
            _param_marked(i, "wide") or i.get_closest_marker("slow") is not None for i in members
        ):
            raise pytest.UsageError(
                f"{members[0].nodeid.split('[')[0]}: every case is marked wide or slow — keep one in the inner loop"
            )


@pytest.hookimpl(tryfirst=True)  # before -m selects by marker
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    for item in items:
        if _runs_a_solver_command(item):
            item.add_marker(pytest.mark.z3)
        if item.path.name in SOLVER_MODULES and item.get_closest_marker("z3") is None:
            raise pytest.UsageError(f"{item.nodeid} is not marked z3, but its module is in conftest's SOLVER_MODULES")
    _every_family_keeps_an_inner_case(items)
    counts: dict[str, int] = {}
    for marker in left_out(config.getoption("markexpr")):
        out = [item for item in items if item.get_closest_marker(marker) is not None]
        counts[marker] = len(out)
        if out:
            config.hook.pytest_deselected(items=out)
            items[:] = [item for item in items if item.get_closest_marker(marker) is None]
    config.stash[LEFT_OUT] = counts
    if hasattr(config, "workeroutput"):  # an xdist worker: its controller prints the summary
        config.workeroutput["left_out_by_marker"] = counts


@pytest.hookimpl(optionalhook=True)  # pytest-xdist's hook, in the controller: a worker is done
def pytest_testnodedown(node, error) -> None:  # noqa: ARG001
    counts = getattr(node, "workeroutput", {}).get("left_out_by_marker")
    if counts is not None:  # every worker collects the same tests: one worker's counts are the run's
        node.config.stash[LEFT_OUT] = counts


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter, config: pytest.Config) -> None:
    said = "; ".join(f"{n} {m} ({HOW_TO_RUN[m]})" for m, n in config.stash.get(LEFT_OUT, {}).items() if n)
    if said:
        terminalreporter.write_line(f"left out by marker: {said}")


#: the young generation's threshold during the tests (CPython's default: 700 allocations)
GC_YOUNG = 7000


def pytest_collection_finish(session: pytest.Session) -> None:  # noqa: ARG001
    """What collection loaded (the package, pytest, hypothesis, the test modules and their cases)
    lives as long as the process: it is frozen out of the cyclic collector's sight (gc.freeze),
    which would otherwise walk it again at every full collection; and the collector runs after
    7,000 allocations rather than 700 (a collection during the tests found the young objects of
    the test, of its checks and parses, mostly still alive). This is the test process's own
    bookkeeping: the processes the tests start, and what a test asks of the collector, are as they
    were (domain/gcpause.py pauses it around parsing and checking either way)."""
    gc.collect()
    gc.freeze()
    gc.set_threshold(GC_YOUNG, *gc.get_threshold()[1:])


@pytest.fixture(scope="session", autouse=True)
def _own_cache_of_derived_artefacts(tmp_path_factory: pytest.TempPathFactory) -> None:
    """The suite (and the processes it starts) keep the derived artefacts (domain/cache.py) in a
    directory of their own, not in the user's cache."""
    os.environ["XIANGSHE_CACHE_DIR"] = str(tmp_path_factory.mktemp("xiangshe-cache"))


@pytest.fixture(scope="session", autouse=True)
def _started_processes_keep_bytecode() -> None:
    """Where PYTHONDONTWRITEBYTECODE is set, each `python -m xiangshe …` a test starts would compile
    the package from its source again (a third of a plain `check`'s CPU). The processes the tests
    start write and read their bytecode in the run's own directory instead (PYTHONPYCACHEPREFIX):
    compiled once per run, and nothing written beside the sources. The test processes themselves
    are left as they are: a prefix takes every module's bytecode there, the installed packages'
    too, and a worker would compile pytest, z3 and the rest again on each run."""
    if os.environ.get(PYC_DIR):
        os.environ["PYTHONPYCACHEPREFIX"] = os.environ[PYC_DIR]
        os.environ.pop("PYTHONDONTWRITEBYTECODE", None)


@pytest.fixture(autouse=True)
def _each_test_starts_in_english() -> None:
    """The language of text output is a process-wide choice (--lang sets it for the command it
    runs): a test that called a command under --lang zh must not leave the next one in Chinese
    (None: as XIANGSHE_LANG says, else English)."""
    from xiangshe.reports.messages import set_language

    set_language(None)


@pytest.fixture
def update_golden(request: pytest.FixtureRequest) -> bool:
    return bool(request.config.getoption("--update-golden"))


#: the test being run (set before its fixtures are made, cleared after its teardown)
_RUNNING: list[pytest.Item] = []


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_protocol(item: pytest.Item) -> Generator[None, None, None]:
    _RUNNING[:] = [item]
    try:
        yield
    finally:
        _RUNNING.clear()


@pytest.fixture(scope="session", autouse=True)
def _solver_only_under_the_z3_marker() -> Generator[None, None, None]:
    """The solver refuses to run for a test not marked z3: in the test, and in every fixture made for
    it, whatever its scope (a module's fixture is made for the first test of the module that uses
    it, before that test's own fixtures)."""
    import z3

    check = z3.Solver.check

    def guarded(*args: object, **kwargs: object) -> object:
        if _RUNNING and _RUNNING[0].get_closest_marker("z3") is None:
            raise AssertionError(f"{_RUNNING[0].nodeid} calls the z3 solver (or a fixture of it does): mark it z3")
        return check(*args, **kwargs)

    z3.Solver.check = guarded
    yield
    z3.Solver.check = check


# -- data read by many modules, loaded once per session ------------------------------------------


@pytest.fixture(scope="session")
def canonical():
    """The canonical ceremony, parsed once (read it, do not change it)."""
    import tracegen

    return tracegen.canonical()


@pytest.fixture(scope="session")
def canonical_result(canonical):
    """The check result of the canonical ceremony under the default readings (tests/checked.py)."""
    import checked

    assert checked.parsed("traces/canonical.trace") is canonical
    return checked.checked("traces/canonical.trace")


@pytest.fixture(scope="session")
def rulecheck_report():
    """check-rules' report on the sampled rules (tests/sampling.py), the machines and the bundled
    stagings (what `xiangshe check-rules --rule …` prints; the whole rulebook's report is CI's last
    step), computed once per worker: the tests of its formats render it instead of re-running the
    checks (mark them `xdist_group("check-rules")` so that one worker computes it)."""
    from sampling import rules_by_kind

    from xiangshe.constraints.readings import defaults
    from xiangshe.constraints.rulebook import active_rules
    from xiangshe.constraints.rulecheck import check_bundled

    sample = [r.id for r in rules_by_kind(active_rules(defaults()))]
    return check_bundled(defaults(), redundancy=16, jobs=1, only=sample)
