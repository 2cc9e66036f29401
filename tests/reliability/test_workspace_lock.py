"""Every command that writes the store takes the workspace lock (issue 19, done-means 6).

poll, publish, discard, gm, draft (when it stores), tick and run (per pass): while another run
holds the lock, each waits up to `workspace.lock_wait` (issue 34), then is told who holds it
(pid, command, since when), exits non-zero and writes nothing. Read-only commands (tally,
status, drafts, publish --dry-run, draft --gm) still work.
"""

from __future__ import annotations

import os
import subprocess
import sys
import threading
from datetime import datetime, timedelta, timezone
from pathlib import Path

import pytest

from forummod.cli import main
from forummod.errors import Stopped
from forummod.lock import WorkspaceLock
from forummod.store import Store
from tests.archive_game import archive_config, players_toml, write_posts

T0 = datetime(2026, 3, 2, 9, 0, tzinfo=timezone.utc)
POSTS = [("Mod", "[b]Day 1[/b] begins."), ("Ann", "[b]VOTE: Bob[/b]"), ("Cat", "[b]VOTE: Bob[/b]")]


@pytest.fixture
def workspace(tmp_path: Path) -> Path:
    write_posts(tmp_path, POSTS, T0)
    cfg = tmp_path / "forummod.toml"
    text = archive_config(tmp_path, players_toml(["Ann", "Bob", "Cat"], {"Ann": "mafia"})).replace(
        "[workspace]\n", '[workspace]\nlock_wait = "0s"\n', 1)  # refused at once; waiting: the tests below
    cfg.write_text(text + '\n[games.g.schedule]\nstart = "2026-03-02T08:00:00+00:00"\n', encoding="utf-8")
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


def set_lock_wait(cfg: Path, value: str) -> None:
    cfg.write_text(cfg.read_text(encoding="utf-8").replace('lock_wait = "0s"', f'lock_wait = "{value}"'),
                   encoding="utf-8")


def test_a_writing_command_waits_for_an_action_at_work_and_then_does_its_own(workspace, capsys):
    """Issue 34, item 3: the daemon holds the lock for one pass; the GM's `gm` in the meantime
    waits for it (saying so) instead of being refused, then records its event."""
    set_lock_wait(workspace, "20s")
    lock = WorkspaceLock(workspace.parent / "s.sqlite", command="forummod run: pass g").acquire()
    threading.Timer(0.4, lock.release).start()
    assert main(["gm", "--config", str(workspace), "note", "after the pass"]) == 0
    err = capsys.readouterr().err
    assert "forummod run: pass g" in err and "waiting up to 20 s" in err
    with Store(workspace.parent / "s.sqlite") as s:
        assert [e.payload.get("note") for e in s.events("g")][-1] == "after the pass"


def test_a_command_that_waited_its_lock_wait_in_vain_names_the_holder_and_writes_nothing(workspace, capsys):
    set_lock_wait(workspace, "1s")
    before = store_bytes(workspace)
    with WorkspaceLock(workspace.parent / "s.sqlite", command="forummod publish 1 2 3"):
        code = main(["gm", "--config", str(workspace), "note", "too late"])
    err = capsys.readouterr().err
    assert code == 1 and "forummod publish 1 2 3" in err and "(waited 1 s for it)" in err
    assert store_bytes(workspace) == before


def test_a_set_stop_event_ends_a_wait_for_the_lock_at_once(tmp_path):
    stop = threading.Event()
    with WorkspaceLock(tmp_path / "s.sqlite"):
        threading.Timer(0.1, stop.set).start()
        with pytest.raises(Stopped):
            WorkspaceLock(tmp_path / "s.sqlite").acquire(60, stop=stop)


def test_a_second_daemon_on_one_workspace_is_refused(workspace, capsys):
    """`run` takes the workspace lock per pass (tests/scheduler), and its own lock for its life:
    two daemons would poll every forum twice."""
    with WorkspaceLock(workspace.parent / "s.sqlite", suffix=".daemon.lock", command="forummod run"):
        code = main(["run", "--config", str(workspace)])
    err = capsys.readouterr().err
    assert code != 0 and "forummod run" in err and "is working on this workspace" in err


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
