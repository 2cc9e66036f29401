"""One action at a time per workspace: an advisory lock file next to the store.

`fcntl.flock` is released by the kernel when a process dies, so a lock left by a killed
run (SIGKILL, power loss) is recovered automatically by the next run. The file also
records who holds it, so an overlapping cron tick can say which run is busy.

Every holder keeps the lock for one action (a command, a console button, one daemon pass),
so a second action may wait a little for the first (`acquire(wait=...)`, the workspace's
`lock_wait`) instead of being refused: the GM's `gm` or `publish` while `forummod run` is
alive waits at most for the pass at work.
"""

from __future__ import annotations

import fcntl
import json
import os
import threading
import time
from datetime import datetime, timezone
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Callable, Iterator

from forummod.errors import LockBusy, Stopped, StoreError

POLL_S = 0.05  # how often a waiting action tries the lock again


class WorkspaceLock:
    def __init__(self, store_path: Path, *, stale_after_s: float = 3600.0, command: str | None = None,
                 suffix: str = ".lock"):
        self.path = Path(str(store_path) + suffix)  # ".daemon.lock": the daemon's own, held for its life
        self.command = command  # what the holder is doing, shown to a second run; default: argv
        self.stale_after_s = stale_after_s
        self._fd: int | None = None
        self.recovered: dict[str, Any] | None = None  # what a dead previous holder left

    def acquire(self, wait: float = 0.0, *, on_wait: Callable[[str], None] | None = None,
                stop: threading.Event | None = None) -> "WorkspaceLock":
        """Take the lock, trying again for up to `wait` seconds while another action holds it
        (`on_wait` is told once who that is); then `LockBusy` naming the holder. A set `stop`
        ends the wait with `Stopped` (the daemon is stopping)."""
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o600)
        except OSError as e:
            raise StoreError(f"cannot take the workspace lock {self.path} ({e.strerror or e}); is the store's "
                             "folder read-only? Nothing was changed") from None
        deadline = time.monotonic() + max(0.0, wait)
        told = False
        while True:
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                break
            except BlockingIOError:
                left = deadline - time.monotonic()
                if left <= 0:
                    holder = _holder(fd)
                    os.close(fd)
                    if holder is None:  # it took the lock a moment ago and has not said who it is yet
                        raise LockBusy("another forummod run is starting on this workspace (it took the lock just "
                                       "now); this run does nothing") from None
                    raise LockBusy(self._busy(holder, wait)) from None
                if on_wait is not None and not told:
                    holder = _holder(fd)
                    who = _who(holder) if holder is not None else "another forummod run (starting)"
                    on_wait(f"{who} is working on this workspace; waiting up to {wait:g} s for it")
                    told = True
                if stop is not None:
                    if stop.wait(min(POLL_S, left)):
                        os.close(fd)
                        raise Stopped("stopping; the workspace lock was not taken") from None
                else:
                    time.sleep(min(POLL_S, left))
        previous = _read(fd)
        if previous.get("pid") and previous.get("state") == "running":
            self.recovered = previous  # it died holding the lock; flock let us in
        _write(fd, {"pid": os.getpid(), "since": datetime.now(timezone.utc).isoformat(),
                    "command": self.command or _command(), "state": "running"})
        os.fsync(fd)
        self._fd = fd
        return self

    def _busy(self, holder: dict[str, Any], waited: float) -> str:
        since = holder.get("since", "?")
        hint = ""
        try:
            age = (datetime.now(timezone.utc) - datetime.fromisoformat(since)).total_seconds()
            if age > self.stale_after_s:
                hint = f"; it has held the lock for {int(age // 60)} minutes: is it hung?"
        except (TypeError, ValueError):
            pass
        after = f" (waited {waited:g} s for it)" if waited > 0 else ""
        return f"{_who(holder)} is working on this workspace{after}; this run does nothing{hint}"

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
def holding_lock(ws: Any, command: str | None = None, wait: float | None = None) -> Iterator[Any]:
    """Hold the workspace lock for a writing command on `ws` (poll, publish, discard, gm, draft:
    one rule for every command that writes) from the moment its store is opened until the
    command ends. A command that fails on bad input before it touches the store leaves no store
    and no lock file, and a store that cannot be used is refused before a lock file appears.
    While another action holds the lock (the daemon's pass) the command waits up to `wait`
    seconds (default: the workspace's `lock_wait`), saying so once; after that it is told who
    holds the lock (`LockBusy`: pid, command, since when) and does nothing."""
    cfg = ws.cfg.workspace
    lock = WorkspaceLock(cfg.store_path(), stale_after_s=cfg.lock_stale_after.seconds, command=command)
    patience = cfg.lock_wait.seconds if wait is None else wait
    ws.on_store_open = lambda: lock.acquire(patience, on_wait=ws.notify)
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
    time.sleep(seconds)


def _write(fd: int, record: dict[str, Any]) -> None:
    """Replace the record: the new one written over the old, then the file cut to its length,
    so a reader never finds the file empty (only, for a moment, the new record followed by the
    old one's tail, which `_read` ignores)."""
    data = json.dumps(record).encode()
    os.pwrite(fd, data, 0)
    os.ftruncate(fd, len(data))


def _who(holder: dict[str, Any]) -> str:
    """The holder as a second action names it: "another forummod run (pid 4242, forummod run: pass g1, since ...)"."""
    return (f"another forummod run (pid {holder.get('pid', '?')}, {holder.get('command', '?')}, "
            f"since {holder.get('since', '?')})")


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
