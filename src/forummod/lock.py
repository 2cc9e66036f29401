"""One run at a time per workspace: an advisory lock file next to the store.

`fcntl.flock` is released by the kernel when a process dies, so a lock left by a killed
run (SIGKILL, power loss) is recovered automatically by the next run. The file also
records who holds it, so an overlapping cron tick can say which run is busy.
"""

from __future__ import annotations

import fcntl
import json
import os
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

from forummod.errors import LockBusy


class WorkspaceLock:
    def __init__(self, store_path: Path, *, stale_after_s: float = 3600.0):
        self.path = Path(str(store_path) + ".lock")
        self.stale_after_s = stale_after_s
        self._fd: int | None = None
        self.recovered: dict[str, Any] | None = None  # what a dead previous holder left

    def acquire(self) -> "WorkspaceLock":
        self.path.parent.mkdir(parents=True, exist_ok=True)
        fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o600)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            holder = _read(fd)
            os.close(fd)
            since = holder.get("since", "?")
            hint = ""
            try:
                age = (datetime.now(timezone.utc) - datetime.fromisoformat(since)).total_seconds()
                if age > self.stale_after_s:
                    hint = f"; it has held the lock for {int(age // 60)} minutes: is it hung?"
            except (TypeError, ValueError):
                pass
            raise LockBusy(f"another forummod run (pid {holder.get('pid', '?')}, {holder.get('command', '?')}, "
                           f"since {since}) is working on this workspace; this run does nothing{hint}") from None
        previous = _read(fd)
        if previous.get("pid") and previous.get("state") == "running":
            self.recovered = previous  # it died holding the lock; flock let us in
        os.ftruncate(fd, 0)
        os.write(fd, json.dumps({"pid": os.getpid(), "since": datetime.now(timezone.utc).isoformat(),
                                 "command": _command(), "state": "running"}).encode())
        os.fsync(fd)
        self._fd = fd
        return self

    def release(self) -> None:
        if self._fd is None:
            return
        try:
            os.ftruncate(self._fd, 0)
            os.lseek(self._fd, 0, os.SEEK_SET)
            os.write(self._fd, json.dumps({"state": "free"}).encode())
            fcntl.flock(self._fd, fcntl.LOCK_UN)
        finally:
            os.close(self._fd)
            self._fd = None

    def __enter__(self) -> "WorkspaceLock":
        return self.acquire()

    def __exit__(self, *exc: Any) -> None:
        self.release()


def _read(fd: int) -> dict[str, Any]:
    try:
        os.lseek(fd, 0, os.SEEK_SET)
        data = os.read(fd, 4096)
        return json.loads(data.decode() or "{}")
    except (OSError, ValueError):
        return {}


def _command() -> str:
    import sys

    return " ".join(os.path.basename(a) if i == 0 else a for i, a in enumerate(sys.argv[:3]))
