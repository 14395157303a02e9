"""What each command does once click has parsed its options.

Plain functions that write the command's output and return its exit status, so the behaviour of a
command is testable without click's CliRunner; verify.py only wires them to the command line (its
decorators hold the options, its docstrings the help). `common` holds what several commands share:
readings, the lint configuration, the sources of stagings, saving a file.
"""
