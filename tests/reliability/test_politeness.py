"""Many games on few forums stay polite: each forum sees its minimum interval between requests
and never more than its hourly budget, whoever asks (several games, several site entries for
one forum, threads polling at once).

Five local forums count requests with their arrival times; every gap between two arrivals at
one forum is compared with that forum's configured minimum. Budgets are counted, not timed.
"""

from __future__ import annotations

import threading
from datetime import datetime, timedelta, timezone
from pathlib import Path

import pytest

from forummod.demo.site import PhpbbSite, SiteThread
from forummod.forum import http as fhttp
from forummod.scheduler import Daemon
from forummod.service import Workspace, poll_game
from tests.reliability.faulty_forum import FaultyForum, GameClock, open_workspace

INTERVAL = 0.05
FORUMS = 5
GAMES_PER_FORUM = 4
PLAYERS = ("Ann", "Bob", "Cat", "Dan", "Eve")
T0 = datetime(2026, 3, 2, 9, 0, tzinfo=timezone.utc)


def forum_site(threads: int, posts: int) -> PhpbbSite:
    site = PhpbbSite(name="Mafia Forum")
    for t in range(1, threads + 1):
        site.threads[t] = SiteThread(t, f"Mafia {t}")
        site.add_post(t, "Mod", T0, "[b]Day 1[/b] begins. Vote with [b]VOTE: name[/b].")
        for i in range(posts - 1):
            site.add_post(t, PLAYERS[i % 5], T0 + timedelta(minutes=i + 1), f"[b]VOTE: {PLAYERS[(i + t) % 5]}[/b]")
    return site


def config_text(folder: Path, bases: list[str], *, games_per_forum: int = GAMES_PER_FORUM, budget: int = 0,
                extra_sites: dict[str, str] | None = None) -> str:
    lines = [f'[workspace]\nstore = "{folder / "store.sqlite"}"\n']
    sites = {f"f{i}": b for i, b in enumerate(bases)} | (extra_sites or {})
    for name, base in sites.items():
        lines.append(f'[sites.{name}]\nengine = "phpbb"\nbase_url = "{base}"\nrequest_interval = {INTERVAL}\n'
                     f"hourly_budget = {budget}\nretries = 0\ntimeout = 5.0\n")
    players = ", ".join(f'{{ name = "{p}" }}' for p in PLAYERS)
    for i, name in enumerate(sites):
        for t in range(1, games_per_forum + 1):
            lines.append(f'[games.g{i}_{t}]\nsite = "{name}"\nthread = "{sites[name]}viewtopic.php?t={t}"\n'
                         f'ruleset = "mafia-majority"\ngm = ["Mod"]\nplayers = [{players}]\n'
                         f'[games.g{i}_{t}.setup]\nroles = {{ mafia = 1, town = 4 }}\ndeal = "random"\n')
    return "\n".join(lines)


def arrivals(forum: FaultyForum) -> list[float]:
    return [h.at for h in forum.hits]


def assert_polite(times: list[float], interval: float) -> None:
    """The forum saw its requests at least `interval` apart.

    The client waits `interval` after the previous answer has arrived, and the forum stamps a
    request before answering it, so the stamps are `interval` apart however busy the machine
    is: the tolerance is only for float rounding.
    """
    times = sorted(times)
    gaps = [b - a for a, b in zip(times, times[1:])]
    assert not gaps or min(gaps) >= interval - 1e-3, gaps


@pytest.fixture
def forums():
    fhttp.reset_limiters()
    servers = [FaultyForum(forum_site(GAMES_PER_FORUM, 15)).__enter__() for _ in range(FORUMS)]
    yield servers
    for s in servers:
        s.__exit__(None, None, None)
    fhttp.reset_limiters()


def test_twenty_games_on_five_forums_in_one_daemon_keep_each_forums_interval(forums, tmp_path):
    cfg = tmp_path / "forummod.toml"
    cfg.write_text(config_text(tmp_path, [f.base_url for f in forums]), encoding="utf-8")
    polled: list[str] = []

    def poll_only(ws, game_id, poll=True):  # the daemon's pass, without drafting (not what is measured)
        polled.append(game_id)
        return poll_game(ws, game_id)

    daemon = Daemon(cfg, pass_fn=poll_only)
    daemon.start()  # catch-up pass for every game
    try:
        for gid in list(daemon.cfg.games):  # and a second round, as the poll jobs would
            daemon.run_pass(gid, "poll")
    finally:
        daemon.stop()

    assert sorted(polled) == sorted(list(daemon.cfg.games) * 2)
    for f in forums:
        times = arrivals(f)
        assert len(times) == GAMES_PER_FORUM * 3  # 2 pages each, then one conditional request each
        assert_polite(times, INTERVAL)
    with Workspace.open(cfg) as ws:
        for gid in ws.cfg.games:
            assert ws.store.poll_runs(gid)[0]["status"] == "ok"


def test_games_polled_at_once_share_each_forums_interval_and_budget(forums, tmp_path):
    budget = 6  # below the 8 requests four games want from a forum: some polls must wait for the next hour
    cfg = tmp_path / "forummod.toml"
    cfg.write_text(config_text(tmp_path, [f.base_url for f in forums], budget=budget), encoding="utf-8")
    ids = []
    with Workspace.open(cfg) as ws:
        ids = list(ws.cfg.games)
    reports = {}

    def one(gid: str) -> None:
        with Workspace.open(cfg) as ws:  # one workspace per worker, as separate runs would have
            reports[gid] = poll_game(ws, gid)

    workers = [threading.Thread(target=one, args=(gid,)) for gid in ids]
    for w in workers:
        w.start()
    for w in workers:
        w.join(30)

    assert len(reports) == len(ids)
    for f in forums:
        times = arrivals(f)
        assert len(times) == budget  # exactly the budget, not one request more
        assert_polite(times, INTERVAL)
    failed = [r for r in reports.values() if not r.ok]
    assert failed and all("budget" in r.error for r in failed)  # reported, not silently skipped


def test_two_site_entries_for_one_forum_share_the_strictest_limits(forums, tmp_path):
    forum = forums[0]
    cfg = tmp_path / "forummod.toml"
    text = config_text(tmp_path, [forum.base_url], games_per_forum=2, extra_sites={"second": forum.base_url})
    cfg.write_text(text.replace(f"request_interval = {INTERVAL}", f"request_interval = {INTERVAL / 5}", 1),
                   encoding="utf-8")
    with Workspace.open(cfg) as ws:
        for gid in ws.cfg.games:
            assert poll_game(ws, gid).ok
    assert len(arrivals(forum)) == 8
    assert_polite(arrivals(forum), INTERVAL)


def test_a_first_read_longer_than_the_hourly_budget_completes_in_the_following_hours(tmp_path, clock):
    """A thread of 25 pages on a forum allowing 10 requests an hour: no livelock, no doubles."""
    fhttp.reset_limiters()
    with FaultyForum(forum_site(1, 250)) as forum:
        cfg = tmp_path / "forummod.toml"
        cfg.write_text(config_text(tmp_path, [forum.base_url], games_per_forum=1, budget=10), encoding="utf-8")
        with open_workspace(cfg, clock, GameClock(T0 + timedelta(days=1))) as ws:
            hours = 0
            while True:
                report = poll_game(ws, "g0_1")
                if report.ok:
                    break
                assert "budget" in report.error
                hours += 1
                assert hours < 5
                clock.sleep(3600)  # the next poll an hour later
            posts = ws.store.posts("f0", "1")
    assert hours == 2  # 10 + 10 + 5 pages
    assert [p.number for p in posts] == list(range(1, 251))
    assert all(len(p.versions) == 1 for p in posts)
    per_page = {}
    for h in forum.hits:
        per_page[h.path] = per_page.get(h.path, 0) + 1
    assert max(per_page.values()) <= 2  # a page is read again only where a poll resumed
    fhttp.reset_limiters()


def test_a_retry_after_holds_back_every_game_on_that_forum(clock):
    """The forum said "come back in 30 s" to one game: no other game asks before that. Thirty
    seconds is more than a request may wait (`max_wait`), so the other game is told when to
    come back instead of sleeping; once the time has passed it asks."""
    from forummod.errors import NetworkError, SiteBackoff
    from forummod.forum.http import HttpClient

    fhttp.reset_limiters()
    with FaultyForum(forum_site(1, 5)) as forum:
        one, other = (HttpClient(site=name, base_url=forum.base_url, request_interval=0.0, retries=0, clock=clock,
                                 wall_clock=clock, sleep=clock.sleep) for name in ("game-1", "game-2"))
        forum.inject("status", times=1, match="/viewtopic.php", status=503, headers={"Retry-After": "30"})
        start = clock()
        with pytest.raises(NetworkError, match="HTTP 503"):
            one.get("viewtopic.php?t=1")
        with pytest.raises(SiteBackoff, match="not sent: the forum asked us to wait until") as told:
            other.get("viewtopic.php?t=1")
        assert told.value.asked and told.value.until.timestamp() >= start + 30
        assert len(forum.hits) == 1 and clock.sleeps == []  # nobody asked, nobody slept
        clock.sleep(30)
        assert other.get("viewtopic.php?t=1").status == 200
        assert len(forum.hits) == 2
    fhttp.reset_limiters()


# ---------------------------------------------------------------------- one host, every request


FAST_INTERVAL = 0.02  # small so the test is quick; every gap is measured against it


def test_a_first_poll_of_a_thousand_posts_keeps_the_interval_at_every_request_login_and_redirects_included(tmp_path):
    """Issue 19, failure 3: the redirect after the login POST was followed inside requests,
    outside the rate limiter (2-5 ms gaps). The forum stamps every request it receives: the
    whole first poll of a 1,000-post thread (100 pages), with a login (GET form, POST, its
    302), a session that expires mid-walk (a login page instead of a page, then a new login)
    and pages that moved (301), never shows two requests closer than `request_interval`."""
    from forummod.demo.run import PASSWORD_ENV

    fhttp.reset_limiters()
    site = forum_site(1, 1000)
    site.users["Mod"] = "pw-politeness"
    with FaultyForum(site) as forum:
        for start in (500, 900):  # the session "expires" twice mid-walk: two logins
            forum.inject("login", match=f"start={start}", times=1)
        for start in (100, 400, 800):
            forum.inject("moved", match=f"start={start}", times=1)
        cfg = tmp_path / "forummod.toml"
        text = config_text(tmp_path, [forum.base_url], games_per_forum=1)
        text = text.replace(f"request_interval = {INTERVAL}",
                            f'request_interval = {FAST_INTERVAL}\nusername = "Mod"\npassword_env = "{PASSWORD_ENV}"')
        cfg.write_text(text, encoding="utf-8")
        import os

        os.environ[PASSWORD_ENV] = "pw-politeness"
        try:
            with Workspace.open(cfg) as ws:
                report = poll_game(ws, "g0_1")
                posts = ws.store.posts("f0", "1")
        finally:
            os.environ.pop(PASSWORD_ENV, None)
        hits = list(forum.hits)
    assert report.ok, report.error
    assert len(posts) == 1000
    kinds = [(h.method, h.path.split("?")[0]) for h in hits]
    assert kinds.count(("POST", "/ucp.php")) == 2  # logged in at each expiry
    after_login = [b for a, b in zip(hits, hits[1:]) if a.method == "POST"]
    assert after_login and all(h.path.startswith("/index.php") for h in after_login)  # its redirect, followed
    assert sum(h.fault == "moved" for h in hits) == 3 and sum("moved=1" in h.path for h in hits) == 3
    assert len(hits) >= 100 + 3 + 2 * 4
    assert_polite([h.at for h in hits], FAST_INTERVAL)
    fhttp.reset_limiters()
