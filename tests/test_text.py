"""The vendored text and citations located in it."""

from __future__ import annotations

import pytest

from xiangshe.domain.errors import QuoteError
from xiangshe.domain.text import TEXT, TEXT_SHA256, SourceText


def test_text_is_the_vendored_edition() -> None:
    assert TEXT.sha256 == TEXT_SHA256
    assert len(TEXT.lines) == 273


def test_quote_across_a_line_break_is_found() -> None:
    c = TEXT.cite("主人坐奠爵于篚")  # runs across lines 15 and 16
    assert (c.line, c.end_line) == (15, 16)


def test_missing_quote_is_an_error_with_the_closest_passage() -> None:
    with pytest.raises(QuoteError) as err:
        TEXT.cite("主人卒盥洗")
    assert "is not in xiangsheli.txt" in err.value.render()
    assert "主人卒盥" in err.value.render()


def test_ambiguous_quote_needs_a_line() -> None:
    with pytest.raises(QuoteError) as err:
        TEXT.cite("卒爵")
    assert "occurs" in err.value.render() and "line = N" in err.value.render()
    assert TEXT.cite("卒爵", line=50).line == 50


def test_line_that_does_not_hold_the_quote_is_an_error() -> None:
    with pytest.raises(QuoteError):
        TEXT.cite("卒爵", line=3)


def test_context_shows_the_quote_in_its_sentence() -> None:
    before, quote, after = TEXT.context(TEXT.cite("不贯不释"))
    assert quote == "不贯不释" and before.endswith("北面命曰：“") and after.startswith("！")


def test_occurrences_are_those_a_regular_expression_finds() -> None:
    """`occurrences` finds a quote with str.find and each line by bisection: the same (first line,
    last line) pairs, non-overlapping and left to right, as re.finditer of the escaped quote read
    against a map of every character to its line — for quotes across breaks, repeated ones, single
    characters, a blank-line edge, and a quote that overlaps itself."""
    import random
    import re

    flat = TEXT.flat
    line_of = TEXT._line_of  # every character's line (constraints/coverage.py reads it too)
    rng = random.Random(7)
    quotes = [flat[i : i + rng.randint(1, 9)] for i in rng.sample(range(len(flat) - 10), 400)]
    quotes += ["不贯不释", "宾坐取爵，适洗", "，", "之", "拜", "。"]
    for quote in quotes:
        expected = [(line_of[m.start()], line_of[m.end() - 1]) for m in re.finditer(re.escape(quote), flat)]
        assert TEXT.occurrences(quote) == expected, quote
    assert len(TEXT.occurrences("，")) > 100


def test_occurrences_do_not_overlap() -> None:
    text = SourceText.__new__(SourceText)
    text.__dict__.update(lines=["aaa", "", "aa"], flat="aaaaa")
    assert text.occurrences("aa") == [(1, 1), (1, 3)]  # at 0 and 2 (not 1): lines 1, then 1 to 3
