"""Everything the command line prints goes out through `echo`: text, JSON, SARIF and JUnit alike,
with the characters of the user's text that would act on a terminal written as escapes
(domain.visible: the same `\\u001b` escapes are valid JSON and stand for the same characters).
`Group` does the same for click's own usage errors, which quote what was typed."""

from __future__ import annotations

import click

from xiangshe.domain.visible import visible
from xiangshe.reports import interrupt


def echo(text: str = "", *, err: bool = False, nl: bool = True) -> None:
    interrupt.check()  # after a Ctrl-C nothing more is said (no verdict)
    click.echo(visible(text), err=err, nl=nl)


class Group(click.Group):
    """A click group whose usage errors quote the command line visibly (`No such option: --\\u001b…`)."""

    def make_context(self, *args, **kwargs):
        try:
            return super().make_context(*args, **kwargs)
        except click.ClickException as err:
            err.message = visible(err.message)
            raise

    def invoke(self, ctx):
        try:
            return super().invoke(ctx)
        except click.ClickException as err:
            err.message = visible(err.message)
            raise
