"""Text coverage: the clause split; what counts as enforcing, staging or describing a clause; the
committed floor of the share enforced; the command's JSON, worklist and --min."""

from __future__ import annotations

import dataclasses
import json
import tomllib
from pathlib import Path

import jsonschema
import pytest
from click.testing import CliRunner

from xiangshe import schemas
from xiangshe.constraints.coverage import (
    CATEGORIES,
    DESCRIPTIVE_PATH,
    clauses,
    coverage,
    document,
    load_descriptive,
    option_sets,
)
from xiangshe.constraints.rulebook import rulebook
from xiangshe.domain.errors import RulebookError
from xiangshe.domain.libretto.perform import Clause as Performed
from xiangshe.domain.text import TEXT
from xiangshe.fsm.table import Edge, Table, tables
from xiangshe.verify import cli

ROOT = Path(__file__).resolve().parents[1]
FLOOR = tomllib.loads((ROOT / "tests" / "coverage_floor.toml").read_text(encoding="utf-8"))
NOTHING: dict = {"performed": [], "audit": ()}  # no libretto, no scoring audit
SU_BIN = "宾朝服出迎，再拜；"  # a clause (L9) no rule quotes


@pytest.fixture(scope="module")
def measured():
    return coverage(rulebook(), tables())


def invoke(*args: str):
    return CliRunner().invoke(cli, list(args), catch_exceptions=False)


def clause_of(cov, text: str):
    return next(c for c in cov.clauses if c.text == text)


def a_rule(status: str, quote: str):
    base = next(r for r in rulebook() if r.encoded)
    meaning = base.meaning if status == "encoded" else None  # only an encoded rule has a template
    return dataclasses.replace(
        base, id=f"test-{status}", status=status, meaning=meaning, citations=(TEXT.cite(quote, 9),)
    )


def a_machine(source: str, dest: str, quote: str) -> Table:
    edge = Edge("迎", source, dest, TEXT.cite(quote, 9), 1)
    return Table("宾", "test", "a test machine", "test.toml", source, (edge,))


# -- the clauses -----------------------------------------------------------------------------------


def test_clauses_tile_the_text() -> None:
    cls = clauses()
    assert cls[0].text == "乡射礼第五"
    assert "".join(c.text for c in cls).replace(" ", "") == TEXT.flat.replace(" ", "")
    speech = next(c for c in cls if "不贯不释" in c.text)
    assert speech.text.endswith("“不贯不释！”")  # a quoted speech stays in its clause


# -- what enforces a clause ------------------------------------------------------------------------


@pytest.mark.parametrize("status", ["deferred", "descriptive"])
def test_a_clause_quoted_only_by_a_rule_not_encoded_is_not_enforced(status: str) -> None:
    cov = coverage([a_rule(status, SU_BIN)], [], **NOTHING)
    c = clause_of(cov, SU_BIN)
    assert c.cited == [f"rule test-{status}"] and c.enforced_by == []
    assert c.category == "unaccounted" and cov.totals()["enforced"] == 0
    assert clause_of(coverage([a_rule("encoded", SU_BIN)], [], **NOTHING), SU_BIN).category == "enforced"


def test_a_clause_quoted_only_by_a_self_loop_is_not_enforced() -> None:
    loop = coverage([], [a_machine("门外", "门外", SU_BIN)], **NOTHING)
    c = clause_of(loop, SU_BIN)
    assert c.cited == ["machine 宾 迎: 门外→门外"] and c.category == "unaccounted"
    moves = coverage([], [a_machine("门内", "门外", SU_BIN)], **NOTHING)
    assert clause_of(moves, SU_BIN).enforced_by == ["machine 宾 迎: 门内→门外"]


def test_the_scoring_audit_enforces_what_it_quotes() -> None:
    cov = coverage([], [], performed=[], audit=(("不贯不释", None),))
    assert next(c for c in cov.clauses if "不贯不释" in c.text).enforced_by == ["the scoring audit"]


def test_staged_only_from_the_libretto_and_its_reasons_kept() -> None:
    enacted = Performed(TEXT.cite("宾朝服出迎", 9), events=2)
    skipped = Performed(TEXT.cite("宾送，再拜", 9), reason="a test reason")
    cov = coverage([], [], performed=[("one", [enacted, skipped])], audit=())
    c = clause_of(cov, SU_BIN)
    assert (c.category, c.staged_in, c.events) == ("staged", ["one"], 2)
    gone = next(c for c in cov.clauses if c.text == "宾送，再拜。" and c.line == 9)
    assert gone.category == "unaccounted" and gone.not_enacted == ["a test reason"]
    assert SU_BIN in [w.text for w in cov.worklist] and gone in cov.worklist
    # the strongest wins: an encoded rule over the libretto
    both = coverage([a_rule("encoded", SU_BIN)], [], performed=[("one", [enacted])], audit=())
    assert clause_of(both, SU_BIN).category == "enforced"


def test_enacting_a_descriptive_clause_leaves_it_descriptive(tmp_path: Path) -> None:
    """So that enacting more of the text in the libretto never lowers the share enforced."""
    marked = marks(tmp_path, ("羞唯所有", None))
    served = [("one", [Performed(TEXT.cite("羞唯所有"), events=1)])]
    alone, staged = (coverage([], [], performed=p, audit=(), descriptive=marked) for p in ([], served))
    assert clause_of(staged, "羞唯所有。").category == "descriptive"
    assert staged.totals()["normative"] == alone.totals()["normative"] == len(staged.clauses) - 1


def test_the_bundled_option_sets_are_the_canonical_and_every_variant() -> None:
    names = [n for n, _ in option_sets()]
    manifest = tomllib.loads((ROOT / "traces" / "variants" / "variants.toml").read_text(encoding="utf-8"))
    assert names == ["canonical", *manifest]


def test_the_libretto_stages_what_it_enacts(measured) -> None:
    """Φ01 is in the libretto: its first act is staged or enforced, never unaccounted."""
    c = clause_of(measured, "主人戒宾，宾出迎，再拜。")
    assert "canonical" in c.staged_in and c.category in ("enforced", "staged")


# -- descriptive clauses ---------------------------------------------------------------------------


def marks(tmp_path: Path, *entries: tuple[str, int | None]) -> Path:
    path = tmp_path / "descriptive.toml"
    path.write_text(
        "".join(
            f'[[clause]]\nquote = "{q}"\nreason = "a reason"\n' + (f"line = {n}\n" if n else "") for q, n in entries
        ),
        encoding="utf-8",
    )
    return path


@pytest.mark.parametrize("quote", ["乡射之礼。主人戒宾", "主人戒宾", "宾出迎，再拜。主人答再拜"])
def test_a_descriptive_mark_must_be_a_whole_clause(quote: str, tmp_path: Path) -> None:
    with pytest.raises(RulebookError, match="not a whole clause"):
        load_descriptive(marks(tmp_path, (quote, None)))


def test_a_descriptive_mark_of_repeated_words_needs_its_line(tmp_path: Path) -> None:
    with pytest.raises(RulebookError, match="add line"):
        load_descriptive(marks(tmp_path, ("主人阼阶上答拜。", None)))
    [(index, _)] = load_descriptive(marks(tmp_path, ("主人阼阶上答拜", 23)))
    assert clauses()[index].line == 23


def test_the_bundled_descriptive_marks_each_mark_one_whole_clause() -> None:
    entries = tomllib.loads(DESCRIPTIVE_PATH.read_text(encoding="utf-8"))["clause"]
    marked = load_descriptive()
    assert len({i for i, _ in marked}) == len(entries)
    assert clauses()[marked[[e["quote"] for e in entries].index("乡射之礼。")][0]].text == "乡射之礼。"
    for e in entries:  # say why in plain words: no citations of sections (§) of files the project does not have
        assert "§" not in e["reason"] and ".md" not in e["reason"], e


# -- the totals and the floor ----------------------------------------------------------------------


def test_the_categories_partition_the_clauses(measured) -> None:
    totals = measured.totals()
    assert totals["clauses"] == sum(totals[k] for k in ("descriptive", "enforced", "staged_only", "unaccounted"))
    assert totals["normative"] == totals["clauses"] - totals["descriptive"]
    assert totals["uncovered"] == totals["unaccounted"]
    assert {c.category for c in measured.clauses} <= set(CATEGORIES)
    assert [c.category for c in measured.worklist] and all(
        c.category in ("staged", "unaccounted") for c in measured.worklist
    )


def test_share_enforced_does_not_drop_below_the_committed_floor(measured) -> None:
    totals = measured.totals()
    assert totals["percent_enforced"] >= FLOOR["percent_enforced"], [(c.line, c.text) for c in measured.worklist][:20]


# -- the command -----------------------------------------------------------------------------------


def test_coverage_json_validates_and_keeps_the_first_versions_keys() -> None:
    doc = json.loads(invoke("coverage", "--format", "json").stdout)
    validator = jsonschema.Draft202012Validator(schemas.load("coverage"))
    validator.validate(doc)
    assert {"clauses", "enacted", "cited", "descriptive", "uncovered", "percent_accounted"} <= set(doc)
    assert len(doc["clauses_detail"]) == doc["clauses"]
    assert len(doc["worklist"]) == doc["staged_only"] + doc["unaccounted"]
    doc["worklist"][0]["category"] = "cited"
    assert not validator.is_valid(doc)


def test_the_worklist_lists_the_clauses_nothing_enforces(measured) -> None:
    out = invoke("coverage").output
    lines = [x for x in out.splitlines() if x.startswith("xiangsheli.txt:")]
    assert len(lines) == len(measured.worklist)
    assert [x.split("」")[0] + "」" for x in lines] == [
        f"xiangsheli.txt:{c.line}: {c.category}  「{c.text}」" for c in measured.worklist
    ]
    numbers = [int(x.split(":")[1]) for x in lines]
    assert numbers == sorted(numbers) and "\n" + lines[0] in out  # in the text's order
    every = invoke("coverage", "--all").output
    assert every.count("\nxiangsheli.txt:") + every.startswith("xiangsheli.txt:") == len(measured.clauses)
    assert "xiangsheli.txt:1: descriptive  「乡射礼第五」" in every


def test_min_applies_to_the_share_enforced(measured) -> None:
    share = measured.totals()["percent_enforced"]
    assert share < 100
    assert invoke("coverage", "--min", str(min(100, share + 0.5))).exit_code == 1
    assert invoke("coverage", "--min", str(share - 0.5)).exit_code == 0
    assert invoke("coverage", "--min", str(share)).exit_code == 0
    assert invoke("coverage").exit_code == 0


def test_document_is_what_the_command_prints(measured) -> None:
    assert json.loads(invoke("coverage", "--format", "json").stdout) == json.loads(json.dumps(document(measured)))
