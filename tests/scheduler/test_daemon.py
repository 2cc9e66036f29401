"""The daemon on a real APScheduler: a catch-up pass at start, a pass just after a deadline,
config reload, clean stop; tick's lock makes an overlapping run do nothing."""

import os
import signal
import sqlite3
import subprocess
import sys
import time
from datetime import datetime, timedelta, timezone
from pathlib import Path

from forummod.cli import main
from forummod.lock import WorkspaceLock
from forummod.scheduler import Daemon
from forummod.store import Store

from tests.scheduler.conftest import write_archive, write_config

ROOT = Path(__file__).resolve().parents[2]


def near_deadline_game(tmp_path, seconds_left: float):
    now = datetime.now(timezone.utc)
    start = now - timedelta(hours=72) + timedelta(seconds=seconds_left)
    write_archive(tmp_path, [("Mod", "Day 1", start), ("Bob", "[b]vote: Eve[/b]", start + timedelta(minutes=5)),
                             ("Cat", "[b]vote: Eve[/b]", start + timedelta(minutes=6))])
    return write_config(tmp_path, start=start)


def test_daemon_catches_up_at_start_then_acts_just_after_the_deadline(tmp_path):
    cfg = near_deadline_game(tmp_path, seconds_left=3.0)
    d = Daemon(cfg)
    d.start()
    try:
        assert d.wait_idle(30) and d.passes == 1  # the catch-up pass at start
        assert d.analyses["g1"].run.state.proposal("lynch:D1") is None  # the day is still open
        assert any(j.id.startswith("deadline:g1:") for j in d.scheduler.get_jobs())
        deadline = time.monotonic() + 20
        while d.passes < 2 and time.monotonic() < deadline:
            time.sleep(0.05)
        assert d.passes >= 2, "no pass ran after the deadline"
        assert d.wait_idle(30)
        a = d.analyses["g1"]
        assert a.run.state.proposal("lynch:D1") is not None  # the final count became a lynch proposal
    finally:
        d.stop()
    for suffix in (".lock", ".daemon.lock"):
        assert not Path(str(tmp_path / "store.sqlite") + suffix).read_text().count('"running"')


def test_a_deadline_that_passed_while_the_daemon_was_down_is_handled_once_at_start(tmp_path):
    cfg = near_deadline_game(tmp_path, seconds_left=-3600)  # closed an hour ago
    d = Daemon(cfg)
    d.start()
    try:
        assert d.wait_idle(30)
        st = d.analyses["g1"].run.state
        assert st.proposal("lynch:D1") is not None
        with Store(tmp_path / "store.sqlite") as s:
            assert len([r for r in s.drafts("g1") if r.kind == "day_end"]) == 1
    finally:
        d.stop()
    d2 = Daemon(cfg)
    d2.start()
    try:
        assert d2.wait_idle(30)
        with Store(tmp_path / "store.sqlite") as s:
            assert len([r for r in s.drafts("g1") if r.kind == "day_end"]) == 1  # not drafted twice
    finally:
        d2.stop()


def test_reload_keeps_the_old_config_when_the_new_one_is_broken(tmp_path):
    cfg = near_deadline_game(tmp_path, seconds_left=3600)
    d = Daemon(cfg)
    d.start()
    try:
        assert d.wait_idle(30)
        cfg.write_text(cfg.read_text() + "\nbroken = [\n")
        d.reload()
        assert "g1" in d.cfg.games
        cfg.write_text(cfg.read_text().replace("\nbroken = [\n", "").replace('poll_interval = "60s"',
                                                                              'poll_interval = "120s"'))
        d.reload()
        assert d.cfg.games["g1"].poll_interval.seconds == 120
    finally:
        d.stop()


def test_tick_exits_at_once_while_another_run_holds_the_lock(tmp_path, capsys):
    cfg = near_deadline_game(tmp_path, seconds_left=3600)
    with WorkspaceLock(tmp_path / "store.sqlite"):
        rc = main(["tick", "--config", str(cfg)])
    assert rc == 75
    assert "another forummod run" in capsys.readouterr().err
    assert main(["tick", "--config", str(cfg)]) == 0


def test_a_quiet_tick_says_nothing_while_another_run_holds_the_lock(tmp_path, capsys):
    """Issue 28, item 10: a batch of role PMs holds the lock for minutes; cron's `tick -q` in the
    meantime exits 75 (it did nothing) without a word, so cron mails nothing."""
    cfg = near_deadline_game(tmp_path, seconds_left=3600)
    with WorkspaceLock(tmp_path / "store.sqlite"):
        rc = main(["tick", "-q", "--config", str(cfg)])
    cap = capsys.readouterr()
    assert rc == 75 and cap.err == "" and cap.out == ""


def test_a_lock_left_by_a_killed_run_is_recovered(tmp_path):
    cfg = near_deadline_game(tmp_path, seconds_left=3600)
    code = ("import sys, time; from forummod.lock import WorkspaceLock; "
            f"WorkspaceLock({str(tmp_path / 'store.sqlite')!r}).acquire(); print('locked', flush=True); time.sleep(60)")
    p = subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE, text=True)
    assert p.stdout.readline().strip() == "locked"
    p.send_signal(signal.SIGKILL)
    p.wait()
    lock = WorkspaceLock(tmp_path / "store.sqlite").acquire()
    try:
        assert lock.recovered is not None and lock.recovered["pid"] == p.pid
    finally:
        lock.release()


def test_sigterm_stops_the_daemon_cleanly(tmp_path):
    cfg = near_deadline_game(tmp_path, seconds_left=3600)
    env = dict(os.environ, PYTHONPATH=str(ROOT / "src"))
    p = subprocess.Popen([sys.executable, "-m", "forummod", "run", "--config", str(cfg)], stderr=subprocess.PIPE,
                         text=True, env=env)
    seen = ""
    deadline = time.monotonic() + 20
    while "g1: D1" not in seen and time.monotonic() < deadline:  # the catch-up pass's line
        seen += p.stderr.readline()
    p.send_signal(signal.SIGTERM)
    _, rest = p.communicate(timeout=10)  # issue 34: the daemon stops within 10 s
    assert p.returncode == 0, seen + rest
    assert "daemon stopped" in seen + rest
    db = sqlite3.connect(tmp_path / "store.sqlite")
    assert db.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    with Store(tmp_path / "store.sqlite") as s:
        assert s.post_count("arch", "game") == 3


def test_the_daemon_collects_the_garbage_its_passes_hide_from_the_collector(tmp_path, monkeypatch):
    """Issue 34: a daemon's memory grew about 1 MB a minute. `analyse_game` freezes everything
    alive while it reads a game and unfreezes it into the oldest generation, where the
    collector's own schedule never looks again: garbage cycles piled up. The daemon now runs a
    full collection now and then (every pass here)."""
    import gc
    import weakref

    from forummod import scheduler

    monkeypatch.setattr(scheduler, "COLLECT_EVERY_S", 0.0)
    cfg = near_deadline_game(tmp_path, seconds_left=3600)
    d = Daemon(cfg)
    d.start()
    try:
        assert d.wait_idle(30)

        class Node:
            pass

        cycle = Node()
        cycle.me = cycle
        gone = weakref.ref(cycle)
        gc.collect()  # it survives, into the oldest generation...
        del cycle  # ...and is garbage there: only a full collection frees it
        d.run_pass("g1", "poll")
        assert gone() is None
    finally:
        d.stop()


def test_a_daemon_whose_first_pass_is_answered_from_a_cron_note_still_plans_the_deadline(tmp_path):
    """A cron `tick` left a quiet-pass note (issue 30); the daemon started after it finds nothing
    new, so its first pass is answered from that note, which holds no analysis. The daemon plans
    its deadline jobs from an analysis, so it must make one: without it the vote close is never
    acted on."""
    cfg = near_deadline_game(tmp_path, seconds_left=3600)
    assert main(["tick", "--config", str(cfg)]) in (0, 1)
    with Store(tmp_path / "store.sqlite") as s:
        from forummod.quiet_pass import KEY

        assert s.snapshot("g1", KEY)  # the note the daemon's first pass is answered from
    d = Daemon(cfg)
    d.start()
    try:
        assert d.wait_idle(30) and d.passes == 1
        assert "g1" in d.analyses
        assert any(j.id.startswith("deadline:g1:") for j in d.scheduler.get_jobs())
    finally:
        d.stop()
