"""What the command line shares between its commands, apart from their options (options.py): bad
input as a click exception (exit 2, located), the conversion of the checker's input errors into it,
and --format github's annotations of bad input."""

from __future__ import annotations

import functools

import click

from xiangshe.reports.echo import echo


class BadInput(click.ClickException):
    """Input problems, already located as `path:line: error: …`; exit 2."""

    exit_code = 2

    def show(self, file=None) -> None:  # noqa: ARG002 (click.ClickException.show's signature)
        from xiangshe.reports.messages import input_errors

        echo(input_errors(self.message), err=True)


def bad(err: Exception) -> BadInput:
    """`err` (an InputError, TraceErrors, or anything whose str() is the message) as BadInput."""
    render = getattr(err, "render", None)
    return BadInput(render() if render else str(err))


def located(fn, *args, **kwargs):
    """fn(*args, **kwargs), its input errors (InputError, TraceErrors) raised as BadInput."""
    from xiangshe.domain.errors import InputError
    from xiangshe.domain.parse import TraceErrors

    try:
        return fn(*args, **kwargs)
    except (InputError, TraceErrors) as err:
        raise bad(err) from None


def github_input_errors(f):
    """With --format github, input errors (exit 2) are also printed as annotations."""

    @functools.wraps(f)
    def wrapper(*args, **kwargs):
        try:
            return f(*args, **kwargs)
        except BadInput as err:
            if click.get_current_context().meta.get("xiangshe.format", kwargs.get("fmt")) == "github":
                from xiangshe.reports.github import input_errors

                echo(input_errors(err.message))
            raise

    return wrapper


def run(group: click.Group) -> None:
    """Run the command line: bad input that reaches here (e.g. a broken rulebook or machine table)
    exits 2 with its located message, too much input exits 2, Ctrl-C exits 130 with no verdict, and
    anything else is a bug in xiangshe: one line and exit 70 (EX_SOFTWARE; XIANGSHE_DEBUG=1 raises it,
    for the traceback)."""
    import os
    import sys

    from xiangshe.domain import gcpause

    gcpause.own_process()  # freezes the modules imported so far
    with gcpause.loading():  # and these, with what they import (the reader, the trace, the cache …)
        from xiangshe.domain.errors import InputError
        from xiangshe.domain.parse import TraceErrors
        from xiangshe.reports import interrupt

    interrupt.install()
    try:
        try:
            group.main(standalone_mode=True)
        finally:
            gcpause.settle()  # the process ends: its last collection would walk everything only to free it
            gcpause.own_process(False)  # … unless a program called `run` in-process: later calls leave it be
            interrupt.check()  # a Ctrl-C swallowed on the way (in a __del__) still stops it
    except interrupt.Interrupted:
        interrupt.stop()
    except (InputError, TraceErrors) as err:  # e.g. a broken rulebook or machine table
        from xiangshe.reports.messages import input_errors

        echo(input_errors(err.render()), err=True)
        sys.exit(2)
    except MemoryError:  # the input, not the program: too much of it
        echo("xiangshe: error: out of memory: the input is too large to check at once", err=True)
        sys.exit(2)
    except Exception as err:  # a bug: say so plainly, exit 70 (EX_SOFTWARE)
        if os.environ.get("XIANGSHE_DEBUG"):
            raise
        echo(
            f"xiangshe: internal error: {type(err).__name__}: {err} (set XIANGSHE_DEBUG=1 for the traceback)", err=True
        )
        sys.exit(70)
