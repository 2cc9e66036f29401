"""The daemon soaked on real forums (issue 34, item 9): `forummod run`, a real subprocess, keeps
20 games up to date on the real phpBB, MyBB and SMF servers (six games each, on their seeded
thread) and on a fourth, local forum that answers 503 + Retry-After 60 to everything (two
games), polling every 5 s. While it runs:

- the three real forums' games keep their cadence (at least half their nominal passes in the
  observed window: a sanity bound, not a timing test), the throttling forum is asked once and
  its games deferred, never slept for;
- the GM's `forummod gm` and `publish` work side by side with it;
- SIGTERM stops it within 10 s;
- its RSS is sampled every 2 s (printed, and written to $FORUMMOD_ARTIFACTS/daemon-soak/ when
  set); the slope is measured by `python -m benchmarks.daemon`, not asserted here.

About 75 s of wall time with the forums' installs cached.
"""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import threading
import time
from datetime import datetime
from pathlib import Path

import pytest

from benchmarks.daemon import rss_mb
from forummod.cli import main
from forummod.store import Store
from tests.reliability.faulty_forum import FaultyForum, reset_limiters
from tests.reliability.test_politeness import PLAYERS, forum_site

pytestmark = pytest.mark.realforum

ROOT = Path(__file__).resolve().parents[2]
GAMES_PER_FORUM = 6
INTERVAL = 5  # seconds between a game's polls
OBSERVE = 25.0  # seconds of steady running looked at after every game's catch-up pass
PASS_LINE = re.compile(r"^(\S+ \S+) INFO forummod: (\S+): .* new posts?\b")


def password_env(engine: str) -> str:
    return f"FORUMMOD_SOAK_{engine.upper()}_PASSWORD"


def forum_tables(forum, games: int) -> list[str]:
    """The [sites.<engine>] table and `games` game tables on the forum's seeded thread."""
    out = []
    for i in range(1, games + 1):
        text = forum.config_toml(site=forum.engine, game=f"{forum.engine}{i}", password_env=password_env(forum.engine))
        body = text[text.index(f"[sites.{forum.engine}]"):]
        if i > 1:
            body = body[body.index("[games."):]  # the site once
        out.append(body.replace("seed = 1\n", f'seed = 1\npoll_interval = "{INTERVAL}s"\n', 1))
    return out


def throttled_tables(base_url: str) -> list[str]:
    players = ", ".join(f'{{ name = "{p}" }}' for p in PLAYERS)
    out = [f'[sites.slow]\nengine = "phpbb"\nbase_url = "{base_url}"\nrequest_interval = 0.0\nretries = 1\n'
           "timeout = 10.0\n"]
    for t in (1, 2):
        out.append(f'[games.slow{t}]\nsite = "slow"\nthread = "{base_url}viewtopic.php?t={t}"\n'
                   f'ruleset = "mafia-majority"\ngm = ["Mod"]\npoll_interval = "{INTERVAL}s"\nplayers = [{players}]\n'
                   f'[games.slow{t}.setup]\nroles = {{ mafia = 1, town = 4 }}\ndeal = "random"\n')
    return out


def test_twenty_games_on_three_real_forums_and_a_throttling_one(phpbb_fresh, mybb_fresh, smf_fresh, tmp_path,
                                                                  monkeypatch):
    forums = [phpbb_fresh, mybb_fresh, smf_fresh]
    reset_limiters()
    with FaultyForum(forum_site(2, 5)) as slow:
        slow.inject("status", status=503, headers={"Retry-After": "60"}, match="/")
        cfg = tmp_path / "forummod.toml"
        tables = [f'[workspace]\nstore = "{tmp_path / "store.sqlite"}"\nlock_wait = "30s"\n']
        for f in forums:
            tables += forum_tables(f, GAMES_PER_FORUM)
        tables += throttled_tables(slow.base_url)
        cfg.write_text("\n".join(tables), encoding="utf-8")
        env = {password_env(f.engine): f.password for f in forums}
        for name, value in env.items():
            monkeypatch.setenv(name, value)
        healthy = [f"{f.engine}{i}" for f in forums for i in range(1, GAMES_PER_FORUM + 1)]

        lines: list[str] = []
        p = subprocess.Popen([sys.executable, "-m", "forummod", "run", "--config", str(cfg)], stderr=subprocess.PIPE,
                             stdout=subprocess.DEVNULL, text=True,
                             env={**os.environ, **env, "PYTHONPATH": str(ROOT / "src")})
        threading.Thread(target=lambda: lines.extend(line.rstrip("\n") for line in p.stderr), daemon=True).start()
        rss: list[tuple[float, float]] = []
        started = time.monotonic()

        def passes() -> dict[str, list[float]]:
            out: dict[str, list[float]] = {}
            for line in list(lines):
                m = PASS_LINE.match(line)
                if m:
                    at = datetime.strptime(m.group(1), "%Y-%m-%d %H:%M:%S,%f").timestamp()
                    out.setdefault(m.group(2), []).append(at)
            return out

        def wait_until(cond, seconds: float) -> bool:
            end = time.monotonic() + seconds
            while time.monotonic() < end:
                if cond():
                    return True
                if (m := rss_mb(p.pid)) is not None:
                    rss.append((round(time.monotonic() - started, 1), round(m, 1)))
                time.sleep(2.0)
            return cond()

        try:
            every = healthy + ["slow1", "slow2"]
            assert wait_until(lambda: all(g in passes() for g in every), 60), \
                f"no catch-up pass for {[g for g in every if g not in passes()]}:\n" + "\n".join(lines[-30:])
            caught_up = time.time()

            # the GM at work while the daemon runs: a note, a vote count drafted and published on phpBB
            cli = ["--config", str(cfg)]
            assert main(["gm", *cli, "--game", "phpbb1", "note", "soak: the GM is not locked out"]) == 0
            assert main(["draft", "votecount", *cli, "--game", "phpbb1"]) == 0
            with Store(tmp_path / "store.sqlite") as s:
                draft = max(r.id for r in s.drafts("phpbb1") if r.kind == "votecount" and r.status == "draft")
            assert main(["publish", *cli, str(draft), "--stale-ok"]) == 0
            assert p.poll() is None, "\n".join(lines[-30:])

            wait_until(lambda: time.time() >= caught_up + OBSERVE, OBSERVE + 5)
            window = {g: [t for t in ts if caught_up <= t <= caught_up + OBSERVE] for g, ts in passes().items()}
            nominal = OBSERVE / INTERVAL
            slow_games = {g: len(window.get(g, [])) for g in healthy if len(window.get(g, [])) < nominal / 2}
            assert not slow_games, f"games off their cadence (passes in {OBSERVE:g} s): {slow_games}"
            assert len(slow.hits) <= 2  # Retry-After 60: asked at the start (and at most once more)
            assert any(f"slow1: " in line and "not polled" in line for line in lines)  # deferred, not slept for

            t = time.monotonic()
            p.send_signal(signal.SIGTERM)
            p.wait(timeout=10)
            stop_s = time.monotonic() - t
        finally:
            if p.poll() is None:
                p.kill()
                p.wait()
        assert p.returncode == 0, "\n".join(lines[-30:])
        assert any("daemon stopped" in line for line in lines)

    with Store(tmp_path / "store.sqlite") as s:
        assert s.draft(draft).status == "published"
        assert [e.payload.get("note") for e in s.events("phpbb1")][-1] == "soak: the GM is not locked out"
        for g in healthy:
            assert s.poll_runs(g)[0]["status"] == "ok", g
    record = {"interval_s": INTERVAL, "observe_s": OBSERVE, "stop_seconds": round(stop_s, 2),
              "passes": {g: len(ts) for g, ts in passes().items()}, "rss_mb": rss}
    print(f"\ndaemon soak: stopped {stop_s:.2f} s after SIGTERM; RSS samples (s, MB): {rss}")
    artifacts = os.environ.get("FORUMMOD_ARTIFACTS")
    if artifacts:
        out = Path(artifacts) / "daemon-soak"
        out.mkdir(parents=True, exist_ok=True)
        (out / "soak.json").write_text(json.dumps(record, indent=1), encoding="utf-8")
    assert len(rss) >= 10 and all(m > 0 for _, m in rss)
