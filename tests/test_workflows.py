"""Fitting into workflows: the pre-commit hook definition (.pre-commit-hooks.yaml) and the CI
example (docs/ci-example.yml) parse, select the right files, and their commands run.
"""

from __future__ import annotations

import json
import os
import re
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

ROOT = Path(__file__).resolve().parents[1]
HOOKS = ROOT / ".pre-commit-hooks.yaml"
CI = ROOT / "docs" / "ci-example.yml"
BASH = shutil.which("bash")


def hook() -> dict:
    hooks = yaml.safe_load(HOOKS.read_text(encoding="utf-8"))
    assert isinstance(hooks, list)
    return next(h for h in hooks if h["id"] == "xiangshe-check")


def test_hook_definition_is_complete() -> None:
    h = hook()
    assert {"id", "name", "entry", "language", "files"} <= set(h)
    assert h["language"] == "python"
    assert h["entry"].split()[:2] == ["xiangshe", "check"]


@pytest.mark.parametrize(
    ("path", "selected"),
    [
        ("plans/my-staging.trace", True),
        ("plans/big.jsonl", True),
        ("plans/a.yaml", True),
        ("b.yml", True),
        ("notes.txt", False),
        ("plan.trace.bak", False),
        (".pre-commit-config.yaml", False),
        (".github/workflows/ci.yml", False),
        ("plans/a.json", True),
        ("plans/A.YAML", True),
        ("plans/b.Trace", True),
        ("plans/c.JSONL", True),
        ("plans/a.toml", False),
        ("plans/a.jsonc", False),
        ("package.json", False),
        ("web/package-lock.json", False),
        (".vscode/settings.json", False),
        ("plans/.draft.trace", False),
        ("trace.schema.json", False),
        ("plans/tsconfig.json", False),
    ],
)
def test_hook_selects_stagings_only(path: str, selected: bool) -> None:
    h = hook()
    chosen = re.search(h["files"], path) is not None and not re.search(h.get("exclude", "^$"), path)
    assert chosen is selected


def run_entry(*files: str) -> subprocess.CompletedProcess:
    """The hook's entry as pre-commit runs it (the files appended), with `xiangshe` as this checkout."""
    args = shlex.split(hook()["entry"])
    assert args[0] == "xiangshe"
    return subprocess.run(
        [sys.executable, "-m", "xiangshe", *args[1:], *files], cwd=ROOT, capture_output=True, text=True
    )


def test_hook_entry_passes_a_good_staging_and_stops_a_bad_one() -> None:
    good = run_entry("traces/canonical.trace")
    assert good.returncode == 0 and "ok: 1 trace" in good.stdout
    bad = run_entry("traces/canonical.trace", "traces/violations/bu-guan-bu-shi.trace")
    assert bad.returncode == 1 and "bu-guan-bu-shi.trace:40: error:" in bad.stdout
    assert "\x1b[" not in bad.stdout  # pre-commit captures output: no colour


def workflow() -> dict:
    return yaml.safe_load(CI.read_text(encoding="utf-8"))


def test_ci_example_is_a_workflow_with_sarif_upload_and_junit_artifact() -> None:
    wf = workflow()
    steps = wf["jobs"]["check"]["steps"]
    uses = [s.get("uses", "") for s in steps]
    assert any(u.startswith("github/codeql-action/upload-sarif@") for u in uses)
    assert any(u.startswith("actions/upload-artifact@") for u in uses)
    assert wf["permissions"]["security-events"] == "write"
    upload = next(s for s in steps if s.get("uses", "").startswith("github/codeql-action/upload-sarif"))
    assert upload["if"] == "always()" and upload["with"]["sarif_file"] == "xiangshe.sarif"


def test_ci_example_installs_xiangshe_from_its_repository_not_a_made_up_release() -> None:
    """xiangshe is on no package index: the workflow checks out the repository the user names and
    pip-installs that checkout; a pip requirement naming a version of xiangshe would fail."""
    wf = workflow()
    steps = wf["jobs"]["check"]["steps"]
    checkout = [s for s in steps if s.get("uses", "").startswith("actions/checkout@")]
    assert len(checkout) == 2 and "with" not in checkout[0]  # the plans, then xiangshe
    xs = checkout[1]["with"]
    assert xs["repository"] == "${{ env.XIANGSHE_REPOSITORY }}" and xs["ref"] == "${{ env.XIANGSHE_REF }}"
    assert wf["env"]["XIANGSHE_REPOSITORY"] == "OWNER/xiangshe"  # a placeholder, documented
    install = next(s for s in steps if s.get("name") == "Install xiangshe")["run"]
    args = shlex.split(install)
    assert args[:4] == ["python", "-m", "pip", "install"] and f"./{xs['path']}" in args
    assert not any(re.match(r"xiangshe\s*[=<>~!]", a) for a in args), install
    assert all(re.search(r"[<>=]", a) for a in args[4:] if not a.startswith("./")), "pin the tools"
    assert steps.index(checkout[1]) < steps.index(next(s for s in steps if s.get("name") == "Install xiangshe"))
    doc = (ROOT / "docs" / "workflows.md").read_text(encoding="utf-8")
    assert "XIANGSHE_REPOSITORY" in doc and "OWNER/xiangshe" in doc


@pytest.mark.skipif(BASH is None, reason="the workflow's steps are bash")
def test_ci_example_stops_while_the_placeholder_is_left(tmp_path: Path) -> None:
    wf = workflow()
    env = {**os.environ, **wf["env"]}
    stop = run_step("Is the xiangshe repository set?", tmp_path, env)
    assert stop.returncode == 1 and "XIANGSHE_REPOSITORY" in stop.stderr
    go = run_step("Is the xiangshe repository set?", tmp_path, env | {"XIANGSHE_REPOSITORY": "me/xiangshe"})
    assert go.returncode == 0


def run_step(name: str, cwd: Path, env: dict | None = None) -> subprocess.CompletedProcess:
    """Run a step of the CI example in bash, `xiangshe` being this environment's installed xiangshe
    and this environment's scripts (check-jsonschema) on the PATH."""
    step = next(s for s in workflow()["jobs"]["check"]["steps"] if s.get("name") == name)
    prelude = f'set -eo pipefail\nxiangshe() {{ "{sys.executable}" -m xiangshe "$@"; }}\n'
    env = dict(env if env is not None else os.environ)
    env["PATH"] = f"{Path(sys.executable).parent}{os.pathsep}{env.get('PATH', '')}"
    return subprocess.run([BASH, "-c", prelude + step["run"]], cwd=cwd, capture_output=True, text=True, env=env)


@pytest.mark.skipif(BASH is None, reason="the workflow's steps are bash")
def test_ci_example_schema_step_validates_yaml_plans(tmp_path: Path) -> None:
    """The step as written: `xiangshe schema trace`, then check-jsonschema in its default mode
    (ECMA-262 unicode regexes) on the YAML plans; a wrong word fails the job."""
    from xiangshe.domain.parse import parse_file, to_jsonl

    plans = tmp_path / "plans"
    plans.mkdir()
    shutil.copy(ROOT / "traces" / "canonical.trace", plans / "a.trace")  # not YAML: not validated
    records = [
        json.loads(x)
        for x in to_jsonl(parse_file(ROOT / "traces" / "violations" / "bu-guan-bu-shi.trace")).splitlines()
    ]
    (plans / "b.yaml").write_text(yaml.safe_dump(records, allow_unicode=True), encoding="utf-8")
    assert run_step("List the plans", tmp_path).returncode == 0
    ok = run_step("Validate YAML and JSON plans against the trace schema", tmp_path)
    assert ok.returncode == 0, ok.stdout + ok.stderr
    (plans / "c.yml").write_text("- {actor: zhu-ren, act: 献爵, obj: jue-2}\n", encoding="utf-8")
    assert run_step("List the plans", tmp_path).returncode == 0
    bad = run_step("Validate YAML and JSON plans against the trace schema", tmp_path)
    assert bad.returncode == 1 and "c.yml" in bad.stdout + bad.stderr


@pytest.mark.skipif(BASH is None, reason="the workflow's steps are bash")
def test_ci_example_steps_write_reports_and_fail_on_violations(tmp_path: Path) -> None:
    plans = tmp_path / "plans"
    plans.mkdir()
    shutil.copy(ROOT / "traces" / "canonical.trace", plans / "a.trace")
    shutil.copy(ROOT / "traces" / "violations" / "bu-guan-bu-shi.trace", plans / "b.trace")
    assert run_step("List the plans", tmp_path).returncode == 0
    sarif = run_step("Check (SARIF)", tmp_path)
    assert sarif.returncode == 0, sarif.stderr  # violations (exit 1) still give a report
    log = json.loads((tmp_path / "xiangshe.sarif").read_text(encoding="utf-8"))
    assert [r["ruleId"] for r in log["runs"][0]["results"]] == ["bu-guan-bu-shi"]
    junit = run_step("Check (JUnit XML)", tmp_path)
    assert junit.returncode == 0 and "<testsuite" in (tmp_path / "xiangshe-junit.xml").read_text()
    final = run_step("Fail on violations (readable output)", tmp_path)
    assert final.returncode == 1 and "plans/b.trace:40: error:" in final.stdout
    (plans / "c.trace").write_text("主人 献爵 爵\n", encoding="utf-8")  # bad input is not hidden
    run_step("List the plans", tmp_path)
    broken = run_step("Check (SARIF)", tmp_path)
    assert broken.returncode != 0 and "plans/c.trace:1: error: unknown act 献爵" in broken.stderr


def test_nothing_names_a_package_host() -> None:
    for path in (HOOKS, CI, ROOT / "docs" / "workflows.md", ROOT / "docs" / "editors.md"):
        text = path.read_text(encoding="utf-8")
        assert "pypi.org" not in text and "index-url" not in text, path.name


def test_sarif_rules_carry_quotes_and_help_for_code_scanning() -> None:
    out = subprocess.run(
        [sys.executable, "-m", "xiangshe", "check", "--format", "sarif", "traces/violations/bu-guan-bu-shi.trace"],
        cwd=ROOT,
        capture_output=True,
        text=True,
    )
    run = json.loads(out.stdout)["runs"][0]
    rules = [d for d in run["tool"]["driver"]["rules"] if d["properties"]["kind"] == "rule"]
    assert rules
    for d in rules:
        quotes = [q["text"] for q in d["properties"]["quotes"]]
        assert d["fullDescription"]["text"] and d["help"]["text"]
        assert all(q in d["help"]["text"] and q in d["help"]["markdown"] for q in quotes), d["id"]
    result = run["results"][0]
    loc = result["locations"][0]["physicalLocation"]
    assert loc["artifactLocation"]["uri"] == "traces/violations/bu-guan-bu-shi.trace"
    assert loc["region"]["startLine"] == 40
    assert result["relatedLocations"][0]["physicalLocation"]["region"]["startLine"] == 134


GIT = shutil.which("git")


@pytest.mark.install  # pre-commit pip-installs this checkout into an environment of its own
@pytest.mark.skipif(GIT is None, reason="pre-commit needs git")
def test_pre_commit_try_repo_runs_the_hook_from_this_checkout(tmp_path: Path) -> None:
    """pre-commit for real: it clones this checkout (with its uncommitted changes), builds its own
    virtual environment and pip-installs the repository into it (a non-editable install, the
    package index the only network), then runs the hook on a plans repository."""
    if subprocess.run([GIT, "-C", str(ROOT), "rev-parse", "--git-dir"], capture_output=True).returncode:
        pytest.skip("this checkout is not a git repository")
    plans = tmp_path / "plans-repo"
    (plans / "plans").mkdir(parents=True)
    shutil.copy(ROOT / "traces" / "canonical.trace", plans / "plans" / "good.trace")
    shutil.copy(ROOT / "traces" / "violations" / "bu-guan-bu-shi.trace", plans / "plans" / "bad.trace")
    (plans / "notes.txt").write_text("not a staging\n", encoding="utf-8")
    env = {
        **os.environ,
        "PRE_COMMIT_HOME": str(tmp_path / "pre-commit-home"),
        "NO_COLOR": "1",
        "GIT_AUTHOR_NAME": "test",
        "GIT_AUTHOR_EMAIL": "test@example.invalid",
        "GIT_COMMITTER_NAME": "test",
        "GIT_COMMITTER_EMAIL": "test@example.invalid",
    }
    env.pop("XIANGSHE_LANG", None)
    subprocess.run([GIT, "init", "-q", str(plans)], check=True, env=env)
    subprocess.run([GIT, "add", "-A"], cwd=plans, check=True, env=env)

    def try_repo() -> subprocess.CompletedProcess:
        return subprocess.run(
            [
                sys.executable,
                "-m",
                "pre_commit",
                "try-repo",
                str(ROOT),
                "xiangshe-check",
                "--all-files",
                "--color",
                "never",
            ],
            cwd=plans,
            env=env,
            capture_output=True,
            text=True,
            timeout=900,
        )

    run = try_repo()
    out = run.stdout + run.stderr
    assert run.returncode == 1, out
    assert "xiangshe check" in out and "Failed" in out
    assert "plans/bad.trace:40: error:" in out and "[bu-guan-bu-shi R120 不贯不释]" in out
    assert not re.search(r"plans/good.trace:\d", out)  # no finding in the good one
    assert "notes.txt" not in out and "Traceback" not in out
    (plans / "plans" / "bad.trace").unlink()  # the environment is reused: only the run again
    subprocess.run([GIT, "add", "-A"], cwd=plans, check=True, env=env)
    again = try_repo()
    assert again.returncode == 0 and "Passed" in again.stdout, again.stdout + again.stderr
