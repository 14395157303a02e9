"""xiangshe — check stagings of 《仪礼·乡射礼》 against its machines and its rulebook.

\b
Exit status:
  0  ok: no violations
  1  violations found
  2  bad input: a trace, the rulebook, a quote, or the usage
  3  inconclusive: the solver gave up
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

import click

ROOT = Path(__file__).resolve().parent
CANONICAL = ROOT / "traces" / "canonical.trace"
VIOLATIONS = ROOT / "traces" / "violations"
FORMATS = click.Choice(["text", "json"])


def _display(path: Path) -> str:
    try:
        return str(path.resolve().relative_to(Path.cwd()))
    except ValueError:
        return str(path)


class BadInput(click.ClickException):
    """Input problems, already located as `path:line: error: …`; exit 2."""

    exit_code = 2

    def show(self, file=None) -> None:
        click.echo(self.message, err=True)


def _bad(err: Exception) -> BadInput:
    render = getattr(err, "render", None)
    return BadInput(render() if render else str(err))


@click.group(help=__doc__)
@click.version_option("0.1.0", prog_name="xiangshe")
def cli() -> None:
    pass


@cli.command()
@click.argument("files", nargs=-1, type=click.Path(dir_okay=False, path_type=Path))
@click.option("--format", "fmt", type=FORMATS, default="text", show_default=True)
def check(files: tuple[Path, ...], fmt: str) -> None:
    """Replay FILES through the machines and the rules (no FILE: the canonical ceremony)."""
    from constraints.check import check_trace
    from domain.errors import InputError
    from domain.parse import TraceErrors, parse_file
    from reports import render

    paths = files or (CANONICAL,)
    results, errors = [], []
    for path in paths:
        shown = _display(path)
        if not path.exists():
            errors.append(f"{shown}: error: no such file")
            continue
        try:
            results.append(check_trace(parse_file(path, shown)))
        except (TraceErrors, InputError) as err:
            errors.append(err.render())
    if errors:
        raise BadInput("\n".join(errors))
    click.echo(render.check_json(results) if fmt == "json" else render.check_text(results))
    sys.exit(0 if all(r.ok for r in results) else 1)


@cli.command()
@click.option("--format", "fmt", type=FORMATS, default="text", show_default=True)
def rules(fmt: str) -> None:
    """List the rulebook."""
    from constraints.rulebook import rulebook
    from reports import render

    rb = rulebook()
    click.echo(render.rules_json(rb) if fmt == "json" else render.rules_text(rb))


@cli.command()
@click.argument("rule")
@click.option("--format", "fmt", type=FORMATS, default="text", show_default=True)
def explain(rule: str, fmt: str) -> None:
    """Show RULE (ASCII id, Chinese name or catalogue id): quotes in context, examples."""
    import json

    from constraints.rulebook import find_rule, rulebook
    from domain.errors import did_you_mean
    from reports import render

    found = find_rule(rule)
    if not found:
        names = [r.id for r in rulebook()] + [r.name for r in rulebook()]
        raise BadInput(f"error: no rule {rule}; {did_you_mean(rule, names)}")
    out = []
    for r in found:
        failing = sorted(str(p.relative_to(ROOT)) for p in [*VIOLATIONS.glob(f"{r.id}.trace"),
                                                             *VIOLATIONS.glob(f"{r.id}.*.trace")])
        passing = str(CANONICAL.relative_to(ROOT)) if r.encoded else None
        if fmt == "json":
            out.append(render.rule_json(r) | {"passing": passing, "failing": failing})
        else:
            out.append(render.explain_text(r, passing, failing))
    if fmt == "json":
        click.echo(json.dumps({"rules": out}, ensure_ascii=False, indent=2))
    else:
        click.echo("\n\n".join(out))


def main() -> None:
    """Entry point of the console script: usage errors and bad input exit 2, never a traceback."""
    from domain.errors import InputError
    from domain.parse import TraceErrors

    try:
        cli.main(standalone_mode=True)
    except (InputError, TraceErrors) as err:    # e.g. a broken rulebook or machine table
        click.echo(err.render(), err=True)
        sys.exit(2)
    except Exception as err:                     # a bug: say so plainly, exit 70 (EX_SOFTWARE)
        if os.environ.get("XIANGSHE_DEBUG"):
            raise
        click.echo(f"xiangshe: internal error: {type(err).__name__}: {err} "
                   "(set XIANGSHE_DEBUG=1 for the traceback)", err=True)
        sys.exit(70)


if __name__ == "__main__":
    main()
