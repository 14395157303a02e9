"""`--lang zh`: the text output of every command is Chinese. Any run of ASCII letters left must be
something that is not English: an id (a rule's, a catalogue's, a machine's, an audit check's), a
slug, a path that exists, a reading's point or option, a word of the trace language (its keys, as
in `for=弟子1`), a line of a trace shown as it is written, or what is quoted 「…」. The allowlist
is built from the data, never a loose pattern.

`explain` is run on every 9th rule of the rulebook and a few words written otherwise (a name in
traditional characters, a catalogue id, a slug); the inner loop (`-m "not z3 and not browser"`)
explains every 27th rule and those words, the default run the others of the every 9th too
(`explain-more-rules`, `wide`): each rule's explanation is the same template filled in.
"""

from __future__ import annotations

import re
from functools import cache
from pathlib import Path

import click
import pytest
from click.testing import CliRunner

from xiangshe.verify import cli

ROOT = Path(__file__).resolve().parents[1]
TRACES = sorted((ROOT / "traces").rglob("*.trace"))
PATH = re.compile(r"(?<![\w/.-])([\w./-]+\.(?:trace|md|toml|txt|py|jsonl|ya?ml|html))(?=[:\s),;，）：]|$)")
WORD = re.compile(r"[A-Za-z][A-Za-z0-9_-]*(?:\.[A-Za-z0-9_-]+)*")
QUOTED = re.compile(r"「[^「」]*」")
WINDOW = re.compile(r"^\s*[✓✗▸ ]?\s*(\d+) \| (.*)$")


@cache
def allowed() -> frozenset[str]:
    from xiangshe.constraints.readings import points
    from xiangshe.constraints.rulebook import rulebook
    from xiangshe.constraints.scope import IDS as SCOPE_IDS
    from xiangshe.constraints.scoring import AUDIT_CHECKS, audit_id
    from xiangshe.domain.vocabulary import vocabulary
    from xiangshe.fsm.table import tables

    v = vocabulary()
    words: set[str] = set()
    for r in rulebook():  # ids
        words |= {r.id, *([r.catalogue] if r.catalogue else [])}
    words |= {f"machine.{t.slug}" for t in tables()} | {t.slug for t in tables()}
    words |= {audit_id(c) for c, _, _ in AUDIT_CHECKS} | {c for c, _, _ in AUDIT_CHECKS}
    words |= set(SCOPE_IDS)
    from xiangshe.domain.occasion import FIELDS  # the occasion header's keys

    words |= {"occasion", *FIELDS}
    for terms in (v.roles, v.acts, v.objects, v.places):  # slugs
        words |= {t.slug for t in terms.values() if t.slug}
    for name, p in points().items():  # readings
        words |= {name, *p.options}
    # the trace language: event keys, the keys of patterns, person conditions
    words |= {
        *v.event_keys,
        "phase",
        "round",
        "obj",
        "state",
        "actor",
        "role",
        "rank",
        "side",
        "pair",
        "cast",
        "none",
        "fragment",
    }
    words |= {f"{who}.{a}" for who in ("actor", *v.event_keys) for a in ("role", "rank", "side", "pair")}
    words |= {"obj.state"}
    # the program and its commands and options, where a line says what to run
    words |= {"xiangshe", *cli.commands}
    words |= {
        o.lstrip("-")
        for c in cli.commands.values()
        for p in c.params
        if isinstance(p, click.Option)
        for o in p.opts
        if o.startswith("--")
    }
    words |= {"z3"}  # the solver's name
    words |= {"xiangsheli.txt"}  # the text, as citations name it
    return frozenset(words)


@cache
def trace_lines() -> frozenset[str]:
    return frozenset(line.strip() for p in TRACES for line in p.read_text(encoding="utf-8").splitlines())


#: a rulebook section's id (A, A2 …: the file a rule is written in) and a text line (L116), as the
#: headings of the rulebook name them
SECTION_OR_LINE = re.compile(r"[A-H]\d?|L\d+")


def english(out: str, where: Path) -> list[str]:
    """The runs of ASCII letters of `out` that are not allowed, with their line."""
    bad = []
    for line in out.splitlines():
        m = WINDOW.match(line)
        if m and m.group(2).strip() in trace_lines():  # a line of a trace, as written
            continue
        rest = QUOTED.sub(" ", line)
        for p in PATH.findall(rest):
            if (ROOT / p).exists() or (where / p).exists() or Path(p).exists():
                rest = rest.replace(p, " ")
        for w in WORD.findall(rest):
            if w not in allowed() and w.rstrip(".") not in allowed() and not SECTION_OR_LINE.fullmatch(w):
                bad.append(f"{w}  ← {line.strip()[:160]}")
    return bad


from test_formats import MIXED  # noqa: E402  (the same mixed staging: refusals, audit, rules)


def violations() -> list[str]:
    return [str(p.relative_to(ROOT)) for p in sorted((ROOT / "traces" / "violations").glob("*.trace"))]


def sampled_violations() -> list[str]:
    """The violating examples of the sampled rules (tests/sampling.py): every kind of finding."""
    from sampling import rules_by_kind

    from xiangshe.constraints.rulebook import rulebook

    ids = {r.id for r in rules_by_kind(rulebook())}
    return [v for v in violations() if Path(v).name.split(".")[0] in ids]


def rule_words(inner: bool) -> list[str]:
    """Every 27th rule and words written otherwise (inner), or the rest of every 9th rule."""
    from xiangshe.constraints.rulebook import rulebook

    rules = rulebook()
    if not inner:
        return [r.id for i, r in enumerate(rules[::9]) if i % 3]
    return [r.id for r in rules[::27]] + ["不貫不釋", "R120", "R108", "wu-jie", "dian-jue-er-ci", "bu-guan-bu-shi-hou"]


def machine_and_audit_words() -> list[str]:
    from xiangshe.constraints.scoring import AUDIT_CHECKS
    from xiangshe.fsm.table import tables

    return [f"machine.{t.slug}" for t in tables()] + [f"audit.{c.lower()}" for c, _, _ in AUDIT_CHECKS]


QUERY = ("precedence", "--first", "* 洗 爵|觯", "--then", "* 实 爵|觯", "--same", "obj", "--depth", "4")

COMMANDS = [
    ("check", "sampled-violations"),
    pytest.param(("check", "violations"), marks=pytest.mark.slow),
    ("check", "--scoring", "traces/canonical.trace"),
    ("check", "--scoring", "mixed.trace"),
    ("check", "traces/variants/wu-da-fu.trace"),
    ("check", "--reading", "guan=hou", "traces/violations/bu-guan-bu-shi-hou.trace"),
    ("check", "--ignore", "R120", "--ignore", "R132", "mixed.trace"),
    ("rules",),
    ("rules", "--reading", "guan=hou"),
    ("explain", "rules"),
    pytest.param(("explain", "more-rules"), marks=pytest.mark.wide),
    ("explain", "machines"),
    ("coverage",),
    ("coverage", "--all"),
    ("check-rules", "--redundancy", "3", "--rule", "bu-guan-bu-shi", "--rule", "wu-jie"),
    ("counterexample", "bu-guan-bu-shi", "-o", "cex.trace"),
    ("counterexample", "bu-guan-bu-shi", "--depth", "1"),
    ("counterexample", "wu-jie", "--depth", "2"),
    ("query", *QUERY, "-o", "q.trace"),
    ("query", "absence", "--pattern", "* 卒爵 爵 obj.state=在篚", "--depth", "3"),
    ("check", "bad.trace"),
    ("explain", "jue"),
    ("report", "traces/violations/bu-guan-bu-shi.trace", "-o", "r.html"),
    ("readings", "traces/violations/bu-guan-bu-shi.trace", "traces/violations/bai-xi.trace"),
]


@pytest.mark.parametrize("args", COMMANDS, ids=lambda a: "-".join(a)[:60])
def test_text_output_under_lang_zh_is_chinese(
    args: tuple[str, ...], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "traces").symlink_to(ROOT / "traces")
    (tmp_path / "mixed.trace").write_text(MIXED, encoding="utf-8")
    (tmp_path / "bad.trace").write_text("主人 揖\n主人 献爵 爵\n释获着 释获 算\n", encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    runs = []
    if args[1:] == ("violations",):
        runs.append(("check", *violations()))
    elif args[1:] == ("sampled-violations",):
        runs.append(("check", *sampled_violations()))
    elif args == ("explain", "rules"):
        runs += [("explain", w) for w in rule_words(inner=True)]
    elif args == ("explain", "more-rules"):
        runs += [("explain", w) for w in rule_words(inner=False)]
    elif args == ("explain", "machines"):
        runs += [("explain", w) for w in machine_and_audit_words()]
    else:
        runs.append(args)
    for run in runs:
        result = CliRunner().invoke(cli, ["--lang", "zh", *run], catch_exceptions=False)
        assert result.exit_code in (0, 1, 2, 3), result.output
        out = result.output
        assert re.search(r"[\u4e00-\u9fff]", out), out
        bad = english(out, tmp_path)
        shown = " ".join(run)[:100]
        assert not bad, f"xiangshe --lang zh {shown}: English left:\n" + "\n".join(bad[:40])


def test_the_allowlist_catches_english() -> None:
    """The checker itself: plain English is caught, ids, paths, quotes and trace lines are not."""
    assert (
        english(
            "traces/violations/bu-guan-bu-shi.trace:35: 错误: 此前无「* 射 矢 result=中正」 "
            "[bu-guan-bu-shi R120 不贯不释]",
            ROOT,
        )
        == []
    )
    assert english("  written  constraints/rules/e_di_er_fan.md:279", ROOT) == [
        "written  ← written  constraints/rules/e_di_er_fan.md:279"
    ]
    assert english("no earlier 射", ROOT)[0].startswith("no ")
    assert english("所从之说: guan=hou, gu=release", ROOT) == []
    assert english("nosuch/file.trace:3: 错误", ROOT) != []  # not an existing path
    assert english("    ✗   35 | 释获者 释获 算 for=弟子1 arrow=1 side=右", ROOT) == []
    assert english("    ✗   35 | the host bows", ROOT) != []  # not a line of a trace


def test_findings_under_zh_are_the_catalogues_chinese(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Each finding is a Message of the catalogue (domain/messages.py) and `--lang zh` shows its
    Chinese template, by id: no pattern over the English (reports/zh.py is gone)."""
    from xiangshe.constraints.check import check_trace
    from xiangshe.domain.messages import Message
    from xiangshe.domain.parse import parse_file
    from xiangshe.domain.visible import shorten

    (tmp_path / "mixed.trace").write_text(MIXED, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    findings = check_trace(parse_file(tmp_path / "mixed.trace")).findings
    assert findings and all(isinstance(f.message, Message) for f in findings)
    assert len({f.message.code for f in findings}) > 2  # refusals, the audit, the rules
    out = CliRunner().invoke(cli, ["--lang", "zh", "check", "--verbose", "mixed.trace"]).output
    for f in findings:
        assert shorten(f.message.render("zh")) in out and shorten(str(f.message)) not in out
