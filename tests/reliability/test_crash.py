"""A run killed at any point (SIGKILL: no cleanup, no finally) loses nothing and doubles nothing.

Polls: a subprocess runs `forummod poll` against the demo forum on 127.0.0.1 (a long thread,
every answer slightly slowed so a poll takes a while) and is killed after a seeded random
delay, over and over, while the game goes on; after each kill the store opens, passes
SQLite's integrity check and holds no half poll; the run after the last kill ends with exactly
the posts, PMs and vote count of one uninterrupted run.

Publishing: a subprocess runs `forummod publish` on an archive game and is killed before the
send, between the send and its recording, and at random points; after the next runs the
outbox (the archive engine's forum) holds the post exactly once and the store knows it.
"""

from __future__ import annotations

import json
import os
import random
import signal
import sqlite3
import subprocess
import sys
import time
from datetime import timedelta
from pathlib import Path

import pytest

from forummod.demo import script as S
from forummod.demo.run import PASSWORD_ENV
from forummod.service import poll_game
from forummod.store import Store
from tests.reliability.faulty_forum import (
    DEMO_PASSWORD,
    FakeClock,
    FaultyForum,
    GameClock,
    demo_config,
    fresh_site,
    open_workspace,
    reset_limiters,
)
from tests.reliability.test_faults import outcome

SEED = 20261123
KILLS = 10

RUNNER = """
import sys, time
t0 = time.monotonic()
from forummod.cli import main
import forummod.service, forummod.forum.registry, forummod.forum.html_adapter, forummod.forum.archive
import forummod.commands.poll, forummod.commands.publish, forummod.publish
{patch}
print("ready", flush=True)
sys.exit(main(sys.argv[1:]))
"""


def start(args: list[str], patch: str = "", env: dict[str, str] | None = None) -> subprocess.Popen:
    proc = subprocess.Popen([sys.executable, "-c", RUNNER.format(patch=patch), *args], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, env={**os.environ, **(env or {})})
    line = proc.stdout.readline()
    assert line.strip() == "ready", (line, proc.stderr.read())
    return proc


def kill(proc: subprocess.Popen) -> bool:
    """SIGKILL; True when the process was still running (a real interruption)."""
    alive = proc.poll() is None
    proc.send_signal(signal.SIGKILL)
    proc.wait(timeout=10)
    proc.stdout.close()
    proc.stderr.close()
    return alive


def finish(proc: subprocess.Popen) -> tuple[int, str, str]:
    out, err = proc.communicate(timeout=60)
    return proc.returncode, out, err


def assert_store_sound(path: Path) -> None:
    with Store(path) as st:
        db = st.db
        assert db.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        assert db.execute("SELECT count(*) FROM poll_runs WHERE status='running'").fetchone()[0] == 0
        # a thread's cursor never runs ahead of its stored posts
        for row in db.execute("SELECT stream, data FROM cursors WHERE stream LIKE 'thread:%'"):
            last = json.loads(row["data"]).get("last_post_id")
            if last:
                assert db.execute("SELECT 1 FROM posts WHERE post_id=?", (last,)).fetchone(), row["stream"]
        dup = db.execute("SELECT count(*) FROM (SELECT 1 FROM posts GROUP BY site, thread, post_id, content_hash"
                         " HAVING count(*) > 1)").fetchone()[0]
        assert dup == 0


# ---------------------------------------------------------------------- polls


def grow(site, rng: random.Random, n: int) -> None:
    """More day-2 posts (votes among the living) and, now and then, a PM to the GM."""
    from forummod.demo.site import SitePM

    living = [p for p, _, _ in S.PLAYERS if p != "Fede"]
    thread = site.threads[7]
    for _ in range(n):
        at = thread.posts[-1].at + timedelta(seconds=30)
        who, whom = rng.sample(living, 2)
        site.add_post(7, who, at, rng.choice([f"[b]Voto: {whom}[/b]", f"Hmm, {whom}?", f"[vote]{whom}[/vote]"]))
    if rng.random() < 0.5:
        site.pms.append(SitePM(900 + len(site.pms), rng.choice(living), S.GM, thread.posts[-1].at,
                               "note", f"ciao, penso a {rng.choice(living)}"))


def test_a_poll_killed_at_random_points_continues_to_the_uninterrupted_result(tmp_path):
    rng = random.Random(SEED)
    reset_limiters()
    site = fresh_site(S.NOW)
    with FaultyForum(site, delay=0.005) as forum:
        cfg = demo_config(tmp_path / "ws", forum.base_url)
        store = tmp_path / "ws" / "store.sqlite"
        env = {PASSWORD_ENV: DEMO_PASSWORD}
        # how long an uninterrupted poll takes, to spread the kills over it
        proc = start(["poll", "--config", str(cfg)], env=env)
        t0 = time.monotonic()
        code, _, err = finish(proc)
        assert code == 0, err
        full = time.monotonic() - t0  # from "ready" to the end of a first, whole poll
        store.unlink()
        for suffix in ("-wal", "-shm"):
            Path(str(store) + suffix).unlink(missing_ok=True)
        interrupted = 0
        for i in range(KILLS):
            grow(site, rng, rng.randint(5, 20))  # the game goes on: every poll has pages to read
            proc = start(["poll", "--config", str(cfg)], env=env)
            time.sleep(rng.uniform(0.0, 0.9 * full))
            interrupted += kill(proc)
            if store.exists():
                assert_store_sound(store)
        assert interrupted >= 3  # kills really landed inside polls (most do; timing decides which)
        grow(site, rng, 15)
        code, out, err = finish(start(["poll", "--config", str(cfg)], env=env))
        assert code == 0, err
        assert_store_sound(store)

        os.environ[PASSWORD_ENV] = DEMO_PASSWORD
        try:
            with open_workspace(cfg, FakeClock(), GameClock(S.NOW)) as ws:
                after_kills = outcome(ws, forum.base_url)
            with open_workspace(demo_config(tmp_path / "clean", forum.base_url), FakeClock(), GameClock(S.NOW)) as ws:
                assert poll_game(ws, "demo").ok
                uninterrupted = outcome(ws, forum.base_url)
        finally:
            os.environ.pop(PASSWORD_ENV, None)
    assert after_kills["posts"] == uninterrupted["posts"]
    assert after_kills["messages"] == uninterrupted["messages"]
    assert after_kills["tally"] == uninterrupted["tally"]
    assert len(after_kills["posts"]["game"]) == len(site.threads[7].posts)


# ---------------------------------------------------------------------- publishing

ARCHIVE_CONFIG = """
[workspace]
store = "store.sqlite"

[sites.f]
engine = "archive"
posts_file = "posts.jsonl"
username = "Mod"

[games.g1]
site = "f"
thread = "game"
ruleset = "mafia-majority"
timezone = "UTC"
gm = ["Mod"]
players = [{ name = "Ann", role = "mafia" }, { name = "Bob" }, { name = "Cat" }]
"""

# Where a publish can die: sleeps inserted around the adapter's send so a kill lands there.
SLOW_SEND = """
import os, random, time
from forummod.forum import archive
_reply = archive.ArchiveAdapter.reply
_rng = random.Random(int(os.environ["FM_SEED"]))
def reply(self, *a, **kw):
    time.sleep(_rng.uniform(0, 0.05))
    print("sending", flush=True)
    res = _reply(self, *a, **kw)
    print("sent", flush=True)
    time.sleep(float(os.environ.get("FM_AFTER_SEND", "0")))
    return res
archive.ArchiveAdapter.reply = reply
"""


def outbox_rows(folder: Path) -> list[dict]:
    p = folder / "posts.outbox.jsonl"
    return [json.loads(line) for line in p.read_text(encoding="utf-8").splitlines()] if p.exists() else []


def age_publication(store: Path, draft_id: int) -> None:
    """The next run comes later (cron): past the grace an unfinished send is given."""
    from datetime import datetime

    db = sqlite3.connect(store)
    row = db.execute("SELECT started_at FROM publications WHERE draft_id=?", (draft_id,)).fetchone()
    if row is not None:
        earlier = datetime.fromisoformat(row[0]) - timedelta(minutes=10)
        db.execute("UPDATE publications SET started_at=? WHERE draft_id=?", (earlier.isoformat(), draft_id))
        db.commit()
    db.close()


@pytest.fixture
def archive_game(tmp_path):
    (tmp_path / "forummod.toml").write_text(ARCHIVE_CONFIG, encoding="utf-8")
    (tmp_path / "posts.jsonl").write_text(json.dumps(
        {"id": 1, "number": 1, "author": "Ann", "created_at": "2026-03-01T10:00:00+00:00",
         "bbcode": "[b]VOTE: Bob[/b]"}) + "\n", encoding="utf-8")
    return tmp_path


def make_draft(folder: Path, n: int) -> int:
    from datetime import datetime, timezone

    with Store(folder / "store.sqlite") as st:
        did, _ = st.upsert_draft(game="g1", kind="votecount", phase="D1", slot=f"s{n}", target="thread",
                                 markup="bbcode", lang="en", title="", body=f"[b]Vote count {n}[/b]\nBob: 1 (Ann)",
                                 at=datetime(2026, 3, 1, 12, n, tzinfo=timezone.utc))
    return did


@pytest.mark.parametrize("where", ["after the send, before its recording", "before the send", "at random"])
def test_a_publish_killed_at_any_point_posts_exactly_once(where, archive_game):
    from forummod.render.marker import find_markers

    cfg = str(archive_game / "forummod.toml")
    store = archive_game / "store.sqlite"
    rng = random.Random(f"{SEED}-{where}")
    for n in range(3):
        did = make_draft(archive_game, n)
        env = {"FM_SEED": str(rng.randrange(1 << 30)), "FM_AFTER_SEND": "30"}
        proc = start(["publish", str(did), "--config", cfg], patch=SLOW_SEND, env=env)
        if where == "after the send, before its recording":
            assert proc.stdout.readline().strip() == "sending"
            assert proc.stdout.readline().strip() == "sent"
        elif where == "before the send":
            assert proc.stdout.readline().strip() == "sending"
        else:
            time.sleep(rng.uniform(0.0, 0.08))
        kill(proc)
        assert_store_sound(store)
        age_publication(store, did)

        code, out, err = finish(start(["publish", str(did), "--config", cfg], patch=SLOW_SEND,
                                      env={**env, "FM_AFTER_SEND": "0"}))
        assert code == 0, err
        with Store(store) as st:
            pub = st.publication(did)
            draft = st.draft(did)
        copies = [r for r in outbox_rows(archive_game) if pub.marker in find_markers(r["bbcode"])]
        assert len(copies) == 1, copies  # exactly once on the forum
        assert pub.state == "sent" and pub.remote_id == copies[0]["id"]
        assert draft.status == "published"
    code, out, err = finish(start(["publish", "1", "2", "3", "--config", cfg]))  # once more: a no-op
    assert code == 0 and out.count("already published") == 3, (out, err)
    assert len(outbox_rows(archive_game)) == 3


def test_a_tick_killed_while_holding_the_workspace_lock_does_not_block_the_next_one(tmp_path):
    """cron's next tick must not find the workspace "busy" because the last one was killed."""
    rng = random.Random(f"{SEED}-tick")
    reset_limiters()
    site = fresh_site(S.NOW)
    with FaultyForum(site, delay=0.005) as forum:
        cfg = str(demo_config(tmp_path / "ws", forum.base_url))
        env = {PASSWORD_ENV: DEMO_PASSWORD}
        store = tmp_path / "ws" / "store.sqlite"
        for _ in range(3):
            proc = start(["tick", "--no-publish", "--config", cfg], env=env)
            time.sleep(rng.uniform(0.05, 0.4))
            kill(proc)
            if store.exists():
                assert_store_sound(store)
        code, out, err = finish(start(["tick", "--no-publish", "--config", cfg], env=env))
    assert code == 0, err  # not 75 (busy): the dead run's lock was recovered
    assert_store_sound(store)
    with Store(store) as st:
        assert st.post_count("demo", "7") == len(site.threads[7].posts)
