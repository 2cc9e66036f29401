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
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Iterator

from forummod.errors import LockBusy, StoreError


class WorkspaceLock:
    def __init__(self, store_path: Path, *, stale_after_s: float = 3600.0, command: str | None = None):
        self.path = Path(str(store_path) + ".lock")
        self.command = command  # what the holder is doing, shown to a second run; default: argv
        self.stale_after_s = stale_after_s
        self._fd: int | None = None
        self.recovered: dict[str, Any] | None = None  # what a dead previous holder left

    def acquire(self) -> "WorkspaceLock":
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o600)
        except OSError as e:
            raise StoreError(f"cannot take the workspace lock {self.path} ({e.strerror or e}); is the store's "
                             "folder read-only? Nothing was changed") from None
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            holder = _holder(fd)
            os.close(fd)
            if holder is None:  # it took the lock a moment ago and has not said who it is yet
                raise LockBusy("another forummod run is starting on this workspace (it took the lock just now); "
                               "this run does nothing") from None
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
        _write(fd, {"pid": os.getpid(), "since": datetime.now(timezone.utc).isoformat(),
                    "command": self.command or _command(), "state": "running"})
        os.fsync(fd)
        self._fd = fd
        return self

    def release(self) -> None:
        if self._fd is None:
            return
        try:
            _write(self._fd, {"state": "free"})
            fcntl.flock(self._fd, fcntl.LOCK_UN)
        finally:
            os.close(self._fd)
            self._fd = None

    def __enter__(self) -> "WorkspaceLock":
        return self.acquire()

    def __exit__(self, *exc: Any) -> None:
        self.release()


@contextmanager
def holding_lock(ws: Any, command: str | None = None) -> Iterator[Any]:
    """Hold the workspace lock for a writing command on `ws` (poll, publish, discard, gm, draft,
    tick, run: one rule for every command that writes) from the moment its store is opened
    until the command ends. A command that fails on bad input before it touches the store
    leaves no store and no lock file, and a store that cannot be used is refused before a lock
    file appears; a second run is told who holds the lock (`LockBusy`: pid, command, since
    when) and does nothing."""
    cfg = ws.cfg.workspace
    lock = WorkspaceLock(cfg.store_path(), stale_after_s=cfg.lock_stale_after.seconds, command=command)
    ws.on_store_open = lock.acquire
    try:
        with ws:
            yield ws
    finally:
        lock.release()


#: How long a second run waits for a holder that has the lock but not yet its record (the
#: record is written right after the lock is taken): a few reads, then "is starting".
HOLDER_READS = 10
HOLDER_PAUSE_S = 0.02


def _holder(fd: int) -> dict[str, Any] | None:
    """The record of the run holding the lock, or None when it has not written one yet.

    The holder writes its record just after `flock` let it in, so a read right then finds the
    previous holder's record ("free", or a dead run's) or a half-written one: read again briefly
    until the record is a running one whose process is alive."""
    rec: dict[str, Any] = {}
    for _ in range(HOLDER_READS):
        rec = _read(fd)
        if rec.get("state") == "running" and _alive(rec.get("pid")):
            return rec
        _pause(HOLDER_PAUSE_S)
    # still no live holder's record: one from another pid namespace (a container sharing the
    # folder) is shown as it is; an empty or "free" one means the holder is starting
    return rec if rec.get("state") == "running" and rec.get("pid") else None


def _alive(pid: Any) -> bool:
    if not isinstance(pid, int) or pid <= 0:
        return False
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True  # another user's live process
    return True


def _pause(seconds: float) -> None:
    import time

    time.sleep(seconds)


def _write(fd: int, record: dict[str, Any]) -> None:
    """Replace the record: the new one written over the old, then the file cut to its length,
    so a reader never finds the file empty (only, for a moment, the new record followed by the
    old one's tail, which `_read` ignores)."""
    data = json.dumps(record).encode()
    os.pwrite(fd, data, 0)
    os.ftruncate(fd, len(data))


def _read(fd: int) -> dict[str, Any]:
    try:
        data = os.pread(fd, 4096, 0).decode()
        if not data.strip():
            return {}
        got, _end = json.JSONDecoder().raw_decode(data)  # the record; anything after it is an old tail
        return got if isinstance(got, dict) else {}
    except (OSError, ValueError):
        return {}


def _command() -> str:
    import sys

    return " ".join(os.path.basename(a) if i == 0 else a for i, a in enumerate(sys.argv[:3]))
