"""Every command that writes the store takes the workspace lock (issue 19, done-means 6).

poll, publish, discard, gm, draft (when it stores), tick and run: while another run holds the
lock, each is told who holds it (pid, command, since when), exits non-zero and writes nothing.
Read-only commands (tally, status, drafts, publish --dry-run, draft --gm) still work.
"""

from __future__ import annotations

import os
import subprocess
import sys
from datetime import datetime, timedelta, timezone
from pathlib import Path

import pytest

from forummod.cli import main
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
