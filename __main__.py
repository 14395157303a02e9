"""`python -m xiangshe …`, and the `xiangshe` command (pyproject.toml's script): the command line."""

from xiangshe.domain import gcpause


def main() -> None:
    """Import the command line with the collector paused, then run it (verify.py `main`): its modules
    live as long as the process, so they are frozen once imported and never walked before."""
    gcpause.own_process()  # this process is the command line's (reports/cli.py run says so again)
    with gcpause.loading():
        from xiangshe.verify import main as run
    run()


if __name__ == "__main__":
    main()
