"""`check` as users of linters expect it (README "Using it like a linter"): --select/--ignore, the
configuration file, inline suppressions with reasons, baselines and GitHub annotations — each
through the command line, with its bad-input cases (exit 2, located, the user's files untouched).
"""

from __future__ import annotations

import json
from pathlib import Path

import jsonschema
import pytest
import sarif as sarif_schema
from click.testing import CliRunner

from xiangshe import schemas
from xiangshe.constraints.rulebook import active_rules
from xiangshe.constraints.select import in_force
from xiangshe.domain.parse import parse_file, to_jsonl
from xiangshe.fsm.table import tables
from xiangshe.verify import cli

ROOT = Path(__file__).resolve().parents[1]
VIOLATION = ROOT / "traces" / "violations" / "bu-guan-bu-shi.trace"  # R120 at line 40
LINE = 40


def invoke(*args: str):
    return CliRunner().invoke(cli, ["check", *args], catch_exceptions=False)


@pytest.fixture
def here(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A repository of stagings of its own (the configuration search stops at its .git)."""
    (tmp_path / ".git").mkdir()
    monkeypatch.chdir(tmp_path)
    (tmp_path / "plan.trace").write_text(VIOLATION.read_text(encoding="utf-8"), encoding="utf-8")
    return tmp_path


def doc(*args: str) -> tuple[dict, int]:
    result = invoke("--format", "json", *args)
    assert result.exit_code in (0, 1), result.output
    d = json.loads(result.stdout)
    jsonschema.Draft202012Validator(schemas.load("check")).validate(d)
    return d, result.exit_code


def rules_of(d: dict, key: str = "violations") -> set[str]:
    return {v["rule"] for t in d["traces"] for v in t[key]}


def edit_line(path: Path, n: int, tail: str) -> None:
    lines = path.read_text(encoding="utf-8").splitlines()
    lines[n - 1] += tail
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")


# -- --select / --ignore ----------------------------------------------------------------------------


@pytest.mark.usefixtures("here")
def test_by_default_every_check_applies_and_json_says_so() -> None:
    d, code = doc("plan.trace")
    assert code == 1 and rules_of(d) == {"bu-guan-bu-shi"}
    assert d["traces"][0]["not_applied"] == [] and d["traces"][0]["suppressed"] == []
    assert "baseline" not in d


@pytest.mark.parametrize("term", ["bu-guan-bu-shi", "不贯不释", "R120", "r120", "E", "scoring", "R12", "ALL"])
@pytest.mark.usefixtures("here")
def test_ignore_by_id_name_catalogue_or_group(term: str) -> None:
    result = invoke("plan.trace", "--ignore", term)
    assert result.exit_code == 0, result.output
    assert "ok: 1 trace" in result.output
    assert "not applied: " in result.output and f"(--ignore {term})" in result.output
    if term in ("bu-guan-bu-shi", "不贯不释", "R120", "r120"):  # what was not applied is said
        n = len(in_force(active_rules()))
        assert f"not applied: bu-guan-bu-shi (R120) — {n - 1} of {n} checks applied" in result.output
    d, _ = doc("plan.trace", "--ignore", term)
    assert "bu-guan-bu-shi" in d["traces"][0]["not_applied"]


@pytest.mark.usefixtures("here")
def test_select_applies_only_what_it_names() -> None:
    result = invoke("plan.trace", "--select", "machine")
    assert result.exit_code == 0
    machines = len(tables())
    assert f"applied only: machine (all {machines}) — {machines} of " in result.output
    assert "(--select machine)" in result.output
    d, code = doc("plan.trace", "--select", "R120", "--select", "machine.jue,audit")
    assert code == 1
    not_applied = set(d["traces"][0]["not_applied"])
    assert not {"bu-guan-bu-shi", "machine.jue", "audit.r132", "audit.n01"} & not_applied
    assert {"machine.shi", "wu-jie"} <= not_applied


@pytest.mark.usefixtures("here")
def test_select_and_ignore_combine_as_in_ruff() -> None:
    d, code = doc("plan.trace", "--select", "ALL", "--ignore", "不贯不释")
    assert code == 0 and d["traces"][0]["not_applied"] == ["bu-guan-bu-shi"]


MIXED_IDS = {"machine.shi", "machine.suan", "machine.bi", "audit.r132", "audit.n01"}


@pytest.fixture
def mixed(here: Path) -> str:
    from test_formats import MIXED

    (here / "mixed.trace").write_text(MIXED, encoding="utf-8")
    return "mixed.trace"


def test_machines_and_the_audit_are_selected_by_their_ids(mixed: str) -> None:
    d, _ = doc(mixed)
    assert MIXED_IDS <= rules_of(d)
    d, _ = doc(mixed, "--ignore", "machine.shi,audit.r132")
    assert not {"machine.shi", "audit.r132"} & rules_of(d) and {"machine.suan", "audit.n01"} <= rules_of(d)
    d, _ = doc(mixed, "--ignore", "machine", "--ignore", "告贤获,乘矢")
    assert not any(r.startswith(("machine.", "audit.")) for r in rules_of(d))
    d, _ = doc(mixed, "--select", "audit")
    assert rules_of(d) == {"audit.r132", "audit.n01"}


def test_sarif_disables_the_checks_not_applied_and_validates(mixed: str) -> None:
    validator = sarif_schema.validator()
    result = invoke(mixed, "--format", "sarif", "--ignore", "machine.shi")
    log = json.loads(result.stdout)
    assert not list(validator.iter_errors(log))
    [run] = log["runs"]
    [inv] = run["invocations"]
    assert {
        "descriptor": {
            "id": "machine.shi",
            "index": next(i for i, d in enumerate(run["tool"]["driver"]["rules"]) if d["id"] == "machine.shi"),
        },
        "configuration": {"enabled": False},
    } in inv["ruleConfigurationOverrides"]
    assert "machine.shi" not in {r["ruleId"] for r in run["results"]}


# -- the configuration file -------------------------------------------------------------------------


def test_pyproject_table_is_found_walking_up(here: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (here / "pyproject.toml").write_text(
        '[project]\nname = "plans"\n\n[tool.xiangshe]\nignore = ["R120"]\n', encoding="utf-8"
    )
    (here / "deep" / "er").mkdir(parents=True)
    monkeypatch.chdir(here / "deep" / "er")
    result = invoke(str(here / "plan.trace"))
    assert result.exit_code == 0, result.output
    assert "ignore R120 in " in result.output and "pyproject.toml" in result.output


def test_xiangshe_toml_takes_precedence_and_a_pyproject_without_the_table_is_passed(here: Path, monkeypatch) -> None:
    (here / "pyproject.toml").write_text('[tool.xiangshe]\nselect = ["machine"]\n', encoding="utf-8")
    d, code = doc("plan.trace")
    assert code == 0 and "bu-guan-bu-shi" in d["traces"][0]["not_applied"]
    (here / "xiangshe.toml").write_text('ignore = ["wu-jie"]\n', encoding="utf-8")
    d, code = doc("plan.trace")
    assert code == 1 and d["traces"][0]["not_applied"] == ["wu-jie"]
    (here / "xiangshe.toml").unlink()
    sub = here / "sub"
    sub.mkdir()
    (sub / "pyproject.toml").write_text('[project]\nname = "x"\n', encoding="utf-8")
    monkeypatch.chdir(sub)
    d, code = doc(str(here / "plan.trace"))
    assert code == 0  # the parent's [tool.xiangshe]


def test_the_search_stops_at_the_repository_root(here: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (here / "xiangshe.toml").write_text('ignore = ["R120"]\n', encoding="utf-8")
    inner = here / "inner"
    (inner / ".git").mkdir(parents=True)
    monkeypatch.chdir(inner)
    assert invoke(str(here / "plan.trace")).exit_code == 1  # another repository: not its config


def test_the_command_line_overrides_the_file(here: Path) -> None:
    (here / "xiangshe.toml").write_text(
        'ignore = ["R120"]\nselect = ["ALL"]\nformat = "json"\nreadings = { guan = "hou" }\n', encoding="utf-8"
    )
    result = invoke("plan.trace")
    d = json.loads(result.stdout)  # format from the file
    assert result.exit_code == 0 and d["readings"]["guan"] == "hou"
    assert "bu-guan-bu-shi-hou" in d["traces"][0]["not_applied"]
    result = invoke("plan.trace", "--ignore", "machine", "--format", "text", "--reading", "guan=zheng")
    assert result.exit_code == 1 and "readings: guan=zheng" in result.output
    assert f"machine (all {len(tables())})" in result.output


def test_config_and_isolated(here: Path) -> None:
    (here / "xiangshe.toml").write_text('ignore = ["R120"]\n', encoding="utf-8")
    (here / "other.toml").write_text('ignore = ["wu-jie"]\n', encoding="utf-8")
    assert invoke("plan.trace").exit_code == 0
    assert invoke("plan.trace", "--isolated").exit_code == 1
    d, code = doc("plan.trace", "--config", "other.toml")
    assert code == 1 and d["traces"][0]["not_applied"] == ["wu-jie"]


def test_per_file_ignores(here: Path) -> None:
    (here / "drafts").mkdir()
    (here / "drafts" / "d.trace").write_text(VIOLATION.read_text(encoding="utf-8"), encoding="utf-8")
    (here / "xiangshe.toml").write_text(
        '[per-file-ignores]\n"drafts/*.trace" = ["R120"]\n"plan.trace" = ["E"]\n', encoding="utf-8"
    )
    d, code = doc("plan.trace", "drafts/d.trace")
    assert code == 0
    assert all("bu-guan-bu-shi" in t["not_applied"] for t in d["traces"])
    result = invoke("plan.trace", "drafts/d.trace")
    assert "drafts/d.trace: also not applied (per-file-ignores): bu-guan-bu-shi (R120)" in result.output


BAD_CONFIGS = [
    ("xiangshe.toml", 'select = ["R120"]\nignroe = ["R121"]\n', 2, "unknown key ignroe", "did you mean ignore"),
    ("xiangshe.toml", 'ignore = "R120"\n', 1, "ignore is a list of rules", None),
    ("xiangshe.toml", 'ignore = ["R120", 3]\n', 1, "ignore is a list of rules", None),
    (
        "xiangshe.toml",
        '# rules\nselect = [\n  "R120",\n]\nignore = ["bu-guan-bu-sh"]\n',
        5,
        "unknown rule bu-guan-bu-sh",
        "did you mean bu-guan-bu-shi",
    ),
    ("xiangshe.toml", 'format = "gihub"\n', 1, "format = 'gihub'", "did you mean github"),
    ("xiangshe.toml", 'readings = { gaun = "zheng" }\n', 1, "unknown reading point gaun", "did you mean guan"),
    ("xiangshe.toml", '[readings]\nguan = "jin"\n', 2, "cannot be checked", None),
    ("xiangshe.toml", '[readings]\nguan = "zhang"\n', 2, "guan has no reading 'zhang'", "readings of guan"),
    ("xiangshe.toml", 'per-file-ignores = ["a"]\n', 1, "per-file-ignores is a table", None),
    (
        "xiangshe.toml",
        '[per-file-ignores]\n"*.trace" = ["machine.jeu"]\n',
        2,
        "unknown rule machine.jeu",
        "did you mean machine.jue",
    ),
    ("xiangshe.toml", 'baseline = 1\n', 1, "baseline is the path", None),
    ("xiangshe.toml", 'select = ["R120"\n', 1, "not valid TOML", None),
    ("xiangshe.toml", 'a = 1\na = 2\n', 2, "not valid TOML", None),
    (
        "pyproject.toml",
        '[project]\nname = "p"\n\n[tool.xiangshe]\nselct = ["R120"]\n',
        5,
        "unknown key selct",
        "did you mean select",
    ),
    ("pyproject.toml", '[tool]\nxiangshe = 1\n', 2, "tool.xiangshe is a table", None),
    (".xiangshe.toml", 'ignore = ["R999"]\n', 1, "unknown rule R999", "did you mean"),
]


@pytest.mark.parametrize("case", BAD_CONFIGS, ids=lambda c: f"{c[0]}-{c[2]}-{c[3][:24]}")
def test_a_bad_configuration_is_bad_input_located_at_its_line(here: Path, case: tuple) -> None:
    name, text, line, fragment, hint = case
    if name == "pyproject.toml" and "xiangshe = 1" in text:
        (here / "pyproject.toml").write_text(text, encoding="utf-8")
        result = invoke("plan.trace", "--config", "pyproject.toml")  # found only when named
    else:
        (here / name).write_text(text, encoding="utf-8")
        result = invoke("plan.trace")
    assert result.exit_code == 2, result.output
    assert result.output.startswith(f"{name}:{line}: error: "), result.output
    assert fragment in result.output and "Traceback" not in result.output
    if hint:
        assert hint in result.output
    assert (here / name).read_text(encoding="utf-8") == text


@pytest.mark.parametrize(
    ("args", "expected"),
    [
        (["--select", "R12O"], "--select: error: unknown rule R12O\n  did you mean R120?"),
        (["--ignore", "R120，machine.jeu"], "unknown rule machine.jeu"),
        (["--ignore", "R120,machine.jeu"], "--ignore: error: unknown rule machine.jeu\n  did you mean machine.jue"),
        (["--select", "ordering,musci"], "did you mean music"),
        (["--config", "no-such.toml"], "no-such.toml: error: no such file"),
        (["--config", "xiangshe.toml", "--isolated"], "--isolated: error:"),
        (["--force"], "error: --force goes with --write-baseline"),
        (["--baseline", "no-such.jsonl"], "no-such.jsonl: error: no such file"),
    ],
)
def test_bad_options_are_bad_input(here: Path, args: list[str], expected: str) -> None:
    (here / "xiangshe.toml").write_text("", encoding="utf-8")
    result = invoke("plan.trace", *args)
    assert result.exit_code == 2 and expected in result.output, result.output
    assert "Traceback" not in result.output


# -- inline suppressions ---------------------------------------------------------------------------

REASON = "依郑注，中即释获"


def test_a_suppression_on_the_line_suppresses_with_its_reason(here: Path) -> None:
    edit_line(here / "plan.trace", LINE, f"   # xiangshe: ignore[R120] {REASON}")
    result = invoke("plan.trace")
    assert result.exit_code == 0, result.output
    assert "suppressed: 1 finding by inline suppressions" in result.output
    d, _ = doc("plan.trace")
    [s] = d["traces"][0]["suppressed"]
    assert (s["rule"], s["line"], s["suppressed"], s["kind"], s["reason"], s["suppression_line"]) == (
        "bu-guan-bu-shi",
        LINE,
        True,
        "inline",
        REASON,
        LINE,
    )
    assert d["traces"][0]["ok"] is True and d["traces"][0]["violations"] == []


def test_a_suppression_on_the_line_before_and_after_a_source_comment(here: Path) -> None:
    lines = (here / "plan.trace").read_text(encoding="utf-8").splitlines()
    lines.insert(LINE - 1, "# xiangshe: ignore[bu-guan-bu-shi, machine.jue] the staging does it")
    (here / "plan.trace").write_text("\n".join(lines) + "\n", encoding="utf-8")
    result = invoke("plan.trace")  # machine.jue suppresses nothing: reported
    assert result.exit_code == 1
    assert (
        f"plan.trace:{LINE}: error: unused suppression: no finding of machine.jue at line {LINE + 1}" in result.output
    )
    assert "bu-guan-bu-shi R120" not in result.output
    assert invoke("plan.trace", "--ignore", "suppression.unused").exit_code == 0
    assert invoke("plan.trace", "--ignore", "machine.jue").exit_code == 0  # not applied: cannot be unused
    plan = here / "plan2.trace"
    plan.write_text(VIOLATION.read_text(encoding="utf-8"), encoding="utf-8")
    edit_line(plan, LINE, "  # L134 不贯不释 # xiangshe: ignore[不贯不释] 依郑注")
    assert invoke("plan2.trace").exit_code == 0


def test_sarif_keeps_a_suppressed_finding_with_its_justification(here: Path) -> None:
    edit_line(here / "plan.trace", LINE, f"   # xiangshe: ignore[R120] {REASON}")
    result = invoke("plan.trace", "--format", "sarif")
    assert result.exit_code == 0
    log = json.loads(result.stdout)
    validator = sarif_schema.validator()
    assert not list(validator.iter_errors(log))
    [res] = log["runs"][0]["results"]
    assert res["ruleId"] == "bu-guan-bu-shi"
    [sup] = res["suppressions"]
    assert sup["kind"] == "inSource" and sup["justification"] == REASON
    assert sup["location"]["physicalLocation"]["region"] == {"startLine": LINE}


def _records(suffix: str) -> tuple[list[str], int]:
    """The violating example as JSON Lines or YAML (a flow mapping a line), and the finding's line."""
    lines = to_jsonl(parse_file(VIOLATION)).splitlines()
    if suffix == "yaml":
        lines = [f"- {x}" for x in lines]
    n = next(i for i, x in enumerate(lines, 1) if '"释获"' in x)
    return lines, n


@pytest.mark.parametrize("suffix", ["jsonl", "yaml"])
def test_a_record_suppresses_with_an_ignore_field(here: Path, suffix: str) -> None:
    lines, n = _records(suffix)
    path = here / f"plan.{suffix}"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    d, code = doc(path.name)
    assert code == 1 and d["traces"][0]["violations"][0]["line"] == n
    lines[n - 1] = lines[n - 1].replace('"act": "释获"', f'"act": "释获", "ignore": "R120: {REASON}"')
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    d, code = doc(path.name)
    assert code == 0
    [s] = d["traces"][0]["suppressed"]
    assert (s["line"], s["reason"]) == (n, REASON)


BAD_SUPPRESSIONS = [
    ("trace", "   # xiangshe: ignore[R120]", LINE, "gives no reason", "say why"),
    ("trace", "   # xiangshe: ignore[R120]    ", LINE, "gives no reason", None),
    ("trace", "   # xiangshe: ignore R120 because", LINE, "names the rules it suppresses", "ignore[RULE"),
    ("trace", "   # xiangshe: ignore because", LINE, "names the rules it suppresses", None),
    ("trace", "   # xiangshe: ignore[] because", LINE, "names the rules it suppresses", None),
    ("trace", "   # xiangshe: ignore[R12O] because", LINE, "unknown rule R12O", "did you mean"),
    (
        "trace",
        "   # xiangshe: ignore[bu-guan-bu-shi,machine.jeu] because",
        LINE,
        "unknown rule machine.jeu",
        "did you mean machine.jue",
    ),
    ("trace", "   # xiangshe: ignroe[R120] because", LINE, "not a suppression: ignroe[R120] because", None),
    ("trace", "   # xiangshe: noqa", LINE, "not a suppression", None),
    ("jsonl", "R120", None, "not a suppression: R120", '"ignore": "RULE'),
    ("jsonl", "R120:  ", None, "gives no reason", None),
    ("jsonl", "不贯不放: reason", None, "unknown rule 不贯不放", "did you mean"),
    ("yaml", ": reason", None, "names the rules it suppresses", None),
]


@pytest.mark.parametrize("case", BAD_SUPPRESSIONS, ids=lambda c: f"{c[0]}-{c[3][:30]}")
def test_a_bad_suppression_is_bad_input_at_its_line(here: Path, case: tuple) -> None:
    suffix, written, line, fragment, hint = case
    path = here / f"bad.{suffix}"
    if suffix == "trace":
        path.write_text(VIOLATION.read_text(encoding="utf-8"), encoding="utf-8")
        edit_line(path, line, written)
    else:
        lines, line = _records(suffix)
        lines[line - 1] = lines[line - 1].replace('"act": "释获"', f'"act": "释获", "ignore": {json.dumps(written)}')
        path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    before = path.read_bytes()
    result = invoke(path.name)
    assert result.exit_code == 2, result.output
    assert result.output.startswith(f"{path.name}:{line}: error: "), result.output
    assert fragment in result.output and "Traceback" not in result.output
    if hint:
        assert hint in result.output
    assert path.read_bytes() == before


def test_a_suppression_followed_by_nothing_is_bad_input(here: Path) -> None:
    path = here / "plan.trace"
    path.write_text(path.read_text(encoding="utf-8") + "# xiangshe: ignore[R120] at the end\n", encoding="utf-8")
    n = len(path.read_text(encoding="utf-8").splitlines())
    result = invoke("plan.trace")
    assert result.exit_code == 2
    assert result.output.startswith(f"plan.trace:{n}: error: the suppression is followed by no statement")


# -- the baseline -----------------------------------------------------------------------------------


def test_a_baseline_holds_the_old_findings_and_survives_edits_above(here: Path) -> None:
    result = invoke("plan.trace", "--write-baseline", "base.jsonl")
    assert result.exit_code == 0 and "wrote base.jsonl: 1 finding in the baseline" in result.output
    [entry] = [json.loads(x) for x in (here / "base.jsonl").read_text(encoding="utf-8").splitlines()]
    assert (entry["path"], entry["rule"], entry["line"]) == ("plan.trace", "bu-guan-bu-shi", LINE)
    assert invoke("plan.trace").exit_code == 1
    plan = here / "plan.trace"
    plan.write_text(
        "# a line above\n\n" + plan.read_text(encoding="utf-8").replace("side=右", "side=右    # re-spaced, commented"),
        encoding="utf-8",
    )
    result = invoke("plan.trace", "--baseline", "base.jsonl")
    assert result.exit_code == 0, result.output
    assert "baseline base.jsonl: 1 known finding not reported" in result.output
    d, _ = doc("plan.trace", "--baseline", "base.jsonl")
    assert d["baseline"] == {"file": "base.jsonl", "baselined": 1, "absent": 0}
    [s] = d["traces"][0]["suppressed"]
    assert (s["kind"], s["line"], s["suppression_line"]) == ("baseline", LINE + 2, None)


def test_a_baseline_reports_new_findings_and_entries_that_no_longer_occur(here: Path) -> None:
    other = here / "other.trace"
    other.write_text((ROOT / "traces" / "violations" / "wu-jie.trace").read_text(encoding="utf-8"), encoding="utf-8")
    assert invoke("plan.trace", "--write-baseline", "base.jsonl").exit_code == 0
    d, code = doc("plan.trace", "other.trace", "--baseline", "base.jsonl")
    assert code == 1 and rules_of(d) == {"wu-jie"}  # new, in another file
    (here / "plan.trace").write_text(
        (ROOT / "traces" / "canonical.trace").read_text(encoding="utf-8"), encoding="utf-8"
    )
    result = invoke("plan.trace", "--baseline", "base.jsonl")
    assert result.exit_code == 0
    assert "1 entry no longer occurs (refresh: --write-baseline base.jsonl --force)" in result.output
    d, _ = doc("other.trace", "--baseline", "base.jsonl")  # another file's entries
    assert d["baseline"]["absent"] == 0  # are not said to be gone


def test_the_baseline_from_the_configuration_is_relative_to_it(here: Path, monkeypatch) -> None:
    (here / "ci").mkdir()
    assert invoke("plan.trace", "--write-baseline", "ci/base.jsonl").exit_code == 0
    (here / "xiangshe.toml").write_text('baseline = "ci/base.jsonl"\n', encoding="utf-8")
    (here / "sub").mkdir()
    monkeypatch.chdir(here / "sub")
    assert invoke("../plan.trace").exit_code == 0
    assert invoke("../plan.trace", "--isolated").exit_code == 1


def test_a_baseline_is_never_overwritten_without_force(here: Path) -> None:
    base = here / "base.jsonl"
    base.write_text("my notes\n", encoding="utf-8")
    result = invoke("plan.trace", "--write-baseline", "base.jsonl")
    assert (
        result.exit_code == 2
        and "base.jsonl: error: the file exists; choose another name or use --force" in result.output
    )
    assert base.read_text(encoding="utf-8") == "my notes\n"
    assert invoke("plan.trace", "--write-baseline", "base.jsonl", "--force").exit_code == 0
    assert json.loads(base.read_text(encoding="utf-8"))["rule"] == "bu-guan-bu-shi"


@pytest.mark.parametrize(
    ("content", "line", "fragment"),
    [
        ('{"path": "plan.trace", "rule": "bu-guan-bu-shi", "fingerprint": "x"}\n{"path": \n', 2, "not valid JSON"),
        ('["plan.trace", "bu-guan-bu-shi"]\n', 1, "a baseline entry is an object"),
        ('{"actor": "主人", "act": "揖"}\n', 1, "a baseline entry is an object"),
        ('{"path": "plan.trace", "rule": 3, "fingerprint": "x"}\n', 1, "a baseline entry is an object"),
    ],
)
def test_a_bad_baseline_is_bad_input(here: Path, content: str, line: int, fragment: str) -> None:
    (here / "base.jsonl").write_text(content, encoding="utf-8")
    result = invoke("plan.trace", "--baseline", "base.jsonl")
    assert result.exit_code == 2
    assert result.output.startswith(f"base.jsonl:{line}: error: {fragment}"), result.output
    assert (here / "base.jsonl").read_text(encoding="utf-8") == content


# -- GitHub annotations -----------------------------------------------------------------------------


@pytest.mark.usefixtures("here")
def test_github_annotations() -> None:
    result = invoke("plan.trace", "--format", "github")
    assert result.exit_code == 1
    assert result.stdout == (
        f"::error file=plan.trace,line={LINE},title=bu-guan-bu-shi R120 不贯不释::"
        "no earlier 「* 射 矢 result=中正 round=2|3」 with the same for=actor, arrow, round"
        "%0Axiangsheli.txt:134  「不贯不释」\n"
    )
    ok = invoke(str(ROOT / "traces" / "canonical.trace"), "--format", "github")
    assert ok.exit_code == 0 and ok.stdout == ""


def test_github_annotations_of_bad_input(here: Path) -> None:
    (here / "bad.trace").write_text("主人 揖\n主人 献爵 爵\n", encoding="utf-8")
    result = invoke("bad.trace", "plan.trace", "--format", "github")
    assert result.exit_code == 2  # the bad file in its place, the other still checked
    bad, *others = result.stdout.splitlines()
    assert bad.startswith("::error file=bad.trace,line=2,title=xiangshe%3A bad input::unknown act 献爵%0A")
    assert others and all(o.startswith("::error file=plan.trace,") for o in others)
    (here / "xiangshe.toml").write_text('ignore = ["R1200"]\n', encoding="utf-8")
    result = invoke("plan.trace", "--format", "github")
    assert result.exit_code == 2 and result.stdout.startswith(
        "::error file=xiangshe.toml,line=1,title=xiangshe%3A bad input::unknown rule R1200"
    )


def test_github_escaping() -> None:
    from xiangshe.reports.github import command, escape_data, escape_property

    assert escape_data("50%\r\nnext: a, b") == "50%25%0D%0Anext: a, b"
    assert escape_property("a:b,c%\n") == "a%3Ab%2Cc%25%0A"
    assert (
        command("error", "m: 1%", "dir,x/a:b.trace", 3, "t")
        == "::error file=dir%2Cx/a%3Ab.trace,line=3,title=t::m: 1%25"
    )
    assert command("error", "whole file", "a.trace") == "::error file=a.trace::whole file"


# -- report ----------------------------------------------------------------------------------------


def test_report_follows_the_configuration_and_the_suppressions(here: Path) -> None:
    edit_line(here / "plan.trace", LINE, "   # xiangshe: ignore[R120] <b>依郑注</b>")
    (here / "xiangshe.toml").write_text('ignore = ["wu-jie"]\nbaseline = "none-such.jsonl"\n', encoding="utf-8")
    result = CliRunner().invoke(cli, ["report", "plan.trace", "-o", "plan.html"])
    assert result.exit_code == 0, result.output  # no baseline is read for a report
    page = (here / "plan.html").read_text(encoding="utf-8")
    assert "Suppressed <small>1, not counted as violations" in page
    assert "&lt;b&gt;依郑注&lt;/b&gt;" in page and "<b>依郑注" not in page  # the reason, escaped
    assert "Not applied (--select, --ignore, per-file-ignores): wu-jie." in page
    result = CliRunner().invoke(cli, ["report", "plan.trace", "-o", "plan2.html", "--isolated", "--select", "machine"])
    assert result.exit_code == 0 and "Not applied" in (here / "plan2.html").read_text(encoding="utf-8")
    result = CliRunner().invoke(cli, ["report", "plan.trace", "-o", "plan3.html", "--ignore", "R12O"])
    assert result.exit_code == 2 and "--ignore: error: unknown rule R12O" in result.output
    assert not (here / "plan3.html").exists()


@pytest.mark.usefixtures("here")
def test_junit_skips_the_checks_not_applied() -> None:
    import xml.etree.ElementTree as ET

    result = invoke("plan.trace", "--format", "junit", "--ignore", "R120、machine.jue")
    assert result.exit_code == 0
    root = ET.fromstring(result.stdout.encode("utf-8"))
    [suite] = root.findall("testsuite")
    skipped = [c.get("name") for c in suite.findall("testcase") if c.find("skipped") is not None]
    assert skipped == ["bu-guan-bu-shi", "machine.jue"]
    assert suite.get("skipped") == root.get("skipped") == "2" and suite.get("failures") == "0"


def test_every_check_in_force_can_be_named() -> None:
    from xiangshe.constraints.readings import points
    from xiangshe.constraints.select import by_id, known_words, resolve

    for point in points().values():
        for option in point.options.values():
            if option.encoded:
                ids = in_force(active_rules({point.name: option.name}))
                assert set(ids) <= set(by_id()) and len(set(ids)) == len(ids)
    assert {by_id()[i].section for i in resolve("ALL") if by_id()[i].kind == "rule"} == set("ABCDEFGHI")
    assert all(resolve(w) for w in known_words())


def test_no_baseline_is_written_when_a_trace_is_bad(here: Path) -> None:
    (here / "bad.trace").write_text("主人 献爵 爵\n", encoding="utf-8")
    result = invoke("plan.trace", "bad.trace", "--write-baseline", "base.jsonl")
    assert result.exit_code == 2 and "bad.trace:1: error: unknown act 献爵" in result.output
    assert not (here / "base.jsonl").exists()
