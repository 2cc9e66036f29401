"""Every command that writes the store takes the workspace lock (issue 19, done-means 6).

poll, publish, discard, gm, draft (when it stores), tick and run: while another run holds the
lock, each is told who holds it (pid, command, since when), exits non-zero and writes nothing.
Read-only commands (tally, status, drafts, publish --dry-run, draft --gm) still work.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from datetime import datetime, timedelta, timezone
from pathlib import Path

import pytest

from forummod.cli import main
from forummod.errors import LockBusy
from forummod.lock import WorkspaceLock
from tests.archive_game import archive_config, players_toml, write_posts

T0 = datetime(2026, 3, 2, 9, 0, tzinfo=timezone.utc)
POSTS = [("Mod", "[b]Day 1[/b] begins."), ("Ann", "[b]VOTE: Bob[/b]"), ("Cat", "[b]VOTE: Bob[/b]")]


@pytest.fixture
def workspace(tmp_path: Path) -> Path:
    write_posts(tmp_path, POSTS, T0)
    cfg = tmp_path / "forummod.toml"
    cfg.write_text(archive_config(tmp_path, players_toml(["Ann", "Bob", "Cat"], {"Ann": "mafia"}))
                   + '\n[games.g.schedule]\nstart = "2026-03-02T08:00:00+00:00"\n', encoding="utf-8")
    assert main(["poll", "--config", str(cfg)]) == 0
    assert main(["draft", "votecount", "--config", str(cfg)]) == 0
    return cfg


def store_bytes(cfg: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(cfg.parent.glob("s.sqlite*")) if not p.name.endswith(".lock")}


WRITING = {
    "poll": ["poll"],
    "publish": ["publish", "1"],
    "discard": ["discard", "1"],
    "gm": ["gm", "note", "a note"],
    "draft": ["draft", "votecount"],
    "tick": ["tick"],
}


@pytest.mark.parametrize("command", list(WRITING))
def test_a_writing_command_says_who_holds_the_lock_and_writes_nothing(command, workspace, capsys):
    before = store_bytes(workspace)
    with WorkspaceLock(workspace.parent / "s.sqlite"):  # another run is at work
        code = main([WRITING[command][0], "--config", str(workspace), *WRITING[command][1:]])
    err = capsys.readouterr().err
    assert code != 0
    assert f"pid {os.getpid()}" in err and "since 20" in err and "is working on this workspace" in err
    assert store_bytes(workspace) == before


@pytest.mark.parametrize("args", [["tally"], ["status"], ["drafts"], ["publish", "1", "--dry-run"],
                                  ["draft", "votecount", "--gm"]])
def test_reading_commands_work_while_another_run_holds_the_lock(args, workspace):
    with WorkspaceLock(workspace.parent / "s.sqlite"):
        assert main([*args, "--config", str(workspace)]) == 0


def test_run_takes_the_lock_too(workspace, capsys):
    with WorkspaceLock(workspace.parent / "s.sqlite"):
        code = main(["run", "--config", str(workspace)])
    assert code != 0 and "is working on this workspace" in capsys.readouterr().err


def test_a_second_process_is_told_the_holders_pid_command_and_start(workspace):
    """Two real processes: the holder is a `forummod gm note` blocked inside the lock."""
    holder = subprocess.Popen(
        [sys.executable, "-c",
         "import sys, time\n"
         "from forummod.commands import _common\n"
         "from forummod.cli import main\n"
         "orig = _common.open_workspace\n"
         "class Slow:\n"
         "    def __init__(self, cm): self.cm = cm\n"
         "    def __enter__(self):\n"
         "        ws = self.cm.__enter__(); ws.store; print('locked', flush=True); time.sleep(30); return ws\n"
         "    def __exit__(self, *a): return self.cm.__exit__(*a)\n"
         "_common.open_workspace = lambda a, **kw: Slow(orig(a, **kw))\n"
         "import forummod.commands.gm as g; g.open_workspace = _common.open_workspace\n"
         f"sys.exit(main(['gm', '--config', {str(workspace)!r}, 'note', 'held']))\n"],
        stdout=subprocess.PIPE, text=True, cwd=Path(__file__).resolve().parents[2])
    try:
        assert holder.stdout.readline().strip() == "locked"
        second = subprocess.run([sys.executable, "-m", "forummod", "poll", "--config", str(workspace)],
                                capture_output=True, text=True, timeout=60)
    finally:
        holder.kill()
        holder.wait(10)
    assert second.returncode == 1
    assert f"pid {holder.pid}" in second.stderr and "gm note" in second.stderr
    since = second.stderr.split("since ")[1].split(")")[0]
    assert abs(datetime.fromisoformat(since) - datetime.now(timezone.utc)) < timedelta(minutes=2)


# ---------------------------------------------------------------------- the holder's record (issue 34)


def held(store: Path, record: str) -> int:
    """Another run that holds the lock and whose record reads `record` so far (an fd to close)."""
    import fcntl

    fd = os.open(str(store) + ".lock", os.O_RDWR | os.O_CREAT, 0o600)
    fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    os.ftruncate(fd, 0)
    os.pwrite(fd, record.encode(), 0)
    return fd


def test_a_holder_caught_before_it_wrote_its_record_is_named_once_it_has(tmp_path, monkeypatch):
    """The race of "pid ?, ?, since ?": the second run read the record while the holder, which
    had just taken the lock, was writing it; it reads again and names the holder."""
    from forummod import lock as L

    store = tmp_path / "s.sqlite"
    fd = held(store, "")  # flock taken, nothing written yet
    written = json.dumps({"pid": os.getpid(), "since": "2026-03-02T09:00:00+00:00", "command": "forummod poll",
                          "state": "running"})
    monkeypatch.setattr(L, "_pause", lambda s: os.pwrite(fd, written.encode(), 0))  # it writes meanwhile
    try:
        with pytest.raises(LockBusy) as e:
            WorkspaceLock(store).acquire()
    finally:
        os.close(fd)
    assert f"pid {os.getpid()}, forummod poll, since 2026-03-02T09:00:00+00:00" in str(e.value)
    assert "pid ?" not in str(e.value) and "since ?" not in str(e.value)


def test_a_dead_runs_record_under_a_new_holder_is_not_taken_for_the_holder(tmp_path, monkeypatch):
    """The file still holds the record of a run that died holding the lock (the kernel freed
    it, a new run took it and is about to write): that dead pid is not named as the holder."""
    from forummod import lock as L

    dead = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True,
                          text=True).stdout.strip()
    store = tmp_path / "s.sqlite"
    fd = held(store, json.dumps({"pid": int(dead), "since": "2026-03-01T00:00:00+00:00", "command": "forummod tick",
                                 "state": "running"}))
    pauses = []
    mine = json.dumps({"pid": os.getpid(), "since": "2026-03-02T09:00:00+00:00", "command": "forummod gm",
                       "state": "running"}).encode()
    def pause(s):  # the new holder writes its record while the second run waits
        pauses.append(s)
        if len(pauses) == 3:
            L._write(fd, json.loads(mine))

    monkeypatch.setattr(L, "_pause", pause)
    try:
        with pytest.raises(LockBusy) as e:
            WorkspaceLock(store).acquire()
    finally:
        os.close(fd)
    assert f"pid {os.getpid()}, forummod gm" in str(e.value) and dead not in str(e.value)
    assert len(pauses) == 3


@pytest.mark.parametrize("record", ["", '{"state": "free"}', '{"pid": 12'])
def test_a_holder_that_has_not_written_its_record_at_all_is_said_to_be_starting(record, tmp_path, monkeypatch):
    from forummod import lock as L

    monkeypatch.setattr(L, "_pause", lambda s: None)
    store = tmp_path / "s.sqlite"
    fd = held(store, record)
    try:
        with pytest.raises(LockBusy, match="another forummod run is starting on this workspace") as e:
            WorkspaceLock(store).acquire()
    finally:
        os.close(fd)
    assert "pid ?" not in str(e.value) and "does nothing" in str(e.value)


def test_a_record_read_while_a_shorter_one_replaced_it_is_the_new_record(tmp_path):
    """A new record is written over the old one before the file is cut to its length: a read in
    between sees the new record and the old one's tail, and takes the new record."""
    from forummod import lock as L

    fd = os.open(tmp_path / "x.lock", os.O_RDWR | os.O_CREAT, 0o600)
    try:
        os.pwrite(fd, json.dumps({"pid": 1, "since": "2026-03-01T00:00:00+00:00", "command": "a long command line",
                                  "state": "running"}).encode(), 0)
        os.pwrite(fd, b'{"state": "free"}', 0)  # the new record, the file not cut yet
        assert L._read(fd) == {"state": "free"}
        L._write(fd, {"pid": 2, "state": "running"})
        assert L._read(fd) == {"pid": 2, "state": "running"}
        assert os.fstat(fd).st_size == len('{"pid": 2, "state": "running"}')
    finally:
        os.close(fd)
