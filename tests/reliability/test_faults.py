"""A flaky forum never costs a vote or doubles a post.

Every test plays the bundled demo game on a misbehaving local forum (`faulty_forum`): a clean
poll on day 1, then the game goes on and the forum misbehaves. A passing fault is retried and
the poll completes; a lasting one is reported as a clear `poll_failed` issue, the store keeps
exactly its previous state for that thread (same rows, same cursor) and stays consistent;
once the fault clears, the next poll gives exactly what a run without faults gives: the same
stored posts and versions, the same PMs, the same vote count. The HTTP client runs on a fake
clock, so backoff and Retry-After cost no real time.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from forummod.demo import script as S
from forummod.report import status_report, tally_report
from forummod.service import analyse_game, poll_game
from tests.reliability.faulty_forum import (
    FakeClock,
    FaultyForum,
    GameClock,
    demo_config,
    fresh_site,
    open_workspace,
    play_to,
    reset_limiters,
)

GAME_THREAD = "t=7"  # the demo's game thread; the cemetery is t=8

# kind, options of inject(), expected words of the report
FAULTS: dict[str, tuple[str, dict[str, Any], str]] = {
    "500": ("status", {"status": 500}, r"HTTP 500"),
    "502": ("status", {"status": 502}, r"HTTP 502"),
    "503": ("status", {"status": 503}, r"HTTP 503"),
    "429-retry-after": ("status", {"status": 429, "headers": {"Retry-After": "7"}}, r"HTTP 429"),
    "429": ("status", {"status": 429}, r"HTTP 429"),
    "timeout": ("timeout", {}, r"Timeout|timed out"),
    "reset-mid-body": ("reset", {}, r"Connection broken|reset"),
    "truncated-html": ("truncated", {}, r"incomplete"),
    "empty-page": ("empty", {}, r"incomplete"),
}
REPORTED_AT_ONCE = {
    "other-layout": ("layout", {}, r"layout may have changed"),
    "redirect-loop": ("redirect", {}, r"redirects in a loop"),
}


def site_settings(name: str) -> dict[str, Any]:
    """Timeouts are real waits: keep the client's tiny and its retries few for that case."""
    return {"timeout": 0.25, "retries": 1} if name == "timeout" else {}


# ---------------------------------------------------------------------- what a run leaves


def outcome(ws, base_url: str) -> dict[str, Any]:
    """Everything a GM sees of the game at the demo's `now`, plus the raw stored posts and PMs."""
    a = analyse_game(ws, "demo", now=S.NOW)
    posts = {}
    for role, ps in a.inputs.posts.items():
        posts[role] = [(p.post_id, p.number, p.author, [v.content_hash for v in p.versions], p.deleted_at is None)
                       for p in ps]
    data = {"tally": tally_report(a), "status": status_report(a), "posts": posts,
            "messages": [(m.message_id, m.sender, m.content_hash) for m in ws.store.messages("demo")]}
    return json.loads(json.dumps(data, default=str).replace(base_url, "BASE/"))


def thread_rows(ws, thread: str = "7") -> dict[str, list]:
    """Every stored row of one thread: posts, their status, its cursor and its raw pages."""
    db = ws.store.db
    return {
        "posts": [tuple(r) for r in db.execute("SELECT * FROM posts WHERE thread=? ORDER BY post_id, version", (thread,))],
        "status": [tuple(r) for r in db.execute("SELECT * FROM post_status WHERE thread=? ORDER BY post_id", (thread,))],
        "cursor": [tuple(r) for r in db.execute("SELECT * FROM cursors WHERE stream=?", (f"thread:{thread}",))],
        "pages": [tuple(r) for r in db.execute("SELECT * FROM pages WHERE url LIKE ? ORDER BY url", (f"%t={thread}%",))],
    }


def assert_consistent(ws) -> None:
    db = ws.store.db
    assert db.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    assert db.execute("SELECT count(*) FROM poll_runs WHERE status='running'").fetchone()[0] == 0
    dup = db.execute("SELECT count(*) FROM (SELECT post_id FROM posts GROUP BY site, thread, post_id, content_hash"
                     " HAVING count(*) > 1)").fetchone()[0]
    assert dup == 0, "a post body stored twice"


def clean_run(folder: Path, *, login: bool = True, polls=(S.FIRST_POLL, S.NOW)) -> dict[str, Any]:
    reset_limiters()
    site = fresh_site(polls[0])
    with FaultyForum(site) as forum:
        game_clock = GameClock(polls[0])
        with open_workspace(demo_config(folder, forum.base_url, login=login), FakeClock(), game_clock) as ws:
            for t in polls:
                play_to(site, t)
                game_clock.now = t
                assert poll_game(ws, "demo").ok
            return outcome(ws, forum.base_url)


@pytest.fixture(scope="module")
def reference(tmp_path_factory):
    """What runs without any fault leave (two polls, as the demo does; or one poll at `now`)."""
    import os

    from forummod.demo.run import PASSWORD_ENV
    from tests.reliability.faulty_forum import DEMO_PASSWORD

    old = os.environ.get(PASSWORD_ENV)
    os.environ[PASSWORD_ENV] = DEMO_PASSWORD
    try:
        return {
            "two polls": clean_run(tmp_path_factory.mktemp("clean")),
            "without login": clean_run(tmp_path_factory.mktemp("clean-nologin"), login=False),
            "one poll": clean_run(tmp_path_factory.mktemp("clean-once"), polls=(S.NOW,)),
        }
    finally:
        if old is None:
            os.environ.pop(PASSWORD_ENV, None)
        else:
            os.environ[PASSWORD_ENV] = old


class Game:
    """The demo game on a faulty forum, polled once cleanly on day 1."""

    def __init__(self, folder: Path, clock: FakeClock, *, login: bool = True, first_poll: bool = True,
                 extra: str = "", **site: Any):
        self.site = fresh_site(S.FIRST_POLL if first_poll else S.NOW)
        self.site.clock = clock  # the forum's posting rules (form age, flood) on the client's fake clock
        self.forum = FaultyForum(self.site).__enter__()
        self.clock = GameClock(S.FIRST_POLL if first_poll else S.NOW)
        cfg = demo_config(folder, self.forum.base_url, login=login, extra=extra, **site)
        self.ws = open_workspace(cfg, clock, self.clock)
        if first_poll:
            assert poll_game(self.ws, "demo").ok

    def go_on(self) -> None:
        """Day 2 is played on the forum (new posts, an edit, new PMs)."""
        play_to(self.site, S.NOW)
        self.clock.now = S.NOW

    def poll(self):
        return poll_game(self.ws, "demo")

    def outcome(self) -> dict[str, Any]:
        return outcome(self.ws, self.forum.base_url)

    def close(self) -> None:
        self.ws.close()
        self.forum.__exit__(None, None, None)


@pytest.fixture
def game_factory(tmp_path, clock, demo_password):
    made: list[Game] = []

    def make(**kw: Any) -> Game:
        g = Game(tmp_path / f"ws{len(made)}", clock, **kw)
        made.append(g)
        return g

    yield make
    for g in made:
        g.close()


# ---------------------------------------------------------------------- passing faults


@pytest.mark.parametrize("name", list(FAULTS))
def test_a_passing_fault_is_retried_and_the_poll_misses_nothing(name, game_factory, clock, reference):
    kind, opts, _ = FAULTS[name]
    g = game_factory(**site_settings(name))
    g.go_on()
    times = 1 if name == "timeout" else 2  # below the client's attempts (retries + 1)
    g.forum.inject(kind, times=times, match=GAME_THREAD, **opts)

    report = g.poll()

    assert report.ok, report.error
    assert len([h for h in g.forum.hits if h.fault]) == times  # the faulty answers were retried
    assert g.outcome() == reference["two polls"]
    assert_consistent(g.ws)


def test_an_answer_trickling_in_is_cut_off_at_a_total_deadline(game_factory, reference):
    """Each piece arrives within the read timeout, so only a deadline on the whole answer
    keeps a poll (and a daemon's every game) from hanging on it for ever. (Being a timeout,
    it is retried like one: see the timeout cases above.)"""
    g = game_factory(timeout=0.15, retries=0)  # a whole answer within 3 x 0.15 s
    before = thread_rows(g.ws)
    g.go_on()
    g.forum.inject("trickle", times=1, match=GAME_THREAD)
    report = g.poll()
    assert not report.ok and "still arriving after 0.45 s" in report.error
    assert thread_rows(g.ws) == before
    assert_consistent(g.ws)
    assert g.poll().ok
    assert g.outcome() == reference["two polls"]


def test_retry_after_is_honoured_and_without_it_the_client_backs_off(game_factory, clock):
    g = game_factory()
    g.go_on()
    g.forum.inject("status", times=1, match=GAME_THREAD, status=429, headers={"Retry-After": "7"})
    assert g.poll().ok
    assert 7.0 in clock.sleeps
    clock.sleeps.clear()
    g.forum.inject("status", times=2, match=GAME_THREAD, status=429)
    assert g.poll().ok
    waits = [s for s in clock.sleeps if s > 0]
    assert len(waits) == 2 and waits[1] > waits[0]  # exponential backoff (with jitter)


# ---------------------------------------------------------------------- lasting faults


@pytest.mark.parametrize("name", list(FAULTS) + list(REPORTED_AT_ONCE))
def test_a_lasting_fault_is_reported_and_the_store_keeps_its_previous_state(name, game_factory, reference):
    kind, opts, words = {**FAULTS, **REPORTED_AT_ONCE}[name]
    settings = site_settings(name)
    g = game_factory(**settings)
    before = thread_rows(g.ws)
    g.go_on()
    g.forum.inject(kind, match=GAME_THREAD, **opts)

    report = g.poll()

    assert not report.ok
    failed = [i for i in report.issues if i.code == "poll_failed"]
    assert len(failed) == 1 and failed[0].severity == "error"
    assert failed[0].message.startswith("game thread: ") and re.search(words, failed[0].message), failed[0].message
    attempts = settings.get("retries", 2) + 1 if name in FAULTS else 1
    assert len([h for h in g.forum.hits if h.fault]) == attempts
    assert thread_rows(g.ws) == before  # nothing of the game thread stored, cursor unchanged
    assert report.new_messages == 5  # the cemetery and the inbox were not lost with it
    assert_consistent(g.ws)
    run = g.ws.store.poll_runs("demo", limit=1)[0]
    assert run["status"] == "failed" and re.search(words, run["error"])

    g.forum.clear()
    assert g.poll().ok
    assert g.outcome() == reference["two polls"]
    assert_consistent(g.ws)


def test_a_forum_down_everywhere_stores_nothing_and_reports_every_part(game_factory, reference):
    g = game_factory()
    before = {t: thread_rows(g.ws, t) for t in ("7", "8")}
    messages = g.ws.store.message_ids("demo")
    g.go_on()
    g.forum.inject("status", match="/", status=502)

    report = g.poll()

    assert not report.ok
    parts = sorted(i.message.split(":")[0] for i in report.issues if i.code == "poll_failed")
    assert parts == ["game thread", "graveyard thread", "inbox"]
    assert {t: thread_rows(g.ws, t) for t in ("7", "8")} == before
    assert g.ws.store.message_ids("demo") == messages
    assert_consistent(g.ws)
    g.forum.clear()
    assert g.poll().ok
    assert g.outcome() == reference["two polls"]


def test_a_walk_that_fails_part_way_keeps_the_whole_pages_and_the_next_poll_goes_on(game_factory, reference):
    g = game_factory(first_poll=False)  # first poll of the thread at `now`: pages 1, 2, 3
    g.forum.inject("status", match="t=7&start=20", status=503)

    report = g.poll()

    assert not report.ok and "HTTP 503" in report.error
    stored = g.ws.store.posts("demo", "7")
    assert [p.number for p in stored] == list(range(1, 21))  # pages 1 and 2, whole
    cursor = g.ws.store.cursor("demo", "thread:7")
    assert cursor.last_page == 2 and cursor.page_ref.etag is None  # re-read page 2, then follow on
    assert_consistent(g.ws)

    g.forum.clear()
    assert g.poll().ok
    assert g.outcome() == reference["one poll"]


# ---------------------------------------------------------------------- sessions


def test_a_login_page_instead_of_the_thread_logs_in_again_at_every_expiry(game_factory, reference):
    g = game_factory()
    logins = len(g.forum.requests("mode=login", method="POST"))
    g.forum.inject("login", times=1, match=GAME_THREAD)
    assert g.poll().ok  # session expired: log in, read the page again
    g.go_on()
    g.forum.inject("login", times=1, match=GAME_THREAD)
    assert g.poll().ok  # and again, days later in the same long run
    assert len(g.forum.requests("mode=login", method="POST")) == logins + 2
    assert g.outcome() == reference["two polls"]


def test_a_login_page_without_credentials_is_reported_and_nothing_is_stored(game_factory, reference):
    g = game_factory(login=False)
    before = thread_rows(g.ws)
    g.go_on()
    g.forum.inject("login", match=GAME_THREAD)

    report = g.poll()

    assert not report.ok and re.search(r"game thread: .*login", report.error)
    assert thread_rows(g.ws) == before
    assert_consistent(g.ws)
    g.forum.clear()
    assert g.poll().ok
    assert g.outcome() == reference["without login"]


def test_a_lasting_login_page_is_reported_after_one_login(game_factory, reference):
    g = game_factory()
    before = thread_rows(g.ws)
    logins = len(g.forum.requests("mode=login", method="POST"))
    g.go_on()
    g.forum.inject("login", match=GAME_THREAD)
    report = g.poll()
    assert not report.ok and "login" in report.error
    assert len(g.forum.requests("mode=login", method="POST")) == logins + 1
    assert thread_rows(g.ws) == before
    g.forum.clear()
    assert g.poll().ok
    assert g.outcome() == reference["two polls"]


def test_a_refused_password_is_not_tried_again_at_every_poll(game_factory, monkeypatch, clock):
    from forummod.demo.run import PASSWORD_ENV
    from tests.reliability.faulty_forum import DEMO_PASSWORD

    monkeypatch.setenv(PASSWORD_ENV, "wrong-password")
    g = game_factory(first_poll=False)
    first = g.poll()
    assert not first.ok and "inbox: demo: the forum says the credentials are wrong: “The password you entered is " \
        "incorrect.”; not trying this password again" in first.error, first.error
    clock.t += 24 * 3600  # a day of passes later, the same password is still not sent
    second = g.poll()
    assert not second.ok and "the forum says the credentials are wrong" in second.error
    assert f"correct it in ${PASSWORD_ENV}" in second.error
    assert len(g.forum.requests("mode=login", method="POST")) == 1  # forums lock accounts after a few
    assert g.ws.store.post_count("demo", "7") == 24  # the threads are read all the same
    monkeypatch.setenv(PASSWORD_ENV, DEMO_PASSWORD)  # the GM corrects it: the next pass logs in
    assert g.poll().ok
    assert len(g.forum.requests("mode=login", method="POST")) == 2


def test_a_cron_tick_after_a_refusal_does_not_send_the_password_again(game_factory, monkeypatch, clock, tmp_path):
    """Each cron `tick` is a new process: what the forum said is kept in the store."""
    from forummod.demo.run import PASSWORD_ENV
    from tests.reliability.faulty_forum import DEMO_PASSWORD

    monkeypatch.setenv(PASSWORD_ENV, "wrong-password")
    g = game_factory(first_poll=False)
    assert "the forum says the credentials are wrong" in g.poll().error
    g.ws.close()
    for _ in range(3):  # three more ticks, each on a workspace of its own
        with open_workspace(tmp_path / "ws0" / "forummod.toml", clock, g.clock) as ws:
            report = poll_game(ws, "demo")
        assert not report.ok and "not trying this password again" in report.error
    assert len(g.forum.requests("mode=login", method="POST")) == 1
    monkeypatch.setenv(PASSWORD_ENV, DEMO_PASSWORD)
    with open_workspace(tmp_path / "ws0" / "forummod.toml", clock, g.clock) as ws:
        assert poll_game(ws, "demo").ok
    assert len(g.forum.requests("mode=login", method="POST")) == 2
    g.ws = open_workspace(tmp_path / "ws0" / "forummod.toml", clock, g.clock)  # for the fixture's close


def test_a_cron_tick_within_the_wait_after_an_unanswered_login_does_not_log_in(game_factory, clock, tmp_path):
    g = game_factory(first_poll=False)
    g.forum.inject("status", method="POST", match="mode=login", times=1, status=503)
    assert "did not answer the login (HTTP 503)" in g.poll().error
    g.ws.close()
    with open_workspace(tmp_path / "ws0" / "forummod.toml", clock, g.clock) as ws:
        assert "will try again in" in poll_game(ws, "demo").error
    assert len(g.forum.requests("mode=login", method="POST")) == 1
    clock.t += 60
    with open_workspace(tmp_path / "ws0" / "forummod.toml", clock, g.clock) as ws:
        assert poll_game(ws, "demo").ok
    assert len(g.forum.requests("mode=login", method="POST")) == 2
    g.ws = open_workspace(tmp_path / "ws0" / "forummod.toml", clock, g.clock)


#: a login POST the forum does not answer: (fault, inject() options, site settings, the report's words)
LOGIN_FAULTS = {
    "503": ("status", {"status": 503}, {}, "(HTTP 503)"),
    "timeout": ("late", {"delay": 0.6}, {"timeout": 0.25}, "(ReadTimeout)"),
    "connection reset": ("drop", {}, {}, "(ConnectionError)"),
}


@pytest.mark.parametrize("name", list(LOGIN_FAULTS))
def test_a_login_the_forum_does_not_answer_is_tried_again_at_the_next_pass(name, game_factory, clock):
    """Issue 34, item 2: one 503 on the login POST (with the right password) used to lock the
    run out of the inbox and publishing until a restart."""
    kind, opts, settings, words = LOGIN_FAULTS[name]
    g = game_factory(first_poll=False, **settings)
    g.forum.inject(kind, method="POST", match="mode=login", times=1, **opts)

    first = g.poll()
    assert not first.ok
    assert f"inbox: demo: the forum did not answer the login {words}; will try again at the next pass " \
        "(not before 60 s)" in first.error, first.error
    assert g.ws.store.post_count("demo", "7") == 24  # the threads are read all the same
    soon = g.poll()  # a pass within the wait: no login is sent
    assert not soon.ok and re.search(r"did not answer the login \(.*\), \d+ s ago; will try again in \d+ s", soon.error)
    assert len(g.forum.requests("mode=login", method="POST")) == 1
    clock.t += 60
    again = g.poll()  # the next pass after the wait logs in and reads the inbox
    assert again.ok, again.error
    assert len(g.forum.requests("mode=login", method="POST")) == 2
    assert g.ws.store.messages("demo")


def test_logins_the_forum_keeps_not_answering_wait_twice_as_long_each_time(game_factory, clock):
    g = game_factory(first_poll=False)
    g.forum.inject("status", method="POST", match="mode=login", status=503)
    waits = []
    for _ in range(8):
        report = g.poll()
        waits.append(re.search(r"not before (\d+ (?:s|min))", report.error).group(1))
        clock.t += 3600  # an hour between passes: every pass may try again
    assert waits == ["60 s", "2 min", "4 min", "8 min", "16 min", "32 min", "60 min", "60 min"]
    assert len(g.forum.requests("mode=login", method="POST")) == 8


# ---------------------------------------------------------------------- auto-publishing

AUTO_VOTECOUNT = '\n[games.demo.publish]\nauto = ["votecount"]\n'


def gm_replies(g: Game) -> list[str]:
    """Posts the tool published in the game thread (the demo script's own GM posts excluded)."""
    scripted = len([p for p in S.GAME if p.at <= g.clock.now])
    return [p.bbcode for p in g.site.threads[7].posts[scripted:]]


def test_auto_publish_after_a_good_poll_posts_the_vote_count_once(game_factory):
    from forummod.pipeline import game_pass

    g = game_factory(extra=AUTO_VOTECOUNT)
    g.go_on()
    first = game_pass(g.ws, "demo", now=S.NOW)
    assert first.ok and first.published == 1, first.line()
    again = game_pass(g.ws, "demo", now=S.NOW)
    assert again.ok and again.published == 0
    assert len(gm_replies(g)) == 1


def test_a_failed_poll_does_not_auto_publish_a_stale_vote_count(game_factory):
    from forummod.pipeline import game_pass

    g = game_factory(extra=AUTO_VOTECOUNT)
    g.go_on()
    g.forum.inject("status", match="/viewtopic.php?t=7", status=503)  # reading fails, posting would work
    report = game_pass(g.ws, "demo", now=S.NOW)
    assert not report.ok
    assert gm_replies(g) == []  # day 2's votes are on the forum but not in the store: post nothing
