"""The daemon with several forums over real HTTP (issue 34, items 1 and 3).

A forum that asks us to wait or is down defers its own games and nobody else's; it is backed
off across passes and its recovery said once; the GM's commands work while `forummod run`
is mid-pass; SIGTERM ends the daemon within 10 s even with a request hanging.
"""

from __future__ import annotations

import json
import logging
import os
import signal
import sqlite3
import subprocess
import sys
import time
from datetime import datetime, timedelta, timezone
from pathlib import Path

import pytest

from forummod.cli import main
from forummod.demo.run import PASSWORD_ENV
from forummod.scheduler import Daemon
from forummod.store import Store
from tests.reliability.faulty_forum import DEMO_PASSWORD, FaultyForum, demo_config, fresh_site, reset_limiters
from tests.reliability.test_politeness import PLAYERS, forum_site

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(autouse=True)
def clean_politeness():
    reset_limiters()
    yield
    reset_limiters()


def forums_config(folder: Path, bases: dict[str, str], *, games_per_forum: int, poll: str = "1s",
                  alerts: str = "") -> Path:
    """`games_per_forum` games on each forum (thread t=1.. of each), polled every `poll`."""
    lines = [f'[workspace]\nstore = "{folder / "store.sqlite"}"\nlock_wait = "10s"\n']
    for name, base in bases.items():
        lines.append(f'[sites.{name}]\nengine = "phpbb"\nbase_url = "{base}"\nrequest_interval = 0.0\n'
                     "retries = 0\ntimeout = 5.0\nrecheck_minutes = 0\n")
    players = ", ".join(f'{{ name = "{p}" }}' for p in PLAYERS)
    for name, base in bases.items():
        for t in range(1, games_per_forum + 1):
            lines.append(f'[games.{name}_{t}]\nsite = "{name}"\nthread = "{base}viewtopic.php?t={t}"\n'
                         f'ruleset = "mafia-majority"\ngm = ["Mod"]\npoll_interval = "{poll}"\nplayers = [{players}]\n'
                         f'[games.{name}_{t}.setup]\nroles = {{ mafia = 1, town = 4 }}\ndeal = "random"\n')
    cfg = folder / "forummod.toml"
    cfg.write_text("\n".join(lines) + alerts, encoding="utf-8")
    return cfg


def poll_runs(cfg: Path, game: str) -> list[dict]:
    with Store(cfg.parent / "store.sqlite") as s:
        return s.poll_runs(game, limit=1000)


def test_a_throttling_forum_defers_its_own_games_while_the_others_keep_their_cadence(tmp_path):
    """Forum `slow` answers 503 + Retry-After 60 to everything; `a` and `b` are fine. The daemon
    asks `slow` once, then leaves it alone (its games' passes go on from the store, recorded as
    not polled); `a` and `b` are polled every second as configured."""
    forums = {name: FaultyForum(forum_site(3, 5)).__enter__() for name in ("a", "b", "slow")}
    try:
        forums["slow"].inject("status", status=503, headers={"Retry-After": "60"}, match="/")
        cfg = forums_config(tmp_path, {n: f.base_url for n, f in forums.items()}, games_per_forum=3)
        d = Daemon(cfg)
        d.start()
        try:
            time.sleep(4.5)
            slow = d.workers[next(k for k in d.workers if str(forums["slow"].server.server_address[1]) in k)]
            assert slow.health.failures == 1 and slow.health.until > datetime.now(timezone.utc) + timedelta(seconds=50)
        finally:
            d.stop()
        assert len(forums["slow"].hits) == 1  # asked once, then left alone: never slept for, never asked again
        for name in ("a", "b"):
            for t in (1, 2, 3):
                runs = poll_runs(cfg, f"{name}_{t}")
                assert len(runs) >= 3 and all(r["status"] == "ok" for r in runs)  # catch-up + every second
        for t in (1, 2, 3):
            runs = poll_runs(cfg, f"slow_{t}")
            assert runs and all(r["status"] == "failed" for r in runs)
        errors = [r["error"] for t in (1, 2, 3) for r in poll_runs(cfg, f"slow_{t}")]
        deferred = [e for e in errors if e.startswith("not polled: http://127.0.0.1:")]
        assert len(deferred) == len(errors) - 1 and all("the forum asked us to wait 60 s" in e for e in deferred)
    finally:
        for f in forums.values():
            f.__exit__(None, None, None)


class StepClock:
    """The daemon's clock, moved by the test (the HTTP client keeps real time: nothing sleeps)."""

    def __init__(self):
        self.now = datetime.now(timezone.utc)

    def __call__(self) -> datetime:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += timedelta(seconds=seconds)


def test_a_down_forum_is_backed_off_across_passes_and_its_recovery_is_said_once(tmp_path, caplog):
    """Forum `down` answers 503 without Retry-After. Each failed try doubles the pause (60 s,
    then 120 s: the game polls every 60 s); passes in between do not ask it. When it answers
    again the daemon says so once, and the GM, who was alerted that polling failed, gets one
    "polling works again"."""
    clock = StepClock()
    with FaultyForum(forum_site(1, 5)) as down:
        fault = down.inject("status", status=503, match="/")
        cfg = forums_config(tmp_path, {"down": down.base_url}, games_per_forum=1, poll="60s",
                            alerts='[alerts]\npoll_failing = "2m"\n')
        d = Daemon(cfg, clock=clock)
        d.start()
        try:
            assert d.wait_idle(30)
            worker = next(iter(d.workers.values()))
            assert len(down.hits) == 1 and worker.health.failures == 1
            first_until = worker.health.until
            assert timedelta(seconds=60) <= first_until - clock.now <= timedelta(seconds=75)

            clock.advance(30)
            r = d.run_pass("down_1", "poll")
            assert r.poll.error.startswith("not polled") and len(down.hits) == 1  # left alone

            clock.advance(45)  # past the first pause: one try, failed: the pause doubles
            d.run_pass("down_1", "poll")
            assert len(down.hits) == 2 and worker.health.failures == 2
            assert timedelta(seconds=120) <= worker.health.until - clock.now <= timedelta(seconds=150)

            clock.advance(60)
            r = d.run_pass("down_1", "poll")
            assert len(down.hits) == 2 and [a.kind for a in r.alerts] == ["poll_failing"]  # 2m15s of failure

            fault.times = fault.served  # the forum is back
            clock.advance(100)
            with caplog.at_level(logging.WARNING, logger="forummod.scheduler"):
                r = d.run_pass("down_1", "poll")
            assert r.poll.ok and worker.health.failures == 0
            [back] = [a for a in r.alerts if a.kind.startswith("poll_")]  # the game's own news come too
            assert back.kind == "poll_recovered" and "polling works again" in back.text
            assert any("polling works again (it failed 2 times" in m for m in caplog.messages)

            clock.advance(60)
            r = d.run_pass("down_1", "poll")
            assert r.poll.ok and not [a for a in r.alerts if a.kind.startswith("poll_")]  # said once
        finally:
            d.stop()


def test_the_inbox_is_read_once_a_round_for_every_game_of_the_account(tmp_path, monkeypatch):
    """A pass with nothing new cost a forum interval more than its thread page: every game's
    pass read the GM's inbox again (issue 34, item 10). One read a round serves them all."""
    monkeypatch.setenv(PASSWORD_ENV, DEMO_PASSWORD)
    with FaultyForum(fresh_site()) as forum:
        cfg = demo_config(tmp_path, forum.base_url)
        text = cfg.read_text(encoding="utf-8")
        second = text[text.index("[games.demo]"):].split("\n[games.demo.checks]")[0]
        second = second.replace("[games.demo", "[games.other").replace("t=8", "t=9")  # a second game, same account
        second = "\n".join(line for line in second.splitlines() if not line.startswith("graveyard"))
        forum.site.threads[9] = type(forum.site.threads[7])(9, "Another game")
        forum.site.add_post(9, "Narratore", datetime(2026, 3, 1, tzinfo=timezone.utc), "Day 1")
        cfg.write_text(text + "\n" + second + "\n", encoding="utf-8")
        clock = StepClock()
        d = Daemon(cfg, clock=clock)
        d.start()
        try:
            assert d.wait_idle(60)  # the catch-up passes read it: a start always does
            clock.advance(600)  # a round later (both games poll every 10 minutes)
            before = len(forum.requests("i=pm"))
            d.run_pass("demo", "poll")
            d.run_pass("other", "poll")
            assert len(forum.requests("i=pm")) - before == 1
            d.run_pass("other", "deadline")  # a deadline always reads it: a last-minute action counts
            assert len(forum.requests("i=pm")) - before == 2
        finally:
            d.stop()


def spawn_daemon(cfg: Path, env: dict[str, str]) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-m", "forummod", "run", "--config", str(cfg)], stderr=subprocess.PIPE,
                            text=True, env={**os.environ, "PYTHONPATH": str(ROOT / "src"), **env})


def test_gm_and_publish_work_while_the_daemon_is_in_the_middle_of_a_pass(tmp_path, monkeypatch):
    """Issue 34, item 3: `forummod run` used to hold the workspace lock for its life. Here its
    pass is held mid-fetch by the forum, and the GM's `gm` and `publish` go through meanwhile;
    then the pass finishes and stores its poll."""
    monkeypatch.setenv(PASSWORD_ENV, DEMO_PASSWORD)
    with FaultyForum(fresh_site()) as forum:
        cfg = demo_config(tmp_path, forum.base_url)
        assert main(["poll", "--config", str(cfg)]) == 0
        assert main(["draft", "votecount", "--config", str(cfg)]) == 0
        with Store(tmp_path / "store.sqlite") as s:
            draft = next(r.id for r in s.drafts("demo") if r.kind == "votecount")
            runs_before = len(s.poll_runs("demo"))
        held = forum.inject("hold", match="t=8", times=1)  # the cemetery page: the pass's second request
        p = spawn_daemon(cfg, {PASSWORD_ENV: DEMO_PASSWORD})
        try:
            assert held.applied.wait(30), "the daemon's pass never reached the forum"
            assert main(["publish", "--config", str(cfg), str(draft)]) == 0
            assert main(["gm", "--config", str(cfg), "note", "while the daemon polls"]) == 0
            assert not held.release.is_set() and p.poll() is None  # all of it while the pass was in flight
            held.release.set()
            with Store(tmp_path / "store.sqlite") as s:
                deadline = time.monotonic() + 30
                while len(s.poll_runs("demo")) == runs_before and time.monotonic() < deadline:
                    time.sleep(0.1)
                assert s.poll_runs("demo")[0]["status"] == "ok"  # the daemon's pass stored its poll
                assert s.draft(draft).status == "published"
                assert [e.payload.get("note") for e in s.events("demo")][-1] == "while the daemon polls"
        finally:
            p.send_signal(signal.SIGTERM)
            _, err = p.communicate(timeout=10)
        assert p.returncode == 0, err


def test_sigterm_stops_the_daemon_within_ten_seconds_while_a_request_hangs(tmp_path):
    """The forum never answers the game thread (a request in flight, 30 s read timeout): SIGTERM
    still ends the daemon within 10 s, cleanly, with nothing half-stored."""
    with FaultyForum(forum_site(1, 5)) as forum:
        held = forum.inject("hold", match="/viewtopic.php")
        cfg = forums_config(tmp_path, {"f": forum.base_url}, games_per_forum=1, poll="60s")
        cfg.write_text(cfg.read_text(encoding="utf-8").replace("timeout = 5.0", "timeout = 30.0"), encoding="utf-8")
        p = spawn_daemon(cfg, {})
        try:
            assert held.applied.wait(30), "the daemon's pass never reached the forum"
            p.send_signal(signal.SIGTERM)
            _, err = p.communicate(timeout=10)
        finally:
            if p.poll() is None:
                p.kill()
                p.wait()
        assert p.returncode == 0, err
        assert "daemon stopped" in err
    db = sqlite3.connect(tmp_path / "store.sqlite")
    assert db.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    assert db.execute("SELECT count(*) FROM poll_runs WHERE status = 'running'").fetchone()[0] == 0


def test_a_poll_by_hand_says_when_to_try_again_instead_of_waiting_with_the_lock(tmp_path, capsys):
    """Issue 34: one `poll` held the workspace lock 603 s obeying Retry-After. Now it reports
    the forum's wait and when to try again, and `--json` gives the time."""
    with FaultyForum(forum_site(1, 5)) as forum:
        forum.inject("status", status=503, headers={"Retry-After": "60"}, match="/")
        cfg = forums_config(tmp_path, {"f": forum.base_url}, games_per_forum=1)
        cfg.write_text(cfg.read_text(encoding="utf-8").replace("retries = 0", "retries = 4"), encoding="utf-8")
        assert main(["poll", "--config", str(cfg)]) == 1
        err = capsys.readouterr().err
        assert "HTTP 503, the forum asked us to wait 60 s (after 1 attempt); try again after" in err
        assert len(forum.hits) == 1  # not retried: the wait is longer than a request may wait
        reset_limiters()
        assert main(["poll", "--config", str(cfg), "--json"]) == 1
        [poll] = json.loads(capsys.readouterr().out)["polls"]
        retry_at = datetime.fromisoformat(poll["retry_at"])
        assert timedelta(seconds=30) < retry_at - datetime.now(timezone.utc) <= timedelta(seconds=60)
