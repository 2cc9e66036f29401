"""Run forummod commands where the kernel itself refuses writes: a folder bind-mounted read-only
(EROFS), or a tiny tmpfs that fills up (ENOSPC).

Mounting needs no root: the commands run in new unprivileged user and mount namespaces
(`unshare -rm`), so the mounts are seen by that one child process only. Where the kernel or
the container does not allow such namespaces, `available()` is False and the tests skip.
"""

from __future__ import annotations

import functools
import json
import os
import shlex
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Sequence

import forummod

ROOT = Path(__file__).resolve().parents[2]

#: The child: runs each step in order and prints one JSON line of what each gave. A step is
#: ["cli", name, argv] (forummod's `main`, its stdout and stderr captured) or ["sh", name,
#: command] (a shell command inside the namespaces, e.g. to remount the tmpfs larger).
CHILD = r"""
import contextlib, io, json, subprocess, sys
from forummod.cli import main
out = {}
for kind, name, what in json.loads(sys.argv[1]):
    if kind == "sh":
        p = subprocess.run(what, shell=True, capture_output=True, text=True)
        out[name] = [p.returncode, p.stdout, p.stderr]
        continue
    o, e = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(o), contextlib.redirect_stderr(e):
        code = main(what)
    out[name] = [code, o.getvalue(), e.getvalue()]
print(json.dumps(out))
"""


@functools.lru_cache(maxsize=1)
def available() -> bool:
    """Whether this machine lets an unprivileged process mount a tmpfs in its own namespaces."""
    if shutil.which("unshare") is None:
        return False
    try:
        probe = subprocess.run(["unshare", "-rm", "sh", "-c", "mount -t tmpfs -o size=64k tmpfs /mnt 2>/dev/null "
                                "|| mount -t tmpfs -o size=64k tmpfs /tmp"], capture_output=True, timeout=20)
    except (OSError, subprocess.TimeoutExpired):
        return False
    return probe.returncode == 0


def run(setup: str, steps: Sequence[Sequence], patch: str = "") -> dict[str, tuple[int, str, str]]:
    """Run `steps` (see CHILD) after the shell `setup` (the mounts) in new namespaces; `patch`
    is Python run first in the child (e.g. a fault injected into an adapter)."""
    code = patch + "\n" + CHILD
    run_child = f"exec {shlex.quote(sys.executable)} -c {shlex.quote(code)} {shlex.quote(json.dumps(steps))}"
    script = f"set -e\n{setup}\n{run_child}"
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(Path(forummod.__file__).parents[1]), str(ROOT)]))
    proc = subprocess.run(["unshare", "-rm", "sh", "-c", script], capture_output=True, text=True, timeout=300,
                          env=env, cwd=ROOT)
    assert proc.returncode == 0 and proc.stdout.strip(), proc.stderr[-3000:]
    got = json.loads(proc.stdout.strip().splitlines()[-1])
    return {k: tuple(v) for k, v in got.items()}


def read_only(folder: Path) -> str:
    """The setup that makes `folder` a read-only mount of itself."""
    d = shlex.quote(str(folder))
    return f"mount --bind {d} {d}\nmount -o remount,bind,ro {d}"


def small_disk(folder: Path, kib: int) -> str:
    """The setup that mounts a `kib` KiB tmpfs on `folder` (empty: the steps fill it)."""
    return f"mount -t tmpfs -o size={kib}k,mode=0700 tmpfs {shlex.quote(str(folder))}"
