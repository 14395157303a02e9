"""A pytest plugin (`-p cpu_per_test`, benchmarks/ on the path): each test's CPU time — its process's
user+sys and that of the processes it started and waited for — as the junit property `cpu_s`, so that
a run under load still tells what each test costs (a duration counts the time the test waited for a core)."""

from __future__ import annotations

import resource
from collections.abc import Generator

import pytest


def _cpu() -> float:
    own = resource.getrusage(resource.RUSAGE_SELF)
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_protocol(item: pytest.Item) -> Generator[None, None, None]:
    item.user_properties.append(("cpu_s", _cpu()))  # the start: replaced in the teardown's report
    yield


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo) -> Generator[None, None, None]:
    outcome = yield
    if call.when == "teardown":
        start = next(float(v) for k, v in item.user_properties if k == "cpu_s")
        report = outcome.get_result()
        report.user_properties = [(k, v) for k, v in report.user_properties if k != "cpu_s"]
        report.user_properties.append(("cpu_s", f"{_cpu() - start:.3f}"))
