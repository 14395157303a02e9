"""The examples in the docstrings of the installed package run, as a reader would type them."""

from __future__ import annotations

import doctest
import importlib
import pkgutil

import pytest

import xiangshe

MODULES = ["xiangshe"] + sorted(
    m.name for m in pkgutil.walk_packages(xiangshe.__path__, "xiangshe.") if m.name != "xiangshe.__main__"
)


def test_the_package_has_doctests() -> None:
    """A collection that found no examples would pass vacuously."""
    finder = doctest.DocTestFinder()
    found = sum(len(t.examples) for m in MODULES for t in finder.find(importlib.import_module(m)))
    assert found >= 10


@pytest.mark.parametrize("name", MODULES)
def test_doctests(name: str) -> None:
    module = importlib.import_module(name)
    failed, _ = doctest.testmod(module, optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    assert failed == 0, f"{failed} doctest example(s) failed in {name}"
