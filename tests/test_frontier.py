"""`next` and `complete` (constraints/frontier.py, reports/frontier.py): from a partial staging, what
may come next and what is still owed, and the staging completed from the libretto and checked.

Both work from any prefix of the canonical ceremony and of each variant: the default run takes a
sample (every 1000th line of the canonical, one prefix of each variant, each at another depth);
`-m slow` every 40th line of each of them. The inner loop (`-m "not z3 and not browser"`) completes
the canonical's five prefixes (one in each stretch of the ceremony, from its first event to its last
thousand lines) and every fourth variant's (four depths, early to late); the other variants'
are `wide`."""

from __future__ import annotations

import json
from pathlib import Path

import jsonschema
import pytest
from click.testing import CliRunner
from sampling import inner_or_wide

from xiangshe import schemas
from xiangshe.constraints.check import check_trace
from xiangshe.constraints.frontier import align, complete, event_key, next_steps, prefix_of
from xiangshe.constraints.rulebook import active_rules
from xiangshe.domain import bundled
from xiangshe.domain.parse import parse_lines
from xiangshe.domain.text import TEXT
from xiangshe.verify import cli

ROOT = Path(__file__).resolve().parents[1]
CANONICAL = bundled.CANONICAL
VARIANTS = sorted((ROOT / "traces" / "variants").glob("*.trace"))
LINES = {p.name: p.read_text(encoding="utf-8").splitlines() for p in [CANONICAL, *VARIANTS]}


def invoke(*args: str):
    return CliRunner().invoke(cli, list(args), catch_exceptions=False)


def prefix(path: Path, n: int) -> str:
    return "\n".join(LINES[path.name][:n]) + "\n"


def line_of(path: Path, text: str, after: int = 0) -> int:
    """The 1-based line of `path` whose event part starts with `text` (after line `after`)."""
    for i, row in enumerate(LINES[path.name][after:], after + 1):
        if row.partition("#")[0].strip() == text:
            return i
    raise AssertionError(f"{text} not in {path.name}")


def assert_completes(path: Path, n: int, to: str = "phase", recheck: bool = True) -> str:
    """The prefix of `path` up to line n completes, holds, re-checks, and keeps the prefix."""
    original = prefix(path, n)
    trace = parse_lines(original, f"{path.stem}-{n}.trace")
    done = complete(trace, active_rules(), None, to)
    assert done.departure is None, (path.name, n, done.departure)
    assert done.holds and done.text is not None, (path.name, n, done.result and done.result.findings[:3])
    assert prefix_of(done.text, original, done.header), (path.name, n)
    if recheck:  # complete checked it before returning it; check it again, independently
        again = check_trace(parse_lines(done.text, "completed.trace"), active_rules())
        assert again.ok, again.findings[:3]
    return done.text


# -- complete: the sample (default) and the breadth (slow) ------------------------------------------


def first_event(path: Path) -> int:
    """A staging with no events is bad input (the parser's contract): prefixes start at the first."""
    start = next(i for i, row in enumerate(LINES[path.name], 1) if row.startswith("phase "))
    return next(i for i, row in enumerate(LINES[path.name][start:], start + 1) if row and not row.startswith("#"))


SAMPLE = [(CANONICAL, n) for n in range(first_event(CANONICAL), len(LINES[CANONICAL.name]) + 1, 1000)] + [
    (v, len(LINES[v.name]) * (i + 1) // (len(VARIANTS) + 1)) for i, v in enumerate(VARIANTS)
]


#: the inner loop's: the canonical's prefixes and every fourth variant's
INNER = {(p, n) for p, n in SAMPLE if p == CANONICAL or VARIANTS.index(p) % 4 == 0}


@pytest.mark.parametrize("case", inner_or_wide(SAMPLE, INNER.__contains__, lambda c: f"{c[0].stem}:{c[1]}"))
def test_a_prefix_completes_to_its_phase_and_holds(case: tuple[Path, int]) -> None:
    assert_completes(*case, recheck=False)


BREADTH = [(p, n) for p in [CANONICAL, *VARIANTS] for n in range(first_event(p), len(LINES[p.name]) + 1, 40)]


@pytest.mark.slow
@pytest.mark.parametrize(("path", "n"), BREADTH, ids=[f"{p.stem}:{n}" for p, n in BREADTH])
def test_every_40th_prefix_completes(path: Path, n: int) -> None:
    assert_completes(path, n)
    trace = parse_lines(prefix(path, n), "p.trace")
    fr = next_steps(trace, active_rules())
    assert fr.aligned and not fr.findings


@pytest.mark.parametrize("path", [CANONICAL, VARIANTS[0], VARIANTS[-1]], ids=lambda p: p.stem)
def test_to_end_gives_back_the_bundled_staging(path: Path) -> None:
    """From a line prefix, --to end is the libretto's whole performance: the bundled file itself."""
    text = assert_completes(path, len(LINES[path.name]) // 2, to="end")
    assert text == path.read_text(encoding="utf-8")


def test_a_fragment_line_is_the_only_line_changed() -> None:
    """A prefix declaring a fragment that reaches further than it stages gets its line narrowed; a
    prefix that declares none gets one inserted (its other lines unchanged); --to end from the
    start of the ceremony comments the fragment line out: the result is a whole ceremony."""
    n = line_of(CANONICAL, "主人 实 爵1 at=席前")
    lines = LINES[CANONICAL.name][:n]
    lines.insert(4, "fragment Φ01–Φ09")
    original = "\n".join(lines) + "\n"
    done = complete(parse_lines(original, "f.trace"), active_rules(), None, "phase")
    assert done.holds and done.header == ("replaced", 5, "fragment Φ01–Φ05")
    assert prefix_of(done.text, original, done.header)
    whole = complete(parse_lines(original, "f.trace"), active_rules(), None, "end")
    assert whole.holds and whole.header is not None and whole.header[0] == "removed"
    assert whole.text.splitlines()[4].startswith("# fragment Φ01–Φ09")
    plain = complete(parse_lines(prefix(CANONICAL, n), "p.trace"), active_rules(), None, "phase")
    assert plain.header is not None and plain.header[0] == "inserted"


# -- next at known points -------------------------------------------------------------------------


def test_next_after_the_cup_of_the_bin_is_filled() -> None:
    """Right after the 主人 fills the 宾's cup: the libretto has the 主人 offer it next, and the cup
    filled and not drunk is owed, the 宾's 卒爵 quoted with its line."""
    n = line_of(CANONICAL, "主人 实 爵1 at=席前")
    fr = next_steps(parse_lines(prefix(CANONICAL, n), "p.trace"), active_rules())
    assert fr.aligned and not fr.findings and fr.phase == "Φ05"
    first = next(c for c in fr.candidates if c.first)
    assert first.event == "主人 献 爵1 to=宾 face=西北面" and not first.breaks
    assert [c.quote for c in first.cites] == ["主人坐取爵，实之宾席之前，西北面献宾"]
    cup = next(o for o in fr.obligations if o.kind == "cup")
    assert "爵1" in cup.what and "宾 卒爵 爵1" in cup.what and cup.line == n
    [quote] = cup.cites
    assert quote.quote == "宾西阶上北面坐卒爵，兴，坐奠爵，遂拜，执爵兴" and quote.line == 23
    assert TEXT.cite(quote.quote, quote.line) == quote  # located in the text, not typed


def test_next_marks_what_would_break_a_rule_now() -> None:
    """The 主人's next event in the libretto (答拜 after the 宾 has drunk) would break a rule if it
    came before the 宾 drinks: it is offered, marked with what it would break."""
    n = line_of(CANONICAL, "主人 疑立 at=阼阶之东")
    fr = next_steps(parse_lines(prefix(CANONICAL, n), "p.trace"), active_rules())
    zhu = next(c for c in fr.candidates if c.who == "主人")
    assert not zhu.first and zhu.breaks
    assert next(c for c in fr.candidates if c.first).who == "宾"


def test_next_lists_a_pending_rule_and_an_unfinished_round() -> None:
    n = line_of(CANONICAL, "宾 卒爵 爵1 at=西阶上") + 2
    fr = next_steps(parse_lines(prefix(CANONICAL, n), "p.trace"), active_rules())
    rules = [o for o in fr.obligations if o.kind == "rule"]
    assert rules and all(o.rule and o.cites for o in rules)
    r = next(r for r in active_rules() if r.id == rules[0].rule)
    assert rules[0].cites[0] == r.citations[0]
    m = line_of(CANONICAL, "phase Φ25")
    fr = next_steps(parse_lines(prefix(CANONICAL, m + 3), "p.trace"), active_rules())
    [rnd] = [o for o in fr.obligations if o.kind == "round"]
    assert "round 2" in rnd.what and "Φ35" in rnd.what and rnd.cites


def test_options_are_inferred_from_the_cast_without_the_header_line() -> None:
    """Without the `Options(…)` line, the cast and pairs give who takes part and the text's branches
    are tried until one performance holds the prefix (here: the left wins round 2)."""
    path = ROOT / "traces" / "variants" / "zuo-sheng.trace"
    n = line_of(path, "phase Φ34")
    lines = [r for r in LINES[path.name][:n] if "Options(" not in r]
    al = align(parse_lines("\n".join(lines) + "\n", "z.trace"))
    assert al.source == "cast" and al.departure is None and al.script.options.outcome[0] == "左"


# -- departures and bad input ----------------------------------------------------------------------


def test_a_prefix_that_leaves_the_libretto_is_not_completed(tmp_path: Path) -> None:
    n = line_of(CANONICAL, "主人 实 爵1 at=席前")
    lines = LINES[CANONICAL.name][: n + 3]
    lines[n - 1], lines[n] = lines[n], lines[n - 1]  # 献 before 实
    src = tmp_path / "swapped.trace"
    src.write_text("\n".join(lines) + "\n", encoding="utf-8")
    out = tmp_path / "out.trace"
    result = invoke("complete", str(src), "-o", str(out))
    assert result.exit_code in (1, 3)
    assert not out.exists()
    fine = tmp_path / "fine.trace"  # the same events, in order, but one the libretto does not have
    lines = LINES[CANONICAL.name][:n] + ["宾 立 face=东面"]  # (a 拜 of the host, cup in hand, breaks R345c)
    fine.write_text("\n".join(lines) + "\n", encoding="utf-8")
    result = invoke("complete", str(fine))
    assert result.exit_code == 3, result.output
    assert f"{fine}:{n + 1}: note: the staging departs from the libretto here" in result.stderr
    assert "主人 献 爵1" in result.stderr and result.stdout == ""
    doc = json.loads(invoke("complete", "--format", "json", str(fine)).stdout)
    validate("complete", doc)
    assert not doc["holds"] and doc["text"] is None and doc["departure"]["line"] == n + 1
    doc = json.loads(invoke("next", "--format", "json", str(fine)).stdout)
    validate("next", doc)
    assert not doc["aligned"] and doc["departure"]["expected"] == "主人 献 爵1 to=宾 face=西北面"


def test_bad_input_exits_2_located(tmp_path: Path) -> None:
    src = tmp_path / "p.trace"
    src.write_text(prefix(CANONICAL, 200), encoding="utf-8")
    assert invoke("complete", str(tmp_path)).exit_code == 2
    assert invoke("next", str(tmp_path)).exit_code == 2
    result = invoke("complete", str(src), "-o", str(src), "--force")
    assert result.exit_code == 2 and "never changes its input" in result.stderr
    assert src.read_text(encoding="utf-8") == prefix(CANONICAL, 200)
    jsonl = tmp_path / "p.jsonl"
    jsonl.write_text('{"actor": "主人", "act": "戒", "to": "宾"}\n', encoding="utf-8")
    assert invoke("complete", str(jsonl)).exit_code == 2
    bad = tmp_path / "bad.trace"
    bad.write_text("主人 戒 to=宾\n主人 飞 to=宾\n", encoding="utf-8")
    result = invoke("next", str(bad))
    assert result.exit_code == 2 and f"{bad}:2: error" in result.stderr
    out = tmp_path / "o.trace"
    out.write_text("mine\n", encoding="utf-8")
    result = invoke("complete", str(src), "-o", str(out))
    assert result.exit_code == 2 and out.read_text(encoding="utf-8") == "mine\n"


def test_a_prefix_that_breaks_a_rule_exits_1(tmp_path: Path) -> None:
    n = line_of(CANONICAL, "主人 实 爵1 at=席前")
    lines = LINES[CANONICAL.name][:n] + ["主人 奠于篚 爵1"]  # a full cup put back in the basket
    src = tmp_path / "broken.trace"
    src.write_text("\n".join(lines) + "\n", encoding="utf-8")
    assert invoke("next", str(src)).exit_code == 1
    result = invoke("complete", str(src))
    assert result.exit_code == 1 and result.stdout == ""


# -- through the CLI, with the schemas --------------------------------------------------------------


def validate(name: str, doc: dict) -> None:
    schema = schemas.load(name)
    jsonschema.Draft202012Validator.check_schema(schema)
    errors = list(jsonschema.Draft202012Validator(schema).iter_errors(doc))
    assert not errors, jsonschema.exceptions.best_match(errors)


def test_cli_next_text_and_json(tmp_path: Path) -> None:
    n = line_of(CANONICAL, "主人 实 爵1 at=席前")
    src = tmp_path / "p.trace"
    src.write_text(prefix(CANONICAL, n), encoding="utf-8")
    result = invoke("next", str(src))
    assert result.exit_code == 0, result.output
    assert "→ 主人: 主人 献 爵1 to=宾 face=西北面" in result.stdout
    assert "「宾西阶上北面坐卒爵，兴，坐奠爵，遂拜，执爵兴」 (xiangsheli.txt:L23)" in result.stdout
    result = invoke("next", "--format", "json", str(src))
    doc = json.loads(result.stdout)
    validate("next", doc)
    assert doc["aligned"] and doc["phase"] == "Φ05" and doc["next"][0]["first"]
    assert any(o["kind"] == "cup" for o in doc["obligations"])


def test_cli_complete_writes_a_staging_that_check_passes(tmp_path: Path) -> None:
    src = tmp_path / "p.trace"
    src.write_text(prefix(CANONICAL, 200), encoding="utf-8")
    out = tmp_path / "done.trace"
    result = invoke("complete", str(src), "-o", str(out), "--format", "json")
    assert result.exit_code == 0, result.output
    doc = json.loads(result.stdout)
    validate("complete", doc)
    assert doc["holds"] and doc["until"] == "Φ05" and doc["output"] and doc["text"] is None
    assert doc["header"] == {"action": "inserted", "line": 6, "text": "fragment Φ01–Φ05"}
    assert invoke("check", str(out)).exit_code == 0
    assert src.read_text(encoding="utf-8") == prefix(CANONICAL, 200)
    result = invoke("complete", str(src), "--to", "end")
    assert result.exit_code == 0 and result.stdout == CANONICAL.read_text(encoding="utf-8")
    assert "the completion holds" in result.stderr


def test_event_key_ignores_the_order_of_attributes() -> None:
    assert event_key("主人 献 爵1 to=宾 face=西北面") == event_key("主人 献 face=西北面 爵1 to=宾")
    assert event_key("主人 献 爵1") != event_key("宾 献 爵1")


def test_next_at_the_end_of_a_phase_offers_the_next_phase_and_complete_adds_nothing() -> None:
    end = line_of(CANONICAL, "宾 拜 to=主人 n=2", line_of(CANONICAL, "宾 送 to=主人"))  # the last event of Φ01
    trace = parse_lines(prefix(CANONICAL, end), "p.trace")
    fr = next_steps(trace, active_rules())
    [first] = fr.candidates
    assert first.first and first.event == "弟子7 设 席1 to=宾 face=南面" and not first.breaks
    assert {o.kind for o in fr.obligations} >= {"clause"}
    done = complete(trace, active_rules(), None, "phase")
    assert done.holds and done.added_events == 0 and done.until == "Φ01"
