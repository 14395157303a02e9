"""`python -m xiangshe …` is the `xiangshe` command."""

from xiangshe.domain import gcpause

gcpause.own_process()  # this process is the command line's (reports/cli.py run says so again)
with gcpause.loading():  # its modules live as long as it does: frozen once imported, never walked before
    from xiangshe.verify import main

main()
