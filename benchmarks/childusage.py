"""A command's CPU time and peak resident memory, read in a small parent process.

A process forked straight from a large one (benchmarks/run.py holds hundreds of MB) reports that
one's resident size as its own high-water mark: Linux carries ru_maxrss across fork and exec. So the
command runs under a small Python parent that reports RUSAGE_CHILDREN: the command and its own
children (check --jobs's workers) only.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

_PARENT = """
import json, resource, subprocess, sys
keep = sys.argv[1] == "keep"
out = subprocess.PIPE if keep else subprocess.DEVNULL
done = subprocess.run(sys.argv[2:], stdout=out, stderr=subprocess.DEVNULL, text=True)
usage = resource.getrusage(resource.RUSAGE_CHILDREN)
print(json.dumps({"rc": done.returncode, "stdout": done.stdout if keep else "",
                  "cpu_s": usage.ru_utime + usage.ru_stime, "peak_mb": usage.ru_maxrss / 1024}))
"""


def measured(cmd: list[str], cwd: Path, keep_stdout: bool = False) -> dict:
    """Run `cmd` in `cwd` under a small parent: {"rc", "stdout" (with `keep_stdout`), "cpu_s", "peak_mb"}."""
    done = subprocess.run(
        [sys.executable, "-c", _PARENT, "keep" if keep_stdout else "drop", *cmd],
        cwd=cwd,
        capture_output=True,
        text=True,
        check=True,
    )
    return json.loads(done.stdout.strip().splitlines()[-1])
